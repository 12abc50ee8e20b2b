// The theatre beyond the tiled player: the thread and element reports with their numbers,
// the warp's sectors, naive vs tiled counters, the flags, and every mode drawn (hover and
// click included) in an ImGui context without a window.
#include <gtest/gtest.h>

#include "imgui.h"
#include "views/imgui_harness.hpp"
#include "model/traffic.hpp"
#include "views/window/app_state.hpp"
#include "views/theatre/block/naive_vs_tiled.hpp"
#include "views/theatre/theatre_flags.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/theatre/block/thread_inspector.hpp"
#include "views/theatre/block/warp_panel.hpp"
#include "support/app_states.hpp"

namespace {

using ts::model::KernelKind;
using ts::model::SubStep;
using ts::views::AppState;

using ts::testing_support::ragged_state;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ThreadReport, FillsInTheIndexFormulas) {
    AppState state = ragged_state();
    ASSERT_FALSE(ts::views::jump_theatre(state.theatre, state, ts::model::Index2{0, 1}, 2, SubStep::LoadTiles));
    const std::string text = ts::views::thread_report(state, {11, 5});
    EXPECT_TRUE(has(text, "blockIdx (x=0, y=1), threadIdx (x=5, y=3)")) << text;
    EXPECT_TRUE(has(text, "row = blockIdx.y·blockDim.y + threadIdx.y = 1·8 + 3 = 11")) << text;
    EXPECT_TRUE(has(text, "col = blockIdx.x·blockDim.x + threadIdx.x = 0·8 + 5 = 5")) << text;
    EXPECT_TRUE(has(text, "warp 0, lane 29")) << text;
    // Its own loads in phase 2: A[11][2·8 + 5] and B[2·8 + 3][5], with row-major addresses.
    EXPECT_TRUE(has(text, "A[row][phase·T + tx] = A[11][2·8 + 5] → As[3][5], address 11·36 + 21 = 417")) << text;
    EXPECT_TRUE(has(text, "B[phase·T + ty][col] = B[2·8 + 3][5] → Bs[3][5], address 19·28 + 5 = 537")) << text;
    EXPECT_TRUE(ts::views::thread_report(state, {40, 0}).empty()) << "outside C";
}

TEST(ThreadReport, ComputeListsTheAddressesAndPaddingIsNamed) {
    AppState state = ragged_state();
    ASSERT_FALSE(ts::views::jump_theatre(state.theatre, state, ts::model::Index2{0, 1}, 2, SubStep::Compute));
    const std::string compute = ts::views::thread_report(state, {11, 5});
    EXPECT_TRUE(has(compute, "A at 412..419")) << compute;
    EXPECT_TRUE(has(compute, "B at 453, 481, …, 649 (28 apart)")) << compute;
    // Block (3, 2), phase 4: the tiles cover k 32..39, K ends at 36.
    ASSERT_FALSE(ts::views::jump_theatre(state.theatre, state, ts::model::Index2{3, 2}, 4, SubStep::LoadTiles));
    const std::string load = ts::views::thread_report(state, {16, 24});
    EXPECT_TRUE(has(load, "address 16·36 + 32 = 608")) << load;
    // C[20][27] is thread (tx=3, ty=4): its B row 4·8 + 4 = 36 is past K.
    const std::string pad = ts::views::thread_report(state, {20, 27});
    EXPECT_TRUE(has(pad, "= B[36][27] lies outside B (K = 36): Bs[4][3] = 0, no load")) << pad;
}

TEST(ThreadReport, NaiveReadsGlobalMemoryAndBatchesAddAnOffset) {
    AppState state = ragged_state(KernelKind::Naive);
    state.kernel.block_x = 16;
    state.kernel.block_y = 16;
    state.problem.batch = 3;
    state.theatre.batch_z = 2;
    ASSERT_FALSE(ts::views::jump_theatre(state.theatre, state, std::nullopt, 1, SubStep::Compute));
    const std::string text = ts::views::thread_report(state, {11, 5});
    EXPECT_TRUE(has(text, "straight from global memory")) << text;
    EXPECT_TRUE(has(text, "A[11][8..15] and B[8..15][5]")) << text;
    EXPECT_TRUE(has(text, "blockDim (16, 16)")) << text;
    EXPECT_TRUE(has(text, "z·M·K = 2880")) << text;
}

