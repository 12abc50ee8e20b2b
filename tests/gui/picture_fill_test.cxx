// Pictures that use their canvas (issue 26): the stage draws PMPP's 4 × 6 example and the
// default problem so that the matrices' bounding box covers at least half its canvas, with no
// two labels overlapping, at 1280×720 and 1920×1080, and in presenter mode at 1920×1080; the
// theatre's tiled block too, and its race labels keep clear of its captions; a
// lesson's card opens at its top; a screenshot leaves out a pinned cell's tooltip unless
// --tooltip asks for it. The boxes come from the app itself (--layout-report).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "gui_harness.hpp"

namespace {

struct Layout {
    std::string json;
    double cover = 0;
    std::string view;
};

// The stage's picture at `width` × `height` with `args`, as --layout-report writes it.
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
    // Two fields are enough here; the report is small and flat where they sit.
    const auto number_after = [&](const std::string& key) {
        const std::size_t at = layout.json.find("\"" + key + "\": ");
        return at == std::string::npos ? -1.0 : std::stod(layout.json.substr(at + key.size() + 4));
    };
    layout.cover = number_after("cover");
    const std::size_t view = layout.json.find("\"view\": \"");
    if (view != std::string::npos)
        layout.view = layout.json.substr(view + 9, layout.json.find('"', view + 9) - view - 9);
    return layout;
}

// `least`: the share of the canvas the matrices must cover (0: printed, not checked).
void expect_filled(const std::string& name, int width, int height, const std::string& args,
                   const std::string& view = "stage", double least = 0.5) {
    const Layout layout = layout_of(name, width, height, args);
    SCOPED_TRACE(name + " at " + std::to_string(width) + "×" + std::to_string(height));
    EXPECT_EQ(layout.view, view) << layout.json;
    std::cout << name << " " << width << "×" << height << ": the matrices cover " << layout.cover << " of the canvas\n";
    EXPECT_GE(layout.cover, least) << layout.json;
    // The app names the first two labels that overlap (views/common/picture_layout.hpp); none here.
    EXPECT_NE(layout.json.find("\"collision\": \"\""), std::string::npos) << layout.json;
    // Nor a matrix or label cut off at the canvas's edge.
    EXPECT_NE(layout.json.find("\"clipped\": \"\""), std::string::npos) << layout.json;
}

TEST(PictureFill, TheStageFillsItsCanvasAtBothSizes) {
    for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1920, 1080}}) {
        expect_filled("fill_stage", w, h, "");
        expect_filled("fill_lesson", w, h, "--lesson row-major --step 2");
    }
    expect_filled("fill_lesson_presenter", 1920, 1080, "--lesson row-major --step 2 --presenter");
    // At a 1280 × 720 projector with 2× text the canvas is a third of the window's height: the
    // names shrink with it, so the matrices still fit whole (they ran off its bottom edge).
    expect_filled("fill_lesson_presenter_720", 1280, 720, "--lesson row-major --step 2 --presenter", "stage", 0.25);
}

// The theatre at a desk's sizes: the tiled block fills half its canvas; with an experiment's
// stale read on show (its slot, writer and reader labelled where the captions leave room) no two
// labels overlap. (In presenter mode the theatre's canvas is still too small for all of them.)
TEST(PictureFill, TheTheatresLabelsStayApart) {
    for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1920, 1080}}) {
        expect_filled("fill_theatre", w, h, "--view theatre --kernel tiled --m 64 --n 64 --k 64 --tile 16", "theatre");
        expect_filled("fill_theatre_race", w, h, "--view theatre --experiment missing-first-sync", "theatre", 0.0);
        // The second barrier's race: its writer and reader sit on C's last row, under C's name.
        expect_filled("fill_theatre_race2", w, h, "--view theatre --experiment missing-second-sync", "theatre", 0.0);
        expect_filled("fill_theatre_bounds", w, h, "--view theatre --experiment no-bounds-check", "theatre", 0.0);
    }
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
