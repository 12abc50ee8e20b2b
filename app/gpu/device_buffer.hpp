// device_buffer.hpp — one cudaMalloc that frees itself, so that every path out of a
// request (a thrown CudaError included) gives its GPU memory back.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuda_check.hpp"

namespace ts::gpu {

// The destructor ignores errors: after a failed launch there is nothing better to do, and
// the first error has already been reported.
template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(std::int64_t count) : m_count(count) {
        void* data = nullptr;
        TS_CUDA_CHECK(cudaMalloc(&data, bytes()));
        m_data = static_cast<T*>(data);
    }
    ~DeviceBuffer() { cudaFree(m_data); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* get() const { return m_data; }
    std::int64_t size() const { return m_count; }
    std::size_t bytes() const { return static_cast<std::size_t>(m_count) * sizeof(T); }

private:
    T* m_data = nullptr;
    std::int64_t m_count = 0;
};

}  // namespace ts::gpu
