// The latency lab's views drawn from the committed H200 measurement without a window or GPU:
// each draws, says where its numbers come from, and the tuning view's best cell really is
// the fastest shape measured.
#include <gtest/gtest.h>

#include "support/app_states.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "imgui_harness.hpp"
#include "views/window/app_state.hpp"
#include "model/device_limits.hpp"
#include "views/lab/lab_view.hpp"
#include "views/lab/tuning_view.hpp"

using namespace ts::views;
using ts::test::ImGuiHarness;

namespace {

// The newest committed measurement is the one the lab opens: its GPU and the date in its name.
std::string newest_label() {
    const auto files = committed_measurements();
    if (files.empty()) return "no measurement";
    const std::string stem = files.back().stem().string();  // nvidia-h100-2026-11-25
    return stem.substr(stem.size() - 10);
}

AppState state_with_measurement(ViewId view) {
    AppState state;
    const auto files = committed_measurements();
    EXPECT_FALSE(files.empty());
    if (!files.empty()) {
        EXPECT_TRUE(load_measurement(state.lab.measured, files.back())) << state.lab.measured.load_error;
    }
    state.view = view;
    return state;
}

// A GPU that the views take as usable; nothing is ever run on it.
void give_fake_gpu(AppState& state) { ts::testing_support::give_fake_gpu(state); }

struct Drawn {
    std::string text;
    int vertices = 0;
};

Drawn draw(ImGuiHarness& ui, AppState& state) {
    Drawn drawn;
    // Twice: ImGui sizes child windows from the previous frame.
    for (int i = 0; i < 2; ++i)
        drawn.text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    drawn.vertices = ImGui::GetDrawData()->TotalVtxCount;
    return drawn;
}

TEST(LabViews, MeasurementLabelNamesGpuAndDate) {
    AppState state = state_with_measurement(ViewId::Latency);
    EXPECT_TRUE(state.lab.measured.measurement_label.starts_with("measured on NVIDIA ")) << state.lab.measured.measurement_label;
    EXPECT_TRUE(state.lab.measured.measurement_label.ends_with(", " + newest_label())) << state.lab.measured.measurement_label;
}

TEST(LabViews, EachViewDrawsFromTheMeasurement) {
    for (ViewId view : {ViewId::Latency, ViewId::Tuning, ViewId::Roofline}) {
        SCOPED_TRACE(std::string(view_name(view)));
        ImGuiHarness ui;
        AppState state = state_with_measurement(view);
        const Drawn drawn = draw(ui, state);
        EXPECT_GT(drawn.vertices, 1000);
        EXPECT_NE(drawn.text.find(state.lab.measured.measurement_label), std::string::npos) << drawn.text;
        EXPECT_NE(drawn.text.find("Occupancy"), std::string::npos);
    }
}

TEST(LabViews, LatencyPlotHasOneSeriesPerKernel) {
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Latency);
    draw(ui, state);
    std::vector<std::string> names;
    for (const PlotSeries& s : state.lab.choices.latency_plot.series) names.push_back(s.name);
    // The measurement's series are labelled with its GPU and date; the ladder's warptile and tuned
    // rungs are among the first shown.
    const ts::record::Meta& meta = state.lab.measured.measurement->meta;
    const std::string tag = " (" + meta.device.name.substr(meta.device.name.starts_with("NVIDIA ") ? 7 : 0) + ", " +
                            meta.date_utc.substr(0, 10) + ")";
    for (const char* name : {"naive 32×32", "naive-row 32×32", "tiled T=32", "warptile", "tuned", "cuBLAS"})
        EXPECT_NE(std::find(names.begin(), names.end(), std::string(name) + tag), names.end()) << name;
    for (const PlotSeries& s : state.lab.choices.latency_plot.series) EXPECT_EQ(s.points.size(), 6u) << s.name;  // 128..4096
}

TEST(LabViews, BestTuningCellIsTheFastestPoint) {
    AppState state = state_with_measurement(ViewId::Tuning);
    const TuningData data = tuning_data(state.lab);
    ASSERT_EQ(data.cells.size(), 24u);
    ASSERT_GE(data.best_cell, 0);
    double fastest = 1e300;
    for (const TuningCell& c : data.cells)
        if (c.point) fastest = std::min(fastest, c.point->median_ms);
    EXPECT_EQ(data.cells[data.best_cell].point->median_ms, fastest);
    // 64×32 is 2048 threads: shown as invalid, never as a measurement.
    const TuningCell& invalid = data.cells.back();
    EXPECT_EQ(invalid.threads, 2048);
    EXPECT_EQ(invalid.point, nullptr);
    ASSERT_GE(data.best_tile, 0);
    EXPECT_EQ(data.tiles[data.best_tile].tile, 32);
}

