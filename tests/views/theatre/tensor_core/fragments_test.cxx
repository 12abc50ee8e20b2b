// The tensor-core rungs in the theatre: who holds which element of an mma's A, B and C and of a
// wgmma's accumulators, worked by hand against the PTX ISA's layouts; every lane holds its share
// once; the picture draws for every tensor-core rung, hovering an element gives its formula with
// the numbers filled in, and a click pins its lane.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "imgui.h"
#include "views/imgui_harness.hpp"
#include "model/kernel_config.hpp"
#include "model/tensor_core/fragments.hpp"
#include "model/tensor_core/stage_record.hpp"
#include "views/theatre/tensor_core/fragments.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/window/app_state.hpp"

namespace {

using ts::model::KernelKind;
using ts::views::AppState;
using ts::views::FragmentGrid;
using ts::views::FragmentOperand;

// Every element of every grid has one holder, and each holder holds its share: 8 of A, 4 of B,
// 4 of C per lane; 16 of the 64 × 32 accumulators per thread (N/2 for N = 32); for ldmatrix.x4,
// one 16-byte row (8 elements) per lane's address.
TEST(TcFragments, EachLaneHoldsItsShare) {
    for (KernelKind kind : {KernelKind::Mma, KernelKind::Persistent}) {
        for (const FragmentGrid& g : ts::views::fragment_grids(kind)) {
            std::map<int, int> held;
            std::map<std::string, int> slots;
            for (int r = 0; r < g.rows; ++r)
                for (int c = 0; c < g.cols; ++c) {
                    const int holder = ts::views::fragment_holder(g.operand, r, c);
                    held[holder] += 1;
                    slots[std::to_string(holder) + " " + ts::views::fragment_register(g.operand, r, c)] += 1;
                }
            const bool rows = g.operand == FragmentOperand::LdmatrixA;
            const int per = g.operand == FragmentOperand::MmaA || rows ? 8 : g.operand == FragmentOperand::WgmmaD ? 16 : 4;
            EXPECT_EQ(held.size(), g.operand == FragmentOperand::WgmmaD ? 128u : 32u) << g.title;
            for (const auto& [holder, count] : held) EXPECT_EQ(count, per) << g.title << " holder " << holder;
            for (const auto& [slot, count] : slots) EXPECT_EQ(count, rows ? 8 : 1) << g.title << " slot " << slot;
        }
    }
    EXPECT_EQ(ts::views::fragment_grids(KernelKind::Wmma).size(), 4u);
    EXPECT_EQ(ts::views::fragment_grids(KernelKind::TcTuned).size(), 1u);
    EXPECT_TRUE(ts::views::fragment_grids(KernelKind::Tiled).empty());
}

// A[9][10]: groupID 1, threadID_in_group 1, so lane 4·1 + 1 = 5; the bottom half (row ≥ 8) and the
// right half (col ≥ 8) make it register a3, column 10 even makes it the low half.
TEST(TcFragments, FormulasWorkedByHand) {
    EXPECT_EQ(ts::views::fragment_holder(FragmentOperand::MmaA, 9, 10), 5);
    EXPECT_EQ(ts::views::fragment_register(FragmentOperand::MmaA, 9, 10), "a3, low half");
    const std::string a = ts::views::fragment_formula(FragmentOperand::MmaA, 9, 10);
    EXPECT_NE(a.find("A[9][10] is held by lane 5, register a3 (low half): element a6"), std::string::npos) << a;
    EXPECT_NE(a.find("row = groupID + 8·(reg % 2) = 1 + 8·1 = 9"), std::string::npos) << a;
    EXPECT_NE(a.find("= 2·1 + 0 + 8·1 = 10"), std::string::npos) << a;
    // B[11][6]: row 11 = 2·t + half + 8·reg with reg 1, t 1, half 1; column 6 = groupID: lane 25.
    EXPECT_EQ(ts::views::fragment_holder(FragmentOperand::MmaB, 11, 6), 25);
    EXPECT_EQ(ts::views::fragment_register(FragmentOperand::MmaB, 11, 6), "b1, high half");
    const std::string b = ts::views::fragment_formula(FragmentOperand::MmaB, 11, 6);
    EXPECT_NE(b.find("= 2·1 + 1 + 8·1 = 11"), std::string::npos) << b;
    // ldmatrix.x4 for A: lane 25 (= 9 + 16) gives the address of A[9][8…15], row 1 of matrix 3; the
    // instruction hands A[9][10] to lane 5 as register 3's low half, a6: where mma's A wants it.
    EXPECT_EQ(ts::views::fragment_holder(FragmentOperand::LdmatrixA, 9, 10), 25);
    EXPECT_EQ(ts::views::fragment_register(FragmentOperand::LdmatrixA, 9, 10), "row 1 of matrix 3");
    const std::string l = ts::views::fragment_formula(FragmentOperand::LdmatrixA, 9, 10);
    EXPECT_NE(l.find("A[9][8…15], 16 bytes, is row 1 of 8×8 matrix 3: lane 25 gives its address"), std::string::npos) << l;
    EXPECT_NE(l.find("ldmatrix hands A[9][10] to lane 5 = 4·(row % 8) + (col % 8) / 2, register 3 (matrix 3), low half: "
                     "a6 of mma's A fragment"),
              std::string::npos)
        << l;
    // C[12][3]: groupID 4 (row 12 = 4 + 8), column 3 = 2·1 + 1: lane 17, register c3.
    EXPECT_EQ(ts::views::fragment_holder(FragmentOperand::MmaC, 12, 3), 17);
    EXPECT_EQ(ts::views::fragment_register(FragmentOperand::MmaC, 12, 3), "c3");
    // D[37][21]: warp 2 (rows 32–47), row 5 of it: groupID 5; column 21 = 8·2 + 2·2 + 1: thread
    // 64 + 4·5 + 2 = 86, register 4·2 + 1 = 9.
    EXPECT_EQ(ts::views::fragment_holder(FragmentOperand::WgmmaD, 37, 21), 86);
    EXPECT_EQ(ts::views::fragment_register(FragmentOperand::WgmmaD, 37, 21), "d9");
    const std::string d = ts::views::fragment_formula(FragmentOperand::WgmmaD, 37, 21);
    EXPECT_NE(d.find("thread 86 of the warpgroup (warp 2, lane 22), register d9"), std::string::npos) << d;
    EXPECT_NE(d.find("= 16·2 + 5 + 8·0 = 37"), std::string::npos) << d;
    EXPECT_NE(d.find("= 8·2 + 2·2 + 1 = 21"), std::string::npos) << d;
}

// The theatre draws every tensor-core rung's fragments; the mouse over A[9][10] shows its formula,
// a click pins lane 5 and a second one lets it go.
TEST(TcFragments, HoverShowsTheFormulaAndAClickPinsTheLane) {
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        ts::test::ImGuiHarness ui;
        AppState state;
        state.kernel.kind = kind;
        state.problem.dtype = ts::model::Dtype::BFloat16;
        const std::string text = ui.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
        EXPECT_NE(text.find(std::string(ts::model::kernel_name(kind)) + ": who holds which element"), std::string::npos)
            << text;
    }
    ts::test::ImGuiHarness ui;
    AppState state;
    state.kernel.kind = KernelKind::Mma;
    state.problem.dtype = ts::model::Dtype::BFloat16;
    const auto grids = ts::views::fragment_grids(state.kernel.kind);
    ts::views::FragmentLayout layout;
    const auto body = [&] {
        ImGui::BeginChild("##canvas", ImVec2(1000, 700));
        layout = ts::views::layout_fragments(grids, ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail(),
                                             ImGui::GetFontSize());
        ts::views::draw_tc_fragments(state.theatre, state.picture, state);
        ImGui::EndChild();
    };
    ui.frame(body);
    ASSERT_GT(layout.cell, 8.0f);
    const ImVec2 a_9_10{layout.tops[0].x + 10.5f * layout.cell, layout.tops[0].y + 9.5f * layout.cell};
    const std::string hovered = ui.frame(body, a_9_10);
    EXPECT_TRUE(ui.tooltip_open());
    EXPECT_NE(hovered.find("A[9][10] is held by lane 5"), std::string::npos) << hovered;
    ui.frame(body, a_9_10, true);
    ui.frame(body, a_9_10, false);
    EXPECT_EQ(state.theatre.pinned_lane, 5);
    ui.frame(body, a_9_10, true);
    ui.frame(body, a_9_10, false);
    EXPECT_EQ(state.theatre.pinned_lane, -1);
}

