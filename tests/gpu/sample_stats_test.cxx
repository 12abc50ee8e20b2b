// The statistics of timed samples and the rules that stop a measurement: no GPU needed.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpu/sample_stats.hpp"

namespace ts::gpu {
namespace {

TEST(SampleStats, MedianAndPercentilesInterpolateLikeNumpy) {
    // numpy.percentile([1, 2, 3, 4, 10], [20, 50, 80]) == [1.8, 3.0, 5.2]
    const std::vector<double> samples = {4, 1, 10, 3, 2};
    const SampleStats stats = summarize(samples);
    EXPECT_EQ(stats.count, 5);
    EXPECT_DOUBLE_EQ(stats.median, 3.0);
    EXPECT_DOUBLE_EQ(stats.p20, 1.8);
    EXPECT_DOUBLE_EQ(stats.p80, 5.2);
    EXPECT_DOUBLE_EQ(stats.min, 1.0);
    EXPECT_DOUBLE_EQ(stats.max, 10.0);
    EXPECT_DOUBLE_EQ(stats.sum, 20.0);
    EXPECT_DOUBLE_EQ(stats.mean, 4.0);
}

TEST(SampleStats, EvenCountMedianIsTheMiddlePairsMean) {
    const std::vector<double> samples = {1, 2, 3, 4};
    EXPECT_DOUBLE_EQ(summarize(samples).median, 2.5);
}

TEST(SampleStats, NoiseIsSampleStdevOverMean) {
    // stdev (n − 1) of {9, 10, 11} is 1, the mean 10: 10 % noise.
    const std::vector<double> samples = {9, 10, 11};
    EXPECT_DOUBLE_EQ(summarize(samples).noise, 0.1);
    const std::vector<double> steady(20, 2.5);
    EXPECT_DOUBLE_EQ(summarize(steady).noise, 0.0);
}

TEST(SampleStats, EmptyAndSingleSamples) {
    EXPECT_EQ(summarize({}).count, 0);
    const std::vector<double> one = {7.0};
    const SampleStats stats = summarize(one);
    EXPECT_DOUBLE_EQ(stats.median, 7.0);
    EXPECT_DOUBLE_EQ(stats.p20, 7.0);
    EXPECT_DOUBLE_EQ(stats.noise, 0.0);
}

SampleStats stats_of(int count, double mean_ms, double noise) {
    SampleStats stats;
    stats.count = count;
    stats.mean = mean_ms;
    stats.sum = mean_ms * count;
    stats.noise = noise;
    return stats;
}

TEST(StopRule, NeverStopsBeforeTheMinimumWhateverTheBudget) {
    const StopRule rule;
    EXPECT_EQ(should_stop(rule, stats_of(9, 1.0, 0.0), 100.0), StopReason::NotYet);
    EXPECT_EQ(should_stop(rule, stats_of(10, 1.0, 0.0), 0.0), StopReason::Noise);
}

TEST(StopRule, NoiseTimeBudgetAndCountEachEndIt) {
    const StopRule rule;  // 10 samples, 0.5 %, 0.5 s, 3 s, 10000
    EXPECT_EQ(should_stop(rule, stats_of(20, 1.0, 0.004), 0.1), StopReason::Noise);
    EXPECT_EQ(should_stop(rule, stats_of(20, 1.0, 0.02), 0.1), StopReason::NotYet);
    EXPECT_EQ(should_stop(rule, stats_of(500, 1.0, 0.02), 0.6), StopReason::MinTime);  // 500 ms of samples
    EXPECT_EQ(should_stop(rule, stats_of(200, 1.0, 0.02), 3.0), StopReason::Budget);
    EXPECT_EQ(should_stop(rule, stats_of(10000, 0.001, 0.02), 1.0), StopReason::MaxSamples);
}

TEST(StopRule, FixedCountStopsAtTheMinimum) {
    StopRule rule;
    rule.adaptive = false;
    rule.min_samples = 3;
    EXPECT_EQ(should_stop(rule, stats_of(2, 1.0, 0.5), 0.0), StopReason::NotYet);
    EXPECT_EQ(should_stop(rule, stats_of(3, 1.0, 0.5), 0.0), StopReason::Count);
    EXPECT_EQ(stop_reason_name(StopReason::Count), "count");
    EXPECT_EQ(stop_reason_name(StopReason::MinTime), "min-time");
}

}  // namespace
}  // namespace ts::gpu
