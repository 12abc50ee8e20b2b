// Plots drawn into a Dear ImGui context without a window: they draw, the tooltip belongs to
// the point nearest the mouse, the legend hides series, dragging pans, the wheel zooms,
// a double-click fits again, and the exports write what is shown.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "imgui.h"
#include "imgui_harness.hpp"
#include "platform/imgui_compat.hpp"
#include "imgui_internal.h"
#include "views/common/plot.hpp"

using namespace ts::views;
using ts::test::ImGuiHarness;

namespace {

const ImVec2 kPlotSize(800, 500);
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Latency against size for two kernels, with the spread of the samples on the tiled one.
Plot latency_plot() {
    Plot plot;
    plot.x = {"matrix size", "", AxisScale::Log2};
    plot.y = {"latency", "ms", AxisScale::Log10};
    PlotSeries naive{"naive 32×32", IM_COL32(200, 60, 40, 255), {}};
    PlotSeries tiled{"tiled T=16", IM_COL32(40, 90, 170, 255), {}};
    double ms = 0.01;
    for (double size = 128; size <= 4096; size *= 2, ms *= 8) {
        naive.points.push_back({size, ms * 3, kNaN, kNaN, ""});
        tiled.points.push_back({size, ms, ms * 0.9, ms * 1.2, "10 samples"});
    }
    plot.series = {naive, tiled};
    return plot;
}

struct Drawn {
    PlotFrame frame;
    std::string text;  // what widgets and tooltips wrote
    int vertices = 0;
};

Drawn draw(ImGuiHarness& ui, Plot& plot, ImVec2 mouse = ImVec2(-FLT_MAX, -FLT_MAX), bool down = false) {
    Drawn drawn;
    drawn.text = ui.frame([&] { drawn.frame = draw_plot("latency", plot, kPlotSize); }, mouse, down);
    drawn.vertices = ImGui::GetDrawData()->TotalVtxCount;
    return drawn;
}

ImVec2 pixel_of(const PlotFrame& frame, const PlotPoint& p) {
    return ImVec2(static_cast<float>(*frame.x.to_pixel(p.x)), static_cast<float>(*frame.y.to_pixel(p.y)));
}

// A press and release at `at`, as ImGui needs them: one frame each.
void click(ImGuiHarness& ui, Plot& plot, ImVec2 at) {
    draw(ui, plot, at, false);
    draw(ui, plot, at, true);
    draw(ui, plot, at, false);
}

TEST(Plot, DrawsBothSeriesWithinItsRectangle) {
    ImGuiHarness ui;
    Plot empty;
    empty.x = {"size", "", AxisScale::Log2};
    empty.y = {"latency", "ms", AxisScale::Log10};
    const Drawn nothing = draw(ui, empty);
    Plot plot = latency_plot();
    const Drawn drawn = draw(ui, plot);
    // Two lines of 6 points, 12 markers and 6 whiskers add far more than an empty frame.
    EXPECT_GT(drawn.vertices, nothing.vertices + 12 * 10);
    EXPECT_GT(drawn.frame.area_max.x - drawn.frame.area_min.x, kPlotSize.x / 2);
    EXPECT_LE(drawn.frame.max.x, kPlotSize.x + 1);
    // Every point of the fitted view lies inside the data area.
    for (const PlotSeries& s : plot.series)
        for (const PlotPoint& p : s.points) {
            const ImVec2 at = pixel_of(drawn.frame, p);
            EXPECT_GT(at.x, drawn.frame.area_min.x);
            EXPECT_LT(at.x, drawn.frame.area_max.x);
            EXPECT_GT(at.y, drawn.frame.area_min.y);
            EXPECT_LT(at.y, drawn.frame.area_max.y);
        }
    // The legend names both series.
    EXPECT_NE(drawn.text.find("naive 32×32"), std::string::npos) << drawn.text;
    EXPECT_NE(drawn.text.find("tiled T=16"), std::string::npos) << drawn.text;
}

TEST(Plot, TooltipBelongsToTheNearestPoint) {
    ImGuiHarness ui;
    Plot plot = latency_plot();
    const Drawn first = draw(ui, plot);  // the window exists from the next frame on
    const PlotPoint& target = plot.series[1].points[3];  // tiled at 1024
    ImVec2 mouse = pixel_of(first.frame, target);
    mouse.x += 3;
    mouse.y -= 2;
    const Drawn hovered = draw(ui, plot, mouse);
    ASSERT_TRUE(hovered.frame.hovered.has_value());
    EXPECT_EQ(hovered.frame.hovered->series, 1);
    EXPECT_EQ(hovered.frame.hovered->index, 3);
    EXPECT_TRUE(ui.tooltip_open());
    EXPECT_NE(hovered.text.find("tiled T=16"), std::string::npos) << hovered.text;
    EXPECT_NE(hovered.text.find("matrix size: 1024"), std::string::npos) << hovered.text;
    EXPECT_NE(hovered.text.find("latency: 5.12 ms"), std::string::npos) << hovered.text;
    EXPECT_NE(hovered.text.find("spread (p20–p80): 4.608 – 6.144 ms"), std::string::npos) << hovered.text;
    EXPECT_NE(hovered.text.find("10 samples"), std::string::npos) << hovered.text;
    // Between the two lines, nearer the naive one.
    const ImVec2 naive = pixel_of(first.frame, plot.series[0].points[3]);
    const Drawn nearer = draw(ui, plot, ImVec2(naive.x, naive.y + 4));
    ASSERT_TRUE(nearer.frame.hovered.has_value());
    EXPECT_EQ(nearer.frame.hovered->series, 0);
    // Far from every point: no tooltip.
    const Drawn away = draw(ui, plot, ImVec2(first.frame.area_min.x + 5, first.frame.area_min.y + 5));
    EXPECT_FALSE(away.frame.hovered.has_value());
    EXPECT_FALSE(ui.tooltip_open());
}

TEST(Plot, LegendClickHidesASeries) {
    ImGuiHarness ui;
    Plot plot = latency_plot();
    const Drawn first = draw(ui, plot);
    const float font = ImGui::GetFontSize();
    // The legend's first entry, right of the data area.
    const ImVec2 entry(first.frame.area_max.x + font * 3.0f, first.frame.area_min.y + font * 0.5f);
    click(ui, plot, entry);
    EXPECT_FALSE(plot.series[0].visible);
    EXPECT_TRUE(plot.series[1].visible);
    // A hidden series is neither hovered nor fitted: the naive point is no longer a target.
    const Drawn after = draw(ui, plot);
    const Drawn on_naive = draw(ui, plot, pixel_of(after.frame, plot.series[0].points[5]));
    EXPECT_TRUE(!on_naive.frame.hovered || on_naive.frame.hovered->series == 1);
    EXPECT_LT(after.frame.y.range().max, first.frame.y.range().max);
    click(ui, plot, entry);
    EXPECT_TRUE(plot.series[0].visible);
}

TEST(Plot, DragPansWheelZoomsDoubleClickFits) {
    ImGuiHarness ui;
    Plot plot = latency_plot();
    const Drawn first = draw(ui, plot);
    // Whole pixels: ImGui floors the mouse position.
    const ImVec2 centre(std::floor((first.frame.area_min.x + first.frame.area_max.x) / 2),
                        std::floor((first.frame.area_min.y + first.frame.area_max.y) / 2));
    const double value_at_centre = first.frame.x.to_value(centre.x);
    draw(ui, plot, centre, false);
    draw(ui, plot, centre, true);
    const Drawn dragged = draw(ui, plot, ImVec2(centre.x + 60, centre.y), true);
    draw(ui, plot, ImVec2(centre.x + 60, centre.y), false);
    ASSERT_TRUE(plot.x_view.has_value());
    // What was under the mouse moved with it.
    EXPECT_NEAR(*dragged.frame.x.to_pixel(value_at_centre), centre.x + 60, 1.0);

    // Wheel up zooms in about the mouse: fewer octaves shown, the same size under it.
    const AxisRange before = shown_x_range(plot);
    const double under_mouse = dragged.frame.x.to_value(centre.x);
    ts::imgui_compat::add_mouse_wheel(ImGui::GetIO(), 1.0f);
    const Drawn zoomed = draw(ui, plot, centre);
    const AxisRange after = shown_x_range(plot);
    EXPECT_NEAR(std::log2(after.max / after.min), 0.8 * std::log2(before.max / before.min), 1e-9);
    EXPECT_NEAR(zoomed.frame.x.to_value(centre.x), under_mouse, under_mouse * 1e-6);

    // A double-click fits the data again (after a pause, so the drag's press does not
    // count as its first click).
    for (int i = 0; i < 30; ++i) draw(ui, plot, centre);
    ASSERT_TRUE(plot.x_view.has_value());
    draw(ui, plot, centre, true);
    draw(ui, plot, centre, false);
    draw(ui, plot, centre, true);
    draw(ui, plot, centre, false);
    EXPECT_FALSE(plot.x_view.has_value());
    EXPECT_FALSE(plot.y_view.has_value());
}

TEST(Plot, CsvHoldsTheShownData) {
    Plot plot = latency_plot();
    plot.series[0].name = "naive, 32×32";  // a comma: quoted
    std::string csv = plot_csv(plot);
    std::istringstream lines(csv);
    std::string header;
    std::getline(lines, header);
    EXPECT_EQ(header, "series,matrix size,latency (ms),latency (ms) low,latency (ms) high");
    EXPECT_NE(csv.find("\"naive, 32×32\",128,0.03,,\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find("tiled T=16,1024,5.12,4.608,6.144\n"), std::string::npos) << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 13);
    // Hidden series and points outside the view are not shown, so not exported.
    plot.series[0].visible = false;
    plot.x_view = AxisRange{200.0, 1500.0};
    csv = plot_csv(plot);
    EXPECT_EQ(csv.find("naive"), std::string::npos) << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;  // the header, 256, 512 and 1024
}

TEST(Plot, ExportWritesCsvAndAsksThePlatformForPng) {
    ImGuiHarness ui;
    Plot plot = latency_plot();
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("tilescope_plot_test_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    plot.export_path = (dir / "latency").string();
    EXPECT_EQ(export_csv(plot, dir / "direct.csv"), std::nullopt);
    std::ifstream written(dir / "direct.csv");
    std::stringstream text;
    text << written.rdbuf();
    EXPECT_EQ(text.str(), plot_csv(plot));
    EXPECT_TRUE(export_csv(plot, dir / "no such dir" / "x.csv").has_value());

    // Through the UI: "Export…" below the legend, then the popup's buttons.
    const Drawn first = draw(ui, plot);
    const float font = ImGui::GetFontSize();
    const ImVec2 legend(first.frame.area_max.x + font * 0.8f, first.frame.area_min.y);
    const ImVec2 export_button(legend.x + font, legend.y + 2 * ImGui::GetFrameHeight() + font);
    click(ui, plot, export_button);
    ASSERT_FALSE(GImGui->OpenPopupStack.empty()) << "the export popup did not open";
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto button_row = [&] {
        const ImGuiWindow* popup = GImGui->OpenPopupStack.back().Window;
        return ImVec2(popup->Pos.x + style.WindowPadding.x,
                      popup->Pos.y + style.WindowPadding.y + ImGui::GetFrameHeight() + style.ItemSpacing.y);
    };
    ImVec2 row = button_row();
    click(ui, plot, ImVec2(row.x + font, row.y + font / 2));  // "Save CSV"
    EXPECT_EQ(*plot.export_message, "saved " + plot.export_path + ".csv");
    EXPECT_TRUE(std::filesystem::exists(dir / "latency.csv"));

    click(ui, plot, export_button);
    ASSERT_FALSE(GImGui->OpenPopupStack.empty());
    row = button_row();
    const float save_csv_width = ImGui::CalcTextSize("Save CSV").x + style.FramePadding.x * 2;
    click(ui, plot, ImVec2(row.x + save_csv_width + style.ItemSpacing.x + font, row.y + font / 2));  // "Save PNG"
    std::vector<PlotImageRequest> requests = take_plot_image_requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].path, plot.export_path + ".png");
    EXPECT_FLOAT_EQ(requests[0].max.x - requests[0].min.x, kPlotSize.x);
    EXPECT_FLOAT_EQ(requests[0].max.y - requests[0].min.y, kPlotSize.y);
    EXPECT_NE(plot.export_message->find("saving"), std::string::npos);
    // The platform layer answers through the shared message; the plot shows it.
    *requests[0].outcome = "saved " + requests[0].path;
    EXPECT_EQ(*plot.export_message, "saved " + plot.export_path + ".png");
    EXPECT_TRUE(take_plot_image_requests().empty());
    std::filesystem::remove_all(dir);
}

}  // namespace
