// The stage under zoom and pan, drawn into Dear ImGui without a window: the wheel zooms about
// the pointer, drags pan, hovering follows, the cost stays that of the screen, and large
// matrices reach the heat-map painter with keys that change only with their values.
#include <gtest/gtest.h>

#include "support/app_states.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_harness.hpp"
#include "platform/imgui_compat.hpp"
#include "views/window/app_state.hpp"
#include "views/window/main_view.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "views/stage/stage_view.hpp"

namespace {

using ts::model::Cell;
using ts::views::AppState;
using ts::views::HeatmapQuad;
using ts::views::StageGeometry;
using ts::views::StageMatrix;

using ts::testing_support::state_for;

// Remembers what the stage asks to paint; registered for the lifetime of the object.
class CapturingPainter : public ts::views::HeatmapPainter {
public:
    CapturingPainter() { ts::views::set_heatmap_painter(this); }
    ~CapturingPainter() override { ts::views::set_heatmap_painter(nullptr); }
    void paint(ImDrawList*, const HeatmapQuad& quad) override { quads.push_back(quad); }
    const HeatmapQuad* find(const std::string& key) const {
        for (const HeatmapQuad& q : quads)
            if (q.key == key) return &q;
        return nullptr;
    }
    std::vector<HeatmapQuad> quads;
};

using ts::views::centre;

ImVec2 centre_of(const StageGeometry& g, const AppState& state, Cell cell) {
    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n);
    return centre(ts::views::cells_rect(g.layout.c, m, n, cell.row, cell.col, cell.row + 1, cell.col + 1));
}

TEST(StageHeatmaps, LargeMatricesGoToThePainterWithStableKeys) {
    ts::test::ImGuiHarness imgui;
    CapturingPainter painter;
    AppState state = state_for(4096, 4096, 4096, 16);
    StageGeometry g;
    imgui.frame([&] { g = ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    ASSERT_EQ(painter.quads.size(), 3u);
    const HeatmapQuad* a = painter.find(ts::views::example_key(StageMatrix::A, state.problem));
    const HeatmapQuad* c = painter.find(ts::views::example_key(StageMatrix::C, state.problem));
    ASSERT_TRUE(a && c);
    EXPECT_FLOAT_EQ(a->min.x, g.layout.a.min.x);
    EXPECT_FLOAT_EQ(a->max.y, g.layout.a.max.y);
    EXPECT_FLOAT_EQ(c->max.x, g.layout.grid.max.x);
    EXPECT_EQ(c->rows, 4096);
    EXPECT_EQ(c->block_rows, 16);
    EXPECT_EQ(c->block_cols, 16);
    EXPECT_FLOAT_EQ(c->low, 6144.0f);  // the range the legend shows
    // The painter builds the texture from this; its size respects the limit.
    const ts::views::HeatmapImage image = a->image();
    EXPECT_EQ(image.rows, 4096);
    EXPECT_EQ(image.cols, 4096);

    // Another frame, zoomed: the same values, so the same keys and no new textures.
    const std::vector<std::string> keys{painter.quads[0].key, painter.quads[1].key, painter.quads[2].key};
    painter.quads.clear();
    state.camera.request = ts::views::StageCamera::Request{50.0f, Cell{100, 100}};
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    ASSERT_EQ(painter.quads.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(painter.quads[i].key, keys[i]);
}

TEST(StageHeatmaps, OnlyMatricesTooLargeForAGridAreHeatMaps) {
    ts::test::ImGuiHarness imgui;
    CapturingPainter painter;
    AppState small = state_for(12, 16, 8, 4);
    imgui.frame([&] { ts::views::draw_stage_canvas(small.camera, small.selected, small.picture, small); });
    EXPECT_TRUE(painter.quads.empty());
    // K = 4096 beside a 4 × 4 C: A and B are heat maps, C a grid with its values.
    AppState thin = state_for(4, 4, 4096, 4);
    imgui.frame([&] { ts::views::draw_stage_canvas(thin.camera, thin.selected, thin.picture, thin); });
    ASSERT_EQ(painter.quads.size(), 2u);
    EXPECT_FALSE(painter.find(ts::views::example_key(StageMatrix::C, thin.problem)));
}

TEST(StageHeatmaps, ThePinnedCellsBlockIsLit) {
    ts::test::ImGuiHarness imgui;
    CapturingPainter painter;
    AppState state = state_for(4096, 4096, 4096, 16);
    state.selected = Cell{40, 70};
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    const HeatmapQuad* c = painter.find(ts::views::example_key(StageMatrix::C, state.problem));
    ASSERT_TRUE(c);
    EXPECT_EQ(c->selected_block_row, 2);
    EXPECT_EQ(c->selected_block_col, 4);
}

TEST(StageZoom, WheelZoomsAboutThePointer) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(40, 28, 36, 8);
    StageGeometry before, after;
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    imgui.frame([&] { before = ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    // Whole pixels: ImGui rounds the pointer's position down.
    const ImVec2 middle = centre_of(before, state, {17, 9});
    const ImVec2 pointer(std::floor(middle.x), std::floor(middle.y));
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, pointer);
    ts::imgui_compat::add_mouse_wheel(ImGui::GetIO(), 2.0f);  // two notches towards the screen
    imgui.frame([&] { after = ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                pointer);
    EXPECT_NEAR(state.camera.zoom, 1.25f * 1.25f, 1e-4f);
    EXPECT_NEAR(after.layout.cell_w, before.layout.cell_w * 1.5625f, 1e-3f);
    // The same point of the stage is under the pointer, so the same cell.
    const ImVec2 was = ts::views::to_home(before.camera, before.region.min, pointer);
    const ImVec2 is = ts::views::to_home(after.camera, after.region.min, pointer);
    EXPECT_NEAR(is.x, was.x, 1e-3f);
    EXPECT_NEAR(is.y, was.y, 1e-3f);
    EXPECT_EQ(ts::views::cell_at(after.layout.c, 40, 28, pointer), (Cell{17, 9}));
}

TEST(StageZoom, RightDragPans) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(40, 28, 36, 8);
    const ImVec2 start(700, 600);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, start);
    ts::imgui_compat::set_mouse_button(ImGui::GetIO(), 1, true);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, start);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                ImVec2(start.x - 40, start.y + 25));
    ts::imgui_compat::set_mouse_button(ImGui::GetIO(), 1, false);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                ImVec2(start.x - 40, start.y + 25));
    EXPECT_FLOAT_EQ(state.camera.pan.x, -40.0f);
    EXPECT_FLOAT_EQ(state.camera.pan.y, 25.0f);
    EXPECT_FALSE(state.selected);
}

