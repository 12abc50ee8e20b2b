// run_panel.hpp — "Run on GPU", the measured latency and correctness check of the latest
// run, and the model's global-memory traffic for the current set-up.
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

void draw_run_panel(AppState& state);

}  // namespace ts::views
