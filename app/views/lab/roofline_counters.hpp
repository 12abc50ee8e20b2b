// roofline_counters.hpp — what the hardware's counters add to the roofline: for each kernel
// whose counters were read at the roofline's size, a second point at the intensity the GPU
// really had (FLOPs per byte measured at DRAM), beside the model's point (FLOPs per byte the
// kernel requests before caches), joined to it by a thin line. The horizontal gap between the
// two is what the caches saved.
#pragma once

#include <string>
#include <vector>

#include "views/window/app_state.hpp"
#include "imgui.h"
#include "views/common/plot.hpp"

namespace ts::views {

inline constexpr const char* kMeasuredDramSeries = "measured DRAM bytes (counters)";

struct MeasuredDramPoint {
    std::string name;           // the kernel as the roofline names it: "tiled T=32"
    double flops = 0;           // 2·M·N·K of the launch
    double model_bytes = 0;     // global bytes the model counts (requested, before caches)
    double dram_bytes = 0;      // bytes the counters saw at DRAM (read + written)
    double model_intensity = 0;     // flops / model_bytes: the x of the model's point
    double measured_intensity = 0;  // flops / dram_bytes: the x of this point
    // The y of both: the kernel's measured GFLOP/s at this size, or, with no timing in the lab,
    // the roof at each x (`timed` false, and the tooltip says so).
    bool timed = false;
    double gflops = 0;          // measured (timed) or the roof at measured_intensity
    double model_gflops = 0;    // the y of the model's end of the line
};

// One per counter reading of a modelled kernel at M = N = K = `size` in float with DRAM bytes
// above 0, against the roof `bandwidth_gbs` / `fp32_gflops`.
std::vector<MeasuredDramPoint> measured_dram_points(const AppState& app, int size, double bandwidth_gbs,
                                                    double fp32_gflops);

// Appends one series (kMeasuredDramSeries, its legend entry) holding every measured point.
void add_measured_dram_series(std::vector<PlotSeries>& series, const std::vector<MeasuredDramPoint>& points);

// Over the plot draw_plot left in `frame`, while the series is shown: a thin line from each
// kernel's model point to its measured point (before the kernels' names, so that it does not
// cross them out); then, after the names, the measured points again, so that no name hides one.
void draw_measured_dram_links(const PlotFrame& frame, const Plot& plot, const std::vector<MeasuredDramPoint>& points);
void draw_measured_dram_points(const PlotFrame& frame, const Plot& plot, const std::vector<MeasuredDramPoint>& points);

}  // namespace ts::views
