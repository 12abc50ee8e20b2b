// side_column.hpp — the column left of every view's picture. When a lesson is open its card
// sits at the top of the column, beside what it explains, so the picture keeps the whole
// height of the window (on a projector at 2× a strip across the top took a quarter of it);
// below the card comes the view's own panel, which scrolls.
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

// Begins the column `width` wide, down to `bottom_reserve` above the window's bottom, draws
// the lesson card when there is one, then begins the view's white panel (`panel_id`).
// Every begin_side_column() needs its end_side_column().
void begin_side_column(AppState& state, const char* panel_id, float width, float bottom_reserve);
void end_side_column();

}  // namespace ts::views
