// The stage view: the hover tooltip names the thread the model says computes the cell, and
// large problems are drawn without a draw call per cell.
#include <gtest/gtest.h>

#include "support/app_states.hpp"

#include "imgui.h"
#include "platform/imgui_compat.hpp"
#include "imgui_harness.hpp"
#include "model/format.hpp"
#include "model/thread_map.hpp"
#include "views/window/app_state.hpp"
#include "views/common/example_values.hpp"
#include "views/window/main_view.hpp"
#include "views/stage/stage_layout.hpp"
#include "views/stage/stage_view.hpp"

namespace {

using ts::model::format_text;
using ts::views::AppState;

using ts::testing_support::state_for;

TEST(CellTooltip, PmppExampleNamesBlockAndThread) {
    // PMPP's 4×4 example with 2×2 blocks: C[1][2] lies in the second block of the first
    // block row (blockIdx.x = 1, blockIdx.y = 0), at threadIdx.x = 0, threadIdx.y = 1.
    const AppState state = state_for(4, 4, 4, 2);
    const std::string text = ts::views::c_cell_tooltip(state.kernel, state.problem, {1, 2});
    EXPECT_NE(text.find("C[1][2]"), std::string::npos) << text;
    EXPECT_NE(text.find("blockIdx (x=1, y=0)"), std::string::npos) << text;
    EXPECT_NE(text.find("threadIdx (x=0, y=1)"), std::string::npos) << text;
    EXPECT_NE(text.find("warp 0, lane 2"), std::string::npos) << text;
    EXPECT_NE(text.find("in 2 phases of T = 2"), std::string::npos) << text;
}

TEST(CellTooltip, AgreesWithTheThreadMapEverywhere) {
    for (const auto kind : ts::model::kAllKernelKinds) {
        if (!ts::model::is_modelled(kind)) continue;
        AppState state = state_for(40, 28, 36, 8);
        state.kernel.kind = kind;
        state.kernel.block_x = 32;
        state.kernel.block_y = 4;
        for (int row = 0; row < 40; ++row)
            for (int col = 0; col < 28; ++col) {
                const auto id = ts::model::thread_of_cell(state.kernel, state.problem, {row, col});
                ASSERT_TRUE(id);
                const std::string text = ts::views::c_cell_tooltip(state.kernel, state.problem, {row, col});
                ASSERT_NE(text.find(format_text("blockIdx (x={}, y={}), threadIdx (x={}, y={})", id->block.x, id->block.y,
                                           id->thread.x, id->thread.y)),
                          std::string::npos)
                    << text;
                ASSERT_NE(text.find(format_text("warp {}, lane {}", id->warp, id->lane)), std::string::npos) << text;
            }
    }
}

TEST(CellTooltip, RowPerThreadSaysWhichStep) {
    AppState state = state_for(40, 28, 36, 8);
    state.kernel.kind = ts::model::KernelKind::RowPerThread;
    state.kernel.block_x = 16;
    // Row 17 belongs to thread 1 of block 1; column 9 is the tenth cell it computes.
    const std::string text = ts::views::c_cell_tooltip(state.kernel, state.problem, {17, 9});
    EXPECT_NE(text.find("blockIdx (x=1, y=0), threadIdx (x=1, y=0)"), std::string::npos) << text;
    EXPECT_NE(text.find("all of row 17: this is step 9"), std::string::npos) << text;
}

TEST(CellTooltip, CublasHasNoThreadToShow) {
    AppState state = state_for(4, 4, 4, 2);
    state.kernel.kind = ts::model::KernelKind::Cublas;
    const std::string text = ts::views::c_cell_tooltip(state.kernel, state.problem, {1, 2});
    EXPECT_NE(text.find("C[1][2]"), std::string::npos) << text;
    EXPECT_NE(text.find("cuBLAS"), std::string::npos) << text;
    EXPECT_EQ(text.find("threadIdx"), std::string::npos) << text;
}

TEST(CellTooltip, EmptyOutsideC) {
    const AppState state = state_for(4, 4, 4, 2);
    EXPECT_TRUE(ts::views::c_cell_tooltip(state.kernel, state.problem, {4, 0}).empty());
    EXPECT_TRUE(ts::views::c_cell_tooltip(state.kernel, state.problem, {0, -1}).empty());
}

TEST(CellTooltip, ShowsTheExampleValueAtAnySize) {
    // Zoomed in, a 4096² C shows its values too; the tooltip agrees with them.
    for (const AppState& state : {state_for(4, 4, 4, 2), state_for(4096, 4096, 4096, 16)}) {
        const std::string text = ts::views::c_cell_tooltip(state.kernel, state.problem, {3, 2});
        EXPECT_NE(text.find(format_text("= {}", ts::views::example_c(static_cast<int>(state.problem.k), 3, 2))),
                  std::string::npos)
            << text;
    }
}

// The centre of cell `cell` of C in a stage canvas that fills the harness window.
ImVec2 centre_of_c_cell(const AppState& state, ts::model::Cell cell) {
    const ts::views::Rect region{ts::test::ImGuiHarness::content_origin(), ImGui::GetIO().DisplaySize};
    // The harness runs without the platform's fonts, so the views use ImGui's default one.
    const auto layout = ts::views::layout_stage(state.problem, ts::views::block_tiling(state.kernel, state.problem),
                                                region, ts::imgui_compat::font_size(ImGui::GetIO().Fonts->Fonts[0]));
    const ts::views::Rect target = ts::views::cells_rect(layout.c, static_cast<int>(state.problem.m),
                                                         static_cast<int>(state.problem.n), cell.row, cell.col,
                                                         cell.row + 1, cell.col + 1);
    return ImVec2((target.min.x + target.max.x) * 0.5f, (target.min.y + target.max.y) * 0.5f);
}

TEST(StageCanvas, HoveringACellOfCShowsItsThread) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(4, 4, 4, 2);
    const ImVec2 centre = centre_of_c_cell(state, {1, 2});
    // The first frame creates the window; hovering needs it to exist already.
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, centre);
    const std::string text =
        imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, centre);
    EXPECT_TRUE(imgui.tooltip_open());
    EXPECT_NE(text.find("blockIdx (x=1, y=0), threadIdx (x=0, y=1)"), std::string::npos) << text;
    EXPECT_FALSE(state.selected);
}

