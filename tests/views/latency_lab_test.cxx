// The latency lab as a GPU fills it in, without a window or GPU: the ladder's rungs plotted
// from the committed H200 measurement, recorded curves kept (faded, labelled with their GPU and
// date) beside live points until live points of the same kernel replace them, an axis that
// shows both, and the quick sweep a first visit starts — once, and only with a usable GPU.
#include <gtest/gtest.h>

#include "support/app_states.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "imgui_harness.hpp"
#include "model/device_limits.hpp"
#include "views/window/app_state.hpp"
#include "views/lab/lab_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/window/main_view.hpp"

using namespace ts::views;
using ts::model::Dtype;
using ts::model::KernelKind;
using ts::test::ImGuiHarness;

namespace {

constexpr const char* kTag = " (H200, 2026-11-24)";

// The H200 measurement of 2026-11-24 by name, whichever measurement is newest: its sizes and
// kernels are what these tests count.
AppState state_with_measurement(ViewId view = ViewId::Latency) {
    AppState state;
    const auto files = committed_measurements();
    const auto h200 = std::find_if(files.begin(), files.end(),
                                   [](const auto& file) { return file.filename() == "nvidia-h200-2026-11-24.json"; });
    EXPECT_NE(h200, files.end());
    if (h200 != files.end()) {
        EXPECT_TRUE(load_measurement(state.lab.measured, *h200)) << state.lab.measured.load_error;
    }
    state.view = view;
    return state;
}

// A GPU that the views take as usable; nothing is ever run on it.
void give_fake_gpu(AppState& state) { ts::testing_support::give_fake_gpu(state, "Fake GPU"); }

void give_no_gpu(AppState& state) {
    ts::gpu::DeviceInfo info;
    info.usable = false;
    info.why_not = "no CUDA device: none in this test";
    state.device = info;
}

// The lab's panel and plot, twice: ImGui sizes child windows from the previous frame.
std::string draw_latency_lab(ImGuiHarness& ui, AppState& state) {
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    return text;
}

const PlotSeries* series(const AppState& state, const std::string& name) {
    for (const PlotSeries& s : state.lab.choices.latency_plot.series)
        if (s.name == name) return &s;
    return nullptr;
}

int finite_points(const PlotSeries& s) {
    return static_cast<int>(std::count_if(s.points.begin(), s.points.end(), [](const PlotPoint& p) { return std::isfinite(p.y); }));
}

bool has_point_at(const PlotSeries& s, double x) {
    return std::any_of(s.points.begin(), s.points.end(), [&](const PlotPoint& p) { return p.x == x && std::isfinite(p.y); });
}

// A live result as the runner would return it for `kernel` at `size`³, float.
ts::gpu::RunResult live_result(ts::model::KernelConfig kernel, int size, double median_ms,
                               const std::string& key = "latency/full") {
    ts::gpu::RunResult result;
    result.ok = true;
    result.live_key = key;
    result.request.kernel = kernel;
    result.request.problem = {size, size, size, 1, Dtype::Float32};
    result.median_ms = median_ms;
    result.p20_ms = median_ms * 0.99;
    result.p80_ms = median_ms * 1.01;
    result.samples_ms = {result.p20_ms, median_ms, result.p80_ms};
    return result;
}


TEST(LatencyLab, RungSeriesComeFromTheMeasurement) {
    ImGuiHarness ui;
    AppState state = state_with_measurement();
    // By default warptile and tuned are among the series, with T = 32 and cuBLAS.
    draw_latency_lab(ui, state);
    for (const char* name : {"tiled T=32", "warptile", "tuned", "cuBLAS"})
        EXPECT_NE(series(state, std::string(name) + kTag), nullptr) << name;
    EXPECT_EQ(series(state, std::string("vectorized") + kTag), nullptr) << "off by default";

    std::fill(std::begin(state.lab.choices.latency.rungs), std::end(state.lab.choices.latency.rungs), true);
    const std::string text = draw_latency_lab(ui, state);
    for (const char* rung : {"regtile-1d", "regtile-2d", "vectorized", "conflict-free", "warptile", "pipelined", "tuned"}) {
        EXPECT_NE(text.find(rung), std::string::npos) << "no checkbox for " << rung;
        const PlotSeries* s = series(state, std::string(rung) + kTag);
        ASSERT_NE(s, nullptr) << rung;
        EXPECT_EQ(finite_points(*s), 6) << rung;  // 128 … 4096
        // The measurement alone: drawn solid, as the only data there is.
        EXPECT_FALSE(s->faded) << rung;
    }
    // Every series a colour of its own.
    std::set<ImU32> colours;
    for (const PlotSeries& s : state.lab.choices.latency_plot.series) colours.insert(s.colour);
    EXPECT_EQ(colours.size(), state.lab.choices.latency_plot.series.size());
}

TEST(LatencyLab, FloatOnlyRungsAreDisabledForOtherDtypes) {
    ImGuiHarness ui;
    AppState state = state_with_measurement();
    give_fake_gpu(state);
    std::fill(std::begin(state.lab.choices.latency.rungs), std::end(state.lab.choices.latency.rungs), true);
    state.lab.choices.latency.dtype = Dtype::Float64;
    const std::string text = draw_latency_lab(ui, state);
    EXPECT_NE(text.find("from vectorized on the FP32 rungs are float only"), std::string::npos) << text;
    // Neither plotted nor measured: Measure queues regtile-1d and regtile-2d, which have double
    // kernels, and none of the float-only rungs.
    state.lab.measured.to_submit.clear();
    measure_latency_now(state.lab);
    std::set<KernelKind> queued;
    for (const auto& [key, request] : state.lab.measured.to_submit) queued.insert(request.kernel.kind);
    EXPECT_TRUE(queued.contains(KernelKind::RegTile1d));
    EXPECT_TRUE(queued.contains(KernelKind::RegTile2d));
    for (KernelKind kind : {KernelKind::Vectorized, KernelKind::ConflictFree, KernelKind::Warptile,
                            KernelKind::Pipelined, KernelKind::Tuned})
        EXPECT_FALSE(queued.contains(kind)) << ts::model::kernel_name(kind);
}

TEST(LatencyLab, MeasureQueuesTheChosenRungs) {
    AppState state = state_with_measurement();
    std::fill(std::begin(state.lab.choices.latency.rungs), std::end(state.lab.choices.latency.rungs), true);
    measure_latency_now(state.lab);
    for (KernelKind rung : ts::model::kLadderKinds) {
        const std::string config = ts::model::describe({rung, 16, 16, 16});
        EXPECT_TRUE(std::any_of(state.lab.measured.to_submit.begin(), state.lab.measured.to_submit.end(),
                                [&](const auto& queued) { return queued.first == "latency/full/" + config; }))
            << config;
    }
}

TEST(LatencyLab, RecordedCurveStaysFadedUntilLivePointsReplaceIt) {
    ImGuiHarness ui;
    AppState state = state_with_measurement();
    give_fake_gpu(state);

    // One live point of cuBLAS: every recorded curve stays, faded, T = 32's whole.
    take_live_result(state.lab.measured, state.lab.panels, live_result({KernelKind::Cublas, 16, 16, 16}, 2048, 0.4));
    std::string text = draw_latency_lab(ui, state);
    const PlotSeries* recorded_tiled = series(state, std::string("tiled T=32") + kTag);
    ASSERT_NE(recorded_tiled, nullptr);
    EXPECT_TRUE(recorded_tiled->faded);
    EXPECT_EQ(finite_points(*recorded_tiled), 6);
    const PlotSeries* live_cublas = series(state, "cuBLAS");
    ASSERT_NE(live_cublas, nullptr);
    EXPECT_FALSE(live_cublas->faded);
    ASSERT_EQ(finite_points(*live_cublas), 1);
    EXPECT_TRUE(has_point_at(*live_cublas, 2048));
    // cuBLAS's recorded curve keeps the sizes not measured live, and gives 2048 up.
    const PlotSeries* recorded_cublas = series(state, std::string("cuBLAS") + kTag);
    ASSERT_NE(recorded_cublas, nullptr);
    EXPECT_TRUE(recorded_cublas->faded);
    EXPECT_EQ(finite_points(*recorded_cublas), 5);
    EXPECT_FALSE(has_point_at(*recorded_cublas, 2048));
    // The legend says which is which.
    EXPECT_EQ(live_cublas->legend_group, "live on Fake GPU");
    EXPECT_EQ(recorded_cublas->legend_group, "measured on H200, 2026-11-24 (faded)");
    // One legend row per kernel: recorded cuBLAS shares the live row's colour, and the last
    // row says what faded means; T = 32, only recorded so far, has a row under the header.
    EXPECT_FALSE(recorded_cublas->in_legend);
    EXPECT_TRUE(recorded_tiled->in_legend);
    EXPECT_EQ(recorded_tiled->legend_name, "tiled T=32");
    EXPECT_EQ(state.lab.choices.latency_plot.faded_legend, "faded: measured on H200, 2026-11-24");
    EXPECT_NE(text.find("faded: measured on H200, 2026-11-24"), std::string::npos) << text;
    EXPECT_NE(text.find("live on Fake GPU"), std::string::npos) << text;
    EXPECT_NE(text.find("measured on H200, 2026-11-24 (faded)"), std::string::npos) << text;
    // Live series come first in the legend, the recorded ones under them.
    const auto& all = state.lab.choices.latency_plot.series;
    EXPECT_EQ(all.front().name, "cuBLAS");

    // Live points of T = 32 at every recorded size: its recorded curve is gone.
    for (int size : {128, 256, 512, 1024, 2048, 4096})
        take_live_result(state.lab.measured, state.lab.panels, live_result({KernelKind::Tiled, 16, 16, 32}, size, size / 1000.0));
    draw_latency_lab(ui, state);
    EXPECT_EQ(series(state, std::string("tiled T=32") + kTag), nullptr);
    const PlotSeries* live_tiled = series(state, "tiled T=32");
    ASSERT_NE(live_tiled, nullptr);
    EXPECT_EQ(finite_points(*live_tiled), 6);
    // The others stay, faded.
    const PlotSeries* recorded_tuned = series(state, std::string("tuned") + kTag);
    ASSERT_NE(recorded_tuned, nullptr);
    EXPECT_TRUE(recorded_tuned->faded);
    EXPECT_EQ(finite_points(*recorded_tuned), 6);
}

// A live point's tooltip says the clock it ran at and what held it back, as bench does.
TEST(LatencyLab, ALivePointsTooltipSaysTheClockItRanAt) {
    ImGuiHarness ui;
    AppState state = state_with_measurement();
    give_fake_gpu(state);
    ts::gpu::RunResult result = live_result({KernelKind::Cublas, 16, 16, 16}, 2048, 0.4);
    result.clocks.readings = 2;
    result.clocks.mean_sm_mhz = 1690;
    result.clocks.limits = 0x4;  // the software power cap
    const ts::record::Point point = point_from_result(result);
    EXPECT_EQ(point.sm_clock_mhz, 1690);
    EXPECT_EQ(point.clock_limits, "the power cap");
    take_live_result(state.lab.measured, state.lab.panels, result);
    draw_latency_lab(ui, state);
    const PlotSeries* live_cublas = series(state, "cuBLAS");
    ASSERT_NE(live_cublas, nullptr);
    ASSERT_EQ(live_cublas->points.size(), 1u);
    EXPECT_NE(live_cublas->points[0].note.find("SM 1690 MHz, held back by the power cap"), std::string::npos)
        << live_cublas->points[0].note;
}

TEST(LatencyLab, LiveRungPointReplacesItsRecordedOne) {
    ImGuiHarness ui;
    AppState state = state_with_measurement();
    give_fake_gpu(state);
    const ts::gpu::RunResult result = live_result({KernelKind::Tuned, 16, 16, 16}, 1024, 0.07);
    // Under the measurement's name for the rung, so the two meet in one series.
    EXPECT_EQ(point_from_result(result).config, "tuned");
    take_live_result(state.lab.measured, state.lab.panels, result);
    draw_latency_lab(ui, state);
    const PlotSeries* live = series(state, "tuned");
    ASSERT_NE(live, nullptr);
    ASSERT_EQ(live->points.size(), 1u);
    EXPECT_EQ(live->points[0].y, 0.07);
    const PlotSeries* recorded = series(state, std::string("tuned") + kTag);
    ASSERT_NE(recorded, nullptr);
    EXPECT_FALSE(has_point_at(*recorded, 1024));
    EXPECT_EQ(finite_points(*recorded), 5);
}

TEST(LatencyLab, AxisShowsLiveAndRecordedPoints) {
    ImGuiHarness ui;
    AppState state = state_with_measurement();
    give_fake_gpu(state);
    // A live point far above anything recorded, at one size only.
    take_live_result(state.lab.measured, state.lab.panels, live_result({KernelKind::Tiled, 16, 16, 32}, 2048, 5000.0));
    for (LatencyAxis axis : {LatencyAxis::LatencyLog, LatencyAxis::LatencyLinear}) {
        state.lab.choices.latency.axis = axis;
        draw_latency_lab(ui, state);
        const Plot& plot = state.lab.choices.latency_plot;
        const AxisRange x = shown_x_range(plot);
        const AxisRange y = shown_y_range(plot);
        EXPECT_LE(x.min, 128.0);
        EXPECT_GE(x.max, 4096.0);
        EXPECT_GE(y.max, 5000.0);
        // The fastest recorded point (cuBLAS at 128³, some microseconds) is inside too.
        const PlotSeries* recorded_cublas = series(state, std::string("cuBLAS") + kTag);
        ASSERT_NE(recorded_cublas, nullptr);
        EXPECT_LE(y.min, recorded_cublas->points.front().y);
    }
    EXPECT_EQ(state.lab.choices.latency.axis, LatencyAxis::LatencyLinear);
    EXPECT_EQ(LatencyControls{}.axis, LatencyAxis::LatencyLog) << "the log axis is the default";
}

TEST(LatencyLab, FirstVisitSweepStartsOnceWithAGpu) {
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Stage);
    give_fake_gpu(state);

