// `tilescope-cli bench` as a user meets it: the real binary, its exit code and its words.
#include <gtest/gtest.h>

#include <string>

#include "support/run_command.hpp"
#include "gpu/runner.hpp"
#include "support/gpu_skip.hpp"

namespace {

using Outcome = ts::testing_support::CommandOutcome;

using ts::testing_support::expect_help_lists;
using ts::testing_support::expect_refused;
using ts::testing_support::run_cli;

TEST(BenchCommand, HelpListsTheFlags) {
    expect_help_lists("bench", {"--kernel", "--m", "--n", "--k", "--tile", "--block", "--settle"});
}

TEST(BenchCommand, BadValuesExitNonZeroWithAMessage) {
    const std::pair<const char*, const char*> cases[] = {
        {"bench --m 0", "at least 1"},
        {"bench --m -5", "at least 1"},
        {"bench --n lots", "whole number"},
        {"bench --k 99999999999999999999999", "far too large"},
        {"bench --tile 64", "invalid configuration argument"},
        {"bench --kernel warp-specialised", "--kernel must be"},
        {"bench --settle -1", "--settle must be between 0 and 600 seconds"},
        {"bench --settle 601", "--settle must be between 0 and 600 seconds"},
    };
    expect_refused(cases);
}

TEST(BenchCommand, BadListsAndRangesExitTwo) {
    const std::pair<const char*, const char*> cases[] = {
        {"bench --size 256:4096:y2", "FIRST:LAST:xFACTOR"},
        {"bench --size 4096:256:x2", "starts above its end"},
        {"bench --size 256,,512", "empty entry"},
        {"bench --kernel ''", "--kernel is empty"},
        {"bench --kernel naive,fast", "--kernel must be"},
        {"bench --block 32x0", "at least 1"},
        {"bench --tile 8,64", "--tile 64"},
        {"bench --dtype float,quad", "--dtype must be"},
        {"bench --budget 0", "--budget"},
        {"bench --samples 0", "--samples"},
        {"bench --sweep everything", "--sweep knows only"},
        {"bench --sweep default --kernel naive", "drop --kernel"},
    };
    expect_refused(cases);
}

TEST(BenchCommand, PlanListsPointsAndTheEstimateWithoutAGpu) {
    const Outcome outcome = run_cli("bench --kernel naive,tiled --size 256:1024:x2 --plan");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    EXPECT_NE(outcome.output.find("[1/6] naive 16×16"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("[6/6] tiled T=16"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("6 points, about"), std::string::npos) << outcome.output;
}

TEST(BenchCommand, DefaultSweepPrintsItsEstimateUpFront) {
    const Outcome outcome = run_cli("bench --sweep default --plan");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    EXPECT_NE(outcome.output.find("points, about"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("tiled T=1 "), std::string::npos) << outcome.output;
}

TEST(BenchCommand, UnwritableOutputFailsBeforeMeasuring) {
    const Outcome outcome = run_cli("bench --csv /nonexistent/folder/run.csv");
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find("cannot write /nonexistent/folder/run.csv"), std::string::npos) << outcome.output;
    EXPECT_EQ(outcome.output.find("probing"), std::string::npos) << outcome.output;
}

TEST(BenchCommand, UnknownFlagIsRejected) {
    const Outcome outcome = run_cli("bench --frobnicate 3");
    EXPECT_NE(outcome.exit_code, 0);
    EXPECT_NE(outcome.output.find("frobnicate"), std::string::npos) << outcome.output;
}

TEST(BenchCommand, WithoutAGpuSaysWhyAndFails) {
    ts::testing_support::expect_refused_without_gpu("bench --m 64 --n 64 --k 64", "no usable GPU");
}

}  // namespace
