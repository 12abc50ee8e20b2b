// roofline_view.hpp — log-log roofline: the GPU's bandwidth and FP32 peaks (measured live
// with RequestKind::Roofline, else a data sheet's, labelled "model"), and each kernel at
// 2048³ at the model's arithmetic intensity and its achieved GFLOP/s.
#pragma once

#include <string>

#include "app_state.hpp"
#include "imgui.h"

namespace ts::views {

struct RooflinePeaksShown {
    double bandwidth_gbs = 0;
    double fp32_gflops = 0;
    std::string source;  // "measured on this GPU: ..." or "data sheet of the NVIDIA H200, model"
};

// The peaks the roofline draws: measured when a Roofline request came back, else the data
// sheet of the recording's (or this) GPU.
RooflinePeaksShown roofline_peaks(const AppState& state);

void draw_roofline_view(AppState& state, ImVec2 size);

}  // namespace ts::views
