// roofline_view.hpp — log-log roofline: the GPU's bandwidth, FP32 and tensor-core (BF16) peaks
// (measured live with RequestKind::Roofline, else a data sheet's, labelled "model"), and each
// kernel at 2048³ at the model's arithmetic intensity and its achieved GFLOP/s: the naive
// kernels, the tiled ones, every rung of the FP32 ladder under the FP32 roof and every rung of
// the tensor-core ladder under theirs, each named beside its point.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "views/window/app_state.hpp"
#include "imgui.h"

namespace ts::views {

// M = N = K of every kernel placed on the roofline (float).
inline constexpr int kRooflineSize = 2048;

struct RooflinePeaksShown {
    double bandwidth_gbs = 0;
    double fp32_gflops = 0;
    double bf16_gflops = 0;  // the tensor cores' roof (dense BF16, FP32 sums); 0: none known
    std::string source;  // "measured on this GPU: ..." or "data sheet of the NVIDIA H200, model"
};

// The peaks the roofline draws: measured when a Roofline request came back, else the data
// sheet of the measurement's (or this) GPU.
RooflinePeaksShown roofline_peaks(const AppState& app);

// One kernel's point: x from the model's traffic counts, y from the lab's points.
struct RooflineMark {
    std::string name;      // "naive 32×32", "tiled T=32", "regtile-2d", "tuned (#1)"
    ImU32 colour = 0;
    double intensity = 0;  // FLOPs per byte requested from global memory (model)
    double gflops = 0;     // measured
    double median_ms = 0;
    double model_bytes = 0;  // global bytes the model counts
    bool rung = false;       // a rung of the ladder (the tiled kernel with T = 32 included)
    bool tensor_cores = false;  // a rung of the tensor-core ladder (BF16)
    // Where the intensity comes from: the model's counts, or (your kernel) its trace, scaled.
    std::string intensity_source = "model";
    double gflop_per_j = 0;  // measured work per joule (record::Point::tflop_per_j); 0: no energy figure
};

// The kernels measured at 2048³ in float, and the tensor-core rungs in BF16, each at its point;
// your kernel too where it was plotted beside the rungs and recorded: the model does not know its
// code, so its intensity comes from its trace's loads and stores, scaled to 2048³ (loads per
// multiply-add, stores per cell of C: exact for kernels whose traffic per FLOP does not change with
// the size, as the naive and tiled kernels').
std::vector<RooflineMark> roofline_marks(const AppState& app);

// Where a point's name goes: a box beside the point (right of it, or left where the plot
// ends), moved up or down so that no two boxes come within `gap` of each other, inside the
// area where it can be.
struct RooflineLabel {
    ImVec2 anchor;  // the point
    ImVec2 min;
    ImVec2 max;
    bool shown = true;  // false: no free place in the plot (its point's tooltip still names it)
};
std::vector<RooflineLabel> place_roofline_labels(std::span<const ImVec2> anchors, std::span<const ImVec2> sizes,
                                                 ImVec2 area_min, ImVec2 area_max, float gap);

// The plot: writes its view and the lab's measurements (the GPU's peaks asked for once, a
// failed kernel measured again on a click).
void draw_roofline_view(LabState& lab, const AppState& app, ImVec2 size);

}  // namespace ts::views
