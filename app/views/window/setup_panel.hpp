// setup_panel.hpp — the problem (M, N, K) and the kernel (naive, naive-row or tiled, with
// its tile width or block shape), and right under them the model's verdict on the launch.
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

// Sizes may be typed from 1 to this; larger problems are for `tilescope bench`.
inline constexpr int kMaxTypedSize = 16384;
// Deliberately above model::kMaxTile: typing T = 64 shows why it cannot launch.
inline constexpr int kMaxTypedTile = 64;

// Writes the window's problem and kernel (the typed sizes, the kernel's choices, the example
// buttons); reads the GPU's limits from `app` for the verdict.
void draw_setup_panel(model::Problem& problem, model::KernelConfig& kernel, const AppState& app);

}  // namespace ts::views
