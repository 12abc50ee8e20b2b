// device_operands.hpp — A, B and C of one request on the GPU, and everything that decides
// whether the kernel's answer is right: fresh random inputs, a poisoned C before every
// launch, the launch of the chosen kernel (ours or cuBLAS) in the request's element type,
// and the check against a reference. The timing around the launches is measure.hpp's.
//
// Inputs, reproducible from request.seed and made on the GPU (model/input_values.hpp):
// floats and doubles uniform in [−1, 1); int32 uniform in [−bound, bound] with bound =
// int32_input_bound(K), so no sum can overflow; FP8 as floats, then quantised on the GPU to e4m3
// with their scales (A M×K, B N×K: model/problem.hpp), C in BF16.
// Reference: the CPU (cpu_reference.hpp), or, when M·N·K·batch is above 2048³ and cuBLAS
// is loaded, cuBLAS in FP64 on the GPU (the CPU would take too long). cuBLAS is never its
// own reference; int32 is always checked exactly on the CPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cpu_reference.hpp"
#include "runner.hpp"

namespace ts::gpu {

// Above this many multiply-adds (M·N·K·batch) the check uses cuBLAS instead of the CPU.
inline constexpr std::int64_t kCpuReferenceLimit = std::int64_t{2048} * 2048 * 2048;

// The exact product of float inputs in double, by cuBLAS in FP64 on the GPU, with Σ|a·b| per cell:
// the reference above kCpuReferenceLimit. Throws CudaError.
Reference cublas_reference(const std::vector<float>& a, const std::vector<float>& b, const model::Problem& p,
                           cudaStream_t stream);

// A, B and C on the GPU, for launches the class does not make itself (recorded kernels).
struct DevicePointers {
    const void* a = nullptr;
    const void* b = nullptr;
    void* c = nullptr;
};

class DeviceOperands {
public:
    // Draws A and B, allocates A, B and C on the GPU and copies A and B there on `stream`.
    // Throws CudaError (or std::bad_alloc for host memory).
    DeviceOperands(const RunRequest& request, cudaStream_t stream);
    ~DeviceOperands();
    DeviceOperands(const DeviceOperands&) = delete;
    DeviceOperands& operator=(const DeviceOperands&) = delete;

    // Fills C with the poison, so a cell the kernel never writes fails the check instead of
    // passing with an earlier launch's value: all bits set (NaN) for floats, kInt32Poison
    // (cpu_reference.hpp) for int32.
    void poison(cudaStream_t stream) const;

    // Enqueues the request's kernel once on its own A, B and C. Throws CudaError naming
    // the launch <<<grid, block>>> when CUDA refuses it, std::runtime_error for cuBLAS.
    void launch(cudaStream_t stream) const;
    // The same kernel on other device buffers of the same shape and element type.
    void launch_on(const void* a, const void* b, void* c, cudaStream_t stream) const;

    // The inputs on the host and the size of C, for timings that copy them themselves
    // (time_end_to_end in measure.hpp).
    std::span<const std::byte> host_a() const;
    std::span<const std::byte> host_b() const;
    std::size_t c_bytes() const;
    DevicePointers pointers() const;
    // FP8: the GPU's time to quantise A and B (median of a few runs, ms); 0 for other types.
    double quantize_ms() const;

    // Copies C back, compares it with the reference and fills result.checked,
    // check_passed, max_rel_error, mismatches and check_summary; for FP32, BF16, FP16 and FP8
    // also error_vs_fp64_max and _rms (C against the exact product of the FP32 values their inputs
    // start as: runner.hpp). Throws CudaError.
    void check(RunResult& result, cudaStream_t stream) const;

    struct Data;  // one implementation per element type

private:
    std::unique_ptr<Data> m_data;
};

}  // namespace ts::gpu