TEST(ElementReport, SaysWhichBlocksLoadItAndWhen) {
    AppState state = ragged_state();
    const std::string a = ts::views::element_report(state, ts::model::Operand::A, {11, 21});
    EXPECT_TRUE(has(a, "address 11·36 + 21 = 417")) << a;
    EXPECT_TRUE(has(a, "phase 21 / 8 = 2 (k 16..23), into As[3][5]")) << a;
    EXPECT_TRUE(has(a, "every block with blockIdx.y = 11 / 8 = 1:\n  (0,1), (1,1), (2,1), (3,1)")) << a;
    EXPECT_TRUE(has(a, "grid.x = 4 global loads of it; the naive kernel makes N = 28")) << a;
    EXPECT_TRUE(has(a, "Read so far: 0 times")) << a;
    ASSERT_FALSE(ts::views::jump_theatre(state.theatre, state, std::nullopt, 2, SubStep::LoadTiles));
    EXPECT_TRUE(has(ts::views::element_report(state, ts::model::Operand::A, {11, 21}), "Read so far: 4 times"));
    const std::string b = ts::views::element_report(state, ts::model::Operand::B, {35, 27});
    EXPECT_TRUE(has(b, "blockIdx.x = 27 / 8 = 3")) << b;
    EXPECT_TRUE(has(b, "grid.y = 5 global loads")) << b;

    const AppState naive = ragged_state(KernelKind::Naive);
    const std::string n = ts::views::element_report(naive, ts::model::Operand::A, {11, 21});
    EXPECT_TRUE(has(n, "by the N = 28 threads computing row 11 of C")) << n;
    EXPECT_TRUE(ts::views::element_report(naive, ts::model::Operand::B, {36, 0}).empty()) << "outside B";
}

TEST(AddressRun, NeighboursStridesAndSingles) {
    EXPECT_EQ(ts::views::address_run(412, 1, 8), "412..419");
    EXPECT_EQ(ts::views::address_run(453, 28, 8), "453, 481, …, 649 (28 apart)");
    EXPECT_EQ(ts::views::address_run(5, 28, 2), "5, 33");
    EXPECT_EQ(ts::views::address_run(7, 1, 1), "7");
}

TEST(WarpPanel, CoalescedAgainstXAsRow) {
    // Naive with 32×8 blocks: warp 0 reads B[k][0..31] (4 sectors) as compiled, and with
    // threadIdx.x as the row 32 rows of A, K apart (32 sectors).
    AppState state;
    state.problem.m = state.problem.n = state.problem.k = 64;
    state.kernel = {KernelKind::Naive, 32, 8, 8};
    const auto cmp = ts::views::compare_warp_access(state, 0);
    EXPECT_TRUE(cmp.any);
    EXPECT_EQ(cmp.b[0].sectors, 4);
    EXPECT_EQ(cmp.a[0].sectors, 1);
    EXPECT_EQ(cmp.a[1].sectors, 32);
    EXPECT_EQ(ts::views::lane_addresses(cmp.b[0]), "0..31");
    EXPECT_EQ(ts::views::lane_addresses(cmp.a[0]), "0 (all 32 lanes: one broadcast)");
    EXPECT_EQ(ts::views::lane_addresses(cmp.a[1]), "0, 64, 128, 192, …");
    // The pinned cell picks the warp: C[1][3] is thread (3, 1), linear 35, warp 1.
    EXPECT_EQ(ts::views::shown_warp(state, ts::model::Cell{1, 3}), 1);
    EXPECT_EQ(ts::views::shown_warp(state, ts::model::Cell{40, 3}), 0) << "another block";
}

