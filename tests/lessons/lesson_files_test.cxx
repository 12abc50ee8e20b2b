// The shipped lessons: each parses, each step applies to the app's state without a launch
// error (unless it says it shows one, and then the app really reports it), the names are
// unique and in teaching order, and --list-lessons prints them without a display.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "lessons/lesson_catalog.hpp"
#include "support/run_command.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lessons/lesson_answers.hpp"
#include "views/lessons/lesson_state.hpp"

namespace {

using ts::views::AppState;

std::vector<ts::lessons::Lesson> shipped_lessons() {
    std::vector<ts::lessons::Lesson> lessons;
    for (const auto& file : ts::lessons::lesson_files(ts::lessons::lessons_dir())) {
        auto loaded = ts::views::load_lesson(file);
        if (auto* why = std::get_if<ts::lessons::LessonError>(&loaded)) {
            ADD_FAILURE() << why->text();
            continue;
        }
        lessons.push_back(std::get<ts::lessons::Lesson>(loaded));
    }
    return lessons;
}

// The order issue #6 asks for, then the kernel ladder one idea at a time (issue #13), then
// the tiled kernel broken on purpose (issue #14), the tensor cores and precision, then FP8 and
// energy (issue #47).
const std::vector<std::string> kTeachingOrder = {
    "row-major",       "naive-kernel", "redundant-loads", "tiling",          "boundaries",
    "coalescing",      "tile-width",   "measured-speedup", "register-tiles", "wider-loads",
    "bank-conflicts",  "warp-tiles",   "pipelining",       "breaking-tiled",  "tensor-cores",
    "hopper-tensor-cores", "precision", "eight-bits", "power-and-clocks",
};

// Answers that only a run of an experiment can give (stray-writes is the model's).
bool needs_an_experiment_run(const std::string& word) {
    return word == "experiment-wrong-runs" || word == "experiment-slowdown";
}

// Answers from figures only `bench` measures (FP8, energy), which the committed measurements may
// not hold: without them the answer says which command measures them.
bool needs_a_bench_run(const std::string& word) {
    return word == "fp8-speedup-over-bf16" || word == "fp8-error-vs-fp64" || word == "tc-joules-vs-cublas" ||
           word == "tc-avg-watts" || word == "tc-clock-vs-cublas";
}

TEST(LessonFiles, AreInTeachingOrderWithUniqueNames) {
    std::vector<std::string> names;
    for (const auto& entry : ts::views::list_lessons()) {
        EXPECT_TRUE(entry.error.empty()) << entry.error;
        names.push_back(entry.name);
    }
    EXPECT_EQ(names, kTeachingOrder);
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << "two lessons share a name";
}

TEST(LessonFiles, EveryStepAppliesAndShowsALaunchErrorOnlyWhenItSaysSo) {
    for (const auto& lesson : shipped_lessons()) {
        ASSERT_FALSE(lesson.steps.empty()) << lesson.name;
        AppState state;
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            const auto& step = lesson.steps[i];
            SCOPED_TRACE(lesson.name + " step " + std::to_string(i + 1) + ": " + step.title);
            const auto why = ts::views::apply_lesson_step(state, lesson, i);
            ASSERT_FALSE(why) << why->text();
            EXPECT_EQ(ts::views::launch_error(state).has_value(), step.expect_error);
            EXPECT_FALSE(step.text.empty());
        }
    }
}

TEST(LessonFiles, PredictionsRevealComputedAnswers) {
    // With the committed measurement loaded, as the app loads it without a GPU, every answer
    // has a value: counted by the model or measured. An experiment's runs are there only when
    // committed (assets/experiments) or run on a GPU; without them the answer says so.
    AppState state;
    const auto measurements = ts::views::committed_measurements();
    ASSERT_FALSE(measurements.empty());
    ASSERT_TRUE(ts::views::load_measurement(state.lab.measured, measurements.back()));
    int predictions = 0;
    std::set<std::string> kinds;
    for (const auto& lesson : shipped_lessons())
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            const auto& step = lesson.steps[i];
            if (step.predict.empty()) continue;
            ++predictions;
            ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, i));
            const auto answer = ts::views::compute_answer(state, *step.answer);
            SCOPED_TRACE(lesson.name + " step " + std::to_string(i + 1));
            kinds.insert(step.answer->word);
            if (needs_an_experiment_run(step.answer->word) && !answer.value) {
                EXPECT_EQ(answer.shown, "not run here");
                EXPECT_NE(answer.how.find("run it in the Experiments view on a GPU"), std::string::npos) << answer.how;
                continue;
            }
            if (needs_a_bench_run(step.answer->word) && !answer.value) {
                EXPECT_EQ(answer.shown, "not measured here");
                EXPECT_NE(answer.how.find("run `tilescope-cli bench "), std::string::npos) << answer.how;
                EXPECT_NE(answer.how.find("tilescope --load "), std::string::npos) << answer.how;
                continue;
            }
            EXPECT_TRUE(answer.value.has_value()) << answer.how;
            EXPECT_TRUE(answer.how.starts_with("counted by the model") || answer.how.starts_with("computed by the model") ||
                        answer.how.starts_with("measured"))
                << answer.how;
        }
    EXPECT_GE(predictions, 4);
    for (const char* kind : {"loads-of-a", "reuse-factor", "warp-sectors-x-as-row", "coalescing-penalty",
                             "measured-speedup", "rung-speedup-predicted", "rung-speedup-measured",
                             "speedup-over-tiled", "percent-of-cublas", "experiment-wrong-runs", "stray-writes",
                             "experiment-slowdown", "tc-rung-speedup-measured", "tc-speedup-over-fp32",
                             "tc-percent-of-cublas", "digits-fp32", "digits-tf32", "digits-fp16", "digits-bf16",
                             "check-error", "e4m3-significant-bits", "fp8-speedup-over-bf16", "fp8-error-vs-fp64",
                             "fp8-accumulator-error", "fp8-promoted-error", "tc-joules-vs-cublas", "tc-avg-watts",
                             "tc-clock-vs-cublas"})
        EXPECT_TRUE(kinds.count(kind)) << "no lesson asks for " << kind;
}

TEST(LessonFiles, ListLessonsNeedsNoDisplay) {
    const auto outcome = ts::testing_support::run_command("env -u DISPLAY -u WAYLAND_DISPLAY " TILESCOPE_PATH
                                                          " --list-lessons");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    std::string expected;
    for (const auto& name : kTeachingOrder) expected += name + "\n";
    EXPECT_EQ(outcome.output, expected);
}

TEST(LessonFiles, UnknownLessonListsTheNamesAndExits2) {
    const auto outcome = ts::testing_support::run_command("env -u DISPLAY " TILESCOPE_PATH " --lesson no-such-lesson");
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_NE(outcome.output.find("no lesson called \"no-such-lesson\""), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("  boundaries\n"), std::string::npos) << outcome.output;
}

TEST(LessonFiles, StepOutOfRangeExits2) {
    const auto outcome = ts::testing_support::run_command("env -u DISPLAY " TILESCOPE_PATH " --lesson tiling --step 99");
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_NE(outcome.output.find("--step 99: the lesson tiling has steps 1 to"), std::string::npos)
        << outcome.output;
}

}  // namespace
