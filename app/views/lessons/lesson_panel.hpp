// lesson_panel.hpp — the guided lesson on screen: a card at the top of every view's side
// column with the lesson's title, "step S of N", the step's text and, at some steps, a
// prediction to make before the app reveals the answer; and the lesson list (Ctrl+L).
//
// Keys, chosen so a presentation clicker (which sends PageDown and PageUp) can drive it:
//   PageDown  next step          PageUp  previous step
//   Enter     reveal the answer  Ctrl+L  the lesson list (arrows and Enter choose)
//   Escape    close the list
//
// The card, the button and the list write the lesson's progress (LessonProgress) only and read
// the rest of the window. Their Next, Previous and the list's choice set up the whole window, as a
// lesson step does: they ask (LessonProgress::asked_step, asked_lesson), and handle_lesson_keys
// takes the step at the start of the next frame, as it takes the keys.
#pragma once

#include "views/window/app_state.hpp"
#include "imgui.h"

namespace ts::views {

// The card's background: a pale yellow no other panel uses, so it reads as "the lesson"
// at a glance (and the GUI test can find it in a screenshot).
inline constexpr ImU32 kLessonBand = IM_COL32(255, 246, 214, 255);

// The lesson keys above, and the step or lesson the buttons asked for in the last frame; call
// once per frame before the views draw. Writes the whole state: a step sets up the window.
void handle_lesson_keys(AppState& state);

// "Lessons (Ctrl+L)": opens the lesson list; for the row of view buttons.
void draw_lessons_button(LessonProgress& progress);

// The card, when a lesson is open or one failed to open, at the cursor, as wide as the
// column it is drawn in (side_column.hpp puts it there), at most `share` of its height.
// Its "Export animation…" writes the export's state.
void draw_lesson_panel(LessonProgress& progress, ExportState& exporting, const AppState& app, float share = 0.7f);

// The lesson list, a window of its own in the middle, when it is open.
void draw_lesson_list(LessonProgress& progress);

}  // namespace ts::views
