// ladder_view.hpp — the kernel ladders at one size (--view ladder, Ctrl+6), one above the other: a
// bar per rung, from the tiled kernel (T = 32) up to the tuned one against cuBLAS SGEMM, then the
// tensor-core rungs from wmma to tc-tuned against cuBLAS BF16, each with its GFLOP/s (TFLOP/s
// for the tensor cores) and % of its cuBLAS; beside each the model's arithmetic intensity and the
// compiled kernel's registers and occupancy (the model's estimate, marked "~", where no GPU can
// say). Hovering a bar says
// what that rung changed and puts the speed-up the model's counts predict beside the measured
// one. Points come from lab_points: the loaded measurement, replaced by live ones.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "views/window/app_state.hpp"
#include "imgui.h"
#include "model/ladder_rungs.hpp"

namespace ts::views {

// The colour of a kernel on the ladder view and the roofline (theme's rung_bar_colour of its row):
// the tiled kernel and cuBLAS as in the latency view (its darkest blue, its grey), the rungs
// greens darkening up the FP32 ladder and warm colours darkening up the tensor cores'.
ImU32 ladder_colour(model::KernelKind kind);

struct LadderBar {
    std::string name;                      // "tiled T=32", "regtile-1d", …, "tuned (#1)", "cuBLAS"
    std::string config;                    // the points' name for it: "tiled T=32", "tuned", "cublas"
    model::KernelConfig kernel;            // a tuned rung: the candidate that runs at this size
    bool candidate_guessed = false;        // a tuned rung's recorded point does not say which candidate ran
    bool is_cublas = false;
    bool is_yours = false;                 // your kernel (the model knows nothing of its code)
    ImU32 colour = 0;
    const record::Point* point = nullptr;  // null: not measured at this size
    double gflops = 0.0;
    double percent_of_cublas = 0.0;        // 0 without both points
    // The point's energy (record::Point::tflop_per_j), and its TFLOP/J as a percentage of its cuBLAS's:
    // 0 where either was measured without it.
    double tflop_per_j = 0.0;
    double energy_percent_of_cublas = 0.0;
    model::RungCounts counts;              // zero for cuBLAS (not modelled)
    int registers = 0;                     // per thread; 0: unknown (cuBLAS)
    bool from_compiled = false;            // registers and occupancy from CUDA; false: the model's estimate
    double occupancy = 0.0;                // active warps / the SM's maximum, 0..1
    std::string registers_text;            // "118", or "~88" for an estimate, "–" for cuBLAS
    std::string occupancy_text;            // "25 %", "~25 %", "?" (occupancy_note says why)
    std::string occupancy_note;            // why the model has no occupancy, or empty
    std::string hover;                     // the tooltip: what changed, counts against measurement
};

// The two ladders the view shows, one above the other (model::Ladder, rung_info.hpp): the FP32 one
// (05 tiled to 12 tuned, against cuBLAS SGEMM) and the tensor-core one (13 wmma to 19 tc-tuned in
// BF16, against cuBLAS's BF16 GEMM), each bar a percentage of its own cuBLAS.
using model::Ladder;

struct LadderData {
    Ladder ladder = Ladder::Fp32;
    std::string dtype;            // the points' dtype: "float", or "bf16" for the tensor cores
    int size = 0;                 // M = N = K
    std::vector<int> sizes;       // sizes with at least one point of the ladder (float, batch 1)
    std::vector<LadderBar> bars;  // the rungs in order (model::ladder_rungs or tensor_core_rungs), then cuBLAS
    bool estimates = false;       // some registers or occupancy are the model's, not CUDA's
    std::string limits_name;      // the GPU whose limits the occupancy is worked out for
};

// Sizes at which the lab has a point of any rung of either ladder or either cuBLAS, smallest first.
std::vector<int> ladder_sizes(const LabState& lab);
// The size shown when the user has not chosen one: the largest with every bar measured, else
// the largest with any, else 4096.
int default_ladder_size(const LabState& lab);
// LadderChoices::ladder_size, or the default when it is 0.
int shown_ladder_size(const LabState& lab);

// The bars of `ladder` at `size` (0: shown_ladder_size); they point into app.lab, valid while it
// is unchanged.
LadderData ladder_data(const AppState& app, int size = 0, Ladder ladder = Ladder::Fp32);

// Every rung of `ladder` and its cuBLAS at `size`, in the bars' order: float, or BF16. With
// `yours` (the latency controls' plotted kernel), the FP32 ladder's has your kernel before cuBLAS.
std::vector<gpu::RunRequest> ladder_requests(int size, Ladder ladder = Ladder::Fp32,
                                             const std::optional<gpu::UserKernelSource>& yours = std::nullopt);
// What "Measure the ladders on this GPU" sweeps: both of them at `size`, FP32 first.
std::vector<gpu::RunRequest> both_ladders_requests(int size,
                                                   const std::optional<gpu::UserKernelSource>& yours = std::nullopt);

// The longest full bar, at most `full` and at least `shortest`, at which every bar's label fits:
// inside its bar (with `pad` to spare), or after it (`pad` / 2 after the bar) and ending within
// `room`; lengths from the bars' left edge. `shares[i]` is bar i's length as a part of the full
// bar (0: no bar, no label to place). 0 where no length lets every label fit.
float longest_bar_fitting_labels(std::span<const float> label_widths, std::span<const float> shares, float full,
                                 float room, float pad, float shortest);

// "speed" or "energy", and the choice between them (a row of two radio buttons) that the ladder view
// and the roofline share. Returns true when it changed.
bool draw_metric_choice(LadderMetric& metric);

// The side panel's part: the size, and on a GPU the measure button with its progress. Writes
// the ladder's size and starts the lab's sweep; the lab's panel draws the export button under it.
void draw_ladder_controls(LabState& lab, const AppState& app);

// The bars, `size` pixels large, at the cursor. Writes the lab's measurements (CUDA asked about
// the compiled rungs, a failed bar measured again).
void draw_ladder_view(LabState& lab, const AppState& app, ImVec2 size);

}  // namespace ts::views
