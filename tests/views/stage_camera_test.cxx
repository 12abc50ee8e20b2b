// The stage's zoom and pan, checked without drawing: the point under the pointer stays put,
// cells_rect and cell_at stay each other's inverse at any zoom, and what is drawn cell by
// cell is bounded by the screen.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>

#include "views/stage/stage_layout.hpp"
#include "support/problems.hpp"

namespace {

using ts::model::Cell;
using ts::views::Rect;
using ts::views::StageCamera;
using ts::views::StageGeometry;

using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;

const Rect kCameraRegion{{100, 50}, {1300, 950}};
constexpr float kCameraLine = 20.0f;

using ts::views::centre;

StageGeometry geometry(std::int64_t side, float zoom, Cell centre_cell, int tile = 16) {
    StageCamera camera;
    camera.request = StageCamera::Request{zoom, centre_cell};
    return ts::views::stage_geometry(make_problem(side, side, side), make_tiled(tile), camera, kCameraRegion, kCameraLine);
}

TEST(StageCamera, HomeCameraDrawsTheHomeLayout) {
    const auto p = make_problem(40, 28, 36);
    const StageGeometry g = ts::views::stage_geometry(p, make_tiled(8), StageCamera{}, kCameraRegion, kCameraLine);
    const auto home = ts::views::layout_stage(p, ts::views::block_tiling(make_tiled(8), p), kCameraRegion, kCameraLine);
    EXPECT_FLOAT_EQ(g.layout.c.min.x, home.c.min.x);
    EXPECT_FLOAT_EQ(g.layout.c.max.y, home.c.max.y);
    EXPECT_FLOAT_EQ(g.layout.a.min.x, home.a.min.x);
    EXPECT_FLOAT_EQ(g.layout.cell_w, home.cell_w);
    EXPECT_FLOAT_EQ(g.camera.zoom, 1.0f);
}

TEST(StageCamera, ZoomAboutAPointKeepsThatPointFixed) {
    StageCamera camera;
    camera.zoom = 3.0f;
    camera.pan = {-250.0f, 120.0f};
    for (const ImVec2 fixed : {ImVec2(100, 50), ImVec2(640, 480), ImVec2(1299, 949)})
        for (const float zoom : {0.5f, 1.0f, 7.5f, 4000.0f}) {
            SCOPED_TRACE(testing::Message() << fixed.x << "," << fixed.y << " zoom " << zoom);
            const ImVec2 home = ts::views::to_home(camera, kCameraRegion.min, fixed);
            const StageCamera zoomed = ts::views::zoom_about(camera, kCameraRegion.min, fixed, zoom);
            EXPECT_FLOAT_EQ(zoomed.zoom, zoom);
            const ImVec2 after = ts::views::to_screen(zoomed, kCameraRegion.min, home);
            EXPECT_NEAR(after.x, fixed.x, 1e-3f * std::max(1.0f, zoom));
            EXPECT_NEAR(after.y, fixed.y, 1e-3f * std::max(1.0f, zoom));
        }
}

TEST(StageCamera, ToHomeInvertsToScreen) {
    StageCamera camera;
    camera.zoom = 12.5f;
    camera.pan = {-3000.0f, -1700.0f};
    const ImVec2 home(437.0f, 611.0f);
    const ImVec2 back = ts::views::to_home(camera, kCameraRegion.min, ts::views::to_screen(camera, kCameraRegion.min, home));
    EXPECT_NEAR(back.x, home.x, 1e-3f);
    EXPECT_NEAR(back.y, home.y, 1e-3f);
}

TEST(StageCamera, CellAtInvertsCellsRectUnderZoom) {
    // 4096² at several zooms, 16384² at the deepest: the cell under a cell's centre is that cell.
    for (const auto& [side, zoom] : {std::pair{4096, 1.0f}, std::pair{4096, 37.0f}, std::pair{4096, 1e6f},
                                     std::pair{16384, 1e6f}}) {
        SCOPED_TRACE(testing::Message() << side << "² zoom " << zoom);
        const StageGeometry g = geometry(side, zoom, {side / 2 + 3, side / 3});
        for (const Cell cell : {Cell{side / 2 + 3, side / 3}, Cell{side / 2 + 4, side / 3 - 1},
                                Cell{side / 2 + 2, side / 3 + 1}}) {
            const Rect r = ts::views::cells_rect(g.layout.c, side, side, cell.row, cell.col, cell.row + 1, cell.col + 1);
            if (zoom > 1.0f) {
                EXPECT_TRUE(kCameraRegion.contains(centre(r)));
            }
            const auto hit = ts::views::cell_at(g.layout.c, side, side, centre(r));
            ASSERT_TRUE(hit);
            EXPECT_EQ(*hit, cell);
        }
    }
}

TEST(StageCamera, RequestPutsTheCellInTheMiddle) {
    const StageGeometry g = geometry(4096, 200.0f, {100, 2000});
    EXPECT_FALSE(g.camera.request);
    EXPECT_FLOAT_EQ(g.camera.zoom, 200.0f);
    const Rect cell = ts::views::cells_rect(g.layout.c, 4096, 4096, 100, 2000, 101, 2001);
    EXPECT_NEAR(centre(cell).x, centre(kCameraRegion).x, 0.5f);
    EXPECT_NEAR(centre(cell).y, centre(kCameraRegion).y, 0.5f);
    EXPECT_NEAR(g.layout.cell_w, g.home.cell_w * 200.0f, 1e-3f);
}

TEST(StageCamera, ZoomStopsWhereCellsAreLargeAndWhereTheStageIsSmall) {
    for (const int side : {16, 4096, 16384}) {
        SCOPED_TRACE(side);
        const StageGeometry deep = geometry(side, 1e6f, {side / 2, side / 2});
        EXPECT_NEAR(std::min({deep.layout.cell_w, deep.layout.k_cell}), ts::views::kMaxCellPixels, 1.0f);
        const StageGeometry far = geometry(side, 0.01f, {side / 2, side / 2});
        EXPECT_FLOAT_EQ(far.camera.zoom, ts::views::kMinZoom);
    }
}

TEST(StageCamera, PanCannotLoseTheStage) {
    const auto p = make_problem(4096, 4096, 4096);
    const auto home = ts::views::layout_stage(p, ts::views::block_tiling(make_tiled(16), p), kCameraRegion, kCameraLine);
    for (const ImVec2 pan : {ImVec2(1e6f, 1e6f), ImVec2(-1e6f, -1e6f), ImVec2(1e6f, -1e6f)}) {
        StageCamera camera;
        camera.zoom = 4.0f;
        camera.pan = pan;
        const StageCamera clamped = ts::views::clamp_camera(camera, home, kCameraRegion);
        const Rect stage = ts::views::to_screen(clamped, kCameraRegion.min, Rect{{home.a.min.x, home.b.min.y}, home.grid.max});
        EXPECT_GT(std::min(stage.max.x, kCameraRegion.max.x) - std::max(stage.min.x, kCameraRegion.min.x), 100.0f);
        EXPECT_GT(std::min(stage.max.y, kCameraRegion.max.y) - std::max(stage.min.y, kCameraRegion.min.y), 100.0f);
    }
}

TEST(VisibleCells, AllAtHomeNoneOffScreenAndTheScreensWorthZoomedIn) {
    const Rect area{{200, 100}, {600, 500}};
    const auto all = ts::views::visible_cells(area, 40, 20, kCameraRegion);
    EXPECT_EQ(all.count(), 800);
    EXPECT_TRUE(ts::views::visible_cells(area, 40, 20, {{700, 600}, {900, 900}}).empty());
    // Cells are 20 px wide and 10 px high: a box from row 10.5, column 2.75 to row 19.5,
    // column 4.75 overlaps rows 10–19 and columns 2–4.
    const auto some = ts::views::visible_cells(area, 40, 20, {{255, 205}, {295, 295}});
    EXPECT_EQ(some.row_begin, 10);
    EXPECT_EQ(some.row_end, 20);
    EXPECT_EQ(some.col_begin, 2);
    EXPECT_EQ(some.col_end, 5);

    const StageGeometry g = geometry(16384, 1e6f, {8000, 9000});
    const auto visible = ts::views::visible_cells(g.layout.c, 16384, 16384, kCameraRegion);
    const float per_row = kCameraRegion.width() / g.layout.cell_w + 2.0f, per_col = kCameraRegion.height() / g.layout.cell_h + 2.0f;
    EXPECT_GT(visible.count(), 0);
    EXPECT_LE(static_cast<float>(visible.count()), per_row * per_col);
}

}  // namespace
