// The theatre canvas's layout at 1×, 2× and 3× text, checked without drawing: A, B, C and the
// shared-memory tiles stay on the canvas and never overlap, the tiles sit beside the shown
// block's strips, and captions are only placed where nothing is.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/problems.hpp"
#include "views/theatre/block/theatre_layout.hpp"

namespace {

using ts::model::KernelConfig;
using ts::model::KernelKind;
using ts::model::Problem;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;
using ts::views::CaptionPlacer;
using ts::views::Rect;
using ts::views::TheatreLayout;

bool overlap(const Rect& a, const Rect& b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

bool inside(const Rect& r, const Rect& region) {
    constexpr float e = 0.5f;
    return r.min.x >= region.min.x - e && r.min.y >= region.min.y - e && r.max.x <= region.max.x + e &&
           r.max.y <= region.max.y + e;
}

std::string describe(const Rect& r) {
    return "(" + std::to_string(r.min.x) + ", " + std::to_string(r.min.y) + ")-(" + std::to_string(r.max.x) + ", " +
           std::to_string(r.max.y) + ")";
}

struct Case {
    Problem problem;
    int tile;
    ts::model::Index2 block;
};

// The canvases the theatre gets: 1600×1000 at 1×, 1920×1080 at 2× and 3× (a projector) with
// a lesson card beside it, and a small window.
struct Canvas {
    Rect region;
    float line;  // heading line at that scale
};

TEST(TheatreLayout, NothingOverlapsAndEverythingStaysOnTheCanvasAtAnyTextSize) {
    const std::vector<Case> cases = {{make_problem(4, 4, 4), 2, {1, 1}},
                                     {make_problem(12, 16, 8), 4, {0, 0}},
                                     {make_problem(40, 28, 36), 8, {3, 2}},
                                     {make_problem(64, 64, 64), 32, {1, 0}},
                                     {make_problem(4096, 4096, 4096), 32, {0, 0}},
                                     {make_problem(1, 300, 7), 16, {18, 0}},
                                     {make_problem(300, 1, 7), 16, {0, 18}}};
    const std::vector<Canvas> canvases = {{{{470, 130}, {1590, 950}}, 18.0f},
                                          {{{880, 300}, {1910, 990}}, 36.0f},
                                          {{{880, 420}, {1910, 980}}, 54.0f},
                                          {{{400, 150}, {1000, 650}}, 18.0f}};
    for (const Case& c : cases)
        for (const Canvas& canvas : canvases) {
            const KernelConfig config = make_tiled(c.tile);
            const auto strips = ts::views::block_strips(config, c.problem, c.block);
            const TheatreLayout l = ts::views::layout_theatre(c.problem, ts::views::block_tiling(config, c.problem),
                                                              strips, c.tile, false, canvas.region, canvas.line);
            const std::string where = std::to_string(c.problem.m) + "×" + std::to_string(c.problem.n) + "×" +
                                      std::to_string(c.problem.k) + " T=" + std::to_string(c.tile) + " on " +
                                      describe(canvas.region) + " at line " + std::to_string(canvas.line);
            const std::vector<std::pair<const char*, Rect>> parts = {
                {"A", l.stage.a}, {"B", l.stage.b}, {"C", l.stage.grid}, {"As", l.as_panel}, {"Bs", l.bs_panel}};
            for (std::size_t i = 0; i < parts.size(); ++i) {
                EXPECT_TRUE(inside(parts[i].second, canvas.region))
                    << parts[i].first << " " << describe(parts[i].second) << " leaves the canvas: " << where;
                EXPECT_GT(parts[i].second.width(), 0.0f) << parts[i].first << ": " << where;
                for (std::size_t j = i + 1; j < parts.size(); ++j)
                    EXPECT_FALSE(overlap(parts[i].second, parts[j].second))
                        << parts[i].first << " " << describe(parts[i].second) << " overlaps " << parts[j].first << " "
                        << describe(parts[j].second) << ": " << where;
            }
            // As is square, left of A; Bs square, above B.
            EXPECT_FLOAT_EQ(l.as_panel.width(), l.as_panel.height()) << where;
            EXPECT_FLOAT_EQ(l.bs_panel.width(), l.bs_panel.height()) << where;
            EXPECT_LE(l.as_panel.max.x, l.stage.a.min.x) << where;
            EXPECT_LE(l.bs_panel.max.y, l.stage.b.min.y) << where;
        }
}

TEST(TheatreLayout, ATileLooksTCellsWideWhereCellsAreLarge) {
    // 12×16×8 with T = 4 on a roomy canvas: As is as wide as the 4 columns of A it copies.
    const Problem p = make_problem(12, 16, 8);
    const KernelConfig config = make_tiled(4);
    const TheatreLayout l =
        ts::views::layout_theatre(p, ts::views::block_tiling(config, p), ts::views::block_strips(config, p, {0, 0}), 4,
                                  false, {{0, 0}, {1100, 800}}, 18.0f);
    EXPECT_NEAR(l.as_panel.width(), 4.0f * l.stage.k_cell, 0.05f * l.as_panel.width());
    // Beside the block's rows 0..3 of A: their middles line up.
    const Rect rows = ts::views::cells_rect(l.stage.a, 12, 8, 0, 0, 4, 8);
    EXPECT_NEAR((l.as_panel.min.y + l.as_panel.max.y) * 0.5f, (rows.min.y + rows.max.y) * 0.5f, 1.0f);
}

TEST(TheatreLayout, TheNaiveKernelHasNoTilesAndTheMatricesTakeTheCanvas) {
    const Problem p = make_problem(64, 64, 64);
    KernelConfig naive;
    naive.kind = KernelKind::Naive;
    const Rect region{{0, 0}, {1000, 700}};
    const TheatreLayout l = ts::views::layout_theatre(p, ts::views::block_tiling(naive, p),
                                                      ts::views::block_strips(naive, p, {0, 0}), 32, true, region, 18.0f);
    EXPECT_EQ(l.as_panel.width(), 0.0f);
    EXPECT_EQ(l.bs_panel.width(), 0.0f);
    const ts::views::StageLayout whole = ts::views::layout_stage(p, ts::views::block_tiling(naive, p), region, 18.0f);
    EXPECT_FLOAT_EQ(l.stage.c.width(), whole.c.width());
}

TEST(CaptionPlacer, TakesTheFirstFormAndSpotWithRoomAndNeverCoversWhatIsThere) {
    CaptionPlacer placer({{0, 0}, {100, 100}});
    placer.occupy({{0, 0}, {50, 50}});
    const auto at = [](float x, float y) { return [=](ImVec2) { return ImVec2{x, y}; }; };
    // Long form: fits at neither spot (the first covers the occupied box, the second leaves
    // the canvas); the short form fits at the first spot's neighbour.
    const auto placed = placer.place({{80, 20}, {40, 20}}, {at(10, 60), at(60, 10)});
    EXPECT_EQ(placed.form, 0);  // 80 wide at (10, 60): free and on the canvas
    EXPECT_EQ(placed.rect.min.x, 10.0f);
    const auto second = placer.place({{80, 20}, {40, 20}}, {at(10, 60), at(55, 10)});
    EXPECT_EQ(second.form, 1) << "the long form overlaps the first caption or leaves the canvas";
    EXPECT_EQ(second.rect.min.x, 55.0f);
    EXPECT_EQ(placer.place({{60, 60}}, {at(0, 0), at(40, 40)}).form, -1) << "no room anywhere: left out";
}

// A label none of whose spots has room goes to the free place nearest what it names, never over
// what is there; with no room left anywhere, nowhere.
TEST(CaptionPlacer, PlaceNearFindsTheNearestFreePlace) {
    CaptionPlacer placer({{0, 0}, {200, 100}});
    // The left half taken but for a strip along its bottom; the anchor in the middle of it.
    placer.occupy({{0, 0}, {100, 80}});
    const auto near = placer.place_near({30, 10}, {50, 40}, 5.0f);
    ASSERT_TRUE(near.has_value());
    const bool below = near->min.y >= 80.0f, right = near->min.x >= 100.0f;
    EXPECT_TRUE(below || right) << near->min.x << ", " << near->min.y << ": over the taken box";
    EXPECT_TRUE(below) << "the strip below (30 px away) is nearer than the right half (50 px)";
    EXPECT_NEAR(near->min.x + 15.0f, 50.0f, 5.0f) << "straight below the anchor";
    EXPECT_LE(near->max.y, 100.0f);
    // Taken like place()'s: the next one goes elsewhere.
    const auto next = placer.place_near({30, 10}, {50, 40}, 5.0f);
    ASSERT_TRUE(next.has_value());
    EXPECT_FALSE(next->min.x < near->max.x && near->min.x < next->max.x && next->min.y < near->max.y &&
                 near->min.y < next->max.y);
    // Wider than the canvas: nowhere.
    EXPECT_FALSE(placer.place_near({300, 10}, {50, 40}, 5.0f).has_value());
}

}  // namespace
