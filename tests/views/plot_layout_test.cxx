// Where the plot puts its x title and its legend when they do not fit as they are: a title
// wider than the plot breaks into lines inside it, and a legend of many series (or at twice
// the text size, as presenter mode has it) stays inside the plot, Export… included, as the
// roofline's and the latency plot's must.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "imgui.h"
#include "imgui_harness.hpp"
#include "views/common/plot.hpp"

using namespace ts::views;
using ts::test::ImGuiHarness;

namespace {

const ImVec2 kLayoutPlotSize(800, 500);

// `count` series of one point each, named like the latency plot's recorded curves.
Plot plot_of(int count, std::string x_title = "matrix size M = N = K") {
    Plot plot;
    plot.x = {std::move(x_title), "", AxisScale::Log2};
    plot.y = {"latency", "ms", AxisScale::Log10};
    for (int i = 0; i < count; ++i) {
        PlotSeries s{"tiled T=" + std::to_string(i) + " (H200, 2026-11-24)", IM_COL32(40, 90, 170, 255), {}};
        s.points = {{128.0 * (i + 1), 0.1 * (i + 1), std::nan(""), std::nan(""), ""}};
        plot.series.push_back(std::move(s));
    }
    return plot;
}

PlotFrame draw_layout_plot(ImGuiHarness& ui, Plot& plot) {
    PlotFrame frame;
    for (int i = 0; i < 2; ++i) ui.frame([&] { frame = draw_plot("layout", plot, kLayoutPlotSize); });
    return frame;
}

void expect_inside(const PlotFrame& f, ImVec2 min, ImVec2 max, const char* what) {
    EXPECT_GE(min.x, f.min.x - 0.5f) << what;
    EXPECT_GE(min.y, f.min.y - 0.5f) << what;
    EXPECT_LE(max.x, f.max.x + 0.5f) << what;
    EXPECT_LE(max.y, f.max.y + 0.5f) << what;
}

TEST(PlotLayout, AFewSeriesKeepTheirLegendAsItWas) {
    ImGuiHarness ui;
    Plot plot = plot_of(2);
    const PlotFrame f = draw_layout_plot(ui, plot);
    expect_inside(f, f.legend_min, f.legend_max, "legend");
    // Two rows, then Export… half a line under them.
    EXPECT_NEAR(f.legend_max.y - f.legend_min.y,
                2 * ImGui::GetFrameHeight() + ImGui::GetFontSize() * 0.5f + ImGui::GetFrameHeight(), 1.0f);
    EXPECT_NEAR(f.x_title_max.y, f.max.y, 1.0f) << "a short title is one line at the bottom";
    EXPECT_NEAR(f.x_title_max.y - f.x_title_min.y, ImGui::GetFontSize(), 0.5f);
}

TEST(PlotLayout, ManySeriesKeepTheLegendAndExportInsideThePlot) {
    ImGuiHarness ui;
    Plot plot = plot_of(40);
    const PlotFrame f = draw_layout_plot(ui, plot);
    expect_inside(f, f.legend_min, f.legend_max, "legend and Export…");
    EXPECT_GT(f.legend_max.y, f.area_max.y - ImGui::GetFrameHeight() * 2) << "the legend uses the height it has";
}

TEST(PlotLayout, AtTwiceTheTextTheRooflinesTitleAndLegendStayInside) {
    ImGuiHarness ui;
    ImGui::GetIO().FontGlobalScale = 2.0f;
    Plot plot = plot_of(9, "arithmetic intensity, model: FLOPs per byte requested before caches");
    plot.x.unit = "FLOP/B";
    plot.x.scale = AxisScale::Log10;
    const PlotFrame f = draw_layout_plot(ui, plot);
    const float font = ImGui::GetFontSize();
    // The title in lines between the plot's left edge and the legend, under the tick labels.
    EXPECT_GE(f.x_title_min.x, f.min.x - 0.5f);
    EXPECT_LE(f.x_title_max.x, f.area_max.x + 0.5f) << "the title runs under the legend";
    EXPECT_GE(f.x_title_min.y, f.area_max.y + font * 1.2f) << "the title covers the tick labels";
    EXPECT_LE(f.x_title_max.y, f.max.y + 0.5f);
    EXPECT_GT(f.x_title_max.y - f.x_title_min.y, font * 1.5f) << "too wide for one line";
    expect_inside(f, f.legend_min, f.legend_max, "legend and Export…");
    ImGui::GetIO().FontGlobalScale = 1.0f;
}

}  // namespace
