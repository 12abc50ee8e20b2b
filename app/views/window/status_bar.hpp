// status_bar.hpp — the strip at the bottom of the window: which GPU TileScope measures on,
// or why it is running on the model alone.
#pragma once

#include <optional>
#include <string>

#include "views/window/app_state.hpp"

namespace ts::views {

// "probing GPU…", "GPU: NVIDIA H100 · 132 SMs · 79.1 GiB · compute 9.0", or
// "no CUDA device: <reason> — model mode".
std::string device_status(const std::optional<gpu::DeviceInfo>& device);

// Draws the status line into the current window.
void draw_status_bar(const AppState& state);

}  // namespace ts::views
