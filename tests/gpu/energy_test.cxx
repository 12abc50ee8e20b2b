// Joules per matmul from NVML's energy counter (gpu/energy.hpp), without a GPU: when the counter
// has moved enough, what a summary derives, what its words say, and what a point records.
#include <gtest/gtest.h>

#include "gpu/clock_watch.hpp"
#include "gpu/energy.hpp"
#include "record/measurement_file.hpp"

namespace ts::gpu {
namespace {

TEST(EnergyCounterTally, NeedsAHundredStepsAndMoreThanOneMove) {
    EnergyCounterTally tally(1'000'000);
    tally.add(1'000'000);  // no move yet
    EXPECT_EQ(tally.moves(), 0);
    EXPECT_FALSE(tally.enough());
    tally.add(1'000'500);  // one move of 0.5 J
    EXPECT_EQ(tally.moves(), 1);
    EXPECT_FALSE(tally.enough());
    for (int i = 0; i < 98; ++i) tally.add(1'000'500 + 500 * (i + 1));
    EXPECT_DOUBLE_EQ(tally.joules(), 49.5);  // 99 steps of 0.5 J
    EXPECT_DOUBLE_EQ(tally.step_joules(), 0.5);
    EXPECT_FALSE(tally.enough());
    tally.add(1'050'000);
    EXPECT_DOUBLE_EQ(tally.joules(), 50.0);
    EXPECT_TRUE(tally.enough());
}

TEST(EnergyCounterTally, TheStepIsTheLargestMoveSoAColdStartNeedsMore) {
    EnergyCounterTally tally(0);
    tally.add(10);      // idle board: small moves
    tally.add(20);
    tally.add(2'020);   // then 2 J at once: the counter refreshes in steps of about that
    EXPECT_DOUBLE_EQ(tally.step_joules(), 2.0);
    EXPECT_FALSE(tally.enough());  // 2.02 J is not 100 steps of 2 J
    tally.add(200'020);
    EXPECT_DOUBLE_EQ(tally.step_joules(), 198.0);
    EXPECT_FALSE(tally.enough());
}

TEST(EnergyCounterTally, ACounterThatGoesBackSpoilsTheTally) {
    EnergyCounterTally tally(5'000);
    tally.add(6'000);
    tally.add(7'000);
    tally.add(100);  // the driver was reloaded
    EXPECT_TRUE(tally.went_back());
    EXPECT_FALSE(tally.enough());
    const EnergySummary e = summarize_energy(tally, 10, 1.0, {});
    EXPECT_FALSE(e.measured);
    EXPECT_NE(e.unavailable.find("went back"), std::string::npos) << e.unavailable;
}

EnergySummary measured(int launches, double joules, double seconds, double step) {
    EnergyCounterTally tally(0);
    const auto step_mj = static_cast<std::uint64_t>(step * 1e3);
    for (std::uint64_t mj = step_mj; mj <= static_cast<std::uint64_t>(joules * 1e3); mj += step_mj) tally.add(mj);
    ClockSummary clocks;
    clocks.readings = 3;
    clocks.mean_sm_mhz = 1755;
    clocks.limits = kClockLimitSwPowerCap;
    return summarize_energy(tally, launches, seconds, clocks);
}

TEST(EnergySummary, JoulesPerMatmulWattsAndTflopPerJoule) {
    // 4096³ in BF16: 1.374e11 FLOP a matmul; 500 launches, 300 J in 0.5 s.
    const EnergySummary e = measured(500, 300.0, 0.5, 0.5);
    ASSERT_TRUE(e.measured);
    EXPECT_FALSE(e.short_of_steps);  // 600 steps
    EXPECT_DOUBLE_EQ(joules_per_matmul(e), 0.6);
    EXPECT_DOUBLE_EQ(average_watts(e), 600.0);
    model::Problem p{.m = 4096, .n = 4096, .k = 4096, .batch = 1, .dtype = model::Dtype::BFloat16};
    EXPECT_NEAR(tflop_per_joule(e, p), 2.0 * 4096.0 * 4096.0 * 4096.0 / 0.6 * 1e-12, 1e-9);
    EXPECT_EQ(energy_short_text(e, p), "600 mJ per matmul · 0.229 TFLOP/J · 600 W");
    const std::string how = energy_method_text(e);
    EXPECT_NE(how.find("500 launches back to back in 0.50 s at SM 1755 MHz (held back by the power cap)"),
              std::string::npos) << how;
    EXPECT_NE(how.find("moved 300.0 J in steps of up to 0.500 J"), std::string::npos) << how;
    EXPECT_EQ(how.find("fewer than"), std::string::npos) << how;
}

TEST(EnergySummary, StoppedShortOfTheStepsSaysByHowMuchItMayBeOff) {
    const EnergySummary e = measured(40, 20.0, 10.0, 1.0);  // 20 steps: the time limit came first
    ASSERT_TRUE(e.measured);
    EXPECT_TRUE(e.short_of_steps);
    const std::string how = energy_method_text(e);
    EXPECT_NE(how.find("fewer than the 100 steps"), std::string::npos) << how;
    EXPECT_NE(how.find("off by 10.0 %"), std::string::npos) << how;  // two reads of one 1 J step in 20 J
}

TEST(EnergySummary, ACounterThatNeverMovedIsNotAFigure) {
    const EnergySummary e = summarize_energy(EnergyCounterTally(77), 2000, 0.8, {});
    EXPECT_FALSE(e.measured);
    EXPECT_EQ(joules_per_matmul(e), 0.0);
    EXPECT_EQ(average_watts(e), 0.0);
    EXPECT_NE(e.unavailable.find("did not move over 2000 back-to-back launches"), std::string::npos) << e.unavailable;
    EXPECT_EQ(energy_short_text(e, {}), "");
    EXPECT_EQ(energy_method_text(e), e.unavailable);
}

TEST(EnergySummary, APointRecordsItsEnergyOnlyWhereMeasured) {
    RunResult result;
    result.request.problem = {.m = 2048, .n = 2048, .k = 2048, .batch = 1, .dtype = model::Dtype::BFloat16};
    record::Point point;
    record_energy(result, point);
    EXPECT_FALSE(point.joules_per_matmul.has_value());
    result.energy = measured(3000, 151.23456, 0.75, 0.25);
    record_energy(result, point);
    ASSERT_TRUE(point.joules_per_matmul.has_value());
    EXPECT_DOUBLE_EQ(*point.joules_per_matmul, 0.05033);  // 151 J / 3000, to four significant digits
    EXPECT_DOUBLE_EQ(*point.avg_watts, 201.3);
    EXPECT_EQ(*point.energy_sm_clock_mhz, 1755);
    EXPECT_NEAR(*point.tflop_per_j, 2.0 * 2048.0 * 2048.0 * 2048.0 / 0.05033 * 1e-12, 1e-3);
    EXPECT_NE(point.energy_note->find("3000 launches"), std::string::npos) << *point.energy_note;
}

TEST(ClockWatch, WithoutAnEnergyCounterSaysWhy) {
    // On this machine there is no GPU, or there is one and NVML keeps its energy: either way the
    // two calls agree.
    const ClockWatch& watch = ClockWatch::current_device();
    if (watch.energy_mj()) EXPECT_EQ(watch.energy_why_not(), "");
    else EXPECT_FALSE(watch.energy_why_not().empty());
}

}  // namespace
}  // namespace ts::gpu
