// The ring of stages picture: the model's order of copies and wgmmas never refills a stage a
// consumer still reads and never reads one before its copy landed; the barriers and boxes at a K
// step are worded from model::stage_step and model::tma_box; the tab draws for every TMA rung.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "theatre_support.hpp"
#include "model/kernel_config.hpp"
#include "model/tensor_core/pipeline.hpp"
#include "views/common/picture_layout.hpp"
#include "views/theatre/tensor_core/source_tab.hpp"
#include "views/theatre/tensor_core/stages.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/window/app_state.hpp"

namespace {

using ts::model::KernelKind;
using ts::views::RingBar;

TEST(TcStages, TheRingNeverReadsEarlyNorRefillsWhatIsRead) {
    for (const ts::model::WgmmaShape& s :
         {ts::model::kWgmmaShape, ts::model::kWarpSpecializedShape, ts::model::kPersistentShape}) {
        for (int tiles : {1, 2}) {
            const ts::views::RingSchedule ring = ts::views::ring_schedule(s, 6, tiles);
            ASSERT_EQ(ring.steps, 6 * tiles);
            std::map<int, RingBar> copy;
            std::map<int, double> released;
            std::map<int, double> busy_until;
            int epilogues = 0;
            for (const RingBar& bar : ring.bars) {
                if (bar.epilogue) {
                    ++epilogues;
                    continue;
                }
                if (bar.row == 0) {
                    copy[bar.step] = bar;
                    continue;
                }
                ASSERT_TRUE(copy.count(bar.step)) << "a K step read before its copy was issued";
                EXPECT_GE(bar.start, copy[bar.step].end) << "K step " << bar.step << " read before it landed";
                EXPECT_GE(bar.start, busy_until[bar.row]) << "a consumer doing two things at once";
                busy_until[bar.row] = bar.end;
                released[bar.step] = std::max(released[bar.step], bar.end);
            }
            for (const auto& [step, bar] : copy) {
                EXPECT_EQ(bar.stage, step % s.stages);
                if (step >= s.stages) {
                    EXPECT_GE(bar.start, released[step - s.stages]) << "stage refilled while read";
                }
            }
            EXPECT_EQ(epilogues, tiles > 1 ? s.consumers * tiles : 0);
        }
    }
}

TEST(TcStages, BarriersAndBoxesAtAKStep) {
    const ts::model::WgmmaShape s = ts::model::kPersistentShape;  // 3 stages, clusters of 2
    const auto lines = ts::views::barrier_lines(s, 4);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_NE(lines[1].find("stage 1: K step 4 (round 1). full[1]: the consumers wait for phase bit 1"), std::string::npos)
        << lines[1];
    EXPECT_NE(lines[1].find("4 arrivals (every consumer of both CTAs) release it; the producer waited for phase bit 0"),
              std::string::npos)
        << lines[1];
    EXPECT_NE(lines[1].find("read now"), std::string::npos);
    EXPECT_NE(lines[0].find("stage 0: K step 6 (round 2)"), std::string::npos) << "the producer is a ring ahead";
    const auto runs = ts::views::box_lines(s, 1, 1, 1024);
    ASSERT_EQ(runs.size(), 3u) << "A's box, and B's two runs of slabs (one per CTA)";
    EXPECT_NE(runs[0].find("A: a box 64 wide × 128 high from (k 64, m 0)"), std::string::npos) << runs[0];
    EXPECT_NE(runs[2].find("issued by CTA 1 of the cluster and multicast to both"), std::string::npos) << runs[2];
    const auto boxes = ts::views::box_lines(s, 0, 0, 1000);  // N not whole slabs: slab by slab
    EXPECT_EQ(boxes.size(), static_cast<std::size_t>(ts::model::boxes_per_stage(s)));
    const auto block_barrier = ts::views::barrier_lines(ts::model::kWgmmaShape, 0);
    EXPECT_NE(block_barrier[0].find("No empty barrier"), std::string::npos) << block_barrier[0];
}

// A warp-specialized trace's clocks become the chart: a copy from its arming to the first
// consumer seeing it, each consumer's wait (grey) and work, in cycles from the block's first stamp.
TEST(TcStages, ATracesClocksBecomeTheChart) {
    ts::model::KernelTrace trace;
    trace.config = {KernelKind::WarpSpecialized};
    trace.problem = {128, 256, 128, 1, ts::model::Dtype::BFloat16};  // one block, 2 K steps
    const int steps = trace.phases();
    trace.role_clocks.resize(static_cast<std::size_t>(ts::model::role_clock_records(trace.config, trace.problem)));
    const auto set = [&](int role, int step, ts::model::RoleClock c) {
        trace.role_clocks[static_cast<std::size_t>(ts::model::role_clock_slot(0, steps, role, step))] = c;
    };
    set(0, 0, {1000, 1000, 1010});
    set(0, 1, {1010, 1010, 1020});
    set(1, 0, {1002, 1300, 1500});
    set(2, 0, {1003, 1310, 1490});
    set(1, 1, {1500, 1500, 1700});
    set(2, 1, {1490, 1495, 1690});
    const ts::views::RingSchedule ring = ts::views::recorded_ring(trace, 0, 16);
    ASSERT_TRUE(ring.recorded);
    EXPECT_EQ(ring.steps, 2);
    EXPECT_EQ(ring.rows.size(), 3u);
    ASSERT_FALSE(ring.bars.empty());
    const RingBar& copy0 = ring.bars.front();
    EXPECT_EQ(copy0.row, 0);
    EXPECT_DOUBLE_EQ(copy0.start, 0.0);
    EXPECT_DOUBLE_EQ(copy0.end, 300.0) << "to consumer 0 seeing it full";
    int waits = 0;
    for (const RingBar& bar : ring.bars) waits += bar.waiting;
    EXPECT_EQ(waits, 3) << "consumer 0 at step 1 did not wait";
    EXPECT_DOUBLE_EQ(ring.span, 700.0);
    trace.config.kind = KernelKind::Wgmma;
    EXPECT_FALSE(ts::views::recorded_ring(trace, 0, 16).recorded);
}

// The recorded chart shows any block of the trace, named with the SM it ran on.
TEST(TcStages, TheRecordedChartShowsTheChosenBlock) {
    ts::model::KernelTrace trace;
    trace.config = {KernelKind::WarpSpecialized};
    trace.problem = {256, 256, 128, 1, ts::model::Dtype::BFloat16};  // two blocks, 2 K steps
    trace.device = "Synthetic GPU";
    trace.recorded_at = "2026-11-27 02:30 UTC";
    trace.sm_count = 8;
    trace.block_sm = {3, 5};
    trace.clocks.assign(static_cast<std::size_t>(ts::model::clock_records(trace.config, trace.problem)), {1, 2, 3, 4});
    trace.role_clocks.assign(static_cast<std::size_t>(ts::model::role_clock_records(trace.config, trace.problem)),
                             {10, 20, 30});
    ts::views::AppState state = ts::test::tc_state(KernelKind::WarpSpecialized, 256, 256, 128);
    ts::views::add_trace(state.theatre.traces, trace);
    state.theatre.ring_block = 7;  // clamped to the last block
    const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Stages);
    EXPECT_EQ(state.theatre.ring_block, 1);
    EXPECT_NE(text.find("Recorded on Synthetic GPU (2026-11-27 02:30 UTC): block 1 (of 2, on SM 5)'s first 2 K steps"),
              std::string::npos)
        << text;
}

