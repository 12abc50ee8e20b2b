// Issue #22: a measurement that failed says "failed" where its point, cell or bar is, with the
// runner's sentence on hover and in the status bar, and a click measures exactly that request
// again; a later success replaces the failure. Drawn without a window or GPU, from results
// made here as the supervised runner sends them.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "imgui_harness.hpp"
#include "model/traffic.hpp"
#include "support/app_states.hpp"
#include "views/common/plot.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/lab/lab_view.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/lab/roofline_view.hpp"
#include "views/lab/tuning_view.hpp"
#include "views/window/app_state.hpp"
#include "views/window/status_bar.hpp"

using namespace ts::views;
using ts::test::ImGuiHarness;

namespace {

constexpr double kNoSpread = std::numeric_limits<double>::quiet_NaN();

const std::string kKilled =
    "the GPU worker stopped during tiled T=1 float 2048³: killed by signal 9 (SIGKILL: Killed); it was restarted";

// The tuning view's request for the tiled bar with T = `tile` (tuning_requests: naive shapes, then tiles).
ts::gpu::RunRequest tuning_tile_request(int tile) {
    for (const ts::gpu::RunRequest& r : tuning_requests())
        if (r.kernel.kind == ts::model::KernelKind::Tiled && r.kernel.tile == tile) return r;
    ADD_FAILURE() << "no tuning request for T = " << tile;
    return {};
}

ts::gpu::RunResult failed(const ts::gpu::RunRequest& request, const std::string& why, const std::string& key = "sweep") {
    ts::gpu::RunResult result;
    result.request = request;
    result.live_key = key;
    result.error = why;
    return result;
}

ts::gpu::RunResult measured(const ts::gpu::RunRequest& request, double ms, const std::string& key = "sweep") {
    ts::gpu::RunResult result;
    result.request = request;
    result.live_key = key;
    result.ok = true;
    result.median_ms = result.p20_ms = result.p80_ms = ms;
    result.samples_ms = {ms};
    result.gflops = 2.0 * 2048.0 * 2048.0 * 2048.0 / (ms * 1e6);
    return result;
}

AppState lab_on_a_gpu(ViewId view) {
    AppState state;
    ts::testing_support::give_fake_gpu(state);
    state.view = view;
    state.lab.measured.first_visit.due = false;  // no first-visit sweep: only what the test queues
    return state;
}

bool same_request(const ts::gpu::RunRequest& a, const ts::gpu::RunRequest& b) {
    return a.kind == b.kind && ts::model::describe(a.kernel) == ts::model::describe(b.kernel) &&
           a.problem.m == b.problem.m && a.problem.n == b.problem.n && a.problem.k == b.problem.k &&
           a.problem.dtype == b.problem.dtype && a.problem.batch == b.problem.batch && a.adaptive == b.adaptive &&
           a.budget_s == b.budget_s && a.check == b.check && a.timed_launches == b.timed_launches;
}

// Moves the mouse down the window in a few columns until a tooltip says `wanted`; the
// position, or nullopt.
std::optional<ImVec2> hover_until(ImGuiHarness& ui, AppState& state, const std::string& wanted, std::string* text) {
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    for (float x : {420.0f, 700.0f, 1000.0f})
        for (float y = 40.0f; y < 1000.0f; y += 5.0f) {
            const std::string shown =
                ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); }, ImVec2(x, y));
            if (ui.tooltip_open() && shown.find(wanted) != std::string::npos) {
                if (text) *text = shown;
                return ImVec2(x, y);
            }
        }
    return std::nullopt;
}

// The mouse moved to `at`, then a press and release of the left button there.
void click(ImGuiHarness& ui, AppState& state, ImVec2 at) {
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); }, at, false);
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); }, at, true);
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); }, at, false);
}

TEST(Failures, AFailedMeasurementIsKeptUntilASuccessReplacesIt) {
    AppState state = lab_on_a_gpu(ViewId::Tuning);
    const ts::gpu::RunRequest t1 = tuning_tile_request(1);
    take_live_result(state.lab.measured, state.lab.panels, failed(t1, kKilled));
    const auto failure = failure_at(state.lab.measured, lab_points(state.lab.measured), t1);
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->what, "tiled T=1 float 2048³");
    EXPECT_EQ(failure->sentence, kKilled);
    EXPECT_FALSE(failure->recorded);
    EXPECT_NE(state.lab.measured.last_error.find(kKilled), std::string::npos);
    // Another point is untouched; the same point measured again replaces the failure.
    EXPECT_FALSE(failure_at(state.lab.measured, lab_points(state.lab.measured), tuning_tile_request(2)));
    take_live_result(state.lab.measured, state.lab.panels, measured(t1, 40.0, "again/tiled T=1 float 2048³"));
    EXPECT_FALSE(failure_at(state.lab.measured, lab_points(state.lab.measured), t1));
    EXPECT_EQ(latest_failure(state.lab.measured.failures), nullptr);
    ASSERT_NE(find_point(lab_points(state.lab.measured), "tiled T=1", 2048, "float"), nullptr);
}

