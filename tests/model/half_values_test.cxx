// BF16 and FP16 rounding and reading back (model/half_values.hpp), against values worked by hand
// and against the defining property: the result is the nearest representable value, ties to even.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "model/half_values.hpp"
#include "model/input_values.hpp"

namespace {

using ts::model::half_to_double;
using ts::model::HalfFormat;
using ts::model::kBf16Format;
using ts::model::kFp16Format;
using ts::model::round_to_half;

TEST(HalfValues, KnownBitPatterns) {
    EXPECT_EQ(round_to_half(1.0, kBf16Format), 0x3F80);
    EXPECT_EQ(round_to_half(-2.0, kBf16Format), 0xC000);
    EXPECT_EQ(round_to_half(1.0, kFp16Format), 0x3C00);
    EXPECT_EQ(round_to_half(-2.0, kFp16Format), 0xC000);
    EXPECT_EQ(round_to_half(65504.0, kFp16Format), 0x7BFF);      // FP16's largest
    EXPECT_EQ(round_to_half(65520.0, kFp16Format), 0x7C00);      // rounds past it: infinity
    EXPECT_EQ(round_to_half(std::ldexp(1.0, -24), kFp16Format), 0x0001);  // FP16's smallest subnormal
    EXPECT_EQ(round_to_half(0.0, kBf16Format), 0x0000);
    EXPECT_EQ(round_to_half(-0.0, kBf16Format), 0x8000);
    EXPECT_TRUE(std::isnan(half_to_double(round_to_half(NAN, kBf16Format), kBf16Format)));
    EXPECT_TRUE(std::isnan(half_to_double(0xFFFF, kBf16Format))) << "the runner's poison is a NaN";
    EXPECT_TRUE(std::isnan(half_to_double(0xFFFF, kFp16Format)));
}

TEST(HalfValues, TiesGoToEven) {
    // 1 + 2^-8 lies halfway between BF16's 1 and 1 + 2^-7: the even one (1) wins; 1 + 3·2^-8
    // lies between 1 + 2^-7 (odd) and 1 + 2^-6 (even).
    EXPECT_EQ(round_to_half(1.0 + std::ldexp(1.0, -8), kBf16Format), 0x3F80);
    EXPECT_EQ(round_to_half(1.0 + 3 * std::ldexp(1.0, -8), kBf16Format), 0x3F82);
    EXPECT_EQ(round_to_half(1.0 + std::ldexp(1.0, -11), kFp16Format), 0x3C00);
    EXPECT_EQ(round_to_half(1.0 + 3 * std::ldexp(1.0, -11), kFp16Format), 0x3C02);
}

// Every finite pattern reads back to a value that rounds to the same pattern.
void expect_round_trip(HalfFormat format) {
    for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
        const double value = half_to_double(static_cast<std::uint16_t>(bits), format);
        if (!std::isfinite(value)) continue;
        if (value == 0.0) continue;  // ±0 both read as 0 with the sign kept: checked above
        ASSERT_EQ(round_to_half(value, format), bits) << "pattern " << bits;
    }
}
TEST(HalfValues, EveryFinitePatternRoundTrips) {
    expect_round_trip(kBf16Format);
    expect_round_trip(kFp16Format);
}

// The inputs the GPU makes: within half a unit in the last place of the double they come from.
TEST(HalfValues, InputsAreTheNearestValue) {
    for (std::int64_t i = 0; i < 20000; ++i) {
        const double x = ts::model::input_real(7, 0, i);
        for (const HalfFormat format : {kBf16Format, kFp16Format}) {
            const double rounded = half_to_double(round_to_half(x, format), format);
            const int exponent = std::ilogb(x == 0.0 ? 1.0 : x);
            const int fraction_bits = format.fraction_bits;
            // Spacing of the format around x (normal range; subnormals have the smallest spacing).
            const double spacing =
                std::ldexp(1.0, std::max(exponent, format.min_exponent()) - fraction_bits);
            ASSERT_LE(std::fabs(rounded - x), spacing / 2) << x;
        }
    }
}

}  // namespace