    // The stage and the theatre are no lab: nothing yet.
    start_first_visit_sweep(state.lab.measured, state);
    state.view = ViewId::Theatre;
    start_first_visit_sweep(state.lab.measured, state);
    EXPECT_FALSE(state.lab.measured.sweep.active());
    EXPECT_TRUE(state.lab.measured.first_visit.due);

    // The first lab view: a quick sweep of the chosen series at 256 … 2048.
    state.view = ViewId::Tuning;
    start_first_visit_sweep(state.lab.measured, state);
    ASSERT_TRUE(state.lab.measured.sweep.active());
    EXPECT_TRUE(state.lab.measured.sweep.first_visit);
    EXPECT_FALSE(state.lab.measured.first_visit.due);
    // naive, naive-row, T = 32, warptile, tuned, cuBLAS at four sizes.
    EXPECT_EQ(state.lab.measured.sweep.total, 24);
    ASSERT_EQ(state.lab.measured.to_submit.size(), 1u);  // one request at a time, so Cancel stops it
    EXPECT_EQ(state.lab.measured.to_submit[0].first, "sweep");
    std::vector<ts::gpu::RunRequest> requests = {state.lab.measured.to_submit[0].second};
    requests.insert(requests.end(), state.lab.measured.sweep.remaining.begin(), state.lab.measured.sweep.remaining.end());
    std::set<int> sizes;
    for (const ts::gpu::RunRequest& r : requests) {
        sizes.insert(static_cast<int>(r.problem.m));
        EXPECT_TRUE(r.adaptive);
        EXPECT_LE(r.budget_s, 0.25);
        EXPECT_EQ(r.check, r.problem.m <= 1024) << r.problem.m;
        EXPECT_EQ(r.problem.dtype, Dtype::Float32);
    }
    EXPECT_EQ(sizes, (std::set<int>{256, 512, 1024, 2048}));
    // Smallest first, so the curves grow from the left.
    EXPECT_EQ(requests.front().problem.m, 256);

