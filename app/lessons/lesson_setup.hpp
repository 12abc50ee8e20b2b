// lesson_setup.hpp — what a lesson has set by a given step: each step keeps the values of
// the steps before it and changes only the keys it names, so opening step S means taking
// steps 1..S in order. The problem and kernel they describe are checked by the same
// resolve_setup() the command-line flags go through.
#pragma once

#include <map>
#include <string>
#include <variant>

#include "cli/setup_options.hpp"
#include "lesson.hpp"

namespace ts::lessons {

// Key → the setting in force after step `index` (from 0); "none" removes a key again.
using SettingsInForce = std::map<std::string, Setting>;
SettingsInForce settings_through(const Lesson& lesson, int index);

// The value in force for `key`, or `fallback`.
std::string value_of(const SettingsInForce& settings, const std::string& key, const std::string& fallback = "");

// What a lesson starts from: the window's first launch (12×16×8, tiled, T = 4).
cli::SetupOptions lesson_defaults();

// The problem and kernel in force. A tile width up to kMaxLessonTile is kept even though no
// GPU can launch it: the app explains that refusal itself (launch_error), as the setup
// panel does when a student types T = 64.
std::variant<cli::Setup, std::string> resolve_lesson_setup(const SettingsInForce& settings);

}  // namespace ts::lessons
