// lesson_state.hpp — a lesson acting on the app: opening one, moving between its steps, and
// checking a whole lesson before it is shown. A step is applied to the same AppState the
// views draw, through the same checks as the command-line flags (resolve_setup,
// apply_theatre_flags), so a lesson can show nothing the app could not show by itself.
//
// Applying, opening and moving to a step write the whole AppState: a step sets the problem, the
// kernel, the view, the theatre, the lab's kernels and the experiment. Closing writes the
// lesson's progress only.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "views/window/app_state.hpp"
#include "lessons/lesson_catalog.hpp"
#include "lessons/lesson.hpp"

namespace ts::views {

// Puts `state` where step `index` (from 0) of `lesson` stands: steps 0..index taken in
// order, each keeping what the one before set and changing only the keys it names. The
// parts a lesson does not set (the lab's measurement, a GPU result) are left alone. On a
// mistake, the file and line that caused it.
std::optional<lessons::LessonError> apply_lesson_step(AppState& state, const lessons::Lesson& lesson, int index);

// Every step applied in turn to a fresh state: the first mistake, or nullopt. Also checks
// that a step shows a launch error exactly when it says `expect-error: yes`.
std::optional<lessons::LessonError> check_lesson(const lessons::Lesson& lesson);

// Reads and checks a lesson file.
std::variant<lessons::Lesson, lessons::LessonError> load_lesson(const std::filesystem::path& file);

// Every lesson file in `dir`, in teaching order, each read and checked; a broken one is
// listed with its error.
std::vector<LessonListEntry> list_lessons(const std::filesystem::path& dir = lessons::lessons_dir());

// Opens `lesson` at step `index` in the window's state; false, with state.lesson.error set
// to the reason, when it cannot be shown.
bool open_lesson(AppState& state, lessons::Lesson lesson, int index = 0);

// Moves the open lesson to step `index` (clamped to its steps): what PageDown and PageUp,
// the Next and Previous buttons and --lesson-walk all call.
void go_to_lesson_step(AppState& state, int index);

void close_lesson(LessonProgress& progress);

}  // namespace ts::views
