// cuda_check.hpp — turn a failed CUDA call into an exception that names the call, the
// error and where it happened. run_request catches it and returns a failed result; nothing
// here prints or exits.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "model/format.hpp"

namespace ts::gpu {

class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, std::string_view call, const char* file, int line)
        : std::runtime_error(model::format_text("{}: {} ({} at {}:{})", call, cudaGetErrorString(code),
                                           cudaGetErrorName(code), file, line)),
          m_code(code) {}
    cudaError_t code() const { return m_code; }

private:
    cudaError_t m_code;
};

inline void cuda_check(cudaError_t code, std::string_view call, const char* file, int line) {
    if (code != cudaSuccess) throw CudaError(code, call, file, line);
}

}  // namespace ts::gpu

// TS_CUDA_CHECK(cudaMalloc(&p, bytes)) throws CudaError naming "cudaMalloc(&p, bytes)".
#define TS_CUDA_CHECK(call) ::ts::gpu::cuda_check((call), #call, __FILE__, __LINE__)
