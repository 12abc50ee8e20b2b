// ladder_view.hpp — the kernel ladder at one size (--view ladder, Ctrl+6): a bar per rung, from
// the tiled kernel (T = 32) up to the tuned one, and cuBLAS, each with its GFLOP/s and % of
// cuBLAS; beside each the model's arithmetic intensity and the compiled kernel's registers and
// occupancy (the model's estimate, marked "~", where no GPU can say). Hovering a bar says
// what that rung changed and puts the speed-up the model's counts predict beside the measured
// one. Points come from lab_points: the loaded recording, replaced by live ones.
#pragma once

#include <string>
#include <vector>

#include "views/window/app_state.hpp"
#include "imgui.h"
#include "model/ladder_rungs.hpp"

namespace ts::views {

// The colour of a kernel on the ladder view and the roofline: the tiled kernel and cuBLAS as in
// the latency view (its darkest blue, its grey), the rungs greens darkening up the ladder.
ImU32 ladder_colour(model::KernelKind kind);

struct LadderBar {
    std::string name;                      // "tiled T=32", "regtile-1d", …, "tuned (#1)", "cuBLAS"
    std::string config;                    // the points' name for it: "tiled T=32", "tuned", "cublas"
    model::KernelConfig kernel;            // the tuned rung: the candidate that runs at this size
    bool is_cublas = false;
    ImU32 colour = 0;
    const record::Point* point = nullptr;  // null: not measured at this size
    double gflops = 0.0;
    double percent_of_cublas = 0.0;        // 0 without both points
    model::RungCounts counts;              // zero for cuBLAS (not modelled)
    int registers = 0;                     // per thread; 0: unknown (cuBLAS)
    bool from_compiled = false;            // registers and occupancy from CUDA; false: the model's estimate
    double occupancy = 0.0;                // active warps / the SM's maximum, 0..1
    std::string registers_text;            // "118", or "~88" for an estimate, "–" for cuBLAS
    std::string occupancy_text;            // "25 %", "~25 %", "?" (occupancy_note says why)
    std::string occupancy_note;            // why the model has no occupancy, or empty
    std::string hover;                     // the tooltip: what changed, counts against measurement
};

struct LadderData {
    int size = 0;                 // M = N = K
    std::vector<int> sizes;       // sizes with at least one point of the ladder (float, batch 1)
    std::vector<LadderBar> bars;  // model::ladder_rungs() in order, then cuBLAS
    bool estimates = false;       // some registers or occupancy are the model's, not CUDA's
    std::string limits_name;      // the GPU whose limits the occupancy is worked out for
};

// Sizes at which the lab has a point of any rung or cuBLAS, smallest first.
std::vector<int> ladder_sizes(const LabState& lab);
// The size shown when the user has not chosen one: the largest with every bar measured, else
// the largest with any, else 4096.
int default_ladder_size(const LabState& lab);
// LabState::ladder_size, or the default when it is 0.
int shown_ladder_size(const LabState& lab);

// The bars at `size` (0: shown_ladder_size); they point into state.lab, valid while it is
// unchanged.
LadderData ladder_data(const AppState& state, int size = 0);

// What "Measure the ladder on this GPU" sweeps: every rung and cuBLAS at `size`, float.
std::vector<gpu::RunRequest> ladder_requests(int size);

// The side panel's part: the size, and on a GPU the measure button with its progress.
void draw_ladder_controls(AppState& state);

// The bars, `size` pixels large, at the cursor.
void draw_ladder_view(AppState& state, ImVec2 size);

}  // namespace ts::views
