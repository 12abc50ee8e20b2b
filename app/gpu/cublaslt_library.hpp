// cublaslt_library.hpp — NVIDIA's cuBLASLt FP8 GEMM: the reference line for FP8 (e4m3 in, BF16 out,
// FP32 accumulation), per tensor or block scaled, and the `cublas` kernel when the dtype is fp8.
//
// Loaded at run time with dlopen("libcublasLt.so.13"), as cuBLAS is (cublas_library.hpp says why):
// without it an FP8 cuBLAS request is unsupported with "cuBLASLt not found (libcublasLt.so.13): why".
//
// The call: cuBLASLt is column-major, and its FP8 GEMM takes only the "TN" arrangement, both
// operands K-major. Our row-major A (M×K) is the same memory as a column-major K×M matrix, our
// row-major B (N×K) a column-major K×N one, and our row-major C (M×N) a column-major N×M one, Cᵀ.
// So we ask for Cᵀ = B·Aᵀ = op(X)·Y with X = B's memory (K×N, lda K) transposed (TRANSA = T) and
// Y = A's memory (K×M, ldb K) as it is (TRANSB = N): m = N, n = M, k = K, ldc = N. cuBLASLt's
// "A" is our B and its "B" our A, and so are their scales: A_SCALE_POINTER takes B's scales.
// Block scaling: B's 128×128 blocks are CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F (its A, whose
// scales are K-major with rows padded to 4 floats), A's 1×128 rows VEC128_32F (its B, whose scales
// are M-major), laid out as model/fp8_values.hpp's a_block_scale_index and b_block_scale_index
// say; cuBLASLt then needs M and N multiples of 4. Where it cannot (that, or its heuristic finds no
// algorithm: an older library, a GPU without FP8 tensor cores, a leading dimension FP8 does not
// take: N and K want multiples of 16 bytes), the request is unsupported with the reason.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>

#include "kernels/common/launchers.hpp"
#include "model/problem.hpp"

namespace ts::gpu {

// Why cuBLASLt is not here (the library or one of its functions is missing), or nullopt.
// Loads it the first time it is asked (thread-safe).
std::optional<std::string> cublaslt_unavailable();

// Why cuBLASLt has no FP8 GEMM for `problem` (dtype fp8) on this GPU, in its own words, or nullopt:
// asks its heuristic, so it needs the CUDA context but no device memory.
std::optional<std::string> cublaslt_fp8_unsupported(const model::Problem& problem);

// Destroys the handle and frees the workspace, while CUDA is still up; a later call makes new ones.
void release_cublaslt();

// The FP8 operands on the GPU, as the FP8 rungs take them (kernels/common/launchers.hpp): A
// (batch×M×K) and B (batch×N×K) as e4m3 codes, their scales as problem.fp8_scaling lays them out,
// C (batch×M×N) as BF16 bits.
using Fp8DeviceOperands = kernels::ScaledFp8Operands;

// C = A·Bᵀ with the scales, on `stream`, asynchronously. Throws std::runtime_error naming the
// cuBLASLt call and its status when cuBLASLt is missing or refuses.
void cublaslt_matmul_fp8(const model::Problem& problem, const Fp8DeviceOperands& operands, cudaStream_t stream);

}  // namespace ts::gpu
