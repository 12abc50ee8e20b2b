// The lesson "Breaking the tiled kernel" (issue #14): its steps open the Experiments view, the
// theatre and the roofline as `experiment:` says, and its answers come from the experiments'
// runs (fake outcomes here, as a GPU or a measurement would give them) or from the model, never
// from the lesson file.
#include <gtest/gtest.h>

#include <algorithm>

#include <string>

#include "lessons/lesson_catalog.hpp"
#include "model/experiment.hpp"
#include "model/format.hpp"
#include "views/experiments/experiment_state.hpp"
#include "views/lessons/lesson_answers.hpp"
#include "views/lessons/lesson_state.hpp"

namespace {

using ts::model::Experiment;
using ts::views::AppState;
using ts::views::ViewId;

ts::lessons::Lesson breaking_lesson() {
    for (const auto& file : ts::lessons::lesson_files(ts::lessons::lessons_dir()))
        if (ts::lessons::lesson_name(file) == "breaking-tiled") {
            auto loaded = ts::views::load_lesson(file);
            if (auto* why = std::get_if<ts::lessons::LessonError>(&loaded)) ADD_FAILURE() << why->text();
            else return std::get<ts::lessons::Lesson>(loaded);
        }
    ADD_FAILURE() << "no lesson breaking-tiled in " << ts::lessons::lessons_dir();
    return {};
}

// The step whose answer is `word` (the first one from `from`), as an index.
int step_answering(const ts::lessons::Lesson& lesson, const std::string& word, int from = 0) {
    for (int i = from; i < static_cast<int>(lesson.steps.size()); ++i)
        if (lesson.steps[i].answer && lesson.steps[i].answer->word == word) return i;
    ADD_FAILURE() << "no step answers " << word;
    return 0;
}

ts::views::ExperimentOutcome outcome(Experiment experiment, const ts::model::ExperimentCase& c, int runs, int wrong) {
    ts::views::ExperimentOutcome o;
    o.c = c;
    ts::model::ExperimentRun run;
    run.experiment = experiment;
    run.c = c;
    run.runs = runs;
    run.wrong_runs = wrong;
    o.run = run;
    o.source = "measured on Fake GPU, this session";
    return o;
}

ts::views::RevealedAnswer reveal(const AppState& state, const ts::lessons::Lesson& lesson, int step) {
    return ts::views::compute_answer(state, *lesson.steps[step].answer);
}

TEST(BreakingLesson, StepsOpenTheExperimentsTheTheatreAndTheRoofline) {
    const auto lesson = breaking_lesson();
    ASSERT_GE(lesson.steps.size(), 8u);
    AppState state;
    std::vector<ViewId> views;
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
        SCOPED_TRACE(lesson.steps[i].title);
        ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, i));
        views.push_back(state.view);
    }
    EXPECT_EQ(views.front(), ViewId::Theatre);
    EXPECT_NE(std::find(views.begin(), views.end(), ViewId::Experiment), views.end());
    EXPECT_EQ(views.back(), ViewId::Roofline);
    // The last step's counters are the bank-conflict step's kernel.
    EXPECT_EQ(ts::model::describe(state.lab.panels.counters_kernel), "conflict-free");

    const int second = step_answering(lesson, "experiment-wrong-runs");
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, second));
    EXPECT_EQ(state.view, ViewId::Experiment);
    EXPECT_EQ(state.experiments.experiment, Experiment::MissingSecondSync);
    const int first = step_answering(lesson, "experiment-wrong-runs", second + 1);
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, first));
    EXPECT_EQ(state.experiments.experiment, Experiment::MissingFirstSync);
}

TEST(BreakingLesson, WrongRunsComeFromTheRunsAndNotBefore) {
    const auto lesson = breaking_lesson();
    AppState state;
    const int step = step_answering(lesson, "experiment-wrong-runs");
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, step));
    // Nothing run yet (whatever is recorded is replaced below by this session's runs).
    auto& page = ts::views::page_of(state.experiments, Experiment::MissingSecondSync);
    page.outcomes.clear();
    EXPECT_FALSE(reveal(state, lesson, step).value);
    EXPECT_EQ(reveal(state, lesson, step).shown, "not run here");

    const auto cases = ts::model::default_experiment_cases(Experiment::MissingSecondSync);
    ASSERT_GE(cases.size(), 2u);
    ts::views::keep_outcome(state.experiments, Experiment::MissingSecondSync,
                            outcome(Experiment::MissingSecondSync, cases[0], 50, 10));
    ts::views::keep_outcome(state.experiments, Experiment::MissingSecondSync,
                            outcome(Experiment::MissingSecondSync, cases[1], 50, 40));
    const auto answer = reveal(state, lesson, step);
    ASSERT_TRUE(answer.value);
    EXPECT_DOUBLE_EQ(*answer.value, 50.0);  // 50 wrong of 100
    EXPECT_EQ(answer.shown, "50 % of the runs (50 of 100)");
    EXPECT_TRUE(answer.how.starts_with("measured")) << answer.how;
    EXPECT_NE(answer.how.find("measured on Fake GPU, this session"), std::string::npos) << answer.how;
    EXPECT_NE(answer.how.find("10 of 50 at 64×64×64, T = 16"), std::string::npos) << answer.how;
}

