// lesson_progress.hpp — a lesson's progress, what the window remembers of the guided lesson:
// which one is open, at which step, the student's guess, and the lesson list. Kept apart from
// lesson_state.hpp so that AppState can hold it without including the lesson logic.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lessons/lesson.hpp"

namespace ts::views {

// One line of the lesson list: a lesson that opens, or a file that does not and why.
struct LessonListEntry {
    std::string name;
    std::string title;
    std::string summary;  // one line on what it teaches
    std::filesystem::path file;
    std::string error;  // "FILE:LINE: ..." when the file cannot be used; it is listed, not opened
};

struct LessonProgress {
    std::optional<lessons::Lesson> lesson;
    int step = 0;                  // index into lesson->steps (the panel shows step + 1)
    std::array<char, 32> guess{};  // the student's prediction at this step, as typed
    bool focus_guess = false;      // a new prediction step: put the keyboard in the guess field
    // A new step opens at the card's top, its first line in view, even where the focused guess
    // field lies below the fold (ImGui scrolls to a focused field): a few frames, as that scroll
    // comes a frame after the focus.
    int top_frames = 0;
    bool revealed = false;         // the answer of this step's prediction is shown
    std::string error;             // why the last lesson asked for could not be opened (shown in red)

    bool list_open = false;        // Ctrl+L: choose a lesson with the arrow keys and Enter
    int list_cursor = 0;
    std::vector<LessonListEntry> list;
    float panel_height = 0.0f;     // the strip's height in the last frame, to size it in this one

    // What the card's Next and Previous or a click in the list asked for. A step sets up the whole
    // window, which the card and the list do not write: handle_lesson_keys takes it at the start
    // of the next frame.
    std::optional<int> asked_step;
    std::optional<lessons::Lesson> asked_lesson;
};

}  // namespace ts::views
