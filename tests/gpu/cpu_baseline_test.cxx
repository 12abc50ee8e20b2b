// The CPU triple loop: it is timed for small sizes and estimated, from the largest size
// measured, for sizes over the limit.
#include <gtest/gtest.h>

#include <vector>

#include "gpu/cpu_baseline.hpp"

namespace ts::gpu {
namespace {

model::Problem cube(std::int64_t side, model::Dtype dtype = model::Dtype::Float32) {
    model::Problem p;
    p.m = p.n = p.k = side;
    p.dtype = dtype;
    return p;
}

TEST(CpuBaseline, TimesTheLoopInEveryType) {
    for (model::Dtype dtype : {model::Dtype::Int32, model::Dtype::Float32, model::Dtype::Float64})
        EXPECT_GT(time_triple_loop(cube(64, dtype)), 0.0);
}

TEST(CpuBaseline, MeasuresUnderTheLimitAndEstimatesAbove) {
    // 0.05 s: 32³ and 64³ run; 4096³ (10^5 times 64³'s work) cannot.
    const std::vector<model::Problem> problems = {cube(4096), cube(32), cube(64)};
    std::vector<std::int64_t> ran;
    const std::vector<CpuTime> times =
        cpu_baseline(problems, 0.05, [&](const model::Problem& p) { ran.push_back(p.m); });
    ASSERT_EQ(times.size(), 3u);
    // Answers come back in the order asked.
    EXPECT_EQ(times[0].problem.m, 4096);
    EXPECT_EQ(times[1].problem.m, 32);
    EXPECT_FALSE(times[1].estimate);
    EXPECT_FALSE(times[2].estimate);
    EXPECT_EQ(times[1].basis.m, 32);

    const CpuTime& big = times[0];
    EXPECT_TRUE(big.estimate);
    EXPECT_LT(big.basis.m, 4096);
    // Scaled by M·N·K from its basis.
    const double scale = 4096.0 * 4096.0 * 4096.0 / (double(big.basis.m) * big.basis.n * big.basis.k);
    EXPECT_NEAR(big.ms, big.basis_ms * scale, big.ms * 1e-9);
    // Every run was of a size that was predicted to fit; 4096³ itself never ran.
    for (std::int64_t side : ran) EXPECT_LT(side, 4096);
}

TEST(CpuBaseline, EstimatesFromTheSameElementType) {
    const std::vector<model::Problem> problems = {cube(48, model::Dtype::Float64), cube(2048, model::Dtype::Float64)};
    const std::vector<CpuTime> times = cpu_baseline(problems, 0.05);
    EXPECT_FALSE(times[0].estimate);
    ASSERT_TRUE(times[1].estimate);
    EXPECT_EQ(times[1].basis.dtype, model::Dtype::Float64);
}

}  // namespace
}  // namespace ts::gpu
