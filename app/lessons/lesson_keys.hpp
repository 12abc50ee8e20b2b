// lesson_keys.hpp — the words a lesson file may use, and what each value must look like.
// These checks need no sizes; whatever depends on them (a block outside the grid, a phase
// past the last) is checked when a step is applied, by the same functions the command-line
// flags go through.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ts::lessons {

// The largest T a lesson may ask for: 64, as the setup panel lets a student type it, so a
// lesson can show the app's own explanation of why a GPU refuses 64 × 64 = 4096 threads.
inline constexpr int kMaxLessonTile = 64;
// The theatre's and setup panel's largest size.
inline constexpr int kMaxLessonSize = 16384;

// `experiment: accumulator`: the Experiments view's measurement of the tensor cores' accumulator,
// which is no broken kernel (model::Experiment) but opens as --experiment accumulator does.
inline constexpr std::string_view kAccumulatorExperiment = "accumulator";

// Keys that set the app's state; a step keeps the value of the step before unless it names
// the key again.
bool is_state_key(std::string_view key);

// Every key a step may hold, for messages: "view, m, n, ...".
std::string step_keys();

// Why `value` is not a valid value of state key `key`, naming what is allowed; nullopt if
// it is. "none" is valid wherever a key may be switched off again (select, block, ...).
std::optional<std::string> check_state_value(std::string_view key, std::string_view value);

// The answers a prediction can reveal: each is computed by the app, never typed in a file.
std::string answer_words();

struct ParsedAnswer {
    std::string word;
    std::optional<std::pair<int, int>> cell;
};
// `loads-of-a 0,0`, `reuse-factor`, ...; or why not.
std::optional<std::string> parse_answer(std::string_view text, ParsedAnswer& out);

// "ROW,COL" of two whole numbers ≥ 0.
std::optional<std::pair<int, int>> parse_pair(std::string_view text);

// A whole number without sign or extra characters.
std::optional<long long> parse_whole(std::string_view text);

}  // namespace ts::lessons
