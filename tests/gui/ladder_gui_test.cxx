// The kernel ladder in the real binary, in a window (under xvfb-run when there is no display):
// `--view ladder` draws its bars from the committed measurement, at 1× and in presenter mode,
// Ctrl+6 opens it, and the roofline shows the ladder's rungs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "gui_harness.hpp"
#include "model/kernel_config.hpp"
#include "views/lab/error_speed_view.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/common/theme.hpp"

namespace {

using ts::model::KernelKind;
using namespace ts::test;

bool near(Rgb p, Rgb q, int tolerance = 6) {
    return std::abs(p.r - q.r) <= tolerance && std::abs(p.g - q.g) <= tolerance && std::abs(p.b - q.b) <= tolerance;
}

void expect_not_blank(const Image& image, int width, int height) {
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    EXPECT_GT(ts::test::distinct_colours(image), 50) << "the screenshot looks blank";
}

// Pixels of a kernel's bar colour right of the side panel.
int bar_pixels(const Image& image, KernelKind kind, float from_x) {
    const Rgb colour = rgb(ts::views::ladder_colour(kind));
    return image.count_if([&](Rgb p) { return p == colour; }, from_x);
}

TEST(LadderGui, ViewDrawsEveryBarFromTheMeasurement) {
    const Image image = screenshot("view_ladder.png", "--view ladder");
    expect_not_blank(image, 1600, 1000);
    // A solid bar for the base, each rung and cuBLAS, right of the panel.
    for (KernelKind kind : {KernelKind::Tiled, KernelKind::RegTile1d, KernelKind::RegTile2d, KernelKind::Vectorized,
                            KernelKind::ConflictFree, KernelKind::Warptile, KernelKind::Pipelined, KernelKind::Tuned,
                            KernelKind::Cublas})
        EXPECT_GT(bar_pixels(image, kind, 0.3f), 300) << "no bar for " << ts::model::kernel_name(kind);
}

TEST(LadderGui, PresenterModeStillShowsTheBars) {
    const Image image =
        screenshot("view_ladder_presenter.png", "--view ladder --presenter --width 1920 --height 1080");
    expect_not_blank(image, 1920, 1080);
    EXPECT_GT(bar_pixels(image, KernelKind::Tuned, 0.4f), 300) << "no tuned bar";
    EXPECT_GT(bar_pixels(image, KernelKind::Cublas, 0.4f), 300) << "no cuBLAS bar";
}

TEST(LadderGui, CtrlSixOpensTheLadder) {
    const Image image = screenshot("view_ladder_key.png", "--keys ctrl+6 --frames 8");
    expect_not_blank(image, 1600, 1000);
    EXPECT_GT(bar_pixels(image, KernelKind::Tuned, 0.3f), 300) << "Ctrl+6 did not open the ladder";
}

TEST(LadderGui, RooflineShowsTheRungs) {
    const Image image = screenshot("view_roofline_ladder.png", "--view roofline");
    expect_not_blank(image, 1600, 1000);
    // The ladder's path, one series joined rung to rung, in the ladder's green.
    const Rgb path = rgb(ts::views::ladder_colour(KernelKind::ConflictFree));
    EXPECT_GT(image.count_if([&](Rgb p) { return near(p, path, 10); }, 0.3f), 150) << "no kernel ladder";
}

// The error against speed (--ladder-page errors) from a hand-made measurement: a marker of each
// type's colour right of the side panel, FP8's two scalings apart.
TEST(LadderGui, ErrorAgainstSpeedMarksEveryType) {
    const Image image = screenshot("view_error_speed.png", std::string("--view ladder --ladder-page errors --load ") +
                                                               TILESCOPE_TEST_DATA_DIR "/error_speed_sample.json");
    expect_not_blank(image, 1600, 1000);
    for (const char* type : ts::views::kErrorSpeedTypes) {
        const Rgb colour = rgb(ts::views::error_speed_colour(type));
        EXPECT_GT(image.count_if([&](Rgb p) { return p == colour; }, 0.3f), 20) << "no marker for " << type;
    }
}

}  // namespace
