// export_dialog.hpp — "Export animation…": the button the theatre, the lesson and the ladder put
// in their panels, and the small window it opens. Before an export starts the window says how
// many frames it will draw, at what size, for how long each, and in which format; while it runs,
// a progress bar and Cancel; after, where the file went and how large it is, or why it failed.
//
// The window only asks (ExportState::start_requested, cancel_requested): the main loop does the
// drawing offscreen and the writing (app/animation_export.hpp). It is left out of the exported
// frames, as tooltips are.
//
// Each writes the export's own state (ExportState) and reads the rest of the window.
#pragma once

#include "views/export/export_state.hpp"

namespace ts::views {

struct AppState;

// The button; greyed, with the reason in its tooltip, when the subject has nothing to export.
void draw_export_button(ExportState& exporting, const AppState& app, ExportSubject subject);

// The window, when open; once per frame, from the main view.
void draw_export_dialog(ExportState& exporting, const AppState& app);

// Opens the window on `subject` with its defaults (a file named after what it shows), as the
// button does.
void open_export_dialog(ExportState& exporting, const AppState& app, ExportSubject subject);

}  // namespace ts::views
