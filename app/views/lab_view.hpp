// lab_view.hpp — the view switcher along the top of the window, and the latency lab's
// layout: a side panel (where the data comes from, the view's controls, occupancy, saving
// the session) beside the latency, tuning or roofline plot.
#pragma once

#include "app_state.hpp"

namespace ts::views {

// Buttons for the four views; Ctrl+1 … Ctrl+4 switch too.
void draw_view_switcher(AppState& state);

// The chosen lab view (not the stage) filling the rest of the window above the status bar.
void draw_lab_view(AppState& state, float bottom_reserve);

}  // namespace ts::views
