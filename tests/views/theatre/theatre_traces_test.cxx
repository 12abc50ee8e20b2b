// The theatre replaying traces: a trace replaces the model only for the problem it
// was made of, says so on screen, counts from its own loads, and feeds the SM timeline. All
// without a GPU: the traces are the committed H200 ones, or synthetic.
#include <gtest/gtest.h>

#include "views/imgui_harness.hpp"
#include "model/kernel_trace.hpp"
#include "support/app_states.hpp"
#include "support/synthetic_trace.hpp"
#include "views/theatre/sm_timeline.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/theatre/theatre_view.hpp"

namespace {

using namespace ts;
using testing_support::state_for;
using testing_support::synthetic_trace;

const std::string kTraces = TILESCOPE_TRACES_DIR;

views::AppState with_h200_traces() {
    views::AppState state = state_for(40, 28, 36, 8);
    state.kernel.block_x = state.kernel.block_y = 8;
    views::TheatreTraces& traces = state.theatre.traces;
    EXPECT_EQ(views::load_trace_file(traces, kTraces + "/nvidia-h200-tiled-40x28x36-t8.json"), std::nullopt);
    EXPECT_EQ(views::load_trace_file(traces, kTraces + "/nvidia-h200-naive-40x28x36-8x8.json"), std::nullopt);
    return state;
}

TEST(TheatreTraces, ReplaysOnlyTheProblemItRecorded) {
    views::AppState state = with_h200_traces();
    views::choose_theatre_source(state.theatre, state);
    EXPECT_EQ(state.theatre.source->label(), "recorded on NVIDIA H200");

    state.problem.k = 37;  // another problem: the model again
    views::choose_theatre_source(state.theatre, state);
    EXPECT_EQ(state.theatre.source->label(), "model");
    state.problem.k = 36;
    state.kernel.tile = 4;
    views::choose_theatre_source(state.theatre, state);
    EXPECT_EQ(state.theatre.source->label(), "model");
    state.kernel.tile = 8;

    state.theatre.traces.replay = false;  // the student asks for the model
    views::choose_theatre_source(state.theatre, state);
    EXPECT_EQ(state.theatre.source->label(), "model");
}

TEST(TheatreTraces, CountsComeFromTheRecordedLoads) {
    views::AppState state = with_h200_traces();
    views::choose_theatre_source(state.theatre, state);
    const views::StepSource& recorded = *state.theatre.source;
    const views::StepSource& model = views::model_source();
    const model::Problem& p = state.problem;
    // An H200 that ran the kernels as the model says: every counter agrees at every step.
    const model::Timeline timeline = views::theatre_timeline(state);
    for (int i = 0; i < timeline.count(); ++i) {
        const model::KernelStep step = model::step_at(timeline, i);
        for (auto kind : {model::KernelKind::Naive, model::KernelKind::Tiled}) {
            EXPECT_EQ(recorded.traffic(kind, p, 8, step), model.traffic(kind, p, 8, step));
            EXPECT_EQ(recorded.element_reads(kind, p, 8, step, model::Operand::A, 0, 0),
                      model.element_reads(kind, p, 8, step, model::Operand::A, 0, 0));
        }
    }
    // Block (3, 2) at phase 4: its B tile hangs over the right edge and past K.
    const auto loads = recorded.tile_loads(p, 8, {3, 2}, 4, model::Operand::B);
    const auto expected = model.tile_loads(p, 8, {3, 2}, 4, model::Operand::B);
    ASSERT_EQ(loads.size(), expected.size());
    int padding = 0;
    for (std::size_t i = 0; i < loads.size(); ++i) {
        EXPECT_EQ(loads[i].padding, expected[i].padding);
        EXPECT_EQ(loads[i].address, expected[i].address);
        padding += loads[i].padding;
    }
    EXPECT_EQ(padding, 48);
}

TEST(TheatreTraces, PanelsSayWhereTheEventsComeFrom) {
    views::AppState state = with_h200_traces();
    ASSERT_EQ(views::jump_theatre(state.theatre, state, model::Index2{3, 2}, 4, model::SubStep::LoadTiles), std::nullopt);
    state.theatre.open_panel = views::TheatrePanel::Sms;
    test::ImGuiHarness harness;
    std::string text;
    for (int i = 0; i < 3; ++i) text = harness.frame([&] { views::draw_theatre_view(state, 0.0f); });
    EXPECT_NE(text.find("events: recorded on NVIDIA H200"), std::string::npos) << text;
    EXPECT_NE(text.find("20 blocks ran on 20 of its 132 SMs, at most 20 at once, in 1 wave"), std::string::npos) << text;
    EXPECT_NE(text.find("As recorded on the NVIDIA H200: block (3, 2) ran on SM "), std::string::npos) << text;
    EXPECT_NE(text.find("Trace on GPU"), std::string::npos);

    views::AppState plain = state_for(40, 28, 36, 8);
    plain.theatre.open_panel = views::TheatrePanel::Sms;
    for (int i = 0; i < 3; ++i) text = harness.frame([&] { views::draw_theatre_view(plain, 0.0f); });
    EXPECT_NE(text.find("events: model"), std::string::npos);
    EXPECT_NE(text.find("No trace of this problem yet."), std::string::npos);
}

TEST(TheatreTraces, WithoutAGpuTheButtonSaysWhy) {
    views::AppState state = state_for(40, 28, 36, 8);
    EXPECT_EQ(views::why_no_trace(state), "still probing for a CUDA GPU");
    state.device = gpu::DeviceInfo{};
    state.device->why_not = "no NVIDIA driver found";
    EXPECT_EQ(views::why_no_trace(state), "no GPU here, so the player shows the model: no NVIDIA driver found");
    state.device->usable = true;
    state.problem.batch = 2;
    EXPECT_EQ(views::why_no_trace(state), "a trace covers one matrix product: set the batch to 1 (it is 2)");
    state.problem.batch = 1;
    EXPECT_EQ(views::why_no_trace(state), std::nullopt);
    const auto requests = views::trace_requests(state);
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[0].kernel.kind, model::KernelKind::Tiled);
    EXPECT_EQ(requests[1].kernel.kind, model::KernelKind::Naive);
    EXPECT_EQ(requests[1].kernel.tile, 8);
}

