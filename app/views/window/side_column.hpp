// side_column.hpp — the column left of every view's picture. When a lesson is open its card
// sits at the top of the column, beside what it explains, so the picture keeps the whole
// height of the window (on a projector at 2× a strip across the top took a quarter of it);
// below the card comes the view's own panel, which scrolls.
//
// The panel folds away (the handle right of the column, or Ctrl+B), leaving the width to the
// picture; a lesson's card stays, then with the column's whole height. Until the user folds or
// unfolds it, the panel of a view whose picture grows into the width (the stage, the theatre's
// block) is folded where large text (presenter mode, 1.5× and up) leaves the window under
// kFoldedBelowLines lines of text wide: 2× on 1920 or 1280 pixels, 1.5× on 1280. There its
// controls would wrap a few words a line beside a picture squeezed into the rest, and a teacher
// at a projector steps with the keys anyway. Every other view keeps its panel open.
#pragma once

#include "views/window/app_state.hpp"

namespace ts::views {

inline constexpr float kFoldedBelowLines = 60.0f;

// Which views fold their panel by themselves (above).
enum class PanelDefault { Open, FoldedWhenCrowded };

// Ctrl+B: the panels folded if they were shown, unfolded if not, from now on in every view.
void toggle_panels(Presentation& p);

// What begin_side_column() began, for end_side_column().
struct SideColumn {
    bool panel = false;   // the view's panel is open: draw its contents
    bool column = false;  // a column is there (the panel, or a lesson's card alone)
    float bottom_reserve = 0.0f;
};

// What the column writes besides its view's own state: the presentation (whether the panel
// shows), the lesson's progress (the card's buttons ask for a step, which handle_lesson_keys
// applies) and the export the card's button opens. A view with a side column is handed these by
// the window (draw_main_view).
struct ColumnEdits {
    Presentation& presentation;
    LessonProgress& lesson;
    ExportState& exporting;
};
inline ColumnEdits column_edits(AppState& state) { return {state.presentation, state.lesson, state.exporting}; }

// Begins the column `width` wide, down to `bottom_reserve` above the window's bottom, draws
// the lesson card when there is one, then, unless the panels are folded, begins the view's
// white panel (`panel_id`). Draw the panel's contents only when `.panel`; end with
// end_side_column() either way, which draws the fold handle. The caller's picture follows on
// the same line (ImGui::SameLine()).
SideColumn begin_side_column(const ColumnEdits& edits, const AppState& app, const char* panel_id, float width,
                             float bottom_reserve, PanelDefault fold = PanelDefault::Open);
// Writes only the presentation (the fold handle); reads from `app` whether the window's bars show.
void end_side_column(Presentation& presentation, const AppState& app, const SideColumn& column);

}  // namespace ts::views
