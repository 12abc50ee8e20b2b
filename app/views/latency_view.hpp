// latency_view.hpp — the latency lab's main plot: latency (or GFLOP/s, or speed-up) against
// matrix size for naive, naive with threadIdx.x as row, tiled for each T, cuBLAS and the CPU,
// from the loaded recording and from live measurements (submit_live: stale ones dropped).
#pragma once

#include "app_state.hpp"
#include "imgui.h"

namespace ts::views {

// The controls, for the lab's side panel: block shape, T, dtype, batch, the y axis, and on
// a GPU Measure and Sweep (progress bar and Cancel).
void draw_latency_controls(AppState& state);

// What any change of those controls does: queue a live measurement of every series shown at
// the chosen size (latest wins). --lab-benchmark changes the size through this too.
void measure_latency_now(LabState& lab);

// The plot, `size` pixels large, at the cursor.
void draw_latency_plot(AppState& state, ImVec2 size);

}  // namespace ts::views
