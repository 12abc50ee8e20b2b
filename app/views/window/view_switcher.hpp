// view_switcher.hpp — the row of view buttons along the top of the window (a drop-down list
// where they do not fit), and Ctrl+1 … Ctrl+8.
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

// Sets state.view from a button or a key, then starts the lab's first-visit sweep when the view
// now open plots measurements.
void draw_view_switcher(AppState& state);

}  // namespace ts::views
