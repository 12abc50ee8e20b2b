// The tilescope binary end to end: it opens a window (under xvfb-run when there is no
// display), renders, and saves a screenshot, which must show the stage with A, B and C.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gui_harness.hpp"
#include "gpu/runner.hpp"
#include "views/common/theme.hpp"

namespace {

using namespace ts::test;

// What every screenshot must show: the full window, drawn (not blank), and the stage on the
// right with the three matrices in their own colours.
void expect_stage(const Image& image, int width = 1600, int height = 1000) {
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    EXPECT_GT(ts::test::distinct_colours(image), 50) << "the screenshot looks blank";

    const Rgb background = rgb(ts::views::colours::kBackground);
    const int drawn = image.count_if(
        [&](Rgb p) { return p.r != background.r || p.g != background.g || p.b != background.b; }, 0.35f, 0.1f, 1.0f,
        0.9f);
    EXPECT_GT(drawn, image.width * image.height / 20) << "the stage area is nearly empty";
    // Flat fills of A, B and C, all in the stage area right of the panels.
    EXPECT_GT(image.count(rgb(ts::views::colours::kA.fill), 0.25f), 400) << "no A";
    EXPECT_GT(image.count(rgb(ts::views::colours::kB.fill), 0.25f), 400) << "no B";
    EXPECT_GT(image.count(rgb(ts::views::colours::kC.fill), 0.25f), 400) << "no C";
}

bool reddish(Rgb p) { return p.r > 150 && p.g < 90 && p.b < 90; }

TEST(Gui, DefaultView) {
    const Image image = screenshot("default.png", "");
    expect_stage(image);
    // 12×16 C in 4×4 blocks: both shades of the block checkerboard.
    EXPECT_GT(image.count(rgb(ts::views::colours::kC.fill_alt), 0.25f), 400);
    EXPECT_EQ(image.count_if(reddish, 0.0f, 0.0f, 0.3f, 0.9f), 0) << "an error is shown for the default set-up";
}

TEST(Gui, PmppFourByFourWithTwoByTwoBlocks) {
    const Image image = screenshot("pmpp_4x4_t2.png", "--m 4 --n 4 --k 4 --tile 2");
    expect_stage(image);
    EXPECT_GT(image.count(rgb(ts::views::colours::kC.fill_alt), 0.25f), 400);
}

TEST(Gui, RaggedSizesShowGhostThreads) {
    const Image image = screenshot("ragged_40x28x36_t8.png", "--m 40 --n 28 --k 36 --tile 8");
    expect_stage(image);
    EXPECT_GT(image.count(rgb(ts::views::colours::kGhostFill), 0.25f), 400) << "no ghost-thread area";
}

TEST(Gui, InvalidTileStillRendersAndExplains) {
    const Image image = screenshot("invalid_tile_64.png", "--tile 64");
    expect_stage(image);
    // The model's reason, in red, in the left panel.
    EXPECT_GT(image.count_if(reddish, 0.0f, 0.0f, 0.3f, 0.9f), 50);
}

TEST(Gui, WindowSizeFlags) {
    expect_stage(screenshot("small_window.png", "--width 1000 --height 700"), 1000, 700);
}

TEST(Gui, RunAtStartThenScreenshot) {
    // Without a usable GPU --run says why and the screenshot is taken at once; with one, the
    // screenshot waits for the measurement.
    std::string output;
    const Image image = screenshot("run.png", "--run --m 64 --n 64 --k 64", &output);
    expect_stage(image);
    const bool skipped = output.find("--run: not running on the GPU") != std::string::npos;
    const bool ran = output.find("--run: running on the GPU") != std::string::npos;
    EXPECT_TRUE(skipped != ran) << output;
}

TEST(Gui, SelectPinsACell) {
    const Image image = screenshot("select.png", "--m 4 --n 4 --k 4 --tile 2 --select 1,2");
    expect_stage(image);
    // The highlight of the pinned cell, its row of A and column of B.
    const Rgb highlight = rgb(ts::views::colours::kHighlight);
    EXPECT_GT(image.count(highlight, 0.25f), 300);
    std::string output;
    EXPECT_EQ(run_in_window("--m 4 --n 4 --k 4 --select 4,0 --frames 1", output), 2);
    EXPECT_NE(output.find("outside C"), std::string::npos) << output;
}

TEST(Gui, BadFlagValuesExitWithTwo) {
    std::string output;
    EXPECT_EQ(run_in_window("--tile abc --frames 1", output), 2);
    EXPECT_NE(output.find("--tile expects a whole number"), std::string::npos) << output;
    EXPECT_EQ(run_in_window("--frames 0", output), 2);
    EXPECT_EQ(run_in_window("--kernel fast --frames 1", output), 2);
    EXPECT_NE(output.find("--kernel"), std::string::npos) << output;
}

TEST(Gui, HelpListsTheFlags) {
    std::string output;
    EXPECT_EQ(run("", "--help", output), 0);
    for (const char* flag : {"--screenshot", "--frames", "--run", "--width", "--height", "--m", "--tile", "bench"})
        EXPECT_NE(output.find(flag), std::string::npos) << flag << "\n" << output;
}

TEST(Gui, NoDisplayIsAClearErrorNotACrash) {
    std::string output;
    const int status = run("env -u DISPLAY -u WAYLAND_DISPLAY ", "--frames 1", output);
    EXPECT_EQ(status, 1) << output;
    EXPECT_NE(output.find("cannot open a window"), std::string::npos) << output;
}

TEST(Gui, BenchNeedsNoWindow) {
    std::string output;
    const int status = run("env -u DISPLAY -u WAYLAND_DISPLAY ", "bench --m 64 --n 64 --k 64", output);
    // 0 with a GPU, 2 without one; never a window error.
    EXPECT_TRUE(status == 0 || status == 2) << status << "\n" << output;
    EXPECT_EQ(output.find("cannot open a window"), std::string::npos) << output;
}

// The latency lab's views from the committed H200 measurement (no GPU needed).
bool near(Rgb p, Rgb colour, int tolerance = 12) {
    return std::abs(p.r - colour.r) <= tolerance && std::abs(p.g - colour.g) <= tolerance &&
           std::abs(p.b - colour.b) <= tolerance;
}

void expect_drawn(const Image& image) {
    ASSERT_EQ(image.width, 1600);
    ASSERT_EQ(image.height, 1000);
    EXPECT_GT(ts::test::distinct_colours(image), 50) << "the screenshot looks blank";
}

TEST(Gui, LatencyViewFromMeasurement) {
    const Image image = screenshot("view_latency.png", "--view latency");
    expect_drawn(image);
    // The naive kernel's red and the naive-row kernel's purple lines, right of the panel.
    EXPECT_GT(image.count_if([](Rgb p) { return near(p, {205, 60, 40}); }, 0.3f), 100) << "no naive curve";
    EXPECT_GT(image.count_if([](Rgb p) { return near(p, {150, 60, 170}); }, 0.3f), 100) << "no naive-row curve";
}

TEST(Gui, TuningViewFromMeasurement) {
    const Image image = screenshot("view_tuning.png", "--view tuning");
    expect_drawn(image);
    // The best cell and best bar outlined, the invalid 64×32 cell grey.
    EXPECT_GT(image.count(rgb(ts::views::colours::kHighlight), 0.3f), 300) << "no best marker";
    EXPECT_GT(image.count(rgb(ts::views::colours::kGhostFill), 0.3f), 1000) << "no invalid cell";
}

TEST(Gui, RooflineViewFromMeasurement) {
    const Image image = screenshot("view_roofline.png", "--view roofline");
    expect_drawn(image);
    EXPECT_GT(image.count_if([](Rgb p) { return near(p, {205, 60, 40}); }, 0.3f), 10) << "no naive point";
    EXPECT_GT(image.count_if([](Rgb p) { return p.r < 40 && p.g < 40 && p.b < 40; }, 0.3f, 0.1f, 0.8f, 0.9f), 300)
        << "no roof";
}

// Without a GPU the benchmark has nothing to time: it must say so and exit 1, not wait.
TEST(Gui, LabBenchmarkWithoutGpuExitsWithTheReason) {
    const ts::gpu::DeviceInfo device = ts::gpu::probe_device();
    if (device.usable) GTEST_SKIP() << "a GPU is usable here, so the benchmark runs instead";
    std::string output;
    const auto started = std::chrono::steady_clock::now();
    const int status = run_in_window("--view latency --lab-benchmark 5", output);
    const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(status, 1) << output;
    EXPECT_NE(output.find("--lab-benchmark: no usable GPU: " + device.why_not), std::string::npos) << output;
    EXPECT_LT(seconds, 30.0) << output;
}

TEST(Gui, LoadRejectsAMissingFile) {
    std::string output;
    EXPECT_EQ(run_in_window("--view latency --load /nonexistent.json --frames 1", output), 2);
    EXPECT_NE(output.find("--load"), std::string::npos) << output;
}

// The tiling theatre (--view theatre): A, B and C with the block's tiles, and the shared-memory
// panels; padding slots (grey) only where a tile hangs over the edge of A or B.
int padding_grey(const Image& image) { return image.count(rgb(ts::views::colours::kGhostFill), 0.3f); }

TEST(Gui, TheatreTextbookFourByFour) {
    const Image image = screenshot("theatre_4x4_t2.png",
                                   "--m 4 --n 4 --k 4 --tile 2 --view theatre --select-block 0,0 --phase 1 --step load");
    expect_stage(image);
    // The legend's padding swatch alone is about 100 pixels; one padding slot would be thousands.
    EXPECT_LT(padding_grey(image), 300) << "T = 2 divides 4: no tile hangs over an edge";
}

TEST(Gui, TheatreRaggedShowsZeroPadding) {
    // Phase 0: only B's tile passes N = 28; phase 4: A's and B's tiles pass K = 36 too.
    const std::string setup = "--m 40 --n 28 --k 36 --tile 8 --view theatre --select-block 3,2 --step load --phase ";
    const Image first = screenshot("theatre_ragged_phase0.png", setup + "0");
    expect_stage(first);
    const Image last = screenshot("theatre_ragged_phase4.png", setup + "4");
    expect_stage(last);
    EXPECT_GT(padding_grey(first), 400) << "no padding in phase 0";
    EXPECT_GT(padding_grey(last), padding_grey(first)) << "phase 4 pads both tiles, so more grey";
}

TEST(Gui, TheatreRejectsAPhaseThatDoesNotExist) {
    std::string output;
    EXPECT_EQ(run_in_window("--m 40 --n 28 --k 36 --tile 8 --view theatre --phase 5 --frames 1", output), 2);
    EXPECT_NE(output.find("phases 0 to 4"), std::string::npos) << output;
}

}  // namespace
