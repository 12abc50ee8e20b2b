// What the timing engine makes of the clock readings (gpu/clock_watch.hpp), without a GPU: the
// tally's weights and range, the reasons in words, and a machine without NVML's answer.
#include <gtest/gtest.h>

#include "gpu/clock_watch.hpp"
#include "record/measurement_file.hpp"

namespace ts::gpu {
namespace {

TEST(ClockTally, WeighsEachReadingByTheSamplesItStandsFor) {
    ClockTally tally;
    tally.add({.sm_mhz = 1980, .power_w = 300.0, .limits = 0}, 1);
    tally.add({.sm_mhz = 1700, .power_w = 650.0, .limits = kClockLimitSwPowerCap}, 3);
    const ClockSummary s = tally.summary("");
    EXPECT_EQ(s.readings, 2);
    EXPECT_EQ(s.mean_sm_mhz, 1770);  // (1980 + 3 · 1700) / 4
    EXPECT_EQ(s.min_sm_mhz, 1700);
    EXPECT_EQ(s.max_sm_mhz, 1980);
    EXPECT_DOUBLE_EQ(s.mean_power_w, 562.5);
    EXPECT_EQ(s.limits, kClockLimitSwPowerCap);
    EXPECT_TRUE(s.unavailable.empty());
}

TEST(ClockTally, LeavesOutPowerTheBoardDoesNotReportAndReasonsThatHoldNothingBack) {
    ClockTally tally;
    tally.add({.sm_mhz = 1500, .power_w = 0.0, .limits = 0x1 | 0x2}, 64);  // idle, application clocks
    const ClockSummary s = tally.summary("");
    EXPECT_EQ(s.mean_sm_mhz, 1500);
    EXPECT_EQ(s.mean_power_w, 0.0);
    EXPECT_EQ(s.limits, 0u);
}

TEST(ClockTally, WithoutReadingsSaysWhy) {
    const ClockSummary s = ClockTally().summary("NVML could not be opened");
    EXPECT_EQ(s.readings, 0);
    EXPECT_EQ(s.mean_sm_mhz, 0);
    EXPECT_EQ(s.unavailable, "NVML could not be opened");
    EXPECT_EQ(ClockTally().summary("").unavailable, "no reading was taken");
}

TEST(ClockLimitNames, NamesEachReasonInOrder) {
    EXPECT_EQ(clock_limit_names(0), "");
    EXPECT_EQ(clock_limit_names(kClockLimitSwPowerCap), "the power cap");
    EXPECT_EQ(clock_limit_names(kClockLimitSwPowerCap | kClockLimitHwThermal),
              "the power cap, thermal slowdown (hardware)");
    EXPECT_EQ(clock_limit_names(kClockLimitsWatched),
              "the power cap, hardware slowdown, sync boost, thermal slowdown (software), thermal slowdown "
              "(hardware), the power brake");
}

// A measured point takes the clock where it was read, and keeps its nulls where not.
TEST(RecordClocks, FillsThePointsClockFieldsOnlyFromReadings) {
    ClockTally tally;
    tally.add({.sm_mhz = 1700, .power_w = 650.0, .limits = kClockLimitSwPowerCap}, 1);
    record::Point point;
    record_clocks(tally.summary(""), point);
    EXPECT_EQ(point.sm_clock_mhz, 1700);
    EXPECT_EQ(point.power_w, 650.0);
    EXPECT_EQ(point.clock_limits, "the power cap");
    EXPECT_EQ(sm_clock_text(tally.summary("")), "SM 1700 MHz");
    EXPECT_EQ(sm_clock_text(ClockTally().summary("no NVML")), "");
    record::Point unread;
    record_clocks(ClockTally().summary("no NVML"), unread);
    EXPECT_EQ(unread.sm_clock_mhz, std::nullopt);
    EXPECT_EQ(unread.power_w, std::nullopt);
    EXPECT_EQ(unread.clock_limits, std::nullopt);
}

// On a machine without the driver's library (this one, and CI's) the watch reads nothing and says
// why; with one but no GPU it says that instead. Either way, no reading and a reason.
TEST(ClockWatch, WithoutADeviceReadsNothingAndSaysWhy) {
    const ClockWatch& watch = ClockWatch::current_device();
    if (watch.read()) GTEST_SKIP() << "this machine has a GPU NVML can read";
    EXPECT_FALSE(watch.why_not().empty());
}

}  // namespace
}  // namespace ts::gpu
