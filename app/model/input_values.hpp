// input_values.hpp — the inputs of a measurement, as a function of (seed, matrix, index).
//
// Element `index` of matrix A (`matrix` 0) or B (1) of a request with seed `seed` is a hash
// of those three numbers, so the GPU can fill a matrix in a fraction of a millisecond (the
// fill kernel in kernels/common/fill_inputs.cu calls these functions) and the CPU computes exactly
// the same values where it needs them. Floats are uniform in [−1, 1); int32 values uniform
// in [−bound, bound] (bound from gpu::int32_input_bound, so no sum of K products overflows).
#pragma once

#include <cstdint>

#include "index_math.hpp"

namespace ts::model {

// SplitMix64's finaliser: every bit of the result depends on every bit of x.
TS_HOST_DEVICE constexpr std::uint64_t mix64(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

TS_HOST_DEVICE constexpr std::uint64_t input_bits(std::uint64_t seed, int matrix, std::int64_t index) {
    return mix64(mix64(seed * 2 + static_cast<std::uint64_t>(matrix)) + static_cast<std::uint64_t>(index));
}

// Uniform in [−1, 1): the top 53 bits as a fraction, doubled and shifted. The float form is
// this double rounded, on the CPU and the GPU alike.
TS_HOST_DEVICE constexpr double input_real(std::uint64_t seed, int matrix, std::int64_t index) {
    return static_cast<double>(input_bits(seed, matrix, index) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

TS_HOST_DEVICE constexpr std::int32_t input_integer(std::uint64_t seed, int matrix, std::int64_t index,
                                                    std::int32_t bound) {
    const std::uint64_t span = 2 * static_cast<std::uint64_t>(bound) + 1;
    return static_cast<std::int32_t>(static_cast<std::int64_t>(input_bits(seed, matrix, index) % span) - bound);
}

}  // namespace ts::model
