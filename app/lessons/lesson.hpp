// lesson.hpp — a guided lesson as the parser leaves it: a title and a list of steps, each
// step a short text plus the settings it changes. Line numbers travel with every value, so
// whatever goes wrong later (a block outside the grid once the sizes are known) can still
// be reported as FILE:LINE.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ts::lessons {

// One `key: value` line of a step.
struct Setting {
    std::string key;
    std::string value;
    int line = 0;
};

// What the app computes for a "predict, then reveal" step: a word from answer_words()
// and, for some, an element (`loads-of-a 0,0`).
struct AnswerSpec {
    std::string word;
    std::optional<std::pair<int, int>> cell;  // ROW,COL of A or B
    int line = 0;
};

struct Step {
    int line = 0;                  // the `step:` line
    std::string title;
    std::string text;              // paragraphs separated by "\n"
    std::vector<Setting> settings; // in file order, each key once
    std::string predict;           // the question; empty: no prediction here
    std::optional<AnswerSpec> answer;
    bool expect_error = false;     // the step shows a launch the GPU would refuse, on purpose
    int expect_error_line = 0;
};

struct Lesson {
    std::string name;                // from the file name: 03-redundant-loads.lesson → redundant-loads
    std::filesystem::path file;
    std::string title;
    std::string summary;             // one line for the lesson list; may be empty
    std::vector<Step> steps;
};

// "FILE:LINE: what is wrong and what is allowed". Line 0: the file as a whole.
struct LessonError {
    std::filesystem::path file;
    int line = 0;
    std::string message;
    std::string text() const;
};

}  // namespace ts::lessons
