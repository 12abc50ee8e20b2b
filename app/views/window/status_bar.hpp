// status_bar.hpp — the strip at the bottom of the window: which GPU TileScope measures on,
// or why it is running on the model alone, and the latest measurement that failed.
#pragma once

#include <optional>
#include <string>

#include "views/window/app_state.hpp"

namespace ts::views {

// " on gpu1" after a GPU's name where it is on another machine (the handshake's host); empty for
// this machine's.
std::string on_host(const gpu::DeviceInfo& device);

// "probing GPU…", "GPU: NVIDIA H100 · 132 SMs · 79.1 GiB · compute 9.0", or
// "no CUDA device: <reason> — model mode"; with " on gpu1" after the name for a GPU elsewhere.
std::string device_status(const std::optional<gpu::DeviceInfo>& device);
// Its short form, where the full one would push a notice off the bar: "GPU: NVIDIA H100",
// "no CUDA device — model mode".
std::string short_device_status(const std::optional<gpu::DeviceInfo>& device);

// What the worker is doing, when there is something to say: "connecting to gpu1…",
// "waiting for the GPU: 2 ahead", "connection to gpu1 lost: reconnecting in 3 s"; empty otherwise.
std::string worker_status_text(const gpu::WorkerStatus& worker);

// The latest failure as the status bar says it: "failed: " and the runner's sentence, with
// the point it failed at in front where the sentence does not name it.
std::string failure_status(const Failure& failure);

// Draws the status line into the current window.
void draw_status_bar(const AppState& state);

}  // namespace ts::views