TEST(StageCanvas, NoTooltipAwayFromTheMatrices) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(4, 4, 4, 2);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                ImVec2(2, 2));
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); },
                ImVec2(2, 2));
    EXPECT_FALSE(imgui.tooltip_open());
}

TEST(StageCanvas, ClickPinsACellAndClickingElsewhereReleasesIt) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(40, 28, 36, 8);
    const ImVec2 centre = centre_of_c_cell(state, {17, 9});
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, centre);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, centre,
                true);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, centre,
                false);
    ASSERT_TRUE(state.selected);
    EXPECT_EQ(*state.selected, (ts::model::Cell{17, 9}));

    // Pinned and not hovered: the tooltip stays, naming the pinned cell's thread.
    const auto id = ts::model::thread_of_cell(state.kernel, state.problem, {17, 9});
    const std::string text =
        imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    EXPECT_TRUE(imgui.tooltip_open());
    EXPECT_NE(text.find(format_text("C[17][9]")), std::string::npos) << text;
    EXPECT_NE(text.find(format_text("threadIdx (x={}, y={})", id->thread.x, id->thread.y)), std::string::npos) << text;

    const ImVec2 empty(2, 2);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, empty);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, empty, true);
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, empty,
                false);
    EXPECT_FALSE(state.selected);
}

TEST(StageCanvas, PinnedCellOutsideAShrunkenCIsReleased) {
    ts::test::ImGuiHarness imgui;
    AppState state = state_for(40, 28, 36, 8);
    state.selected = ts::model::Cell{30, 20};
    state.problem.m = 16;
    imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); });
    EXPECT_FALSE(state.selected);
    EXPECT_FALSE(imgui.tooltip_open());
}

// Vertices of the whole window for one set-up: per-cell drawing would show up here.
int vertex_count(const AppState& state) {
    ts::test::ImGuiHarness imgui;
    AppState copy = state;
    for (int i = 0; i < 3; ++i) imgui.bare_frame([&] { ts::views::draw_main_view(copy); });
    return ImGui::GetDrawData()->TotalVtxCount;
}

TEST(StageCanvas, LargeProblemsCostNoMoreThanSmallOnes) {
    const int small = vertex_count(state_for(16, 16, 16, 4));
    for (const AppState& large : {state_for(4096, 4096, 4096, 16), state_for(16384, 16384, 16384, 1),
                                  state_for(16384, 16384, 16384, 32)}) {
        const int vertices = vertex_count(large);
        SCOPED_TRACE(testing::Message() << large.problem.m << " T=" << large.kernel.tile);
        // 16384² cells drawn one by one would need over a billion vertices.
        EXPECT_LT(vertices, 2 * small);
    }
}

TEST(StageCanvas, EveryKernelDrawsAndHovers) {
    for (const auto kind : ts::model::kAllKernelKinds) {
        SCOPED_TRACE(std::string(ts::model::kernel_name(kind)));
        ts::test::ImGuiHarness imgui;
        AppState state = state_for(40, 28, 36, 8);
        state.kernel.kind = kind;
        state.kernel.block_x = 16;
        const ImVec2 centre = centre_of_c_cell(state, {17, 9});
        imgui.frame([&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, centre);
        const std::string text = imgui.frame(
            [&] { ts::views::draw_stage_canvas(state.camera, state.selected, state.picture, state); }, centre);
        EXPECT_NE(text.find("C[17][9]"), std::string::npos) << text;
    }
}

TEST(StageCanvas, InvalidTileStillDraws) {
    // T = 64 cannot launch, but the stage still shows what it would mean.
    AppState state = state_for(100, 100, 100, 64);
    EXPECT_GT(vertex_count(state), 0);
}

}  // namespace