TEST(WarpPanel, MeasuredPenaltyOrNotYet) {
    EXPECT_TRUE(has(ts::views::penalty_text(std::nullopt), "not measured yet"));
    const std::string text = ts::views::penalty_text(ts::views::CoalescingPenalty{6.25, "NVIDIA H200, 2048³ float"});
    EXPECT_TRUE(has(text, "6.2×") || has(text, "6.3×")) << text;
    EXPECT_TRUE(has(text, "NVIDIA H200")) << text;
}

TEST(SideBySide, CountersEndAtTheModelsTotals) {
    AppState state = ragged_state();
    state.theatre.side_by_side = true;
    ASSERT_FALSE(ts::views::jump_theatre(state.theatre, state, std::nullopt, std::nullopt, SubStep::Store));
    const auto counts = ts::views::side_by_side_counts(state);
    const auto naive = ts::model::count_traffic({KernelKind::Naive, 8, 8, 8}, state.problem);
    const auto tiled = ts::model::count_traffic({KernelKind::Tiled, 8, 8, 8}, state.problem);
    EXPECT_EQ(counts.naive.global_loads(), naive.global_loads());
    EXPECT_EQ(counts.tiled.global_loads(), tiled.global_loads());
    EXPECT_EQ(counts.tiled.shared_loads, tiled.shared_loads);
    EXPECT_EQ(counts.naive_reads_a, 28);
    EXPECT_EQ(counts.tiled_reads_a, 4);
    const std::string sentence = ts::views::comparison_sentence(counts);
    EXPECT_TRUE(has(sentence, "naive 80,640, tiled 10,800 (naive ÷ tiled = 7.5×)")) << sentence;
    // Mid-way the two have summed the same share of K, and the counts say so.
    ASSERT_FALSE(ts::views::jump_theatre(state.theatre, state, std::nullopt, 1, SubStep::SyncAfterCompute));
    const auto mid = ts::views::side_by_side_counts(state);
    EXPECT_EQ(mid.naive.global_loads_a, 40 * 28 * 16);
    EXPECT_EQ(mid.tiled.global_loads_a, 4 * 40 * 16);
}

TEST(TheatreFlags, ReachEveryState) {
    AppState state = ragged_state();
    ts::views::TheatreFlags flags;
    flags.side_by_side = true;
    flags.phase = 3;
    flags.k_step = 5;
    flags.batch_z = 2;
    flags.hover_a = {11, 21};
    flags.panel = "warp";
    ASSERT_FALSE(ts::views::apply_theatre_flags(state.theatre, state.problem, state, flags));
    EXPECT_TRUE(state.theatre.side_by_side);
    EXPECT_TRUE(state.theatre.each_k);
    EXPECT_EQ(ts::views::current_step(state), (ts::model::KernelStep{3, SubStep::Compute, 5}));
    EXPECT_EQ(state.problem.batch, 3);
    EXPECT_EQ(state.theatre.batch_z, 2);
    EXPECT_EQ(state.theatre.pinned_a, (ts::model::Cell{11, 21}));
    EXPECT_EQ(state.theatre.open_panel, ts::views::TheatrePanel::Warp);
}

TEST(TheatreFlags, SelectPicksTheBlockUnlessOneIsGiven) {
    AppState state = ragged_state();
    state.selected = ts::model::Cell{20, 27};
    ASSERT_FALSE(ts::views::apply_theatre_flags(state.theatre, state.problem, state, {}));
    EXPECT_EQ(state.theatre.block, (ts::model::Index2{3, 2}));
    ts::views::TheatreFlags flags;
    flags.select_block = {1, 0};
    ASSERT_FALSE(ts::views::apply_theatre_flags(state.theatre, state.problem, state, flags));
    EXPECT_EQ(state.theatre.block, (ts::model::Index2{1, 0}));
}

