// view_switcher.hpp — the row of view buttons along the top of the window (a drop-down list
// where they do not fit), and Ctrl+1 … Ctrl+8.
#pragma once

#include "views/window/presenter.hpp"
#include "views/window/view_id.hpp"

namespace ts::views {

// Sets `view` (the window's current view) from a button or a key, and draws the presenter's
// controls beside the buttons, which write `presentation`.
void draw_view_switcher(ViewId& view, Presentation& presentation);

}  // namespace ts::views
