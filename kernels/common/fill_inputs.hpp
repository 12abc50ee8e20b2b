// fill_inputs.hpp — the GPU side of model/input_values.hpp, for plain C++ callers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace ts::kernels {

// out[i] = the value of element i of matrix `matrix` (0: A, 1: B) for `seed`, i < count;
// int32 values within ±bound. Returns the launch's error.
template <typename T>
cudaError_t fill_inputs(T* out, std::int64_t count, std::uint64_t seed, int matrix, std::int32_t bound,
                        cudaStream_t stream);

// BF16 (bf16 = true) or FP16 bits: input_real rounded to nearest (model/half_values.hpp).
cudaError_t fill_half_inputs(std::uint16_t* out, std::int64_t count, std::uint64_t seed, int matrix, bool bf16,
                             cudaStream_t stream);

}  // namespace ts::kernels
