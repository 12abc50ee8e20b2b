// Pictures that use their canvas (issue 26): the stage (PMPP's 4 × 6 example in a lesson, and the
// default problem) and the theatre (the tiled block, and the experiments' cases) draw so that the
// matrices' bounding box covers at least half the canvas, with no two labels overlapping and
// nothing cut off at its edge, at 1280×720 and 1920×1080, at 1×, 1.5× and presenter mode's 2×
// (and 3× at 1080p); a lesson's card opens at its top; a screenshot leaves out a pinned cell's
// tooltip unless --tooltip asks for it. The boxes come from the app itself (--layout-report).
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gui_harness.hpp"

namespace {

// The picture's layout as --layout-report writes it (views/common/picture_layout.hpp).
struct Layout {
    std::string json;  // the whole report, for failure messages
    std::string view;
    double cover = 0;
    std::array<double, 4> canvas{};  // x0, y0, x1, y1
    std::string collision, clipped;  // the app names the first of each, or ""
};

// The picture at `width` × `height` with `args`.
Layout layout_of(const std::string& name, int width, int height, const std::string& args) {
    const std::string report = ts::test::out_path(name + ".json");
    std::remove(report.c_str());
    ts::test::screenshot(name + ".png", "--width " + std::to_string(width) + " --height " + std::to_string(height) +
                                            " --layout-report '" + report + "' " + args);
    std::ifstream in(report);
    std::stringstream text;
    text << in.rdbuf();
    Layout layout;
    layout.json = text.str();
    const nlohmann::json json = nlohmann::json::parse(layout.json, nullptr, false);
    if (json.is_discarded()) {
        ADD_FAILURE() << name << ": no layout report, or not JSON: " << layout.json;
        return layout;
    }
    layout.view = json.value("view", "");
    layout.cover = json.value("cover", -1.0);
    if (json.contains("canvas")) layout.canvas = json["canvas"].get<std::array<double, 4>>();
    layout.collision = json.value("collision", "");
    layout.clipped = json.value("clipped", "");
    return layout;
}

// The matrices cover at least half the canvas; no label overlaps another or runs off the canvas.
void expect_filled(const std::string& name, int width, int height, const std::string& args, const std::string& view) {
    const Layout layout = layout_of(name, width, height, args);
    SCOPED_TRACE(name + " at " + std::to_string(width) + "×" + std::to_string(height));
    EXPECT_EQ(layout.view, view) << layout.json;
    std::cout << name << " " << width << "×" << height << ": the matrices cover " << layout.cover << " of the canvas\n";
    EXPECT_GE(layout.cover, 0.5) << layout.json;
    EXPECT_EQ(layout.collision, "") << "two labels overlap\n" << layout.json;
    EXPECT_EQ(layout.clipped, "") << "cut off at the canvas's edge\n" << layout.json;
}

// The sizes and text scales of issue 26: a desk's 1×, 1.5×, and presenter mode's 2× (which folds
// the panel and puts the words beside the picture where the window is too narrow for all three),
// at 1280×720 and 1920×1080; 3× on the 1080p projector. (3× on 1280×720 leaves 427×240 points of
// room, smaller than any phone: there the pictures are cramped.)
struct Screen {
    int width, height;
    const char* scale;  // flags
    const char* name;
};
constexpr Screen kScreens[] = {{1280, 720, "", "1x"},
                               {1280, 720, "--font-scale 1.5", "1.5x"},
                               {1280, 720, "--presenter", "presenter"},
                               {1920, 1080, "", "1x"},
                               {1920, 1080, "--font-scale 1.5", "1.5x"},
                               {1920, 1080, "--presenter", "presenter"},
                               {1920, 1080, "--presenter --font-scale 3", "3x"}};

// Every screen above, for a picture named `name` drawn with `args`.
void expect_filled_everywhere(const std::string& name, const std::string& args, const std::string& view) {
    for (const Screen& screen : kScreens)
        expect_filled(name + "_" + std::to_string(screen.width) + "_" + screen.name, screen.width, screen.height,
                      args + " " + screen.scale, view);
}

TEST(PictureFill, TheStageFillsItsCanvas) { expect_filled_everywhere("fill_stage", "", "stage"); }

TEST(PictureFill, ALessonsStageFillsItsCanvas) {
    expect_filled_everywhere("fill_lesson", "--lesson row-major --step 2", "stage");
}

TEST(PictureFill, TheTheatresBlockFillsItsCanvas) {
    expect_filled_everywhere("fill_theatre", "--view theatre --kernel tiled --m 64 --n 64 --k 64 --tile 16", "theatre");
}

// An experiment's stale read on show: its slot, writer and reader labelled where the captions
// leave room, else at the nearest free place with a line to what they name; no two labels overlap.
TEST(PictureFill, TheFirstBarriersRaceFillsItsCanvas) {
    expect_filled_everywhere("fill_theatre_race", "--view theatre --experiment missing-first-sync", "theatre");
}

// The second barrier's race: its writer and reader sit on C's last row, under C's name.
TEST(PictureFill, TheSecondBarriersRaceFillsItsCanvas) {
    expect_filled_everywhere("fill_theatre_race2", "--view theatre --experiment missing-second-sync", "theatre");
}

TEST(PictureFill, TheBoundsCheckCaseFillsItsCanvas) {
    expect_filled_everywhere("fill_theatre_bounds", "--view theatre --experiment no-bounds-check", "theatre");
}

// The tensor-core theatre's pictures (issue 45): who holds which accumulator of a wgmma (64 rows,
// narrow: its words beside it) and which element of an mma, a tile in shared memory, the ring of
// stages, and the persistent rung's tiles (shown at 4096³: the stage's 12×16×8 has one tile).
TEST(PictureFill, TheTensorCoresWhoHoldsWhatFillsItsCanvas) {
    expect_filled_everywhere("fill_tc_fragments", "--view theatre --kernel wgmma --panel fragments", "theatre");
    expect_filled_everywhere("fill_tc_fragments_mma", "--view theatre --kernel mma --panel fragments", "theatre");
}

TEST(PictureFill, TheTensorCoresSharedMemoryFillsItsCanvas) {
    expect_filled_everywhere("fill_tc_smem", "--view theatre --kernel wgmma --panel smem", "theatre");
}

TEST(PictureFill, TheTensorCoresStagesFillTheirCanvas) {
    expect_filled_everywhere("fill_tc_stages", "--view theatre --kernel warp-specialized --panel stages", "theatre");
}

TEST(PictureFill, TheTensorCoresTilesFillTheirCanvas) {
    expect_filled_everywhere("fill_tc_tiles", "--view theatre --kernel persistent --panel tiles", "theatre");
}

// At 2× on 1280×720 the tensor-core theatre's panel folds as the FP32 theatre's does, and the
// accumulators' words stand beside the picture (right of it), not over it; at a desk's 1× the
// panel is open.
TEST(PictureFill, TheTensorCoresPanelFoldsAndTheirWordsGoBeside) {
    const auto folded = layout_of("tc_fold_presenter", 1280, 720, "--presenter --view theatre --kernel wgmma").canvas;
    const auto desk = layout_of("tc_fold_desk", 1280, 720, "--view theatre --kernel wgmma").canvas;
    EXPECT_LT(folded[0], 0.1 * 1280);
    EXPECT_LT(folded[2], 0.6 * 1280) << "the words' column right of the picture";
    EXPECT_GT(folded[3] - folded[1], 0.6 * 720) << "the picture has the height, not a strip under the words";
    EXPECT_GT(desk[0], 0.3 * 1280);
}

// On a 1280×720 projector at 2× the stage's panel starts folded (the canvas reaches the window's
// left edge), Ctrl+B brings it back (the canvas starts right of it); at a desk's 1× it is open.
TEST(PictureFill, APresentersPanelFoldsAwayAndCtrlBBringsItBack) {
    const double folded = layout_of("fold_presenter", 1280, 720, "--presenter").canvas[0];
    const double unfolded = layout_of("fold_ctrl_b", 1280, 720, "--presenter --keys ctrl+b").canvas[0];
    const double desk = layout_of("fold_desk", 1280, 720, "").canvas[0];
    EXPECT_LT(folded, 0.1 * 1280);
    EXPECT_GT(unfolded, 0.3 * 1280);
    EXPECT_GT(desk, 0.3 * 1280);
}

// F7 (slide) leaves the window's bars out: the canvas takes their height, above and below.
TEST(PictureFill, SlideModeGivesTheBarsHeightToThePicture) {
    const auto bars = layout_of("slide_off", 1280, 720, "--presenter --view theatre").canvas;
    const auto slide = layout_of("slide_on", 1280, 720, "--presenter --view theatre --keys F7").canvas;
    EXPECT_LT(slide[1], bars[1] - 30.0) << "the switcher's row is still above the picture";
    EXPECT_GT(slide[3], bars[3] + 30.0) << "the status bar is still below the picture";
}

// Step 2 pins C[1][2]: its tooltip (the thread's blockIdx and threadIdx, on a white box) stays in
// the picture only with --tooltip; the lesson card shows its first line ("step 2 of 5") either way.
TEST(PictureFill, NoPinnedTooltipInAScreenshotUnlessAsked) {
    std::string printed;
    const auto image = ts::test::screenshot("fill_no_tooltip.png", "--lesson row-major --step 2 --presenter", &printed);
    const auto with_tip =
        ts::test::screenshot("fill_tooltip.png", "--lesson row-major --step 2 --presenter --tooltip", &printed);
    // The tooltip is a white box over the stage (the right half).
    const auto whiteish = [](ts::test::Rgb p) { return p.r > 245 && p.g > 245 && p.b > 245; };
    const int without = image.count_if(whiteish, 0.5f, 0.3f, 1.0f, 0.9f);
    const int with = with_tip.count_if(whiteish, 0.5f, 0.3f, 1.0f, 0.9f);
    EXPECT_GT(with, without + 20000) << "the tooltip's box adds white over the stage: " << with << " against " << without;
}

}  // namespace