TEST(LabViews, InvalidTileIsExplainedInTheOccupancyPanel) {
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Roofline);
    state.lab.panels.occupancy_kernel = {ts::model::KernelKind::Tiled, 16, 16, 64};
    const Drawn drawn = draw(ui, state);
    EXPECT_NE(drawn.text.find("This launch would fail"), std::string::npos) << drawn.text;
    EXPECT_NE(drawn.text.find("4096"), std::string::npos) << drawn.text;
}

TEST(LabViews, LiveResultsReplaceRecordedPointsAndSave) {
    AppState state = state_with_measurement(ViewId::Latency);
    ts::gpu::RunResult result;
    result.ok = true;
    result.live_key = "latency/tiled T=16";
    result.request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 16};
    result.request.problem = {2048, 2048, 2048, 1, ts::model::Dtype::Float32};
    result.median_ms = 1.5;
    result.p20_ms = 1.4;
    result.p80_ms = 1.6;
    result.samples_ms = {1.4, 1.5, 1.6};
    take_live_result(state.lab.measured, state.lab.panels, result);
    const auto points = lab_points(state.lab.measured);
    const ts::record::Point* p = find_point(points, "tiled T=16", 2048, "float");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->median_ms, 1.5);
    // A superseded result belongs to an older slider position and is dropped.
    result.superseded_by = 9;
    result.median_ms = 7.0;
    take_live_result(state.lab.measured, state.lab.panels, result);
    EXPECT_EQ(find_point(lab_points(state.lab.measured), "tiled T=16", 2048, "float")->median_ms, 1.5);

    const auto file = std::filesystem::temp_directory_path() / "tilescope_lab_session_test.json";
    ASSERT_EQ(save_session(state.lab.measured, file, "Test GPU"), std::nullopt);
    LabMeasurements reopened;
    ASSERT_TRUE(load_measurement(reopened, file)) << reopened.load_error;
    ASSERT_EQ(reopened.measurement->points.size(), 1u);
    EXPECT_EQ(reopened.measurement->points[0].config, "tiled T=16");
    EXPECT_NE(reopened.measurement_label.find("measured on Test GPU"), std::string::npos);
    std::filesystem::remove(file);
}

TEST(LabViews, TuningGridQueuesEveryValidShapeAndEachTile) {
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Tuning);
    give_fake_gpu(state);
    EXPECT_NE(draw(ui, state).text.find("Measure this grid"), std::string::npos);
    state.lab.measured.to_submit.clear();  // the occupancy panel's request, not the grid's

    // What the button does.
    start_sweep(state.lab.measured, tuning_requests());
    EXPECT_EQ(state.lab.measured.sweep.total, 29);
    std::vector<ts::gpu::RunRequest> queued = state.lab.measured.sweep.remaining;
    for (const auto& [key, request] : state.lab.measured.to_submit) queued.push_back(request);
    ASSERT_EQ(queued.size(), 29u);
    int naive = 0;
    std::vector<int> tiles;
    for (const ts::gpu::RunRequest& r : queued) {
        EXPECT_EQ(r.problem.m, kTuningSize);
        EXPECT_EQ(r.problem.n, kTuningSize);
        EXPECT_EQ(r.problem.k, kTuningSize);
        EXPECT_EQ(r.problem.dtype, ts::model::Dtype::Float32);
        EXPECT_TRUE(r.adaptive);
        EXPECT_EQ(r.budget_s, 1.0);
        EXPECT_FALSE(r.check);
        if (r.kernel.kind == ts::model::KernelKind::Naive) {
            ++naive;
            EXPECT_LE(r.kernel.block_x * r.kernel.block_y, 1024) << ts::model::describe(r.kernel);
        } else {
            EXPECT_EQ(r.kernel.kind, ts::model::KernelKind::Tiled);
            tiles.push_back(r.kernel.tile);
        }
    }
    EXPECT_EQ(naive, 23);
    EXPECT_EQ(tiles, (std::vector<int>{1, 2, 4, 8, 16, 32}));
    EXPECT_NE(draw(ui, state).text.find("Cancel"), std::string::npos);
}