TEST(Failures, AResultReplacedByANewerRequestIsNoFailure) {
    AppState state = lab_on_a_gpu(ViewId::Tuning);
    ts::gpu::RunResult result = failed(tuning_tile_request(1), "not run: request 9 for \"sweep\" replaced it while it waited");
    result.superseded_by = 9;
    take_live_result(state.lab.measured, state.lab.panels, result);
    EXPECT_TRUE(state.lab.measured.failures.failed.empty());
}

TEST(Failures, TheTuningViewSaysFailedInPlaceAndMeasuresThatRequestAgain) {
    ImGuiHarness ui;
    AppState state = lab_on_a_gpu(ViewId::Tuning);
    const ts::gpu::RunRequest t1 = tuning_tile_request(1);
    take_live_result(state.lab.measured, state.lab.panels, measured(tuning_tile_request(2), 30.0));
    take_live_result(state.lab.measured, state.lab.panels, failed(t1, kKilled));
    std::string text;
    const auto at = hover_until(ui, state, "tiled T=1 float 2048³ failed", &text);
    ASSERT_TRUE(at) << "no tooltip says the T = 1 bar failed";
    EXPECT_NE(text.find(kKilled), std::string::npos) << text;
    EXPECT_NE(text.find("Click to measure it again"), std::string::npos) << text;
    // The status bar names the latest failure with its point.
    const std::string bar = ui.frame([&] { draw_status_bar(state); });
    EXPECT_NE(bar.find("failed: " + kKilled), std::string::npos) << bar;

    state.lab.measured.to_submit.clear();
    click(ui, state, *at);
    ASSERT_EQ(state.lab.measured.to_submit.size(), 1u);
    EXPECT_EQ(state.lab.measured.to_submit[0].first, "again/tiled T=1 float 2048³");
    EXPECT_TRUE(same_request(state.lab.measured.to_submit[0].second, t1));
    // Its success replaces the failure in the view and the status bar.
    take_live_result(state.lab.measured, state.lab.panels, measured(t1, 55.0, state.lab.measured.to_submit[0].first));
    EXPECT_FALSE(hover_until(ui, state, "tiled T=1 float 2048³ failed", nullptr));
    EXPECT_EQ(ui.frame([&] { draw_status_bar(state); }).find("failed:"), std::string::npos);
}

TEST(Failures, AFailedHeatMapCellSaysWhy) {
    ImGuiHarness ui;
    AppState state = lab_on_a_gpu(ViewId::Tuning);
    ts::gpu::RunRequest naive;
    for (const ts::gpu::RunRequest& r : tuning_requests())
        if (r.kernel.kind == ts::model::KernelKind::Naive && r.kernel.block_x == 16 && r.kernel.block_y == 4) naive = r;
    const std::string why = "CUDA reports: launching naive 16×4 float 2048³: unspecified launch failure";
    take_live_result(state.lab.measured, state.lab.panels, failed(naive, why));
    std::string text;
    ASSERT_TRUE(hover_until(ui, state, "naive 16×4 float 2048³ failed", &text));
    EXPECT_NE(text.find(why), std::string::npos) << text;
}

// A shape whose latest request failed has no number in the map: an older, faster time of it
// does not make it the best.
TEST(Failures, AFailedShapeIsNotTheBest) {
    AppState state = lab_on_a_gpu(ViewId::Tuning);
    ts::gpu::RunRequest fastest;
    for (const ts::gpu::RunRequest& r : tuning_requests()) {
        const bool is_16x4 = r.kernel.kind == ts::model::KernelKind::Naive && r.kernel.block_x == 16 && r.kernel.block_y == 4;
        take_live_result(state.lab.measured, state.lab.panels, measured(r, is_16x4 ? 1.0 : 5.0));
        if (is_16x4) fastest = r;
    }
    TuningData data = tuning_data(state.lab);
    ASSERT_GE(data.best_cell, 0);
    EXPECT_EQ(data.cells[data.best_cell].block_x, 16);
    EXPECT_EQ(data.cells[data.best_cell].block_y, 4);
    take_live_result(state.lab.measured, state.lab.panels, failed(fastest, "killed by signal 9"));
    data = tuning_data(state.lab);
    ASSERT_GE(data.best_cell, 0);
    EXPECT_FALSE(data.cells[data.best_cell].block_x == 16 && data.cells[data.best_cell].block_y == 4);
}

