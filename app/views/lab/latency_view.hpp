// latency_view.hpp — the latency lab's main plot: latency (or GFLOP/s, or speed-up) against
// matrix size for naive, naive with threadIdx.x as row, tiled for each T, the kernel ladder's
// rungs, cuBLAS and the CPU, from the loaded measurement (faded once live points are in, and
// labelled with its GPU and date) and from live measurements (submit_live: stale ones dropped).
#pragma once

#include <string>
#include <vector>

#include "views/window/app_state.hpp"
#include "imgui.h"

namespace ts::views {

// The controls, for the lab's side panel: block shape, T, dtype, batch, the y axis, and on
// a GPU Measure and Sweep (progress bar and Cancel). Writes the lab's choices and queues its
// measurements; reads the GPU from `app`.
void draw_latency_controls(LabState& lab, const AppState& app);

// What any change of those controls does: queue a live measurement of every series shown at
// the chosen size (latest wins). --lab-benchmark changes the size through this too.
void measure_latency_now(LabState& lab);

// The quick sweep a first visit to a lab view starts: every series the controls choose, at
// 256 to 2048, adaptive within a quarter of a second each, checked up to 1024³.
std::vector<gpu::RunRequest> first_visit_requests(const LatencyControls& controls);

// Once per frame, whichever view is open: on the first visit to a view that plots
// measurements (plots_measurements), starts first_visit_requests as the lab's sweep when the
// GPU is usable and nothing else sweeps, or passes over it saying why. Once a session.
void start_first_visit_sweep(LabMeasurements& measured, const AppState& app);

// The rungs the plot shows, by name ("warptile", as settings::kLadderRungNames writes them), in
// the ladder's order; and back: the rungs named are checked, the others not, a name that is no
// rung passed over. The settings file keeps them between runs (app/window_settings.cxx).
std::vector<std::string> shown_rung_names(const LatencyControls& controls);
void show_rungs(LatencyControls& controls, const std::vector<std::string>& names);

// A line saying where the curves come from (live, recorded, or both), then the plot: both
// together `size` pixels large, at the cursor. Writes the plot's view and the lab's
// measurements (a CPU time taken in, a failed point measured again on a click).
void draw_latency_plot(LabState& lab, const AppState& app, ImVec2 size);

}  // namespace ts::views