    // Progress: each result moves it on and sends the next request.
    std::string text = draw_latency_lab(ui, state);
    EXPECT_NE(text.find("Measuring on Fake GPU: 0 of 24 points"), std::string::npos) << text;
    std::erase_if(state.lab.measured.to_submit, [](const auto& queued) { return queued.first != "sweep"; });  // the panel's
    for (int i = 0; i < 7; ++i) {
        ASSERT_EQ(state.lab.measured.to_submit.size(), 1u);
        ts::gpu::RunResult result;
        result.ok = true;
        result.live_key = state.lab.measured.to_submit[0].first;
        result.request = state.lab.measured.to_submit[0].second;
        result.median_ms = result.p20_ms = result.p80_ms = 1.0;
        result.samples_ms = {1.0};
        state.lab.measured.to_submit.clear();
        take_live_result(state.lab.measured, state.lab.panels, result);
    }
    EXPECT_EQ(state.lab.measured.sweep.done, 7);
    EXPECT_EQ(state.lab.measured.live_points.size(), 7u);
    text = draw_latency_lab(ui, state);
    EXPECT_NE(text.find("Measuring on Fake GPU: 7 of 24 points"), std::string::npos) << text;
    EXPECT_NE(text.find("Cancel"), std::string::npos) << text;

    // Other lab views later, and after Cancel: never again this session.
    const int total = state.lab.measured.sweep.total;
    for (ViewId view : {ViewId::Latency, ViewId::Roofline, ViewId::Ladder}) {
        state.view = view;
        start_first_visit_sweep(state.lab.measured, state);
        EXPECT_EQ(state.lab.measured.sweep.total, total);
    }
    cancel_sweep(state.lab.measured);
    state.view = ViewId::Latency;
    start_first_visit_sweep(state.lab.measured, state);
    EXPECT_FALSE(state.lab.measured.sweep.active());
    EXPECT_TRUE(std::none_of(state.lab.measured.to_submit.begin(), state.lab.measured.to_submit.end(),
                             [](const auto& queued) { return queued.first == "sweep"; }));
}

