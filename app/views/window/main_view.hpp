// main_view.hpp — the whole window: the setup and run panels on the left, the stage on the
// right, the status bar along the bottom.
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

// Fills ImGui's main viewport with one undecorated window holding every view.
void draw_main_view(AppState& state);

}  // namespace ts::views
