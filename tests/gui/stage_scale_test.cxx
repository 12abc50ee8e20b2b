// The stage at scale, end to end: 4096² and 16384² matrices as heat maps drawn by the GPU's
// shader, zoomed in until the cells and their values show, with every state reached from
// flags (--zoom, --center).
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "gui_harness.hpp"
#include "views/common/example_values.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "views/common/theme.hpp"

namespace {

using ts::test::Image;
using ts::test::Rgb;
using ts::test::rgb;

bool near(Rgb p, Rgb q, int tolerance) {
    return std::abs(p.r - q.r) <= tolerance && std::abs(p.g - q.g) <= tolerance && std::abs(p.b - q.b) <= tolerance;
}

// The hues of the three ramps (theme.hpp's fill to line colours), whatever the value.
bool bluish(Rgb p) { return p.b > p.r + 30; }
bool orange(Rgb p) { return p.r > p.b + 50 && p.g < p.r; }
bool greenish(Rgb p) { return p.g > p.r + 20 && p.g > p.b + 15; }

constexpr float kStageLeft = 0.3f;  // right of the setup panel

void expect_heat_maps(const Image& image) {
    ASSERT_EQ(image.width, 1600);
    ASSERT_EQ(image.height, 1000);
    std::set<int> colours;
    for (std::size_t i = 0; i + 2 < image.pixels.size(); i += 3)
        colours.insert(image.pixels[i] << 16 | image.pixels[i + 1] << 8 | image.pixels[i + 2]);
    EXPECT_GT(colours.size(), 50u) << "the screenshot looks blank";
    // Each matrix is about 350 px square: its hue fills most of it.
    EXPECT_GT(image.count_if(bluish, kStageLeft), 50000) << "no heat map of A";
    EXPECT_GT(image.count_if(orange, kStageLeft), 50000) << "no heat map of B";
    EXPECT_GT(image.count_if(greenish, kStageLeft), 50000) << "no heat map of C";
    // Drawn by the shader, not the flat fills the stage falls back to without it.
    for (const ImU32 fill : {ts::views::colours::kA.fill, ts::views::colours::kB.fill, ts::views::colours::kC.fill})
        EXPECT_LT(image.count_if([&](Rgb p) { return near(p, rgb(fill), 0); }, kStageLeft), 400);
}

TEST(StageScale, HeatMapsAt4096) {
    expect_heat_maps(ts::test::screenshot("stage_4096.png", "--m 4096 --n 4096 --k 4096 --tile 16"));
}

TEST(StageScale, HeatMapsAt16384AreAveragedDown) {
    expect_heat_maps(ts::test::screenshot("stage_16384.png", "--m 16384 --n 16384 --k 16384 --tile 32"));
}

TEST(StageScale, ZoomedInShowsCellsValuesAndBlocks) {
    // C[2000][2000] in the middle, cells about 100 px: every value of C has its own shade.
    const Image image = ts::test::screenshot("stage_4096_zoomed.png",
                                             "--m 4096 --n 4096 --k 4096 --tile 16 --zoom 1200 --center 2000,2000");
    ASSERT_EQ(image.width, 1600);
    ts::views::HeatmapQuad ramp;
    ramp.low = 6144.0f;  // C's values for K = 4096: 6144, 8192 and 14336
    ramp.high = 14336.0f;
    ramp.low_colour = ts::views::colours::kC.fill;
    ramp.high_colour = ts::views::colours::kC.line;
    for (const int value : {6144, 8192, 14336}) {
        const Rgb shade = rgb(ts::views::heat_colour(ramp, value));
        EXPECT_GT(image.count_if([&](Rgb p) { return near(p, shade, 3); }, kStageLeft), 20000) << value;
    }
    // The values: dark text on light cells, white on dark ones (below the legend, whose
    // background is white too; the lightest cells have less red than 235).
    EXPECT_GT(image.count_if([](Rgb p) { return p.r > 235 && p.g > 235 && p.b > 235; }, kStageLeft, 0.25f), 300);
    EXPECT_GT(image.count_if([](Rgb p) { return near(p, rgb(ts::views::colours::kCellValue), 10); }, kStageLeft), 300);
}

TEST(StageScale, ZoomedInOnASmallProblem) {
    // The 12×16×8 default, zoomed on C[5][7]: still a grid of flat cells with values.
    const Image image = ts::test::screenshot("stage_default_zoomed.png", "--zoom 2.5 --center 5,7");
    ASSERT_EQ(image.width, 1600);
    EXPECT_GT(image.count_if([](Rgb p) { return near(p, rgb(ts::views::colours::kC.fill), 0); }, kStageLeft), 20000);
}

TEST(StageScale, TexturesAreBuiltOncePerMatrixNotPerFrame) {
    std::string output;
    ASSERT_EQ(ts::test::run_in_window("--m 4096 --n 4096 --k 4096 --frame-time 20", output), 0) << output;
    EXPECT_NE(output.find("over 20 frames"), std::string::npos) << output;
    EXPECT_NE(output.find("heat-map textures built: 3)"), std::string::npos) << output;
}

TEST(StageScale, BadZoomAndCenterExitWithTwo) {
    std::string output;
    EXPECT_EQ(ts::test::run_in_window("--m 64 --n 32 --center 64,0 --frames 1", output), 2);
    EXPECT_NE(output.find("--center 64,0 is outside C"), std::string::npos) << output;
    EXPECT_EQ(ts::test::run_in_window("--zoom 0 --frames 1", output), 2);
    EXPECT_EQ(ts::test::run_in_window("--frame-time 0", output), 2);
}

}  // namespace