TEST(LatencyLab, FirstVisitSweepStartsFromTheWindowsFrame) {
    // Through draw_main_view, as the window draws it: the view switcher starts it.
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Latency);
    give_fake_gpu(state);
    ui.bare_frame([&] { draw_main_view(state); });
    EXPECT_TRUE(state.lab.measured.sweep.active());
    EXPECT_TRUE(state.lab.measured.sweep.first_visit);
    EXPECT_EQ(state.lab.measured.sweep.total, 24);
}

TEST(LatencyLab, NoFirstVisitSweepWithoutAGpu) {
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Latency);
    // Still probing: it waits.
    start_first_visit_sweep(state.lab.measured, state);
    EXPECT_TRUE(state.lab.measured.first_visit.due);
    // No GPU: never, with the reason shown, and the measurement plotted solid.
    give_no_gpu(state);
    for (int i = 0; i < 3; ++i) ui.bare_frame([&] { draw_main_view(state); });
    EXPECT_FALSE(state.lab.measured.sweep.active());
    EXPECT_TRUE(state.lab.measured.to_submit.empty());
    EXPECT_FALSE(state.lab.measured.first_visit.due);
    const std::string text = draw_latency_lab(ui, state);
    EXPECT_NE(text.find("Not measuring here: no CUDA device: none in this test"), std::string::npos) << text;
    ASSERT_FALSE(state.lab.choices.latency_plot.series.empty());
    for (const PlotSeries& s : state.lab.choices.latency_plot.series) EXPECT_FALSE(s.faded) << s.name;
    // A GPU that appears later (it cannot, but the rule holds) finds the visit already passed.
    give_fake_gpu(state);
    start_first_visit_sweep(state.lab.measured, state);
    EXPECT_FALSE(state.lab.measured.sweep.active());
}