TEST(Failures, TheLadderViewSaysWhichRungFailed) {
    ImGuiHarness ui;
    AppState state = lab_on_a_gpu(ViewId::Ladder);
    state.lab.choices.ladder_size = 1024;
    const std::vector<ts::gpu::RunRequest> requests = ladder_requests(1024);
    ts::gpu::RunRequest warptile;
    for (const ts::gpu::RunRequest& r : requests)
        if (r.kernel.kind == ts::model::KernelKind::Warptile) warptile = r;
    for (const ts::gpu::RunRequest& r : requests)
        if (r.kernel.kind != ts::model::KernelKind::Warptile) take_live_result(state.lab.measured, state.lab.panels, measured(r, 1.0));
    const std::string why =
        "the GPU worker stopped during warptile float 1024³: it took longer than 10 s, the most a request of this size "
        "may take, and was stopped (a kernel that never ends?); it was restarted";
    take_live_result(state.lab.measured, state.lab.panels, failed(warptile, why));
    std::string text;
    const auto at = hover_until(ui, state, "warptile float 1024³ failed", &text);
    ASSERT_TRUE(at);
    EXPECT_NE(text.find(why), std::string::npos) << text;
    state.lab.measured.to_submit.clear();
    click(ui, state, *at);
    ASSERT_EQ(state.lab.measured.to_submit.size(), 1u);
    EXPECT_TRUE(same_request(state.lab.measured.to_submit[0].second, warptile));
}

TEST(Failures, TheLatencyPlotMarksAFailedPointAtItsSize) {
    ImGuiHarness ui;
    AppState state = lab_on_a_gpu(ViewId::Latency);
    ts::gpu::RunRequest request;  // the tiled T=32 series, on by default, at 1024³
    request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 32};
    request.problem = {1024, 1024, 1024, 1, ts::model::Dtype::Float32};
    request.adaptive = true;
    request.budget_s = 1.0;
    ts::gpu::RunRequest smaller = request;
    smaller.problem.m = smaller.problem.n = smaller.problem.k = 512;
    take_live_result(state.lab.measured, state.lab.panels, measured(smaller, 1.0));
    take_live_result(state.lab.measured, state.lab.panels, failed(request, "the GPU worker stopped during tiled T=32 float 1024³: killed by signal 11 "
                                                "(SIGSEGV: Segmentation fault); it was restarted",
                                       "latency/full/tiled T=32"));
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    const Plot& plot = state.lab.choices.latency_plot;
    ASSERT_EQ(plot.failures.size(), 1u);
    EXPECT_EQ(plot.failures[0].x, 1024.0);
    EXPECT_EQ(plot.failures[0].name, "tiled T=32");
    EXPECT_NE(plot.failures[0].note.find("signal 11"), std::string::npos) << plot.failures[0].note;
    // Only the failure is at 1024: the series still has its one measured point.
    bool found = false;
    for (const PlotSeries& s : plot.series)
        if (s.name == "tiled T=32") found = s.points.size() == 1 && s.points[0].x == 512.0;
    EXPECT_TRUE(found);
}

TEST(Failures, TheRooflineMarksAFailedKernelAtItsIntensity) {
    ImGuiHarness ui;
    AppState state = lab_on_a_gpu(ViewId::Roofline);
    ts::gpu::RunRequest request = ladder_requests(kRooflineSize).front();
    request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 16};
    take_live_result(state.lab.measured, state.lab.panels, measured(request, 20.0));
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    const auto has_series = [&](const std::string& name) {
        const auto& series = state.lab.choices.roofline_plot.series;
        return std::any_of(series.begin(), series.end(), [&](const PlotSeries& s) { return s.name == name; });
    };
    EXPECT_TRUE(has_series("tiled T=16"));
    take_live_result(state.lab.measured, state.lab.panels, failed(request, "CUDA reports: an illegal memory access was encountered"));
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_FALSE(has_series("tiled T=16")) << "its older point is not shown as this GPU's answer";
    const Plot& plot = state.lab.choices.roofline_plot;
    ASSERT_EQ(plot.failures.size(), 1u);
    const ts::model::Problem problem{kRooflineSize, kRooflineSize, kRooflineSize, 1, ts::model::Dtype::Float32};
    EXPECT_DOUBLE_EQ(plot.failures[0].x, ts::model::count_traffic(request.kernel, problem).arithmetic_intensity(4));
    EXPECT_NE(plot.failures[0].note.find("illegal memory access"), std::string::npos);
}

