// The latency lab's views drawn from the committed H200 recording without a window or GPU:
// each draws, says where its numbers come from, and the tuning view's best cell really is
// the fastest shape measured.
#include <gtest/gtest.h>

#include <algorithm>

#include "imgui_harness.hpp"
#include "views/app_state.hpp"
#include "views/lab_view.hpp"
#include "views/tuning_view.hpp"

using namespace ts::views;
using ts::test::ImGuiHarness;

namespace {

constexpr const char* kLabel = "recorded on NVIDIA H200, 2026-11-21";

AppState state_with_recording(LabView view) {
    AppState state;
    const auto files = committed_recordings();
    EXPECT_FALSE(files.empty());
    if (!files.empty()) {
        EXPECT_TRUE(load_recording(state.lab, files.back())) << state.lab.load_error;
    }
    state.lab.view = view;
    return state;
}

struct Drawn {
    std::string text;
    int vertices = 0;
};

Drawn draw(ImGuiHarness& ui, AppState& state) {
    Drawn drawn;
    // Twice: ImGui sizes child windows from the previous frame.
    for (int i = 0; i < 2; ++i) drawn.text = ui.frame([&] { draw_lab_view(state, 0.0f); });
    drawn.vertices = ImGui::GetDrawData()->TotalVtxCount;
    return drawn;
}

TEST(LabViews, RecordingLabelNamesGpuAndDate) {
    AppState state = state_with_recording(LabView::Latency);
    EXPECT_EQ(state.lab.recording_label, kLabel);
}

TEST(LabViews, EachViewDrawsFromTheRecording) {
    for (LabView view : {LabView::Latency, LabView::Tuning, LabView::Roofline}) {
        SCOPED_TRACE(std::string(view_name(view)));
        ImGuiHarness ui;
        AppState state = state_with_recording(view);
        const Drawn drawn = draw(ui, state);
        EXPECT_GT(drawn.vertices, 1000);
        EXPECT_NE(drawn.text.find(kLabel), std::string::npos) << drawn.text;
        EXPECT_NE(drawn.text.find("Occupancy"), std::string::npos);
    }
}

TEST(LabViews, LatencyPlotHasOneSeriesPerKernel) {
    ImGuiHarness ui;
    AppState state = state_with_recording(LabView::Latency);
    draw(ui, state);
    std::vector<std::string> names;
    for (const PlotSeries& s : state.lab.latency_plot.series) names.push_back(s.name);
    for (const char* name : {"naive 32×32", "naive-row 32×32", "tiled T=8", "tiled T=16", "tiled T=32", "cuBLAS"})
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    for (const PlotSeries& s : state.lab.latency_plot.series) EXPECT_EQ(s.points.size(), 6u) << s.name;  // 128..4096
}

TEST(LabViews, BestTuningCellIsTheFastestPoint) {
    AppState state = state_with_recording(LabView::Tuning);
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
    AppState state = state_with_recording(LabView::Roofline);
    state.lab.occupancy_kernel = {ts::model::KernelKind::Tiled, 16, 16, 64};
    const Drawn drawn = draw(ui, state);
    EXPECT_NE(drawn.text.find("This launch would fail"), std::string::npos) << drawn.text;
    EXPECT_NE(drawn.text.find("4096"), std::string::npos) << drawn.text;
}

TEST(LabViews, LiveResultsReplaceRecordedPointsAndSave) {
    AppState state = state_with_recording(LabView::Latency);
    ts::gpu::RunResult result;
    result.ok = true;
    result.live_key = "latency/tiled T=16";
    result.request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 16};
    result.request.problem = {2048, 2048, 2048, 1, ts::model::Dtype::Float32};
    result.median_ms = 1.5;
    result.p20_ms = 1.4;
    result.p80_ms = 1.6;
    result.samples_ms = {1.4, 1.5, 1.6};
    take_live_result(state.lab, result);
    const auto points = lab_points(state.lab);
    const ts::record::Point* p = find_point(points, "tiled T=16", 2048, "float");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->median_ms, 1.5);
    // A superseded result belongs to an older slider position and is dropped.
    result.superseded_by = 9;
    result.median_ms = 7.0;
    take_live_result(state.lab, result);
    EXPECT_EQ(find_point(lab_points(state.lab), "tiled T=16", 2048, "float")->median_ms, 1.5);

    const auto file = std::filesystem::temp_directory_path() / "tilescope_lab_session_test.json";
    ASSERT_EQ(save_session(state.lab, file, "Test GPU"), std::nullopt);
    LabState reopened;
    ASSERT_TRUE(load_recording(reopened, file)) << reopened.load_error;
    ASSERT_EQ(reopened.recording->points.size(), 1u);
    EXPECT_EQ(reopened.recording->points[0].config, "tiled T=16");
    EXPECT_NE(reopened.recording_label.find("recorded on Test GPU"), std::string::npos);
    std::filesystem::remove(file);
}

}  // namespace
