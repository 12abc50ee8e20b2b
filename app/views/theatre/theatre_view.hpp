// theatre_view.hpp — the tiling theatre: one block of the naive or tiled kernel, phase by
// phase and sub-step by sub-step, or both kernels side by side with running counters. The
// panel on the left holds the problem, the player, the counters and the tabs (the kernel's
// source with the executing line lit, the inspected thread, its warp's memory sectors); the
// canvas on the right shows A, B and C (block/theatre_canvas.hpp, block/naive_vs_tiled.hpp).
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

// The view, above `bottom_reserve`. Takes the whole window's state: besides the theatre's own, its
// panel edits the problem and the kernel, a click pins a cell of C, and its buttons open the export
// window or switch the view (a race's caption).
void draw_theatre_view(AppState& state, float bottom_reserve);

}  // namespace ts::views