// The plot's failed mark: on the bottom edge at its x, its note on hover, a click reported.
TEST(Failures, APlotFailureIsHoveredAndClickedAtTheBottomEdge) {
    ImGuiHarness ui;
    Plot plot;
    plot.x = {"size", "", ts::views::AxisScale::Log2};
    plot.y = {"latency", "ms", ts::views::AxisScale::Log10};
    PlotSeries series{"tiled T=1", IM_COL32(10, 50, 120, 255), {}};
    for (double x : {256.0, 512.0, 1024.0}) series.points.push_back(PlotPoint{x, x / 100.0, kNoSpread, kNoSpread, ""});
    plot.series.push_back(series);
    plot.failures.push_back({2048, "tiled T=1", IM_COL32(10, 50, 120, 255), "the sentence"});
    PlotFrame frame;
    ui.frame([&] { frame = draw_plot("##p", plot, ImVec2(900, 500)); });
    const auto px = frame.x.to_pixel(2048);
    ASSERT_TRUE(px) << "the failure's x is inside the fitted range";
    const ImVec2 mark(static_cast<float>(*px), frame.area_max.y - ImGui::GetFontSize() * 0.55f);
    std::string text;
    ui.frame([&] { frame = draw_plot("##p", plot, ImVec2(900, 500)); }, ImVec2(mark.x + 20, mark.y));
    EXPECT_FALSE(frame.hovered_failure);
    text = ui.frame([&] { frame = draw_plot("##p", plot, ImVec2(900, 500)); }, mark);
    ASSERT_TRUE(frame.hovered_failure);
    EXPECT_NE(text.find("the sentence"), std::string::npos) << text;
    EXPECT_NE(text.find("failed"), std::string::npos) << text;
    EXPECT_FALSE(frame.clicked_failure);
    ui.frame([&] { frame = draw_plot("##p", plot, ImVec2(900, 500)); }, mark, true);
    ASSERT_TRUE(frame.clicked_failure);
    EXPECT_EQ(*frame.clicked_failure, 0);
}

// A measurement's failed point (tilescope-cli bench keeps them) is drawn failed where nothing
// measured it since, and not where a point of it succeeded.
TEST(Failures, ARecordedFailureCountsUntilAPointOfItSucceeds) {
    AppState state = lab_on_a_gpu(ViewId::Tuning);
    const ts::gpu::RunRequest t1 = tuning_tile_request(1);
    ts::record::Measurement measurement;
    ts::record::Point point = point_from_result(failed(t1, "cudaErrorLaunchTimeout"));
    measurement.points.push_back(point);
    state.lab.measured.measurement = measurement;
    auto failure = failure_at(state.lab.measured, lab_points(state.lab.measured), t1);
    ASSERT_TRUE(failure);
    EXPECT_TRUE(failure->recorded);
    EXPECT_EQ(failure->sentence, "cudaErrorLaunchTimeout");
    EXPECT_TRUE(same_request(failure->request, t1));
    take_live_result(state.lab.measured, state.lab.panels, measured(t1, 50.0));
    EXPECT_FALSE(failure_at(state.lab.measured, lab_points(state.lab.measured), t1));
}

// An experiment case whose request failed says "failed" with the sentence under its name,
// and "Run this case again" queues exactly that case.
TEST(Failures, AFailedExperimentCaseSaysFailedAndRunsAgain) {
    ImGuiHarness ui;
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    state.experiments.measurements_loaded = true;
    state.experiments.experiment = ts::model::Experiment::MissingSecondSync;
    state.view = ViewId::Experiment;
    const ts::model::ExperimentCase c = ts::model::default_experiment_cases(ts::model::Experiment::MissingSecondSync).back();
    ts::gpu::RunResult result;
    result.request.kind = ts::gpu::RequestKind::Experiment;
    result.request.experiment = ts::model::Experiment::MissingSecondSync;
    result.request.kernel = c.kernel;
    result.request.problem = c.problem;
    result.error = "the GPU worker stopped during the missing-second-sync experiment on " +
                   ts::gpu::describe_point(result.request) + ": killed by signal 9 (SIGKILL: Killed); it was restarted";
    ASSERT_TRUE(take_experiment_result(state.experiments, result, "Fake GPU"));
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_experiment_view(state, 0.0f); });
    EXPECT_NE(text.find("failed: " + result.error), std::string::npos) << text;
    EXPECT_NE(text.find("Run this case again"), std::string::npos) << text;

    ASSERT_TRUE(run_case_again(state.experiments, ts::model::Experiment::MissingSecondSync, c));
    const auto again = next_experiment_request(state.experiments);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->kind, ts::gpu::RequestKind::Experiment);
    EXPECT_EQ(ts::gpu::describe_point(*again), ts::gpu::describe_point(result.request));
    EXPECT_FALSE(next_experiment_request(state.experiments)) << "that case only";
}

}  // namespace