TEST(BreakingLesson, StrayWritesAreTheModelsWithTheGuardZonesCountBeside) {
    const auto lesson = breaking_lesson();
    AppState state;
    const int step = step_answering(lesson, "stray-writes");
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, step));
    EXPECT_EQ(state.problem.m, 100);
    EXPECT_EQ(state.kernel.tile, 16);
    const ts::model::ExperimentCase c{state.problem, ts::model::experiment_kernel(Experiment::NoBoundsCheck, 16)};
    const auto predicted = ts::model::predicted_stray_writes(c);
    ASSERT_GT(predicted, 0);
    auto answer = reveal(state, lesson, step);
    ASSERT_TRUE(answer.value);
    EXPECT_DOUBLE_EQ(*answer.value, static_cast<double>(predicted));
    EXPECT_TRUE(answer.how.starts_with("counted by the model")) << answer.how;

    auto run = outcome(Experiment::NoBoundsCheck, c, 10, 10);
    run.run->stray_writes = 10 * predicted;
    ts::views::keep_outcome(state.experiments, Experiment::NoBoundsCheck, run);
    answer = reveal(state, lesson, step);
    EXPECT_NE(answer.how.find(ts::model::format_text("{} per run", predicted)), std::string::npos) << answer.how;
}

TEST(BreakingLesson, TheSlowDownIsMeasured) {
    const auto lesson = breaking_lesson();
    AppState state;
    const int step = step_answering(lesson, "experiment-slowdown");
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, step));
    EXPECT_EQ(state.experiments.experiment, Experiment::BankConflicts);
    ts::views::page_of(state.experiments, Experiment::BankConflicts).outcomes.clear();
    EXPECT_FALSE(reveal(state, lesson, step).value);
    const auto cases = ts::model::default_experiment_cases(Experiment::BankConflicts);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        auto timed = outcome(Experiment::BankConflicts, cases[i], 20, 0);
        timed.run->real_ms = 1.0 + static_cast<double>(i);
        timed.run->broken_ms = timed.run->real_ms * (i + 1 == cases.size() ? 1.08 : 1.5);
        ts::views::keep_outcome(state.experiments, Experiment::BankConflicts, timed);
    }
    const auto answer = reveal(state, lesson, step);
    ASSERT_TRUE(answer.value);
    EXPECT_NEAR(*answer.value, 8.0, 1e-9);  // the largest case's
    EXPECT_EQ(answer.shown, "8.0 % slower");
}

TEST(BreakingLesson, TheTheatreShowsARecordedStaleReadAndLetsItGoAfter) {
    const auto lesson = breaking_lesson();
    AppState state;
    int theatre_step = -1;
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i)
        if (lesson.steps[i].title.find("stale read") != std::string::npos) theatre_step = i;
    ASSERT_GE(theatre_step, 0);
    // A stale read as an instrumented run reports it, in block (0, 0) phase 0.
    const auto c = ts::model::default_experiment_cases(Experiment::MissingSecondSync).front();
    auto o = outcome(Experiment::MissingSecondSync, c, 50, 5);
    ts::model::StaleReadReport report;
    report.experiment = Experiment::MissingSecondSync;
    report.c = c;
    report.launches = 1;
    report.reads_checked = 1000;
    report.stale_reads = 1;
    ts::model::StaleRead read;
    read.phase = 1;
    read.operand = 'B';
    read.slot_row = 2;
    read.slot_col = 3;
    read.reader_x = 3;
    read.reader_y = 4;
    read.value_phase = 2;
    read.writer_x = 3;
    read.writer_y = 2;
    report.reads = {read};
    o.stale = report;
    ts::views::keep_outcome(state.experiments, Experiment::MissingSecondSync, o);
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, theatre_step));
    EXPECT_EQ(state.view, ViewId::Theatre);
    EXPECT_TRUE(state.experiments.race) << "the theatre is not on the stale read";
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, theatre_step + 1));
    EXPECT_FALSE(state.experiments.race) << "the next step still shows the stale read";
}

}  // namespace