TEST(LatencyLab, FirstVisitSweepPassedOverSaysWhy) {
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Latency);
    give_fake_gpu(state);
    // What main does for --load and the automation for --lab-benchmark.
    pass_over_first_visit_sweep(state.lab.measured, "a measurement was opened with --load");
    start_first_visit_sweep(state.lab.measured, state);
    EXPECT_FALSE(state.lab.measured.sweep.active());
    EXPECT_TRUE(state.lab.measured.to_submit.empty());
    const std::string text = draw_latency_lab(ui, state);
    EXPECT_NE(text.find("No automatic sweep: a measurement was opened with --load."), std::string::npos) << text;
}

TEST(LatencyLab, FirstVisitSweepLeavesARunningSweepAlone) {
    AppState state = state_with_measurement(ViewId::Tuning);
    give_fake_gpu(state);
    std::vector<ts::gpu::RunRequest> grid(5);
    start_sweep(state.lab.measured, grid);  // as --run in the tuning view does before the first frame
    start_first_visit_sweep(state.lab.measured, state);
    EXPECT_EQ(state.lab.measured.sweep.total, 5);
    EXPECT_FALSE(state.lab.measured.sweep.first_visit);
    EXPECT_FALSE(state.lab.measured.first_visit.due);
}

}  // namespace
