// plot.hpp — TileScope's plots: lines with markers, drawn with Dear ImGui's draw list alone
// (no ImPlot: Debian does not package it). One module for every plot of the latency lab:
// latency against size, GFLOP/s, the roofline.
//
// - x and y axes each linear, log2 (matrix sizes) or log10; labels carry their unit.
// - Each point may carry the spread of the samples behind it (p20–p80), drawn as a whisker.
// - Hover: a tooltip with the nearest point's exact values, spread and note.
// - Legend beside the plot: click a name to hide or show its series. Series may be grouped
//   under a header ("live on this GPU", "measured on H200, …"); a name too long for the column breaks
//   before its last " (". It stays inside the plot: too tall for it (many series, or large
//   text), it takes the small font, and then scrolls.
// - An x title wider than the plot breaks into lines.
// - A faded series (paler, dashed, hollow markers) is drawn under the others: data kept for
//   comparison, such as a measurement from another GPU beside live measurements.
// - A failed request has an x but no y: it is drawn as a red × on the data area's bottom edge
//   at its x, ringed in its series' colour (PlotFailure); hovering it tells why, and a click
//   on it is reported to the caller, which may measure it again.
// - Drag to pan, wheel to zoom about the mouse, double-click to fit the data again.
// - Export: the data shown (visible series, points inside the view) as CSV, written here;
//   the plot as PNG, which a view cannot write itself (see PlotImageRequest).
// The arithmetic (ticks, transforms, hit testing) lives in plot_math.hpp.
#pragma once

#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "imgui.h"
#include "views/common/plot_math.hpp"

namespace ts::views {

struct PlotPoint {
    double x = 0.0;
    double y = 0.0;
    // The spread behind y, e.g. the 20th and 80th percentile of the timed samples; NaN
    // when there is none.
    double y_low = std::numeric_limits<double>::quiet_NaN();
    double y_high = std::numeric_limits<double>::quiet_NaN();
    std::string note;  // more tooltip lines: "214 samples, noise 0.3 %"
};

struct PlotSeries {
    std::string name;
    ImU32 colour = IM_COL32(40, 90, 170, 255);
    std::vector<PlotPoint> points;  // joined in this order
    bool visible = true;            // the legend toggles it
    bool lines = true;              // join the points
    bool markers = true;            // a dot at each point (a roofline's roof has none)
    bool faded = false;             // paler, dashed, hollow markers, drawn under the rest
    // The legend's header above this series when it differs from the previous series' (empty:
    // none, and a gap when a group ends).
    std::string legend_group = {};
    // What the legend writes when the name does not fit its column and the header says the
    // rest ("tiled T=32" under "measured on H200, …"); empty: the name, broken before its last
    // " (" if need be. Tooltips and the CSV keep the whole name.
    std::string legend_name = {};
    // False: no legend row of its own, because another series' row names its colour (a
    // recorded curve beside the live one of the same kernel); Plot::faded_legend says the rest.
    bool in_legend = true;
};

// A request that failed at `x` (a size, an intensity): no y to plot, so a mark at the bottom
// edge of the data area, several at one x stacked upwards.
struct PlotFailure {
    double x = 0.0;
    std::string name;     // its series': "tiled T=1"
    ImU32 colour = 0;     // its series' colour, for the ring around the ×
    std::string note;     // the tooltip's lines under the name: what failed and why
};

// The colour a faded series is drawn in: `colour` taken half way to white, so it
// stays legible on the plot's white area but gives way to the solid series.
ImU32 faded_colour(ImU32 colour);

struct PlotAxis {
    std::string label;  // "matrix size M = N = K"
    std::string unit;   // "ms"; shown as "label (unit)" and after values in tooltips
    AxisScale scale = AxisScale::Linear;
};

// A plot and its view; the caller keeps it from frame to frame and may replace `series`
// whenever new results arrive (the view follows the data until the user pans or zooms).
struct Plot {
    PlotAxis x;
    PlotAxis y;
    std::vector<PlotSeries> series;
    std::vector<PlotFailure> failures;  // drawn over the series; their x counts when fitting
    // nullopt: fit the visible data. Set by panning and zooming; double-click clears both.
    std::optional<AxisRange> x_view;
    std::optional<AxisRange> y_view;
    std::string export_path = "tilescope_plot";  // ".csv" or ".png" is added
    // A last legend row beside a faded swatch, saying what faded series are ("faded:
    // measured on H200, YYYY-MM-DD"); empty: none.
    std::string faded_legend;
    // The last export's outcome, shown under the legend; shared with the platform layer,
    // which writes a PNG's outcome here after the frame (PlotImageRequest::outcome). A copy
    // of a Plot shares it too.
    std::shared_ptr<std::string> export_message = std::make_shared<std::string>();
};

struct PlotHover {
    int series = 0;
    int index = 0;
};

// Where draw_plot put things this frame: for callers that draw on top, and for tests.
struct PlotFrame {
    ImVec2 min;        // the whole plot, labels and legend included
    ImVec2 max;
    ImVec2 area_min;   // the data area
    ImVec2 area_max;
    AxisTransform x;
    AxisTransform y;
    std::optional<PlotHover> hovered;  // the point under the mouse, whose tooltip is shown
    ImVec2 x_title_min;  // the x axis's title, in one line or more
    ImVec2 x_title_max;
    ImVec2 legend_min;   // the legend's column, Export… and its message included
    ImVec2 legend_max;
    std::optional<int> hovered_failure;  // an index into Plot::failures: the mark under the mouse
    std::optional<int> clicked_failure;  // that mark, clicked this frame
};

// Draws `plot` at the cursor, `size` pixels large, and handles its mouse input. `id` must
// be unique in the window.
PlotFrame draw_plot(const char* id, Plot& plot, ImVec2 size);

// The ranges the plot shows now: its view, or its visible data fitted.
AxisRange shown_x_range(const Plot& plot);
AxisRange shown_y_range(const Plot& plot);

// The data shown, as CSV: one row per point of a visible series inside the shown ranges;
// columns series, x, y, y_low, y_high (empty where NaN), headed by the axis labels.
std::string plot_csv(const Plot& plot);
// Writes plot_csv to `file`; nullopt on success, else why not.
std::optional<std::string> export_csv(const Plot& plot, const std::filesystem::path& file);

// ---- PNG: the seam to the platform layer ------------------------------------------------
// Views draw with ImGui only and cannot read pixels, so "Save PNG" only asks. The request
// names the file and the plot's rectangle in this frame (ImGui coordinates). Once per
// frame, after rendering and before swapping buffers, the platform layer takes the
// requests, reads each rectangle from the back buffer (glReadPixels; multiply by
// io.DisplayFramebufferScale; OpenGL's rows run bottom-up), writes it with
// platform::write_png and puts "saved <path>" or the error into `outcome`, which the plot
// shows. Requests nobody takes are harmless; the message then stays "saving…".
struct PlotImageRequest {
    std::string path;
    ImVec2 min;
    ImVec2 max;
    std::shared_ptr<std::string> outcome;
};
// The requests made since the last call, oldest first.
std::vector<PlotImageRequest> take_plot_image_requests();

}  // namespace ts::views
