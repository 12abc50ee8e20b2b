// quantize_fp8.hpp — FP32 operands to e4m3 with their scales, on the GPU (model/fp8_values.hpp
// says how each value and scale is made), for plain C++ callers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace ts::kernels {

// One scale for all `count` values: amax over them all, then every code. `amax_scratch` is one
// unsigned int of device memory this call overwrites. Returns the launches' error.
cudaError_t quantize_fp8_per_tensor(const float* values, std::int64_t count, std::uint8_t* codes, float* scale,
                                    unsigned* amax_scratch, cudaStream_t stream);

// A (rows × k, row-major): one scale per row per 128 of K, at a_block_scale_index(row, kb, rows).
cudaError_t quantize_fp8_rows(const float* values, std::int64_t rows, std::int64_t k, std::uint8_t* codes,
                              float* scales, cudaStream_t stream);

// B (rows × k, row-major, rows = N): one scale per 128×128 block, at b_block_scale_index(rb, kb,
// stride) with stride ceil(k/128) rounded up to 4 (Problem::b_scale_stride); the padding is zeroed.
cudaError_t quantize_fp8_blocks(const float* values, std::int64_t rows, std::int64_t k, std::uint8_t* codes,
                                float* scales, cudaStream_t stream);

}  // namespace ts::kernels
