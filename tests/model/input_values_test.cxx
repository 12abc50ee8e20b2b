// The measurement inputs: the same numbers wherever they are computed, in range, and
// different for A and B and for each seed.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "model/input_values.hpp"

namespace ts::model {
namespace {

TEST(InputValues, RealsAreUniformInMinusOneToOne) {
    double sum = 0.0, lowest = 1.0, highest = -1.0;
    constexpr int kCount = 100000;
    for (int i = 0; i < kCount; ++i) {
        const double x = input_real(42, 0, i);
        ASSERT_GE(x, -1.0);
        ASSERT_LT(x, 1.0);
        sum += x;
        lowest = std::min(lowest, x);
        highest = std::max(highest, x);
    }
    EXPECT_NEAR(sum / kCount, 0.0, 0.01);
    EXPECT_LT(lowest, -0.999);
    EXPECT_GT(highest, 0.999);
}

TEST(InputValues, IntegersStayWithinTheBoundAndReachIt) {
    std::set<std::int32_t> seen;
    for (int i = 0; i < 10000; ++i) {
        const std::int32_t v = input_integer(7, 1, i, 3);
        ASSERT_GE(v, -3);
        ASSERT_LE(v, 3);
        seen.insert(v);
    }
    EXPECT_EQ(seen.size(), 7u);
}

TEST(InputValues, ASeedAndAMatrixMakeTheirOwnNumbers) {
    static_assert(input_bits(1, 0, 5) == input_bits(1, 0, 5), "a pure function, usable at compile time");
    int same_matrix = 0, same_seed = 0;
    for (int i = 0; i < 1000; ++i) {
        same_matrix += input_real(1, 0, i) == input_real(1, 1, i);
        same_seed += input_real(1, 0, i) == input_real(2, 0, i);
    }
    EXPECT_EQ(same_matrix, 0);
    EXPECT_EQ(same_seed, 0);
}

}  // namespace
}  // namespace ts::model
