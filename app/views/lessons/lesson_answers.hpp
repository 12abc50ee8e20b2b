// lesson_answers.hpp — the answers a lesson's predictions reveal, computed from the app's
// state when they are revealed: counts from the model for the sizes on screen, measured
// times from the loaded measurement (or this session's GPU runs). A lesson file names what to
// compute, never the number, so an answer always matches what the app shows.
#pragma once

#include <optional>
#include <string>

#include "views/window/app_state.hpp"
#include "lessons/lesson.hpp"

namespace ts::views {

struct RevealedAnswer {
    std::optional<double> value;  // nullopt: nothing to compare a guess with (not measured here)
    std::string shown;            // the value as the panel prints it: "16", "1.39×"
    std::string how;              // "counted by the model: ...", "measured on NVIDIA H200, ...: ..."
};

RevealedAnswer compute_answer(const AppState& state, const lessons::AnswerSpec& answer);

// Why the answer cannot be computed for this state (an element outside A), or nullopt.
std::optional<std::string> check_answer(const AppState& state, const lessons::AnswerSpec& answer);

// How far a guess was: "exactly right", "within 10 %", "4× too low", "25 % too high".
std::string judge_guess(double guess, double answer);

}  // namespace ts::views
