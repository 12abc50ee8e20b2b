// cublas_library.hpp — NVIDIA's cuBLAS GEMM, the reference line TileScope's kernels are
// measured against and, for the largest problems, checked against.
//
// cuBLAS is loaded at run time with dlopen("libcublas.so.13") rather than linked: its
// static library would make TileScope hundreds of megabytes, and linking the shared one
// would stop TileScope from starting on machines without it. Without it every cuBLAS
// request fails with "cuBLAS not found (libcublas.so.13): <why>" and the rest works.
//
// FP32 and FP64 in pedantic math (no TF32, no emulation), and BF16 or FP16 with FP32
// accumulation on the tensor cores (cublasGemmEx, CUBLAS_COMPUTE_32F, default math with no
// reduction in the 16-bit output type). cuBLAS has no int32 GEMM of int32 inputs, so int32 has no
// cuBLAS line (cublas_unavailable says so).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>

#include "model/problem.hpp"

namespace ts::gpu {

// Why cuBLAS cannot run `dtype` here, or nullopt when it can: the library is missing, or
// the type is int32. Loads the library the first time it is asked (thread-safe). For fp8 the
// library asked about is cuBLASLt (cublaslt_library.hpp), whose FP8 GEMM is fp8's cuBLAS line.
std::optional<std::string> cublas_unavailable(model::Dtype dtype);

// Destroys the handle (and so cuBLAS's workspace on the GPU) if one was made; a later call
// makes a new one. For the end of a process, while CUDA is still up.
void release_cublas();

// C = A·B for every batch of `problem` (row-major stacks, as the kernels take them) on
// `stream`, asynchronously. Throws std::runtime_error naming the cuBLAS call and status
// when cuBLAS is unavailable or refuses the call.
void cublas_matmul(const model::Problem& problem, const float* a, const float* b, float* c, cudaStream_t stream);
void cublas_matmul(const model::Problem& problem, const double* a, const double* b, double* c,
                   cudaStream_t stream);
// problem.dtype BFloat16 or Float16: the 16-bit words of A, B and C.
void cublas_matmul_half(const model::Problem& problem, const std::uint16_t* a, const std::uint16_t* b,
                        std::uint16_t* c, cudaStream_t stream);

}  // namespace ts::gpu
