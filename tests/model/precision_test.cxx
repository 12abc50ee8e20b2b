// What each type costs in accuracy: rounding worked by hand, and the four types' errors in the
// order their significands give, each within what its unit roundoff allows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "model/precision.hpp"

namespace {

using ts::model::Precision;
using ts::model::round_to_precision;

TEST(Precision, RoundingWorkedByHand) {
    // BF16 keeps 7 fraction bits: steps of 2^-7 above 1, so 1 + 2^-8 is a tie and goes to the even
    // neighbour (1), and 1 + 3·2^-8, halfway between 1 + 2^-7 and 1 + 2^-6, to 1 + 2^-6.
    EXPECT_EQ(round_to_precision(1.0 + std::ldexp(1.0, -8), Precision::Bf16), 1.0);  // a tie: to even
    EXPECT_EQ(round_to_precision(1.0 + 3 * std::ldexp(1.0, -8), Precision::Bf16), 1.0 + std::ldexp(1.0, -6));
    // TF32 and FP16 keep 10 fraction bits: steps of 2^-10 above 1.
    EXPECT_EQ(round_to_precision(1.0 + std::ldexp(1.0, -11), Precision::Tf32), 1.0);
    EXPECT_EQ(round_to_precision(1.0 + 3 * std::ldexp(1.0, -11), Precision::Tf32), 1.0 + std::ldexp(1.0, -9));
    EXPECT_EQ(round_to_precision(-0.75 - std::ldexp(1.0, -12), Precision::Tf32), -0.75);
    EXPECT_EQ(round_to_precision(1.0 + 3 * std::ldexp(1.0, -11), Precision::Fp16), 1.0 + std::ldexp(1.0, -9));
    // TF32 keeps FP32's range where FP16 cannot reach: 2^-20 is subnormal in FP16 (steps of 2^-24).
    EXPECT_EQ(round_to_precision(std::ldexp(1.0, -20) * 1.0009765625, Precision::Tf32),
              std::ldexp(1.0, -20) * 1.0009765625);
    EXPECT_EQ(round_to_precision(std::ldexp(1.0, -20) * 1.0009765625, Precision::Fp16), std::ldexp(1.0, -20));
    EXPECT_EQ(round_to_precision(0.1, Precision::Fp32), static_cast<double>(0.1f));
}

TEST(Precision, ErrorsFollowTheSignificands) {
    double previous_digits = 100.0;
    for (Precision p : ts::model::kPrecisions) {
        const auto& e = ts::model::lesson_precision_error(p);
        SCOPED_TRACE(std::string(ts::model::precision_name(p)));
        // Rounding each input costs up to u = 2^-bits relative; a product of two such inputs up to
        // 2u, and errors of random sign add up like a random walk, so C as a whole sits near u, not
        // near K·u. The FP32 sums add K roundings of up to 2^-24 each, a walk of about √K of them.
        const double u = std::ldexp(1.0, -ts::model::significand_bits(p));
        const double sums = std::sqrt(static_cast<double>(ts::model::kPrecisionK)) * std::ldexp(1.0, -24);
        EXPECT_GT(e.normwise, u / 16) << e.normwise;
        EXPECT_LT(e.normwise, 4 * u + 4 * sums) << e.normwise;
        std::printf("%s normwise %.3g largest %.3g digits %.2f\n", std::string(ts::model::precision_name(p)).c_str(),
                    e.normwise, e.largest, e.digits());
        EXPECT_GE(e.largest, e.normwise / 4);
        EXPECT_LE(e.digits(), previous_digits + 0.5);  // TF32 and FP16 have the same 11 bits
        previous_digits = e.digits();
    }
    EXPECT_GT(ts::model::lesson_precision_error(Precision::Fp32).digits(), 6.0);
    EXPECT_LT(ts::model::lesson_precision_error(Precision::Bf16).digits(), 3.5);
}

TEST(Precision, EmptyShapesHaveNoError) {
    EXPECT_EQ(ts::model::precision_error(Precision::Bf16, 0, 4, 4, 1).normwise, 0.0);
    EXPECT_EQ(ts::model::element_bytes(Precision::Tf32), 4);
    EXPECT_EQ(ts::model::element_bytes(Precision::Bf16), 2);
}

}  // namespace
