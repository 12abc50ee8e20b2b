// tuning_view.hpp — which launch shape is fastest: a heat map of the naive kernel's latency
// over blockDim.x × blockDim.y (shapes over 1024 threads shown as invalid, with why), and a
// bar per tile width T for the tiled kernel; the best of each marked. From the measurement's
// tuning sweep at 2048³, or from live points of the same shapes. Below them, the tuned rung's
// candidate shapes × a few sizes, each cell its speed against the best candidate at that size,
// the tuner's pick outlined.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "views/window/app_state.hpp"
#include "imgui.h"

namespace ts::views {

inline constexpr int kTuningSize = 2048;

struct TuningCell {
    int block_x = 0;
    int block_y = 0;
    int threads = 0;
    const record::Point* point = nullptr;  // null: invalid shape, not measured, or its latest request failed
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
    // Your kernel beside the tiles, where it was plotted beside the rungs (LatencyControls::yours):
    // its point at kTuningSize, its name and its launch there.
    bool has_yours = false;
    const record::Point* yours = nullptr;
    std::string yours_name, yours_launch;
};

// The points behind the view; they point into `lab`, valid while it is unchanged.
TuningData tuning_data(const LabState& lab);

// What "Measure this grid" sweeps: every valid naive shape (shapes over 1024 threads stay
// "invalid", never launched), then each T of the tiled kernel, at kTuningSize in float.
// The grid's requests, and your kernel's at kTuningSize when given.
std::vector<gpu::RunRequest> tuning_requests(const std::optional<gpu::UserKernelSource>& yours = std::nullopt);

// One of the tuned rung's candidates (model::kTunedCandidates) at one size.
struct CandidateCell {
    int variant = 0;
    int size = 0;
    const record::Point* point = nullptr;  // "tuned #i" at size, float; null: not measured, or failed last
    double relative = 0.0;                 // GFLOP/s over the best candidate's at this size; 0: no point
};

struct CandidateData {
    std::vector<int> sizes;           // model::kCandidateSweepSizes
    std::vector<CandidateCell> cells;  // candidate major: #0 at each size, then #1, ...
    std::vector<int> picks;           // per size: the candidate the tuning table picks for `gpu`
    std::vector<int> best;            // per size: the fastest measured candidate; -1: none
    std::string gpu;                  // the GPU the picks are for
    std::string pick_source;          // "shipped table", "tuned on this machine (PATH)", ...
    bool any_measured = false;
    const CandidateCell& at(int variant, int size_index) const {
        return cells[static_cast<std::size_t>(variant) * sizes.size() + static_cast<std::size_t>(size_index)];
    }
};

// The candidates' points in `lab`, and the picks for the GPU named `gpu` (the measurement's or
// this one). They point into `lab`, valid while it is unchanged.
CandidateData candidate_data(const LabState& lab, const std::string& gpu);

// What "Measure the candidates" sweeps: every candidate at every size of candidate_data.
std::vector<gpu::RunRequest> candidate_requests();

// The view: starts the lab's sweeps and measures a failed cell again (writing the lab's
// measurements); reads the rest.
void draw_tuning_view(LabMeasurements& measured, const AppState& app, ImVec2 size);

}  // namespace ts::views
