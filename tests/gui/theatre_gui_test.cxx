// The tiling theatre in the real binary, in a window (under xvfb-run when there is no
// display): each test drives one state with flags, saves a screenshot into this build
// directory, and checks the colours that state must show.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gui_harness.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/common/theme.hpp"

namespace {

using ts::test::Image;
using ts::test::Rgb;
using ts::test::rgb;

// Pixels of exactly `colour` in the box [x0, x1) × [y0, y1), given as fractions of the size.
// A 1600×1000 screenshot of the theatre with `args`, which must not be blank.
Image theatre(const std::string& name, const std::string& args) {
    const Image image = ts::test::screenshot(name, "--view theatre " + args);
    EXPECT_EQ(image.width, 1600);
    EXPECT_EQ(image.height, 1000);
    EXPECT_GT(ts::test::distinct_colours(image), 50) << "the screenshot looks blank";
    return image;
}

// The canvas lies right of the panel (30 em of 17 px, about a third of the window).
constexpr float kCanvas = 0.34f;

void expect_matrices(const Image& image) {
    EXPECT_GT(image.count(rgb(ts::views::colours::kA.fill), kCanvas), 400) << "no A";
    EXPECT_GT(image.count(rgb(ts::views::colours::kB.fill), kCanvas), 400) << "no B";
    EXPECT_GT(image.count(rgb(ts::views::colours::kC.fill), kCanvas), 400) << "no C";
}

TEST(TheatreGui, TextbookFourByFourOneKAtATime) {
    const Image image = theatre("theatre_4x4_t2_k.png", "--m 4 --n 4 --k 4 --tile 2 --select 1,2 --phase 1 --k-step 1");
    expect_matrices(image);
    // The two slots of this k, their line into C[1][2], and the thread's reads: highlight pink.
    EXPECT_GT(image.count(rgb(ts::views::colours::kHighlight), kCanvas), 300);
}

TEST(TheatreGui, NaiveKernelReadsGlobalMemory) {
    const Image image = theatre("theatre_naive_40x28x36.png",
                                "--m 40 --n 28 --k 36 --tile 8 --kernel naive --select 11,21 --phase 2 --step compute "
                                "--panel thread");
    expect_matrices(image);
    EXPECT_EQ(image.count(rgb(ts::views::colours::kGhostFill), kCanvas), 0) << "the naive kernel pads nothing";
}

TEST(TheatreGui, NaiveVsTiledShowsTheReuse) {
    // Phase 1 done: naive has read k 0..15 of A 28 times each, tiled 4 times each. Full
    // shade is the most reads any kernel makes (naive's), so only the naive half has it.
    const Image image = theatre("theatre_side_by_side.png",
                                "--m 40 --n 28 --k 36 --tile 8 --side-by-side --phase 1 --step sync2");
    const float middle = kCanvas + (1.0f - kCanvas) * 0.5f;
    const int naive_dark = image.count(rgb(ts::views::colours::kA.line), kCanvas, 0.1f, middle, 0.85f);
    const int tiled_dark = image.count(rgb(ts::views::colours::kA.line), middle, 0.1f, 1.0f, 0.85f);
    EXPECT_GT(naive_dark, 3000) << "A's read columns are not dark in the naive half";
    EXPECT_LT(tiled_dark, naive_dark / 10) << "the tiled half reads as often as the naive one";
}

TEST(TheatreGui, WarpAndSectors) {
    const Image image = theatre("theatre_warp_sectors.png",
                                "--m 64 --n 64 --k 64 --tile 32 --select-block 1,0 --select 2,37 --phase 1 --step load "
                                "--panel warp");
    expect_matrices(image);
    // Threads coloured by warp in As, Bs and C; sector counts green (4) and red (32) in the panel.
    EXPECT_GT(image.count(rgb(ts::views::warp_colour(0)), kCanvas), 400);
    EXPECT_GT(image.count(rgb(ts::views::warp_colour(1)), kCanvas), 400);
    EXPECT_GT(image.count(rgb(ts::views::colours::kError), 0.0f, 0.3f, kCanvas, 1.0f), 50) << "no red sector count";
    EXPECT_GT(image.count(rgb(ts::views::colours::kPass), 0.0f, 0.3f, kCanvas, 1.0f), 50) << "no green sector count";
}

TEST(TheatreGui, BatchedRaggedWithPadding) {
    const Image image = theatre("theatre_batch_13x7x10.png",
                                "--m 13 --n 7 --k 10 --tile 4 --batch-z 2 --select 12,6 --panel thread --phase 2 "
                                "--step load");
    expect_matrices(image);
    EXPECT_GT(image.count(rgb(ts::views::colours::kGhostFill), kCanvas), 400) << "no padding drawn";
}

TEST(TheatreGui, FlagsThatDoNotFitAreRejected) {
    std::string output;
    EXPECT_EQ(ts::test::run_in_window("--view theatre --m 40 --n 28 --k 36 --tile 8 --hover-a 40,0 --frames 1", output), 2);
    EXPECT_NE(output.find("--hover-a: A[40][0] is outside A"), std::string::npos) << output;
    EXPECT_EQ(ts::test::run_in_window("--view theatre --kernel naive --step sync1 --frames 1", output), 2);
    EXPECT_NE(output.find("naive kernel has no sync1 step"), std::string::npos) << output;
    EXPECT_EQ(ts::test::run_in_window("--view theatre --tile 8 --k-step 8 --frames 1", output), 2);
    EXPECT_NE(output.find("runs from 0 to 7"), std::string::npos) << output;
}

}  // namespace