TEST(TheatreTraces, AFailedOrBrokenTraceIsReported) {
    views::AppState state = state_for(40, 28, 36, 8);
    const auto why = views::load_trace_file(state.theatre.traces, "/nonexistent.json");
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "/nonexistent.json: cannot open the file (missing, or no permission to read it)");
    gpu::RunResult failed;
    failed.request.kind = gpu::RequestKind::Record;
    failed.request.kernel = {model::KernelKind::Tiled, 8, 8, 8};
    failed.error = "out of memory";
    state.theatre.traces.pending = {7};
    failed.id = 7;
    EXPECT_TRUE(views::take_trace_result(state.theatre.traces, failed));
    EXPECT_TRUE(state.theatre.traces.pending.empty());
    EXPECT_EQ(state.theatre.traces.error, "tracing tiled T=8 failed: out of memory");
    gpu::RunResult measure;
    EXPECT_FALSE(views::take_trace_result(state.theatre.traces, measure)) << "not a trace: left to the run panel";
    // The kernel editor's trace (an id the theatre did not ask for) is left to the editor:
    // taken here, its job waited for it for ever (seen on an H100 with --view kernel --run).
    gpu::RunResult yours;
    yours.request.kind = gpu::RequestKind::Record;
    yours.id = 8;
    yours.ok = true;
    EXPECT_FALSE(views::take_trace_result(state.theatre.traces, yours));
}

TEST(SmTimeline, BlocksSideBySideGetTheirOwnLanes) {
    // 20 blocks on 4 SMs, two at a time on each: lanes 0 and 1.
    const model::KernelTrace trace = synthetic_trace({model::KernelKind::Tiled, 8, 8, 8},
                                                     testing_support::make_problem(40, 28, 36), 4, 2);
    const model::SmTimeline timeline = model::sm_timeline(trace);
    const views::SmLanes lanes = views::assign_lanes(timeline);
    EXPECT_EQ(lanes.lanes_per_sm, 2);
    EXPECT_EQ(timeline.most_at_once, 8);
    EXPECT_EQ(timeline.waves, 3);  // 20 blocks, 8 at a time
    EXPECT_NE(views::timeline_summary(trace, timeline)
                  .find("tiled T=8 on 40×28×36, recorded on the Synthetic GPU (2026-11-21 00:00 UTC): 20 blocks ran on "
                        "4 of its 4 SMs, at most 8 at once, in 3 waves; 15.0 µs"),
              std::string::npos)
        << views::timeline_summary(trace, timeline);
}

