// fp8_values.hpp — FP8 e4m3 as bits, the scales that bring FP32 inputs into its range, and where
// each scale sits in memory. Host and device: the GPU's quantisation (kernels/common/quantize_fp8.cu)
// and the CPU's reference and tests use these same functions, so both sides agree on every bit.
//
// e4m3 ("fn": finite, with NaN but no infinity), as Hopper's FP8 tensor cores read it:
//   sign 1, exponent 4 (bias 7), fraction 3; 4 significant bits, unit roundoff 2^-4;
//   normals from 2^-6, subnormals in steps of 2^-9; the largest 448 = 1.75·2^8;
//   S.1111.111 is NaN, and there is no infinity: rounding saturates at ±448.
//
// Quantisation of one operand: amax = the largest |x| of the tensor or block, scale = amax/448
// (1 where amax is 0, so an all-zero block stays zero), code = e4m3(x / scale), both divisions in
// FP32. The code's value times the scale is what the matmul multiplies.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "half_values.hpp"
#include "index_math.hpp"
#include "problem.hpp"

namespace ts::model {

inline constexpr double kE4M3Max = 448.0;
inline constexpr std::uint8_t kE4M3MaxCode = 0x7E;  // 0.1111.110 = 448
inline constexpr std::uint8_t kE4M3NanCode = 0x7F;  // 0.1111.111

// The bits of x rounded to e4m3 (to nearest, ties to even), saturated to ±448 (infinities too);
// NaN gives NaN with x's sign.
TS_HOST_DEVICE inline std::uint8_t round_to_e4m3(double x) {
    const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
    if (std::isnan(x)) return static_cast<std::uint8_t>(sign | kE4M3NanCode);
    const double a = std::fabs(x);
    // 448 ≤ a: saturate. Below it, rounding never passes 448 (the next step up, 480, lies past
    // 464, the halfway point, which is above every a < 448).
    if (a >= kE4M3Max) return static_cast<std::uint8_t>(sign | kE4M3MaxCode);
    // Below 2^-6, the smallest normal: subnormal, in steps of 2^-9 (8 steps round up to the
    // smallest normal, whose code is 0x08, so the same sum holds).
    if (a < 0.015625) {
        const double steps = round_half_even(scale_by_power_of_two(a, 9));
        return static_cast<std::uint8_t>(sign | static_cast<unsigned>(steps));
    }
    int e = 0;  // 2^e ≤ a < 2^(e+1), −6 ≤ e ≤ 8: a few exact halvings or doublings
    double m = a;
    while (m >= 2.0) {
        m *= 0.5;
        ++e;
    }
    while (m < 1.0) {
        m *= 2.0;
        --e;
    }
    double fraction = round_half_even((m - 1.0) * 8.0);
    if (fraction == 8.0) {  // rounded up to the next power of two
        fraction = 0.0;
        ++e;
    }
    return static_cast<std::uint8_t>(sign | static_cast<unsigned>(e + 7) << 3 | static_cast<unsigned>(fraction));
}

// The value of an e4m3 code, exactly (NaN for the two NaN codes). Host only.
inline double e4m3_to_double(std::uint8_t code) {
    const bool negative = code & 0x80;
    const int exponent = (code >> 3) & 0xF;
    const int fraction = code & 0x7;
    double value = 0.0;
    if (exponent == 0xF && fraction == 0x7) value = NAN;
    else if (exponent == 0) value = std::ldexp(static_cast<double>(fraction), -9);
    else value = std::ldexp(static_cast<double>(fraction + 8), exponent - 7 - 3);
    return negative ? -value : value;
}

// The scale of a tensor or block whose largest |x| is `amax`: amax/448 in FP32, so that the
// largest value lands on ±448; 1 for an all-zero block (amax 0), which then stays zero.
TS_HOST_DEVICE inline float fp8_scale_of(float amax) { return amax > 0.0f ? amax / static_cast<float>(kE4M3Max) : 1.0f; }

// One input quantised with its scale: e4m3(x / scale), the division in FP32.
TS_HOST_DEVICE inline std::uint8_t quantize_e4m3(float x, float scale) { return round_to_e4m3(static_cast<double>(x / scale)); }

// ---- Where the block scales sit (the layouts cuBLASLt's VEC128 and BLK128x128 modes read) ----
// A (M×K): one scale per row per 128 of K, M-major: column after column of that M × ceil(K/128)
// grid, the scale of row r in K block kb at kb·M + r. (cuBLASLt asks M to be a multiple of 4
// here, so that each column starts 16-byte aligned: cublaslt_library.hpp.)
TS_HOST_DEVICE inline std::int64_t a_block_scale_index(std::int64_t row, std::int64_t k_block, std::int64_t m) {
    return k_block * m + row;
}
// B (N×K): one scale per 128×128 block, K-major: row after row of the ceil(N/128) × ceil(K/128)
// grid, each row `stride` floats long (Problem::b_scale_stride: ceil(K/128) rounded up to 4), the
// scale of the block of rows nb (N) and columns kb (K) at nb·stride + kb.
TS_HOST_DEVICE inline std::int64_t b_block_scale_index(std::int64_t n_block, std::int64_t k_block,
                                                       std::int64_t stride) {
    return n_block * stride + k_block;
}

// ---- On the host: an operand quantised as the GPU does it, and read back ----------------------

enum class Fp8Operand { A, B };

struct Fp8Matrix {
    std::vector<std::uint8_t> codes;  // the operand's shape: A batch×M×K, B batch×N×K, row-major
    std::vector<float> scales;        // problem.a_scale_count() or b_scale_count() of them (B's padding 0)
};

// `values` (A: batch×M×K, B: batch×N×K) quantised under the problem's scaling, exactly as
// kernels/common/quantize_fp8.cu does it. Throws std::invalid_argument for a size that does not match.
Fp8Matrix quantize_fp8(std::span<const float> values, const Problem& problem, Fp8Operand operand);
// The value each element stands for: its code's value times its scale, exactly (both fit a double).
std::vector<double> dequantize_fp8(const Fp8Matrix& matrix, const Problem& problem, Fp8Operand operand);
// The scale of element (row, col) of one batch's operand (row < M for A, < N for B; col < K).
float fp8_scale_at(const Fp8Matrix& matrix, const Problem& problem, Fp8Operand operand, std::int64_t row,
                   std::int64_t col);

}  // namespace ts::model
