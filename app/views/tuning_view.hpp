// tuning_view.hpp — which launch shape is fastest: a heat map of the naive kernel's latency
// over blockDim.x × blockDim.y (shapes over 1024 threads shown as invalid, with why), and a
// bar per tile width T for the tiled kernel; the best of each marked. From the recording's
// tuning sweep at 2048³, or from live points of the same shapes.
#pragma once

#include <vector>

#include "app_state.hpp"
#include "imgui.h"

namespace ts::views {

inline constexpr int kTuningSize = 2048;

struct TuningCell {
    int block_x = 0;
    int block_y = 0;
    int threads = 0;
    const record::Point* point = nullptr;  // null: invalid shape, or not measured
};

struct TuningTile {
    int tile = 0;
    const record::Point* point = nullptr;
};

struct TuningData {
    std::vector<TuningCell> cells;  // block_x major: 8×1, 8×2, ..., 64×32
    std::vector<TuningTile> tiles;  // T = 1, 2, 4, 8, 16, 32
    int best_cell = -1;             // the fastest measured cell; -1: none
    int best_tile = -1;
};

// The points behind the view; they point into `lab`, valid while it is unchanged.
TuningData tuning_data(const LabState& lab);

// What "Measure this grid" sweeps: every valid naive shape (shapes over 1024 threads stay
// "invalid", never launched), then each T of the tiled kernel, at kTuningSize in float.
std::vector<gpu::RunRequest> tuning_requests();

void draw_tuning_view(AppState& state, ImVec2 size);

}  // namespace ts::views
