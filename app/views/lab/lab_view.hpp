// lab_view.hpp — the latency lab's layout: a side panel (where the data comes from, the view's controls, occupancy, saving
// the session) beside the latency, tuning, roofline or ladder plot.
#pragma once

#include "views/window/app_state.hpp"
#include "views/window/side_column.hpp"

namespace ts::views {

// A sweep a view's button started (the first visit's shows in the lab's panel): how far it
// is, as a bar, and Cancel. False, drawing nothing, when no such sweep runs.
bool draw_sweep_progress(LabMeasurements& measured);

// The chosen lab view (not the stage) filling the rest of the window above the status bar. It
// writes the lab through each view, and through `edits` its side column (the lesson card, the
// fold) and the ladder's export button.
void draw_lab_view(LabState& lab, const ColumnEdits& edits, const AppState& app, float bottom_reserve);

}  // namespace ts::views
