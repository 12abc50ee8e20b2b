// status_bar.hpp — the strip at the bottom of the window: which GPU TileScope measures on,
// or why it is running on the model alone, and the latest measurement that failed.
#pragma once

#include <optional>
#include <string>

#include "views/window/app_state.hpp"

namespace ts::views {

// "probing GPU…", "GPU: NVIDIA H100 · 132 SMs · 79.1 GiB · compute 9.0", or
// "no CUDA device: <reason> — model mode".
std::string device_status(const std::optional<gpu::DeviceInfo>& device);
// Its short form, where the full one would push a notice off the bar: "GPU: NVIDIA H100",
// "no CUDA device — model mode".
std::string short_device_status(const std::optional<gpu::DeviceInfo>& device);

// The latest failure as the status bar says it: "failed: " and the runner's sentence, with
// the point it failed at in front where the sentence does not name it.
std::string failure_status(const Failure& failure);

// Draws the status line into the current window.
void draw_status_bar(const AppState& state);

}  // namespace ts::views