namespace {

// The replay recorded on the NVIDIA H200 (assets/traces): block (3, 2) at phase 4 with the
// SMs tab open, so the timeline runs across the top of the stage.
TEST(TheatreGui, ReplayRecordedOnTheGpuWithItsSmTimeline) {
    const std::string traces = TILESCOPE_TRACES_DIR;
    const Image image = theatre("theatre_recorded_sms.png",
                                "--m 40 --n 28 --k 36 --tile 8 --block 8x8 --select-block 3,2 --phase 4 --step load "
                                "--panel sms --trace " + traces + "/nvidia-h200-tiled-40x28x36-t8.json --trace " +
                                    traces + "/nvidia-h200-naive-40x28x36-8x8.json");
    // The timeline: 20 blocks in wave 1 (C's line green), block (3, 2) in the highlight.
    EXPECT_GT(image.count(rgb(ts::views::colours::kC.line), kCanvas, 0.1f, 1.0f, 0.45f), 20000);
    EXPECT_GT(image.count(rgb(ts::views::colours::kHighlight), kCanvas, 0.1f, 1.0f, 0.45f), 3000);
    // "events: recorded on NVIDIA H200" in the pass colour, in the panel.
    EXPECT_GT(image.count(rgb(ts::views::colours::kPass), 0.0f, 0.0f, kCanvas, 0.4f), 10);
    // The stage is still drawn below it, with the padding of the B tile.
    expect_matrices(image);
}

TEST(TheatreGui, ABrokenTraceIsReportedAndTheModelPlays) {
    const std::string broken = ts::test::out_path("broken_trace.json");
    FILE* file = std::fopen(broken.c_str(), "w");
    ASSERT_TRUE(file);
    std::fputs("{\"format\": \"tilescope-trace\",", file);
    std::fclose(file);
    std::string output;
    const Image image = ts::test::screenshot("theatre_broken_trace.png",
                                             "--view theatre --m 40 --n 28 --k 36 --tile 8 --trace " + broken, &output);
    EXPECT_NE(output.find("--trace: " + broken + ":1:"), std::string::npos) << output;
    EXPECT_GT(image.count_near(rgb(ts::views::colours::kError), 24, 0.0f, 0.0f, kCanvas, 0.5f), 50)
        << "the error, in red";
    expect_matrices(image);
}

}  // namespace
