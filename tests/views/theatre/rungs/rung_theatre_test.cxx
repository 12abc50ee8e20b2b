// The theatre for the ladder's rungs: every rung plays, at its textbook size, through every
// sub-step (drawn without a window), with titles that count K steps, the source panel's
// statements found in each rung's real kernel, and the followed thread found from a cell.
#include <gtest/gtest.h>

#include <string>

#include "imgui.h"
#include "views/imgui_harness.hpp"
#include "model/ladder.hpp"
#include "model/phase_timeline.hpp"
#include "views/window/app_state.hpp"
#include "views/theatre/rungs/rung_canvas.hpp"
#include "views/theatre/source_panel.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_view.hpp"

namespace {

using ts::model::KernelKind;
using ts::model::SubStep;
using ts::views::AppState;


AppState rung(KernelKind kind) {
    AppState state;
    state.kernel.kind = kind;
    state.problem = ts::views::rung_textbook_problem(state.kernel);
    state.view = ts::views::ViewId::Theatre;
    return state;
}

TEST(RungTheatre, EveryRungPlaysAtItsTextbookSize) {
    for (const KernelKind kind : ts::model::kLadderKinds) {
        SCOPED_TRACE(std::string(ts::model::kernel_name(kind)));
        AppState state = rung(kind);
        const ts::model::LadderShape s = ts::model::ladder_shape(state.kernel);
        EXPECT_FALSE(ts::views::theatre_error(state));
        EXPECT_TRUE(ts::views::plays_rung(state));
        // Two blocks by two, and the K steps of BK, a few more than the pipeline's stages.
        EXPECT_EQ(ts::views::block_grid(ts::views::played_config(state), state.problem), (ts::model::Index2{2, 2}));
        const ts::model::Timeline timeline = ts::views::theatre_timeline(state);
        EXPECT_EQ(timeline.tile, s.bk);
        EXPECT_EQ(timeline.phases, ts::model::ladder_steps(s, static_cast<int>(state.problem.k)));
        EXPECT_GE(timeline.phases, s.stages + 1);
    }
}

TEST(RungTheatre, EverySubStepDrawsAndSaysWhatHappens) {
    ts::test::ImGuiHarness harness(ImVec2(1600, 1000));
    for (const KernelKind kind : ts::model::kLadderKinds) {
        SCOPED_TRACE(std::string(ts::model::kernel_name(kind)));
        AppState state = rung(kind);
        state.theatre.each_k = true;
        const ts::model::LadderShape s = ts::model::ladder_shape(state.kernel);
        state.selected = ts::model::Cell{s.bm + 12, s.bn + 72 % s.bn};  // in block (1, 1)
        state.theatre.block = {1, 1};
        const int count = ts::views::theatre_timeline(state).count();
        for (int step = 0; step < count; step += 3) {
            state.theatre.player.step = step;
            const std::string text = harness.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
            EXPECT_NE(text.find("K step"), std::string::npos) << "step " << step;
            for (const auto panel : {ts::views::TheatrePanel::Thread, ts::views::TheatrePanel::Warp}) {
                state.theatre.open_panel = panel;
                // A tab asked for is selected in one frame and drawn in the next.
                harness.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
                const std::string tab = harness.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
                if (panel == ts::views::TheatrePanel::Thread) EXPECT_NE(tab.find("Loads of each K step"), std::string::npos);
                else EXPECT_NE(tab.find("Fragment reads for k"), std::string::npos);
            }
        }
        // The followed thread owns the selected cell.
        ASSERT_TRUE(state.selected);
        const int t = ts::views::rung_focus_thread(state);
        const int r = state.selected->row - s.bm, c = state.selected->col - s.bn;
        bool owns = false;
        for (int i = 0; i < s.wm_iter; ++i)
            for (int j = 0; j < s.wn_iter; ++j) {
                const int r0 = ts::model::ladder_tile_row(s, t, i), c0 = ts::model::ladder_tile_col(s, t, j);
                owns = owns || (r >= r0 && r < r0 + s.tm && c >= c0 && c < c0 + s.tn);
            }
        EXPECT_TRUE(owns) << "thread " << t;
    }
}

TEST(RungTheatre, TitlesCountKStepsAndThePipelineSaysWhatItCopies) {
    AppState state = rung(KernelKind::Pipelined);
    EXPECT_EQ(ts::views::rung_step_title(state, {1, SubStep::LoadTiles}),
              "K step 2 of 6 (step = 1 in the code): start copying step 4 (cp.async)");
    AppState tiled_2d = rung(KernelKind::RegTile2d);
    EXPECT_EQ(ts::views::rung_step_title(tiled_2d, {0, SubStep::Compute, 3}),
              "K step 1 of 3 (step = 0 in the code): outer products from registers, k = 3 of 8");
    const std::string detail = ts::views::rung_step_detail(tiled_2d, {0, SubStep::Compute, 3});
    EXPECT_NE(detail.find("8 values of As and 8 of Bs"), std::string::npos) << detail;
    EXPECT_NE(detail.find("64 multiply-adds, 4.0 per value read"), std::string::npos) << detail;
}

TEST(RungTheatre, JumpsCheckKStepsAgainstBK) {
    AppState state = rung(KernelKind::Warptile);  // BK = 16, K = 48: steps 0..2
    EXPECT_FALSE(ts::views::jump_theatre(state.theatre, state, std::nullopt, 2, SubStep::Compute, 15));
    const auto no_step = ts::views::jump_theatre(state.theatre, state, std::nullopt, 3, std::nullopt);
    ASSERT_TRUE(no_step);
    EXPECT_NE(no_step->find("BK = 16"), std::string::npos) << *no_step;
    EXPECT_TRUE(ts::views::jump_theatre(state.theatre, state, std::nullopt, std::nullopt, std::nullopt, 16));
}

TEST(RungTheatre, EveryRungsSourceLightsEachSubStepInOrder) {
    for (const KernelKind kind : ts::model::kLadderKinds) {
        SCOPED_TRACE(std::string(ts::model::kernel_name(kind)));
        const auto file = ts::views::kernel_file(kind);
        ASSERT_FALSE(file.file.empty()) << "not embedded";
        const auto lines = ts::views::split_lines(file.text);
        const auto extent = ts::views::kernel_extent(kind, lines);
        ASSERT_TRUE(extent);
        int before = extent->first;
        for (const SubStep sub : {SubStep::LoadTiles, SubStep::SyncAfterLoad, SubStep::SyncAfterCompute, SubStep::Store}) {
            const auto found = ts::views::source_lines(kind, lines, sub);
            ASSERT_TRUE(found) << ts::model::substep_name(sub);
            EXPECT_GT(found->first, before) << ts::model::substep_name(sub);
            EXPECT_LT(found->last, extent->last);
            before = found->first;
        }
        const auto compute = ts::views::source_lines(kind, lines, SubStep::Compute);
        ASSERT_TRUE(compute);
        EXPECT_GT(compute->first, extent->first);
    }
    EXPECT_NE(ts::views::kernel_file(KernelKind::Warptile).file.find("common/ladder_vector.cuh"), std::string_view::npos);
    EXPECT_NE(ts::views::kernel_file(KernelKind::Tuned).file.find("11_pipelined.cuh"), std::string_view::npos);
}

}  // namespace
