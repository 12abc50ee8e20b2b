// The ladder view's error against speed (--ladder-page errors), drawn without a window or GPU from
// hand-made points: which points become markers, the caption's price of each step, the tooltips'
// words, the count of points left out, and what to run where there is nothing to draw.
#include <gtest/gtest.h>

#include "support/app_states.hpp"

#include <algorithm>

#include "imgui_harness.hpp"
#include "views/lab/error_speed_view.hpp"
#include "views/lab/lab_view.hpp"
#include "views/window/app_state.hpp"

using namespace ts::views;
using ts::test::ImGuiHarness;

namespace {

ts::record::Point point(const std::string& config, const std::string& dtype, double tflops, std::optional<double> rms,
                        std::int64_t size = 4096) {
    ts::record::Point p;
    p.kernel = config;
    p.config = config;
    p.m = p.n = p.k = size;
    p.dtype = dtype;
    p.mode = "cold";
    p.ok = true;
    p.gflops = tflops * 1e3;
    p.median_ms = 2.0 * double(size) * double(size) * double(size) / (p.gflops * 1e6);
    p.checked = true;
    p.check_passed = true;
    if (rms) {
        p.error_vs_fp64_rms = *rms;
        p.error_vs_fp64_max = *rms * 4.0;
    }
    if (dtype == "fp8") p.fp8_scaling = "tensor";
    return p;
}

AppState state_with(std::vector<ts::record::Point> points) {
    AppState state;
    state.view = ViewId::Ladder;
    state.lab.choices.ladder_page = LadderPage::Errors;
    ts::record::Measurement measurement;
    measurement.points = std::move(points);
    state.lab.measured.measurement = std::move(measurement);
    state.lab.measured.measurement_label = "measured on a hand-made GPU";
    ts::gpu::DeviceInfo none;
    none.why_not = "no CUDA device: a test";
    state.device = none;
    return state;
}

std::vector<ts::record::Point> sample_points() {
    ts::record::Point block = point("cublas", "fp8", 900.0, 0.03);
    block.fp8_scaling = "block";
    return {
        point("wgmma", "bf16", 420.0, 1.2e-3),
        point("tc-tuned", "bf16", 610.0, 1.1e-3),
        point("cublas", "bf16", 640.0, 1.0e-3),
        point("cublas", "fp8", 1200.0, 0.02),
        block,
        point("tuned", "float", 40.0, 2e-7),       // FP32: not a 16- or 8-bit point
        point("mma", "bf16", 300.0, std::nullopt),  // recorded before the error was
        point("wgmma", "bf16", 150.0, 1.3e-3, 1024),
    };
}

}  // namespace

TEST(ErrorSpeed, SixteenAndEightBitPointsWithTheErrorBecomeMarkers) {
    const AppState state = state_with(sample_points());
    const ErrorSpeedData data = error_speed_data(state.lab.measured);
    ASSERT_EQ(data.marks.size(), 6u);
    EXPECT_EQ(data.left_out, 1);
    EXPECT_EQ(data.marks[0].rung, "wgmma");
    EXPECT_EQ(data.marks[0].dtype, "bf16");
    EXPECT_EQ(data.marks[0].size, "4096³");
    EXPECT_DOUBLE_EQ(data.marks[0].tflops, 420.0);
    EXPECT_DOUBLE_EQ(data.marks[0].error_max, 4.8e-3);
    EXPECT_EQ(data.marks[2].rung, "cuBLAS");
    EXPECT_EQ(data.marks[3].rung, "cuBLASLt");  // FP8's GEMM
    EXPECT_EQ(data.marks[3].dtype, "fp8 per tensor");
    EXPECT_EQ(data.marks[4].dtype, "fp8 block");
    EXPECT_NE(data.marks[3].colour, data.marks[4].colour);
    for (const ErrorSpeedMark& mark : data.marks) EXPECT_NE(mark.dtype, "float");
}

