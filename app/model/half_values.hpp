// half_values.hpp — BF16 and FP16 as bits: a real rounded to either (to nearest, ties to even),
// and the bits read back exactly as a double.
//
// The tensor-core rungs' inputs are these 16-bit values. The GPU fills A and B with
// round_to_half(input_real(...)) (kernels/common/fill_inputs.cu) and the CPU reads them back with
// half_to_double for the reference, so both sides agree on every bit without either needing
// CUDA's own types. The rounding is done once, from the double, by plain arithmetic: every step
// (scaling by 2, floor, one subtraction) is exact, so host and device give the same bits.
//
//          sign  exponent  fraction   significand  unit roundoff   largest
//   BF16   1     8 (127)   7          8 bits       2^-8            ≈ 3.39e38
//   FP16   1     5 (15)    10         11 bits      2^-11           65504
#pragma once

#include <cmath>
#include <cstdint>

#include "index_math.hpp"

namespace ts::model {

struct HalfFormat {
    int exponent_bits;
    int fraction_bits;
    TS_HOST_DEVICE constexpr int bias() const { return (1 << (exponent_bits - 1)) - 1; }
    TS_HOST_DEVICE constexpr int min_exponent() const { return 1 - bias(); }  // of the smallest normal
    TS_HOST_DEVICE constexpr int max_exponent() const { return bias(); }
};
inline constexpr HalfFormat kBf16Format{8, 7};
inline constexpr HalfFormat kFp16Format{5, 10};

// x·2^e, exactly (for results that are normal doubles).
TS_HOST_DEVICE inline double scale_by_power_of_two(double x, int e) {
    for (; e > 0; --e) x *= 2.0;
    for (; e < 0; ++e) x *= 0.5;
    return x;
}

// The integer nearest v ≥ 0, ties to the even one.
TS_HOST_DEVICE inline double round_half_even(double v) {
    const double whole = std::floor(v);
    const double fraction = v - whole;
    if (fraction > 0.5) return whole + 1.0;
    if (fraction < 0.5) return whole;
    return std::fmod(whole, 2.0) == 0.0 ? whole : whole + 1.0;
}

// The bits of x rounded to `f` (to nearest, ties to even); values past the largest become
// infinity, NaN stays NaN.
TS_HOST_DEVICE inline std::uint16_t round_to_half(double x, HalfFormat f) {
    const int all_ones = (1 << f.exponent_bits) - 1;
    const auto sign = static_cast<std::uint16_t>(std::signbit(x) ? 1u << (f.exponent_bits + f.fraction_bits) : 0u);
    if (std::isnan(x)) return static_cast<std::uint16_t>(all_ones << f.fraction_bits | 1u << (f.fraction_bits - 1));
    double a = std::fabs(x);
    const auto infinity = static_cast<std::uint16_t>(sign | all_ones << f.fraction_bits);
    if (std::isinf(a)) return infinity;
    if (a == 0.0) return sign;
    int e = 0;  // 2^e ≤ a < 2^(e+1)
    double m = a;
    while (m >= 2.0) {
        m *= 0.5;
        ++e;
    }
    while (m < 1.0) {
        m *= 2.0;
        --e;
    }
    if (e < f.min_exponent()) {  // subnormal: steps of 2^(min_exponent − fraction_bits)
        const double steps = round_half_even(scale_by_power_of_two(a, f.fraction_bits - f.min_exponent()));
        return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(steps));  // may reach the smallest normal
    }
    double fraction = round_half_even((m - 1.0) * static_cast<double>(1 << f.fraction_bits));
    if (fraction == static_cast<double>(1 << f.fraction_bits)) {  // rounded up to the next power of two
        fraction = 0.0;
        ++e;
    }
    if (e > f.max_exponent()) return infinity;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(e + f.bias()) << f.fraction_bits |
                                      static_cast<std::uint32_t>(fraction));
}

// The value of 16 bits in format `f`, exactly.
inline double half_to_double(std::uint16_t bits, HalfFormat f) {
    const int all_ones = (1 << f.exponent_bits) - 1;
    const bool negative = (bits >> (f.exponent_bits + f.fraction_bits)) & 1;
    const int exponent = (bits >> f.fraction_bits) & all_ones;
    const int fraction = bits & ((1 << f.fraction_bits) - 1);
    double value = 0.0;
    if (exponent == all_ones) value = fraction ? NAN : INFINITY;
    else if (exponent == 0) value = std::ldexp(fraction, f.min_exponent() - f.fraction_bits);
    else value = std::ldexp(fraction + (1 << f.fraction_bits), exponent - f.bias() - f.fraction_bits);
    return negative ? -value : value;
}

}  // namespace ts::model
