// The latency lab in a real window, from the committed H200 measurement (no GPU needed): the
// ladder's rungs are plotted beside the tiled kernel and cuBLAS, at 1× and in presenter mode.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "gui_harness.hpp"
#include "views/common/theme.hpp"

namespace {

using namespace ts::test;

bool near(Rgb p, Rgb colour, int tolerance = 12) {
    return std::abs(p.r - colour.r) <= tolerance && std::abs(p.g - colour.g) <= tolerance &&
           std::abs(p.b - colour.b) <= tolerance;
}

// The warptile and tuned rungs' colours (latency_view.cxx), on by default.
constexpr Rgb kWarptile{150, 30, 90};
constexpr Rgb kTuned{20, 120, 50};

void expect_drawn(const Image& image, int width, int height) {
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    EXPECT_GT(ts::test::distinct_colours(image), 50) << "the screenshot looks blank";
}

// The plot's part of the window: right of the side panel, between the view buttons and the
// status bar.
int plot_pixels_near(const Image& image, Rgb colour) {
    return image.count_if([&](Rgb p) { return near(p, colour); }, 0.35f, 0.1f, 1.0f, 0.92f);
}

// Opened with --load, so that on a GPU machine too no first-visit sweep starts and the picture
// is the measurement's alone, drawn solid.
const std::string kLoad = "--load '" TILESCOPE_TRACES_DIR "/../measurements/nvidia-h200-2026-11-24.json' ";

TEST(LatencyGui, RecordedLadderRungsArePlotted) {
    const Image image = screenshot("latency_ladder.png", kLoad + "--view latency");
    expect_drawn(image, 1600, 1000);
    EXPECT_GT(plot_pixels_near(image, kWarptile), 100) << "no warptile curve";
    EXPECT_GT(plot_pixels_near(image, kTuned), 100) << "no tuned curve";
}

TEST(LatencyGui, RecordedLadderRungsInPresenterMode) {
    const Image image =
        screenshot("latency_ladder_presenter.png", kLoad + "--view latency --presenter --width 1920 --height 1080");
    expect_drawn(image, 1920, 1080);
    EXPECT_GT(plot_pixels_near(image, kWarptile), 100) << "no warptile curve";
    EXPECT_GT(plot_pixels_near(image, kTuned), 100) << "no tuned curve";
}

}  // namespace