TEST(ErrorSpeed, CaptionWalksTheFastestPointOfEachTypeSlowestFirst) {
    const std::string caption = error_speed_caption(error_speed_data(state_with(sample_points()).lab.measured));
    // At 4096³, where three types were measured: cuBLAS BF16, then FP8 block, then FP8 per tensor.
    EXPECT_NE(caption.find("at 4096³"), std::string::npos) << caption;
    const auto bf16 = caption.find("cuBLAS in bf16, 640 TFLOP/s at an RMS error of 1.0e-03");
    const auto block = caption.find("cuBLASLt in fp8 block, 900 TFLOP/s (1.41× the speed) at 3.0e-02 (30× the error)");
    const auto tensor = caption.find("cuBLASLt in fp8 per tensor, 1200 TFLOP/s (1.33× the speed) at 2.0e-02 (0.7× the error)");
    EXPECT_NE(bf16, std::string::npos) << caption;
    EXPECT_NE(block, std::string::npos) << caption;
    EXPECT_NE(tensor, std::string::npos) << caption;
    EXPECT_LT(bf16, block);
    EXPECT_LT(block, tensor);
    // One type alone has no step to price.
    const std::string alone =
        error_speed_caption(error_speed_data(state_with({point("wgmma", "bf16", 420.0, 1.2e-3)}).lab.measured));
    EXPECT_NE(alone.find("only bf16 has the error"), std::string::npos) << alone;
    EXPECT_EQ(error_speed_caption(ErrorSpeedData{}), "");
}

TEST(ErrorSpeed, DrawnInTheLadderViewWithATooltipPerMarker) {
    ImGuiHarness ui;
    AppState state = state_with(sample_points());
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_NE(text.find("What each step in speed costs in accuracy"), std::string::npos) << text;
    EXPECT_NE(text.find("The price of each step in speed"), std::string::npos) << text;
    EXPECT_NE(text.find("1 16- or 8-bit point left out"), std::string::npos) << text;
    EXPECT_NE(text.find("error against speed"), std::string::npos) << "the page choice in the panel:\n" << text;
    EXPECT_EQ(text.find("The kernel ladders at"), std::string::npos) << "the bars are the other page";
    EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
    const auto& series = state.lab.choices.error_speed_plot.series;
    ASSERT_EQ(series.size(), 3u);  // bf16, fp8 per tensor, fp8 block: no fp16 measured
    EXPECT_EQ(series[0].name, "bf16");
    EXPECT_FALSE(series[0].lines) << "one marker per point";
    ASSERT_EQ(series[0].points.size(), 4u);
    EXPECT_DOUBLE_EQ(series[0].points[0].x, 420.0);
    EXPECT_DOUBLE_EQ(series[0].points[0].y, 1.2e-3);
    EXPECT_EQ(series[0].points[0].note, "wgmma at 4096³\nlargest relative error against FP64: 4.8e-03");
    EXPECT_EQ(state.lab.choices.error_speed_plot.y.scale, AxisScale::Log10);

    // The legend hides a type, and the next frame's data keeps it hidden.
    state.lab.choices.error_speed_plot.series[1].visible = false;
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_FALSE(state.lab.choices.error_speed_plot.series[1].visible);

    // The page choice goes back to the bars.
    state.lab.choices.ladder_page = LadderPage::Bars;
    text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_EQ(text.find("What each step in speed costs"), std::string::npos) << text;
}

TEST(ErrorSpeed, WithoutAPointItSaysWhatToRun) {
    ImGuiHarness ui;
    AppState state = state_with({point("tuned", "float", 40.0, 2e-7), point("mma", "bf16", 300.0, std::nullopt)});
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_NE(text.find("No 16- or 8-bit point with its error against FP64 to draw (1 point left out"), std::string::npos)
        << text;
    EXPECT_NE(text.find("tilescope-cli bench --dtype bf16"), std::string::npos) << text;
    EXPECT_NE(text.find("--dtype fp8 --kernel tc-ladder --scaling tensor,block --size 4096 --check-all"), std::string::npos) << text;
    EXPECT_TRUE(state.lab.choices.error_speed_plot.series.empty()) << "no plot drawn";
    // On a GPU it also says how the lab's own measuring gives points their error.
    EXPECT_NE(error_speed_empty_text({}, true).find("checks its points, and so measures their error, up to 1024³"),
              std::string::npos);
    EXPECT_EQ(error_speed_empty_text({}, false).find("on this GPU"), std::string::npos);
}