// K = 8 is one K step: the Stages and Source tabs walk 8 K steps (K = 512) instead and say so, and
// --phase reaches them; the problem on show stays the stage's. A long enough K is shown as it is.
TEST(TcStages, ASingleKStepOpensAtAFewAndSaysSo) {
    ts::views::AppState state = ts::test::tc_state(KernelKind::Wgmma, 12, 16, 8);
    const std::string note = "Shown at K = 512, 8 K steps of 64, so that the K loop fills its ring of 4 stages and "
                             "turns; your problem 12 × 16 × 8 has 1 K step.";
    const std::string stages = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Stages);
    EXPECT_NE(stages.find(note), std::string::npos) << stages;
    EXPECT_NE(stages.find("4 stages of 32,768 bytes; K = 512 is 8 K steps of 64"), std::string::npos) << stages;
    const std::string source = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Source);
    EXPECT_NE(source.find(note), std::string::npos) << source;
    EXPECT_EQ(state.problem.k, 8);
    EXPECT_EQ(ts::views::tc_k_steps(state), 8);
    ts::views::TheatreFlags flags;
    flags.phase = 7;
    EXPECT_EQ(ts::test::applied(ts::test::tc_state(KernelKind::Wgmma, 12, 16, 8), flags).first, "");
    ts::views::AppState one_step = ts::test::tc_state(KernelKind::Wmma, 12, 16, 8);
    EXPECT_EQ(ts::views::tc_k_loop_problem(one_step).note,
              "Shown at K = 256, 8 K steps of 32, so that the K loop runs more than once; your problem 12 × 16 × 8 "
              "has 1 K step.");
    ts::views::AppState long_k = ts::test::tc_state(KernelKind::Wgmma, 12, 16, 1024);
    EXPECT_EQ(ts::views::tc_k_loop_problem(long_k).note, "");
    EXPECT_EQ(ts::views::tc_k_steps(long_k), 16);
}

TEST(TcStages, TheTabDrawsForEveryRung) {
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        if (kind == KernelKind::Cublas) continue;
        ts::views::AppState state = ts::test::tc_state(kind);
        const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Stages);
        const bool tma = ts::model::needs_sm90a(kind);
        EXPECT_NE(text.find(tma ? "The ring's barriers as the consumers reach K step 0" : "have no TMA and no mbarriers"),
                  std::string::npos)
            << ts::model::kernel_name(kind) << text;
    }
}

}  // namespace

// Where large text leaves the chart little height (a projector's 2× on 1280×720 leaves the tab
// about 600×250 of 1× room), a row's name is as large as a consumer's row allows, not a copy's lane: nine
// tenths of the text's size or more.
namespace {
TEST(TcStages, RowNamesReadAtAProjectorsSize) {
    ts::views::AppState state = ts::test::tc_state(KernelKind::Wgmma, 12, 16, 8);
    state.picture.wanted = true;
    ts::test::ImGuiHarness ui(ImVec2(600, 250));
    state.theatre.open_panel = ts::views::TheatrePanel::Stages;
    float font = 0.0f;
    for (int frame = 0; frame < 2; ++frame)
        ui.frame([&] {
            ts::views::draw_theatre_view(state, 0.0f);
            font = ImGui::GetFontSize();
        });
    int names = 0;
    for (const ts::views::PictureBox& label : state.picture.labels) {
        if (label.name.rfind("row: ", 0) != 0) continue;
        ++names;
        EXPECT_GE(label.max.y - label.min.y, 0.9f * font) << label.name;
    }
    EXPECT_EQ(names, 3) << "the producer's row and two consumers'";
}
}  // namespace
