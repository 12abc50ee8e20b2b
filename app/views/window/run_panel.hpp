// run_panel.hpp — "Run on GPU", the measured latency and correctness check of the latest
// run, and the model's global-memory traffic for the current set-up.
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

// "Run on GPU" sets `run_requested` (the main loop submits the run); the rest is read from `app`.
void draw_run_panel(bool& run_requested, const AppState& app);

}  // namespace ts::views
