// The hardware counters panel (issue #14) and the measured point it adds to the roofline, drawn
// without a window or GPU: without a GPU the button is disabled and says why; a reading (a fake
// CounterReport, as the worker would send it) becomes a table of measured, model and ratio with
// a tooltip per counter; CUPTI's permission refusal reads as guidance; readings are kept per
// kernel and size; and the roofline places a kernel with a reading at the intensity its DRAM
// bytes give.
#include <gtest/gtest.h>

#include "support/app_states.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "imgui_harness.hpp"
#include "model/counters.hpp"
#include "model/format.hpp"
#include "model/traffic.hpp"
#include "views/window/app_state.hpp"
#include "views/lab/counter_reads.hpp"
#include "views/lab/counters_panel.hpp"
#include "views/lab/lab_view.hpp"
#include "views/lab/roofline_counters.hpp"
#include "views/lab/roofline_view.hpp"
#include "views/common/theme.hpp"

using namespace ts::views;
using ts::model::Counter;
using ts::model::KernelKind;
using ts::test::ImGuiHarness;

namespace {

const ts::model::KernelConfig kTiled32{KernelKind::Tiled, 16, 16, 32};

ts::model::Problem roofline_problem() {
    return {kRooflineSize, kRooflineSize, kRooflineSize, 1, ts::model::Dtype::Float32};
}

void give_no_gpu(AppState& state) {
    ts::gpu::DeviceInfo info;
    info.usable = false;
    info.why_not = "no CUDA device: none in this test";
    state.device = info;
}

// What a worker would send for one launch: every counter, the model's number beside most.
// DRAM bytes a quarter of what the model counts as requested (the caches' work); the global
// load requests 3× the model's, so that the ratio is coloured.
ts::model::CounterReport fake_report(const ts::model::KernelConfig& kernel, const ts::model::Problem& problem) {
    ts::model::CounterReport report;
    report.kernel = kernel;
    report.problem = problem;
    report.device = "Fake GPU";
    report.passes = 3;
    report.note = "L2 flushed before each pass";
    const double model_bytes = static_cast<double>(ts::model::count_traffic(kernel, problem).global_bytes(4));
    for (Counter counter : ts::model::kAllCounters) {
        ts::model::CounterReading reading;
        reading.counter = counter;
        switch (counter) {
            case Counter::GlobalLoadRequests: reading.measured = 3.0e6; reading.model = 1.0e6; break;
            case Counter::GlobalLoadSectors: reading.measured = 8.0e6; reading.model = 8.0e6; break;
            case Counter::L2Sectors: reading.measured = 9.0e6; reading.model = 8.0e6; break;
            case Counter::DramBytes: reading.measured = model_bytes / 4.0; reading.model = model_bytes; break;
            case Counter::SharedBankConflicts: reading.measured = 12345; break;  // the model has no number
            case Counter::AchievedOccupancy: reading.measured = 48.2; reading.model = 50.0; break;
        }
        reading.model_basis = reading.model ? "the fake model's basis" : "not modelled in this test";
        report.readings.push_back(reading);
    }
    return report;
}

// The runner's answer to reading the counters of `kernel` on `problem`, before its outcome: not ok.
ts::gpu::RunResult counters_answer(const ts::model::KernelConfig& kernel, const ts::model::Problem& problem) {
    ts::gpu::RunResult result;
    result.request = counters_request(kernel, problem);
    result.live_key = "counters/" + counters_key(kernel, problem);
    return result;
}

ts::gpu::RunResult counters_result(const ts::model::CounterReport& report) {
    ts::gpu::RunResult result = counters_answer(report.kernel, report.problem);
    result.ok = true;
    result.counters = report;
    return result;
}

// Reading T = 32's counters on the roofline's problem failed with `error`.
ts::gpu::RunResult counters_failure(const std::string& error) {
    ts::gpu::RunResult result = counters_answer(kTiled32, roofline_problem());
    result.error = error;
    return result;
}

// The lab's panel and plot, twice: ImGui sizes child windows from the previous frame.
std::string draw_counters(ImGuiHarness& ui, AppState& state) {
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    return text;
}

// The panel alone at the top left of the harness window, where a click can find its button.
std::string draw_panel(ImGuiHarness& ui, AppState& state, ImVec2 mouse = ImVec2(-FLT_MAX, -FLT_MAX),
                       bool down = false) {
    return ui.frame([&] { draw_counters_panel(state.lab, state, roofline_problem()); }, mouse, down);
}

// Clicks down the column where the button is (right of the kernel combo's box, whose label
// does nothing when clicked), one press and release per position, until a request is queued.
bool click_read_button(ImGuiHarness& ui, AppState& state) {
    draw_panel(ui, state);
    for (float y = 2.0f; y < 300.0f; y += 4.0f) {
        const ImVec2 at(ImGui::GetFontSize() * 13.0f, y);
        draw_panel(ui, state, at, true);
        draw_panel(ui, state, at, false);
        if (!state.lab.measured.to_submit.empty()) return true;
    }
    return false;
}

TEST(CountersPanel, WithoutAGpuTheButtonIsDisabledAndSaysWhy) {
    ImGuiHarness ui;
    AppState state;
    give_no_gpu(state);
    state.view = ViewId::Roofline;
    const std::string text = draw_counters(ui, state);
    EXPECT_NE(text.find("Hardware counters"), std::string::npos) << text;
    EXPECT_NE(text.find("Read the counters (one launch)"), std::string::npos) << text;
    EXPECT_NE(text.find("Unavailable: reading counters needs a CUDA GPU: no CUDA device: none in this test"),
              std::string::npos)
        << text;
    EXPECT_FALSE(click_read_button(ui, state)) << "a disabled button queued a request";
    EXPECT_TRUE(state.lab.panels.counter_reads.empty());
}

TEST(CountersPanel, WithAGpuTheButtonQueuesOneCountersRequestAndWaits) {
    ImGuiHarness ui;
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    ASSERT_TRUE(click_read_button(ui, state));
    ASSERT_EQ(state.lab.measured.to_submit.size(), 1u);
    const auto& [key, request] = state.lab.measured.to_submit.front();
    EXPECT_EQ(request.kind, ts::gpu::RequestKind::Counters);
    EXPECT_EQ(ts::model::describe(request.kernel), "tiled T=32");
    EXPECT_EQ(request.problem.m, kRooflineSize);
    EXPECT_EQ(key, "counters/" + counters_key(kTiled32, roofline_problem()));
    // While it runs the button waits, and says so.
    ASSERT_TRUE(state.lab.panels.counter_reads.at(counters_key(kTiled32, roofline_problem())).pending);
    EXPECT_EQ(why_no_counters(state, kTiled32, roofline_problem()), "the counters are being read");
    const std::string text = draw_panel(ui, state);
    EXPECT_NE(text.find("Reading the counters of tiled T=32 on Fake GPU"), std::string::npos) << text;
}

TEST(CountersPanel, AReadingBecomesATableOfMeasuredModelAndRatio) {
    ImGuiHarness ui;
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    state.view = ViewId::Roofline;
    take_live_result(state.lab.measured, state.lab.panels, counters_result(fake_report(kTiled32, roofline_problem())));
    const CounterRead& read = state.lab.panels.counter_reads.at(counters_key(kTiled32, roofline_problem()));
    ASSERT_TRUE(read.report);
    EXPECT_FALSE(read.pending);

    const std::string text = draw_counters(ui, state);
    for (const char* column : {"counter", "measured", "model", "ratio"})
        EXPECT_NE(text.find(column), std::string::npos) << column;
    for (Counter counter : ts::model::kAllCounters)
        EXPECT_NE(text.find(std::string(ts::model::counter_info(counter).label)), std::string::npos)
            << ts::model::counter_info(counter).label;
    EXPECT_NE(text.find("3.00 M"), std::string::npos) << text;   // measured requests
    EXPECT_NE(text.find("3.00×"), std::string::npos) << text;    // their ratio to the model's 1.00 M
    EXPECT_NE(text.find("0.25×"), std::string::npos) << text;    // DRAM bytes: a quarter of the requested
    EXPECT_NE(text.find("1.12×"), std::string::npos) << text;    // L2 sectors 9 M / 8 M
    EXPECT_NE(text.find("48.2 %"), std::string::npos) << text;
    EXPECT_NE(text.find("—"), std::string::npos) << "the bank conflicts have no model number";
    EXPECT_NE(text.find("Fake GPU, 2048×2048×2048; CUPTI replayed the launch 3 times"), std::string::npos) << text;
    EXPECT_NE(text.find("L2 flushed before each pass"), std::string::npos) << text;

    // Far from 1 in the error colour, somewhat off in the warning colour, near 1 plain.
    ImGuiHarness for_colours;
    for_colours.frame([] {
        EXPECT_EQ(ratio_colour(3.0), colours::kError);
        EXPECT_EQ(ratio_colour(0.25), colours::kError);
        EXPECT_EQ(ratio_colour(1.4), colours::kWarning);
        EXPECT_EQ(ratio_colour(1.1), ImGui::GetColorU32(ImGuiCol_Text));
    });
}

TEST(CountersPanel, EachRowExplainsItsCounterInATooltip) {
    ImGuiHarness ui;
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    take_live_result(state.lab.measured, state.lab.panels, counters_result(fake_report(kTiled32, roofline_problem())));
    draw_panel(ui, state);
    const ts::model::CounterInfo& dram = ts::model::counter_info(Counter::DramBytes);
    std::string tooltip;
    for (float y = 2.0f; y < 600.0f && tooltip.empty(); y += 3.0f) {
        const std::string text = draw_panel(ui, state, ImVec2(5.0f, y));
        if (ui.tooltip_open() && text.find(std::string(dram.meaning)) != std::string::npos) tooltip = text;
    }
    ASSERT_FALSE(tooltip.empty()) << "no row's tooltip explains DRAM bytes";
    EXPECT_NE(tooltip.find(std::string(dram.metrics.front())), std::string::npos) << tooltip;
    EXPECT_NE(tooltip.find("the fake model's basis"), std::string::npos) << tooltip;
    EXPECT_NE(tooltip.find("measured / model = 0.250"), std::string::npos) << tooltip;
}

TEST(CountersPanel, PermissionRefusalIsGuidanceNotAFailure) {
    ImGuiHarness ui;
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    const ts::gpu::RunResult result = counters_failure(ts::model::counters_permission_help());
    ASSERT_TRUE(is_permission_error(result.error)) << "the permission text must name NVreg_RestrictProfilingToAdminUsers";
    take_live_result(state.lab.measured, state.lab.panels, result);
    const std::string text = draw_panel(ui, state);
    EXPECT_NE(text.find("The driver does not let this user read the GPU's counters. To allow it:"), std::string::npos)
        << text;
    EXPECT_NE(text.find(result.error), std::string::npos) << "the runner's words, exactly";
    EXPECT_EQ(text.find("Could not read the counters"), std::string::npos) << text;
    EXPECT_TRUE(state.lab.measured.last_error.empty()) << "not reported as a failed measurement";
    // The button stays: the user may change the setting and try again.
    EXPECT_EQ(why_no_counters(state, kTiled32, roofline_problem()), std::nullopt);
}

TEST(CountersPanel, OtherFailuresShowTheExactError) {
    ImGuiHarness ui;
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    const ts::gpu::RunResult result =
        counters_failure("CUPTI reports: cuptiProfilerHostInitialize: CUPTI_ERROR_NOT_SUPPORTED (app/gpu/counters.cxx:80)");
    take_live_result(state.lab.measured, state.lab.panels, result);
    const std::string text = draw_panel(ui, state);
    EXPECT_NE(text.find("Could not read the counters: " + result.error), std::string::npos) << text;
}

TEST(CountersPanel, ReadingsAreKeptPerKernelAndSize) {
    ImGuiHarness ui;
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    take_live_result(state.lab.measured, state.lab.panels, counters_result(fake_report(kTiled32, roofline_problem())));
    // Another kernel shows nothing read yet; going back shows the reading again.
    state.lab.panels.counters_kernel = {KernelKind::Tiled, 16, 16, 16};
    EXPECT_EQ(draw_panel(ui, state).find("3.00×"), std::string::npos);
    state.view = ViewId::Ladder;
    draw_counters(ui, state);
    state.view = ViewId::Roofline;
    state.lab.panels.counters_kernel = kTiled32;
    EXPECT_NE(draw_panel(ui, state).find("3.00×"), std::string::npos);
    // A superseded result leaves the entry to the newer request.
    auto superseded = counters_result(fake_report({KernelKind::Tiled, 16, 16, 16}, roofline_problem()));
    superseded.superseded_by = 7;
    take_live_result(state.lab.measured, state.lab.panels, superseded);
    EXPECT_EQ(state.lab.panels.counter_reads.count(counters_key({KernelKind::Tiled, 16, 16, 16}, roofline_problem())), 0u);
}

TEST(CountersPanel, TheRooflineGetsAMeasuredPointBesideTheModelsPoint) {
    ImGuiHarness ui;
    AppState state;
    const auto files = committed_measurements();
    ASSERT_FALSE(files.empty());
    ASSERT_TRUE(load_measurement(state.lab.measured, files.back()));
    state.view = ViewId::Roofline;
    const ts::model::CounterReport report = fake_report(kTiled32, roofline_problem());
    take_live_result(state.lab.measured, state.lab.panels, counters_result(report));
    draw_counters(ui, state);

    const RooflinePeaksShown peaks = roofline_peaks(state);
    const auto points = measured_dram_points(state, kRooflineSize, peaks.bandwidth_gbs, peaks.fp32_gflops);
    ASSERT_EQ(points.size(), 1u);
    const MeasuredDramPoint& p = points.front();
    const ts::model::Traffic traffic = ts::model::count_traffic(kTiled32, roofline_problem());
    EXPECT_EQ(p.name, "tiled T=32");
    EXPECT_DOUBLE_EQ(p.model_intensity, traffic.arithmetic_intensity(4));
    EXPECT_NEAR(p.measured_intensity, 4.0 * p.model_intensity, 1e-9 * p.model_intensity);  // a quarter of the bytes
    // At the kernel's measured GFLOP/s, the same height as its model point.
    const auto marks = roofline_marks(state);
    const auto mark = std::find_if(marks.begin(), marks.end(), [](const RooflineMark& m) { return m.name == "tiled T=32"; });
    ASSERT_NE(mark, marks.end());
    EXPECT_TRUE(p.timed);
    EXPECT_DOUBLE_EQ(p.gflops, mark->gflops);
    EXPECT_DOUBLE_EQ(p.model_gflops, mark->gflops);

    const auto series = std::find_if(state.lab.choices.roofline_plot.series.begin(), state.lab.choices.roofline_plot.series.end(),
                                     [](const PlotSeries& s) { return s.name == kMeasuredDramSeries; });
    ASSERT_NE(series, state.lab.choices.roofline_plot.series.end()) << "no legend entry for the measured points";
    ASSERT_EQ(series->points.size(), 1u);
    EXPECT_DOUBLE_EQ(series->points[0].x, p.measured_intensity);
    EXPECT_NE(series->points[0].note.find("tiled T=32"), std::string::npos) << series->points[0].note;
}

TEST(CountersPanel, WithoutATimingTheMeasuredPointSitsOnTheRoof) {
    ImGuiHarness ui;
    AppState state;  // no measurement: nothing timed
    state.view = ViewId::Roofline;
    take_live_result(state.lab.measured, state.lab.panels, counters_result(fake_report(kTiled32, roofline_problem())));
    // Another size is not the roofline's: it stays in the panel only.
    take_live_result(state.lab.measured, state.lab.panels, counters_result(fake_report(kTiled32, {1024, 1024, 1024, 1, ts::model::Dtype::Float32})));
    draw_counters(ui, state);
    const RooflinePeaksShown peaks = roofline_peaks(state);
    const auto points = measured_dram_points(state, kRooflineSize, peaks.bandwidth_gbs, peaks.fp32_gflops);
    ASSERT_EQ(points.size(), 1u);
    const MeasuredDramPoint& p = points.front();
    EXPECT_FALSE(p.timed);
    EXPECT_DOUBLE_EQ(p.gflops, std::min(p.measured_intensity * peaks.bandwidth_gbs, peaks.fp32_gflops));
    EXPECT_DOUBLE_EQ(p.model_gflops, std::min(p.model_intensity * peaks.bandwidth_gbs, peaks.fp32_gflops));
    const auto series = std::find_if(state.lab.choices.roofline_plot.series.begin(), state.lab.choices.roofline_plot.series.end(),
                                     [](const PlotSeries& s) { return s.name == kMeasuredDramSeries; });
    ASSERT_NE(series, state.lab.choices.roofline_plot.series.end());
    EXPECT_NE(series->points[0].note.find("no timing: placed on the roof"), std::string::npos);
}

}  // namespace