TEST(StageZoom, LeftDragPansAndDoesNotPin) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(40, 28, 36, 8);
    StageGeometry g;
    imgui.frame([&] { g = ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    const ImVec2 start = centre_of(g, state, {17, 9});
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, start);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, start, true);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                ImVec2(start.x + 30, start.y), true);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                ImVec2(start.x + 60, start.y), true);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                ImVec2(start.x + 60, start.y), false);
    EXPECT_GT(state.camera.pan.x, 20.0f);
    EXPECT_FALSE(state.selected) << "a drag is not a click";
}

TEST(StageZoom, HoverFindsTheCellUnderThePointerWhenZoomedIn) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(4096, 4096, 4096, 16);
    state.camera.request = ts::views::StageCamera::Request{300.0f, Cell{2000, 2000}};
    StageGeometry g;
    imgui.frame([&] { g = ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    const ImVec2 pointer = centre_of(g, state, {2001, 2003});
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, pointer);
    const std::string text =
        imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, pointer);
    EXPECT_NE(text.find("C[2001][2003]"), std::string::npos) << text;
    EXPECT_NE(text.find("blockIdx (x=125, y=125)"), std::string::npos) << text;
}

// Vertices of the stage zoomed in on the middle of C until its cells are `cell_px` wide.
int vertex_count(AppState state, float cell_px) {
    ts::test::ImGuiHarness imgui;
    StageGeometry home;
    imgui.frame([&] { home = ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    const int side = static_cast<int>(state.problem.m);
    state.camera.request = ts::views::StageCamera::Request{cell_px / home.home.cell_w, Cell{side / 2, side / 2}};
    for (int i = 0; i < 3; ++i)
        imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    return ImGui::GetDrawData()->TotalVtxCount;
}

TEST(StageZoom, ZoomedInCostFollowsTheScreenNotTheMatrix) {
    // Cells 60 px wide, each with its value (the same values: K is the same): a 16384² C
    // costs what a 4096² one does.
    const int large = vertex_count(state_for(4096, 4096, 4096, 16), 60.0f);
    const int huge = vertex_count(state_for(16384, 16384, 4096, 16), 60.0f);
    EXPECT_GT(large, 4000) << "no values drawn?";
    EXPECT_NEAR(huge, large, large / 10);
}

}  // namespace