TEST(TheatreFlags, RejectWhatDoesNotFit) {
    const auto reason = [](KernelKind kind, auto set) {
        AppState state = ragged_state(kind);
        ts::views::TheatreFlags flags;
        set(flags);
        return ts::views::apply_theatre_flags(state.theatre, state.problem, state, flags).value_or("");
    };
    EXPECT_TRUE(has(reason(KernelKind::Tiled, [](auto& f) { f.k_step = 8; }), "runs from 0 to 7"));
    EXPECT_TRUE(has(reason(KernelKind::Tiled, [](auto& f) { f.hover_b = {36, 0}; }), "outside B"));
    EXPECT_TRUE(has(reason(KernelKind::Naive, [](auto& f) { f.step = "sync1"; }), "naive kernel has no sync1 step"));
    EXPECT_TRUE(has(reason(KernelKind::Cublas, [](auto& f) { f.phase = 0; }), "the ladder's rungs"));
    EXPECT_EQ(reason(KernelKind::Naive, [](auto& f) { f.step = "store"; }), "");
}

// Frames of the whole theatre view in each mode; returns the harness's captured text.
std::string draw_theatre(ts::test::ImGuiHarness& harness, AppState& state, ImVec2 mouse = ImVec2(-FLT_MAX, -FLT_MAX),
                 bool down = false) {
    return harness.frame([&] { ts::views::draw_theatre_view(state, 0.0f); }, mouse, down);
}

TEST(TheatreView, DrawsEveryModeAndPanel) {
    ts::test::ImGuiHarness harness;
    for (const auto kind : {KernelKind::Naive, KernelKind::Tiled})
        for (const bool side : {false, true})
            for (const bool each_k : {false, true})
                for (const auto panel : {ts::views::TheatrePanel::Source, ts::views::TheatrePanel::Thread,
                                         ts::views::TheatrePanel::Warp}) {
                    AppState state = ragged_state(kind);
                    state.theatre.side_by_side = side;
                    state.theatre.each_k = each_k;
                    state.theatre.open_panel = panel;
                    state.selected = ts::model::Cell{20, 27};
                    const int count = ts::views::theatre_timeline(state).count();
                    for (const int step : {0, count / 2, count - 1}) {
                        state.theatre.player.step = step;
                        draw_theatre(harness, state);
                        const std::string text = draw_theatre(harness, state);
                        EXPECT_TRUE(has(text, "events: model")) << text;
                        if (panel == ts::views::TheatrePanel::Warp && !side) {
                            EXPECT_TRUE(has(text, "not measured yet")) << text;
                        }
                    }
                }
}

TEST(TheatreView, ExplainsAKernelItDoesNotPlay) {
    ts::test::ImGuiHarness harness;
    AppState state = ragged_state(KernelKind::Cublas);
    EXPECT_TRUE(has(draw_theatre(harness, state), "plays the naive kernel, the tiled kernel and the ladder's rungs"));
}

TEST(TheatreView, HoveringACellOfCShowsItsThreadAndAClickPicksItsBlock) {
    ts::test::ImGuiHarness harness;
    AppState state = ragged_state();
    draw_theatre(harness, state);
    // Sweep the canvas until the mouse is over C.
    std::optional<ImVec2> over_c;
    for (float y = 100.0f; y < 1000.0f && !over_c; y += 16.0f)
        for (float x = 600.0f; x < 1600.0f && !over_c; x += 16.0f) {
            draw_theatre(harness, state, {x, y});
            if (state.theatre.hovered.c && state.theatre.hovered.c->col >= 24 && state.theatre.hovered.c->row >= 16 &&
                state.theatre.hovered.c->row < 24)
                over_c = ImVec2(x, y);
        }
    ASSERT_TRUE(over_c) << "no cell of block (3, 2) under the mouse anywhere";
    EXPECT_TRUE(harness.tooltip_open());
    draw_theatre(harness, state, *over_c, true);
    draw_theatre(harness, state, *over_c, false);
    EXPECT_EQ(state.theatre.block, (ts::model::Index2{3, 2}));
    ASSERT_TRUE(state.selected);
    EXPECT_EQ(state.selected, state.theatre.hovered.c);
}

}  // namespace