// The mma rung's trace: A and B coloured by the lanes the GPU's registers name, said so above
// the picture; a hover says which lane received the element; a record that differs is named.
TEST(TcFragments, TheMmaTraceColoursByTheGpusRegisters) {
    AppState state;
    state.kernel.kind = KernelKind::Mma;
    state.problem = {10, 12, 9, 1, ts::model::Dtype::BFloat16};
    ts::model::KernelTrace trace;
    trace.config = {KernelKind::Mma};
    trace.problem = state.problem;
    trace.device = "Synthetic GPU";
    trace.recorded_at = "2026-11-27 02:00 UTC";
    trace.sm_count = 4;
    trace.block_sm = {0};
    trace.clocks.assign(1, {1, 2, 3, 4});
    trace.fragment_words = ts::model::fragment_words_expected(trace.problem);
    ts::views::add_trace(state.theatre.traces, trace);
    ts::test::ImGuiHarness ui;
    const auto grids = ts::views::fragment_grids(state.kernel.kind);
    ts::views::FragmentLayout layout;
    const auto body = [&] {
        ImGui::BeginChild("##canvas", ImVec2(1000, 700));
        ts::views::draw_tc_fragments_words(state.theatre, state, 0.0f);
        ts::views::draw_tc_fragments(state.theatre, state.picture, state);
        ImGui::EndChild();
    };
    std::string text = ui.frame(body);
    EXPECT_NE(text.find("Recorded on Synthetic GPU (2026-11-27 02:00 UTC, 14_mma_recorded.cu)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("all 512 halves are where the PTX ISA's layout puts them"), std::string::npos) << text;

    trace.fragment_words[ts::model::fragment_word_slot(5, false, 0, 0)] = 1 + 1 * 32 + 3;  // A[1][3] twice
    ts::views::add_trace(state.theatre.traces, trace);
    text = ui.frame(body);
    EXPECT_NE(text.find("The recorded registers differ from the model: lane 5, A register 0, low half: recorded "
                        "A[1][3], the model says A[1][2]"),
              std::string::npos)
        << text;
    state.kernel.kind = KernelKind::MmaAsync;  // the trace is 14's: 15 shows the model
    text = ui.frame(body);
    EXPECT_EQ(text.find("Recorded on"), std::string::npos);
}

}  // namespace