TEST(LabViews, OccupancyPanelShowsTheCompiledKernel) {
    ImGuiHarness ui;
    AppState state = state_with_measurement(ViewId::Roofline);
    give_fake_gpu(state);
    state.lab.panels.occupancy_kernel = {ts::model::KernelKind::Tiled, 16, 16, 16};
    std::string text = draw(ui, state).text;
    EXPECT_NE(text.find("model estimate"), std::string::npos) << text;
    const auto request = std::find_if(state.lab.measured.to_submit.begin(), state.lab.measured.to_submit.end(),
                                      [](const auto& queued) { return queued.first == "occupancy/tiled T=16"; });
    ASSERT_NE(request, state.lab.measured.to_submit.end());
    EXPECT_EQ(request->second.kind, ts::gpu::RequestKind::Occupancy);

    // Numbers no model would give, so the panel can only have them from the result.
    ts::gpu::RunResult result;
    result.ok = true;
    result.live_key = request->first;
    result.request = request->second;
    result.occupancy = ts::gpu::KernelOccupancy{37, 2048, 0, 1024, 5};
    state.lab.measured.to_submit.clear();
    take_live_result(state.lab.measured, state.lab.panels, result);
    text = draw(ui, state).text;
    EXPECT_NE(text.find("37 (from the compiled kernel)"), std::string::npos) << text;
    EXPECT_NE(text.find("5 (CUDA's occupancy API"), std::string::npos) << text;
    EXPECT_EQ(text.find("model estimate"), std::string::npos) << text;
    // The same choice is not asked for again; another T is, and falls back to the model.
    EXPECT_TRUE(std::none_of(state.lab.measured.to_submit.begin(), state.lab.measured.to_submit.end(),
                             [](const auto& queued) { return queued.first.starts_with("occupancy/"); }));
    state.lab.panels.occupancy_kernel.tile = 8;
    text = draw(ui, state).text;
    EXPECT_NE(text.find("model estimate"), std::string::npos) << text;
    EXPECT_TRUE(std::any_of(state.lab.measured.to_submit.begin(), state.lab.measured.to_submit.end(),
                            [](const auto& queued) { return queued.first == "occupancy/tiled T=8"; }));
}

const PlotSeries* cpu_series(const LabState& lab) {
    for (const PlotSeries& s : lab.choices.latency_plot.series)
        if (s.name.starts_with("CPU")) return &s;
    return nullptr;
}

TEST(LabViews, LiveCpuTimeReplacesTheRecordedOne) {
    ImGuiHarness ui;
    AppState state;
    state.view = ViewId::Latency;
    draw(ui, state);
    EXPECT_EQ(cpu_series(state.lab), nullptr);

    ts::gpu::CpuTime time;
    time.problem = {2048, 2048, 2048, 1, ts::model::Dtype::Float32};
    time.ms = 12345.0;
    time.estimate = true;
    time.basis = {1024, 1024, 1024, 1, ts::model::Dtype::Float32};
    take_cpu_time(state.lab.measured, time);
    draw(ui, state);
    const PlotSeries* cpu = cpu_series(state.lab);
    ASSERT_NE(cpu, nullptr);
    ASSERT_EQ(cpu->points.size(), 1u);
    EXPECT_EQ(cpu->points[0].x, 2048.0);
    EXPECT_EQ(cpu->points[0].y, 12345.0);
    EXPECT_NE(cpu->points[0].note.find("estimate, scaled from 1024³"), std::string::npos) << cpu->points[0].note;

    // Over a measurement, the live time takes the recorded point's place.
    AppState recorded = state_with_measurement(ViewId::Latency);
    take_cpu_time(recorded.lab.measured, time);
    draw(ui, recorded);
    cpu = cpu_series(recorded.lab);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(std::count_if(cpu->points.begin(), cpu->points.end(), [](const PlotPoint& p) { return p.x == 2048.0; }), 1);
    EXPECT_TRUE(std::any_of(cpu->points.begin(), cpu->points.end(), [](const PlotPoint& p) { return p.y == 12345.0; }));
}

TEST(LabViews, CpuTimeIsTakenOffTheUiThread) {
    LabState lab;
    const ts::model::Problem tiny{16, 16, 16, 1, ts::model::Dtype::Float32};
    ASSERT_TRUE(start_cpu_time(lab.measured, tiny));
    EXPECT_FALSE(start_cpu_time(lab.measured, tiny));  // one at a time
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (lab.measured.cpu_times.empty() && std::chrono::steady_clock::now() < deadline) {
        poll_cpu_time(lab.measured);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(lab.measured.cpu_times.size(), 1u);
    EXPECT_EQ(lab.measured.cpu_times[0].problem.m, 16);
    EXPECT_FALSE(lab.measured.cpu_times[0].estimate);
    EXPECT_GT(lab.measured.cpu_times[0].ms, 0.0);
    EXPECT_FALSE(lab.measured.cpu_running.valid());
}

}  // namespace
