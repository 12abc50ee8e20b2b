// lesson_flags.hpp — the window's lesson flags: --list-lessons, --lesson NAME or
// --lesson-file FILE with --step S, and --lesson-walk DIR (one screenshot per step).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "gpu/runner.hpp"
#include "lessons/lesson.hpp"
#include "platform/window.hpp"
#include "views/window/app_state.hpp"

namespace ts::app {

// The lesson to open and its step (from 0); or why a --lesson-file could not be used, which
// the window shows in red instead.
struct LessonChoice {
    std::optional<lessons::Lesson> lesson;
    int step = 0;
    std::string error;
};

// --list-lessons: one name per line on stdout; 0.
int print_lesson_names();

// --lesson NAME or --lesson-file FILE with --step S (`step_text`, from 1; empty: the first),
// before any window opens. nullopt: carry on; otherwise the exit status (2: no such lesson
// or step, or a broken file with --lesson or while `walking`).
std::optional<int> choose_lesson(LessonChoice& choice, const std::string& name, const std::string& file,
                                 const std::string& step_text, bool walking);

// Opens the chosen lesson at its step in a window whose settings are applied, or leaves the
// reason a --lesson-file was not used for the lesson card to show.
void open_chosen_lesson(views::AppState& state, const LessonChoice& choice);

// --lesson-walk DIR (an Automation mode): saves every step of the open lesson; the exit status.
int walk_lesson(platform::Window& window, gpu::Runner& runner, views::AppState& state,
                const std::filesystem::path& dir);

}  // namespace ts::app