// A ladder rung on show records itself alone, and its trace goes to traces.rung,
// leaving the naive and tiled ones and their replay as they were.
TEST(TheatreTraces, ALadderRungRecordsItselfAlone) {
    views::AppState state = with_h200_traces();
    const auto tiled = state.theatre.traces.tiled;
    const auto replay = state.theatre.traces.replay_source;
    state.problem = testing_support::make_problem(130, 131, 37);
    state.kernel.kind = model::KernelKind::Warptile;
    state.device = gpu::DeviceInfo{};
    state.device->why_not = "no NVIDIA driver found";
    EXPECT_EQ(views::why_no_trace(state), "no GPU here, so the player shows the model: no NVIDIA driver found");
    state.device->usable = true;
    EXPECT_EQ(views::why_no_trace(state), std::nullopt);
    const auto requests = views::trace_requests(state);
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].kind, gpu::RequestKind::Record);
    EXPECT_EQ(requests[0].kernel.kind, model::KernelKind::Warptile);
    EXPECT_EQ(requests[0].problem.m, 130);
    EXPECT_EQ(requests[0].problem.k, 37);
    state.problem.batch = 2;
    EXPECT_EQ(views::why_no_trace(state), "a trace covers one matrix product: set the batch to 1 (it is 2)");
    EXPECT_TRUE(views::trace_requests(state).empty());
    state.problem.batch = 1;

    EXPECT_EQ(views::timeline_trace(state), nullptr);
    views::add_trace(state.theatre.traces, synthetic_trace(state.kernel, state.problem));
    ASSERT_TRUE(state.theatre.traces.rung);
    EXPECT_EQ(state.theatre.traces.rung->config.kind, model::KernelKind::Warptile);
    EXPECT_EQ(state.theatre.traces.tiled, tiled);
    EXPECT_EQ(state.theatre.traces.replay_source, replay);
    EXPECT_EQ(views::timeline_trace(state), state.theatre.traces.rung.get());
    EXPECT_TRUE(model::recorded_ladder_load(*state.theatre.traces.rung, {1, 1}, 2, model::Operand::B, 3, 127));
    // Another rung on show: the warptile trace does not fit it.
    state.kernel.kind = model::KernelKind::RegTile2d;
    EXPECT_EQ(views::timeline_trace(state), nullptr);
    EXPECT_EQ(views::trace_requests(state).at(0).kernel.kind, model::KernelKind::RegTile2d);
    // A rung without a recorded variant says so.
    state.kernel.kind = model::KernelKind::Vectorized;
    EXPECT_EQ(views::why_no_trace(state),
              "only the naive, tiled, regtile-2d, warptile, mma, wgmma and warp-specialized kernels have recorded "
              "variants, "
              "not vectorized");
    EXPECT_TRUE(views::trace_requests(state).empty());
}

}  // namespace

namespace {

// The warp panel's measured penalty comes from the lab's measurements: here the committed
// H200 trace, naive-row 32×32 against naive 32×32 at 4096³.
TEST(CoalescingPenalty, ComesFromTheMeasurementsTheLabHolds) {
    ts::views::LabState lab;
    EXPECT_EQ(ts::views::measured_coalescing_penalty(lab), std::nullopt);
    const auto committed = ts::views::committed_measurements();
    ASSERT_FALSE(committed.empty());
    ASSERT_TRUE(ts::views::load_measurement(lab.measured, committed.back()));
    const auto penalty = ts::views::measured_coalescing_penalty(lab);
    ASSERT_TRUE(penalty);
    // naive-row over naive, both 32×32 at 4096³, as the newest trace holds them.
    const auto points = ts::views::lab_points(lab.measured);
    const auto* row = ts::views::find_point(points, "naive-row 32×32", 4096, "float");
    const auto* naive = ts::views::find_point(points, "naive 32×32", 4096, "float");
    ASSERT_TRUE(row && naive);
    EXPECT_NEAR(penalty->ratio, row->median_ms / naive->median_ms, 1e-9);
    EXPECT_GT(penalty->ratio, 5.0);
    EXPECT_EQ(penalty->measured, "32×32 blocks, 4096³ float, " + lab.measured.measurement_label);
}

}  // namespace
