// lesson_flags.cxx — see lesson_flags.hpp.
#include "lesson_flags.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <variant>

#include "frame.hpp"
#include "lessons/lesson_keys.hpp"
#include "views/lessons/lesson_state.hpp"

namespace ts::app {

// --list-lessons: no window, so it works without a display. A broken lesson file is named
// on stderr with its line, and left out.
int print_lesson_names() {
    for (const ts::views::LessonListEntry& entry : ts::views::list_lessons()) {
        if (entry.error.empty())
            std::cout << entry.name << "\n";
        else
            std::cerr << "tilescope: skipped " << entry.error << "\n";
    }
    return 0;
}

// --lesson NAME or --lesson-file FILE, with --step S: checked before any window opens, so a
// wrong name or step exits 2 with the reason. A broken file does not stop a class: it is
// reported, and the window opens without a lesson and shows why. nullopt: carry on.
std::optional<int> choose_lesson(LessonChoice& choice, const std::string& name, const std::string& file,
                                 const std::string& step_text, bool walking) {
    std::variant<ts::lessons::Lesson, ts::lessons::LessonError> loaded;
    if (!name.empty()) {
        const auto entries = ts::views::list_lessons();
        const auto found = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.name == name; });
        if (found == entries.end()) {
            std::cerr << "tilescope: --lesson: there is no lesson called \"" << name << "\"; the lessons are:\n";
            for (const auto& entry : entries)
                if (entry.error.empty()) std::cerr << "  " << entry.name << "\n";
            return 2;
        }
        loaded = ts::views::load_lesson(found->file);
    } else {
        loaded = ts::views::load_lesson(file);
    }
    if (auto* why = std::get_if<ts::lessons::LessonError>(&loaded)) {
        std::cerr << "tilescope: " << why->text() << "\n";
        if (!name.empty() || walking) return 2;
        choice.error = why->text();
        return std::nullopt;
    }
    auto& lesson = std::get<ts::lessons::Lesson>(loaded);
    const auto steps = static_cast<long long>(lesson.steps.size());
    if (!step_text.empty()) {
        const auto step = ts::lessons::parse_whole(step_text);
        if (!step || *step < 1 || *step > steps) {
            std::cerr << "tilescope: --step " << step_text << ": the lesson " << lesson.name << " has steps 1 to "
                      << steps << "\n";
            return 2;
        }
        choice.step = static_cast<int>(*step - 1);
    }
    choice.lesson = std::move(lesson);
    return std::nullopt;
}

void open_chosen_lesson(ts::views::AppState& state, const LessonChoice& choice) {
    if (choice.lesson) ts::views::open_lesson(state, *choice.lesson, choice.step);
    if (!choice.error.empty()) state.lesson.error = choice.error;
}

// --lesson-walk DIR: every step of the open lesson in turn, moved to by the function PageDown
// calls, drawn until the layout settles and saved as DIR/<lesson>-step-<S>.png; a step that
// asks for a prediction is saved again with its answer revealed, as ...-step-<S>-answer.png.
int walk_lesson(ts::platform::Window& window, ts::gpu::Runner& runner, ts::views::AppState& state,
                const std::filesystem::path& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) {
        std::cerr << "tilescope: --lesson-walk: cannot create " << dir.string() << ": " << error.message() << "\n";
        return 1;
    }
    const auto draw_and_save = [&](const std::filesystem::path& file) -> bool {
        for (int i = 0; i <= kSettleFrames; ++i) {
            draw_frame(window, state, {.runner = &runner});
            if (i == kSettleFrames) {
                if (const auto why = window.save_screenshot(file.string())) {
                    std::cerr << "tilescope: " << *why << "\n";
                    return false;
                }
                std::cout << "tilescope: saved " << file.string() << "\n";
            }
            window.present();
        }
        return true;
    };
    // The lessons' measured answers come from the measurement, read off the UI thread.
    ts::views::wait_for_measurement(state.lab.measured);
    const std::string name = state.lesson.lesson->name;
    const int steps = static_cast<int>(state.lesson.lesson->steps.size());
    for (int step = 0; step < steps; ++step) {
        ts::views::go_to_lesson_step(state, step);
        if (!state.lesson.lesson) {
            std::cerr << "tilescope: " << state.lesson.error << "\n";
            return 1;
        }
        const std::string stem = name + "-step-" + std::to_string(step + 1);
        if (!draw_and_save(dir / (stem + ".png"))) return 1;
        if (state.lesson.lesson->steps[step].predict.empty()) continue;
        state.lesson.revealed = true;
        if (!draw_and_save(dir / (stem + "-answer.png"))) return 1;
    }
    return 0;
}

}  // namespace ts::app
