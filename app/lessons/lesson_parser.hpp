// lesson_parser.hpp — reads the lesson format: `key: value` lines, `step:` starting a new
// step, indented lines continuing a text, `#` comments. Every mistake is reported with the
// file and line it is on, in words that say what is allowed instead.
//
//   # 04-tiling.lesson
//   title: Tiling in phases
//   summary: one line for the lesson list
//
//   step: One tile of A and one of B
//   view: theatre
//   m: 8
//   tile: 4
//   text:
//     Every thread of the block copies one element of A and one of B
//     into shared memory.
//
//     An indented line after a blank one starts a new paragraph.
//   predict: How many times is A[0][0] read from global memory now?
//   answer: loads-of-a 0,0
#pragma once

#include <filesystem>
#include <string_view>
#include <variant>

#include "lesson.hpp"

namespace ts::lessons {

// The lesson in `text`, read from `file` (for messages) and called `name`; or the first
// mistake in it. Values that depend on the sizes are checked later, when a step is applied.
std::variant<Lesson, LessonError> parse_lesson(std::string_view text, const std::filesystem::path& file,
                                               const std::string& name);

// The same, reading `file`; its name comes from the file name (lesson_name()).
std::variant<Lesson, LessonError> read_lesson(const std::filesystem::path& file);

}  // namespace ts::lessons
