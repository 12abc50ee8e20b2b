// The tiling theatre: the phase player's stepping and keys, the block's strips and the
// shared-memory padding from the model, and the kernel lines the source panel highlights.
#include <gtest/gtest.h>

#include <algorithm>

#include "imgui.h"
#include "views/imgui_harness.hpp"
#include "platform/imgui_compat.hpp"
#include "model/thread_map.hpp"
#include "model/phase_timeline.hpp"
#include "views/window/app_state.hpp"
#include "views/theatre/phase_player.hpp"
#include "views/theatre/block/smem_panel.hpp"
#include "views/theatre/source_panel.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_view.hpp"
#include "support/app_states.hpp"

namespace {

using ts::model::SubStep;
using ts::views::AppState;
using ts::views::PhasePlayer;

using ts::testing_support::ragged_state;

TEST(PhasePlayer, StepsStayInRangeAndPause) {
    PhasePlayer player;
    player.playing = true;
    ts::views::step_by(player, 21, 1);
    EXPECT_EQ(player.step, 1);
    EXPECT_FALSE(player.playing) << "a manual step pauses";
    ts::views::step_by(player, 21, -5);
    EXPECT_EQ(player.step, 0);
    ts::views::step_by(player, 21, 100);
    EXPECT_EQ(player.step, 20);
}

TEST(PhasePlayer, PlaysAtItsSpeedAndStopsAtTheStore) {
    PhasePlayer player;
    player.playing = true;
    player.steps_per_second = 4.0f;
    ts::views::tick(player, 9, 0.2f);
    EXPECT_EQ(player.step, 0);
    ts::views::tick(player, 9, 0.1f);
    EXPECT_EQ(player.step, 1);
    ts::views::tick(player, 9, 10.0f);
    EXPECT_EQ(player.step, 8);
    EXPECT_FALSE(player.playing);
}

// Presses `key` for one frame of the whole theatre view, as a backend would report it.
void press(ts::test::ImGuiHarness& harness, AppState& state, ts::imgui_compat::Key key) {
    ts::imgui_compat::set_key_down(ImGui::GetIO(), key, true);
    harness.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
    ts::imgui_compat::set_key_down(ImGui::GetIO(), key, false);
    harness.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
}

TEST(PhasePlayer, KeysDriveTheViewsPlayer) {
    ts::test::ImGuiHarness harness;
    AppState state = ragged_state();
    const int count = ts::views::theatre_timeline(state).count();
    EXPECT_EQ(count, 21);
    press(harness, state, ts::imgui_compat::keys::kRight);
    press(harness, state, ts::imgui_compat::keys::kRight);
    EXPECT_EQ(state.theatre.player.step, 2);
    press(harness, state, ts::imgui_compat::keys::kLeft);
    EXPECT_EQ(state.theatre.player.step, 1);
    press(harness, state, ts::imgui_compat::keys::kEnd);
    EXPECT_EQ(state.theatre.player.step, count - 1);
    press(harness, state, ts::imgui_compat::keys::kHome);
    EXPECT_EQ(state.theatre.player.step, 0);
    press(harness, state, ts::imgui_compat::keys::kSpace);
    EXPECT_TRUE(state.theatre.player.playing);
    press(harness, state, ts::imgui_compat::keys::kSpace);
    EXPECT_FALSE(state.theatre.player.playing);
}

TEST(Theatre, BlockStripsAreTheThreadMapsBlockClippedToC) {
    const AppState state = ragged_state();
    for (int by = 0; by < 5; ++by)
        for (int bx = 0; bx < 4; ++bx) {
            const auto strips = ts::views::block_strips(state.kernel, state.problem, {bx, by});
            const auto range = ts::model::cells_of_block(state.kernel, state.problem, {bx, by});
            EXPECT_EQ(strips.row_begin, range.row_begin);
            EXPECT_EQ(strips.row_end, std::min(range.row_end, 40));
            EXPECT_EQ(strips.col_begin, range.col_begin);
            EXPECT_EQ(strips.col_end, std::min(range.col_end, 28));
            EXPECT_EQ(ts::views::block_of_cell(state.kernel, state.problem, {strips.row_begin, strips.col_end - 1}),
                      (ts::model::Index2{bx, by}));
        }
    // Block (3, 2): rows 16..23 of A, and only columns 24..27 of B: N = 28 ends the tile.
    const auto strips = ts::views::block_strips(state.kernel, state.problem, {3, 2});
    EXPECT_EQ(strips.row_begin, 16);
    EXPECT_EQ(strips.row_end, 24);
    EXPECT_EQ(strips.col_begin, 24);
    EXPECT_EQ(strips.col_end, 28);
}

TEST(Theatre, PaddingSlotsOfTheLastPhaseMatchTheModel) {
    // M=40 N=28 K=36 T=8, block (3,2), phase 4: the tiles cover k 32..39 but K ends at 36, and
    // the B tile's columns 24..31 pass N = 28.
    const AppState state = ragged_state();
    const ts::views::Rect panel{{0, 0}, {80, 80}};
    for (const auto operand : {ts::model::Operand::A, ts::model::Operand::B}) {
        const auto loads = state.theatre.source->tile_loads(state.problem, 8, {3, 2}, 4, operand);
        EXPECT_EQ(loads.size(), ts::model::tile_loads(state.problem, 8, {3, 2}, 4, operand).size());
        const auto slots = ts::views::smem_slots(loads, 8, panel);
        ASSERT_EQ(slots.size(), 64u);
        ASSERT_EQ(slots.size(), loads.size());
        for (std::size_t i = 0; i < slots.size(); ++i) {
            const auto& load = slots[i].load;
            EXPECT_EQ(load.padding, loads[i].padding);
            const bool expected = operand == ts::model::Operand::A ? load.smem_col >= 4
                                                                   : load.smem_row >= 4 || load.smem_col >= 4;
            EXPECT_EQ(load.padding, expected) << "slot [" << load.smem_row << "][" << load.smem_col << "]";
            // Slot [ty][tx] is drawn at row ty, column tx of the panel.
            EXPECT_FLOAT_EQ(slots[i].rect.min.x, 10.0f * static_cast<float>(load.smem_col));
            EXPECT_FLOAT_EQ(slots[i].rect.min.y, 10.0f * static_cast<float>(load.smem_row));
        }
    }
}

TEST(Theatre, JumpChecksTheFlagsAgainstTheProblem) {
    AppState state = ragged_state();
    EXPECT_FALSE(ts::views::jump_theatre(state.theatre, state, ts::model::Index2{3, 2}, 4, SubStep::Compute));
    EXPECT_EQ(ts::views::current_step(state), (ts::model::KernelStep{4, SubStep::Compute, -1}));
    EXPECT_EQ(state.theatre.block, (ts::model::Index2{3, 2}));
    const auto no_phase = ts::views::jump_theatre(state.theatre, state, std::nullopt, 5, std::nullopt);
    ASSERT_TRUE(no_phase);
    EXPECT_NE(no_phase->find("phases 0 to 4"), std::string::npos) << *no_phase;
    EXPECT_TRUE(ts::views::jump_theatre(state.theatre, state, ts::model::Index2{4, 0}, std::nullopt, std::nullopt));
}

TEST(Theatre, TitleCountsPhasesFromOneAndNamesTheCodesPhase) {
    const ts::model::Timeline timeline{5, 8, false, false};
    EXPECT_EQ(ts::views::step_title(timeline, {1, SubStep::LoadTiles}),
              "Phase 2 of 5 (phase = 1 in the code): load tiles into shared memory");
    const ts::model::Timeline each{5, 8, false, true};
    EXPECT_EQ(ts::views::step_title(each, {1, SubStep::Compute, 3}),
              "Phase 2 of 5 (phase = 1 in the code): compute: multiply the tiles out of shared memory, i = 3 of 8");
}

TEST(SourcePanel, EveryStepFindsItsStatementInTheEmbeddedKernel) {
    // Found by the kernel's signature, not its file name: renumbering kernels/ changes nothing.
    const auto file = ts::views::kernel_file(ts::model::KernelKind::Tiled);
    ASSERT_FALSE(file.file.empty()) << "the tiled kernel was not embedded";
    const auto lines = ts::views::split_lines(file.text);
    const auto extent = ts::views::kernel_extent(ts::model::KernelKind::Tiled, lines);
    ASSERT_TRUE(extent);
    const auto at = [&](SubStep sub) {
        const auto found = ts::views::source_lines(ts::model::KernelKind::Tiled, lines, sub);
        EXPECT_TRUE(found) << ts::model::substep_name(sub);
        return found.value_or(ts::views::SourceLines{-1, -1});
    };
    const auto load = at(SubStep::LoadTiles), sync1 = at(SubStep::SyncAfterLoad), compute = at(SubStep::Compute),
               sync2 = at(SubStep::SyncAfterCompute), store = at(SubStep::Store);
    const auto text = [&](int line) { return std::string(lines[static_cast<std::size_t>(line)]); };
    EXPECT_NE(text(load.first).find("as[ty][tx] ="), std::string::npos);
    EXPECT_NE(text(load.last).find("bs[ty][tx] ="), std::string::npos);
    EXPECT_NE(text(sync1.first).find("__syncthreads();"), std::string::npos);
    EXPECT_NE(text(compute.first).find("sum += as[ty][i] * bs[i][tx]"), std::string::npos);
    EXPECT_NE(text(sync2.first).find("__syncthreads();"), std::string::npos);
    EXPECT_NE(text(store.first).find("c[row_major(row, col, n)] = sum"), std::string::npos);
    // In the kernel's order, and all inside the function the panel shows.
    EXPECT_LT(extent->first, load.first);
    EXPECT_LT(load.last, sync1.first);
    EXPECT_LT(sync1.first, compute.first);
    EXPECT_LT(compute.first, sync2.first);
    EXPECT_LT(sync2.first, store.first);
    EXPECT_LT(store.first, extent->last);
}

TEST(SourcePanel, TheNaiveKernelsLoopAndStoreAreFound) {
    const auto file = ts::views::kernel_file(ts::model::KernelKind::Naive);
    ASSERT_FALSE(file.file.empty()) << "the naive kernel was not embedded";
    const auto lines = ts::views::split_lines(file.text);
    const auto extent = ts::views::kernel_extent(ts::model::KernelKind::Naive, lines);
    ASSERT_TRUE(extent);
    const auto compute = ts::views::source_lines(ts::model::KernelKind::Naive, lines, SubStep::Compute);
    const auto store = ts::views::source_lines(ts::model::KernelKind::Naive, lines, SubStep::Store);
    ASSERT_TRUE(compute);
    ASSERT_TRUE(store);
    EXPECT_NE(lines[static_cast<std::size_t>(compute->first)].find("sum += a[row_major(row, i, k)]"),
              std::string::npos);
    EXPECT_LT(extent->first, compute->first);
    EXPECT_LT(compute->first, store->first);
    EXPECT_LT(store->first, extent->last);
    // The naive kernel has no shared memory: no load and no barrier to light.
    EXPECT_FALSE(ts::views::source_lines(ts::model::KernelKind::Naive, lines, SubStep::LoadTiles));
    EXPECT_FALSE(ts::views::source_lines(ts::model::KernelKind::Naive, lines, SubStep::SyncAfterLoad));
}

TEST(SourcePanel, EveryKernelFileIsEmbedded) {
    EXPECT_NE(ts::views::kernel_file(ts::model::KernelKind::Naive).file, ts::views::kernel_file(ts::model::KernelKind::Tiled).file);
    for (const auto kind : {ts::model::KernelKind::Naive, ts::model::KernelKind::Tiled}) {
        const auto file = ts::views::kernel_file(kind);
        EXPECT_EQ(ts::views::kernel_source(file.file), file.text);
    }
    EXPECT_TRUE(ts::views::kernel_source("no_such.cu").empty());
}

}  // namespace
