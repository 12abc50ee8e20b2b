// A lesson in the app's state: steps inherit what the step before set, opening step S
// applies steps 1..S, moving steps resets the prediction, and the panel shows the step.
#include <gtest/gtest.h>

#include <string>

#include "lessons/lesson_parser.hpp"
#include "views/imgui_harness.hpp"
#include "views/lessons/lesson_answers.hpp"
#include "views/lessons/lesson_panel.hpp"
#include "views/lessons/lesson_state.hpp"

namespace {

using ts::views::AppState;

ts::lessons::Lesson parse(const std::string& text) {
    auto parsed = ts::lessons::parse_lesson(text, "test.lesson", "test");
    if (auto* why = std::get_if<ts::lessons::LessonError>(&parsed)) ADD_FAILURE() << why->text();
    return std::get<ts::lessons::Lesson>(parsed);
}

const char* const kLesson = R"(# a comment
title: Three steps
summary: for the tests

step: Sizes
m: 40
n: 28
k: 36
tile: 8   # a comment after a setting
text:
  First line of a paragraph
  continues it.

  A second paragraph.
step: Theatre
view: theatre
block: 3,2
phase: 4
text: The block over the edge.
predict: How often is A[0][0] loaded?
answer: loads-of-a 0,0
step: Back
view: stage
phase: none
block: none
k: 8
text: Smaller K.
)";

TEST(LessonProgress, TextBlocksJoinLinesAndKeepParagraphs) {
    const auto lesson = parse(kLesson);
    ASSERT_EQ(lesson.steps.size(), 3u);
    EXPECT_EQ(lesson.title, "Three steps");
    EXPECT_EQ(lesson.summary, "for the tests");
    EXPECT_EQ(lesson.steps[0].text, "First line of a paragraph continues it.\n\nA second paragraph.");
    EXPECT_EQ(lesson.steps[1].predict, "How often is A[0][0] loaded?");
}

TEST(LessonProgress, StepsInheritWhatTheyDoNotName) {
    const auto lesson = parse(kLesson);
    AppState state;
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, 1));
    EXPECT_EQ(state.problem.m, 40);  // from step 1
    EXPECT_EQ(state.kernel.tile, 8);
    EXPECT_EQ(state.view, ts::views::ViewId::Theatre);
    EXPECT_EQ(state.theatre.block.x, 3);
    EXPECT_EQ(state.theatre.block.y, 2);
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, 2));
    EXPECT_EQ(state.problem.k, 8);
    EXPECT_EQ(state.problem.n, 28);
    EXPECT_EQ(state.view, ts::views::ViewId::Stage);
    EXPECT_EQ(state.theatre.block.x, 0);  // "none": back to the theatre's default
}

TEST(LessonProgress, MovingStepsClampsAndResetsThePrediction) {
    AppState state;
    ASSERT_TRUE(ts::views::open_lesson(state, parse(kLesson), 1));
    EXPECT_EQ(state.lesson.step, 1);
    EXPECT_TRUE(state.lesson.focus_guess);
    state.lesson.revealed = true;
    ts::views::go_to_lesson_step(state, state.lesson.step + 1);
    EXPECT_EQ(state.lesson.step, 2);
    EXPECT_FALSE(state.lesson.revealed);
    ts::views::go_to_lesson_step(state, state.lesson.step + 1);  // PageDown on the last step stays
    EXPECT_EQ(state.lesson.step, 2);
    ts::views::go_to_lesson_step(state, -1);
    EXPECT_EQ(state.lesson.step, 0);
    ts::views::close_lesson(state.lesson);
    EXPECT_FALSE(state.lesson.lesson);
}

// The card's Next and Previous and the list's choice only ask: handle_lesson_keys, at the start of
// the next frame, applies the step to the window.
TEST(LessonProgress, TheKeysOfTheNextFrameTakeTheStepTheButtonsAskedFor) {
    AppState state;
    state.lesson.asked_lesson = parse(kLesson);
    ts::test::ImGuiHarness harness;
    harness.frame([&] { ts::views::handle_lesson_keys(state); });
    ASSERT_TRUE(state.lesson.lesson);
    EXPECT_FALSE(state.lesson.asked_lesson);
    EXPECT_EQ(state.lesson.step, 0);
    EXPECT_EQ(state.problem.m, 40);
    state.lesson.asked_step = 1;
    harness.frame([&] { ts::views::draw_lesson_panel(state.lesson, state.exporting, state); });
    EXPECT_EQ(state.lesson.step, 0) << "the card does not apply a step";
    EXPECT_EQ(state.view, ts::views::ViewId::Stage);
    harness.frame([&] { ts::views::handle_lesson_keys(state); });
    EXPECT_EQ(state.lesson.step, 1);
    EXPECT_FALSE(state.lesson.asked_step);
    EXPECT_EQ(state.view, ts::views::ViewId::Theatre);
    EXPECT_EQ(state.theatre.block.x, 3);
}

TEST(LessonProgress, AnswersComeFromTheModel) {
    const auto lesson = parse(kLesson);
    AppState state;
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, 1));
    const auto answer = ts::views::compute_answer(state, *lesson.steps[1].answer);
    // Tiled, N = 28, T = 8: one load per block along row 0 of C, ⌈28 / 8⌉ = 4.
    ASSERT_TRUE(answer.value);
    EXPECT_EQ(*answer.value, 4.0);
    EXPECT_EQ(answer.shown, "4");
    EXPECT_EQ(ts::views::judge_guess(4, 4), "exactly right");
    EXPECT_EQ(ts::views::judge_guess(16, 4), "4.0× too high");
    EXPECT_EQ(ts::views::judge_guess(3, 4), "25 % too low");
}

TEST(LessonProgress, MeasuredAnswersSayWhenNothingIsMeasured) {
    AppState state;  // no measurement loaded
    const auto answer = ts::views::compute_answer(state, {"measured-speedup", std::nullopt, 1});
    EXPECT_FALSE(answer.value);
    EXPECT_EQ(answer.shown, "not measured here");
}

TEST(LessonProgress, ThePanelShowsTheStepAndItsQuestion) {
    AppState state;
    ASSERT_TRUE(ts::views::open_lesson(state, parse(kLesson), 1));
    ts::test::ImGuiHarness harness;
    std::string text;
    for (int i = 0; i < 3; ++i) text = harness.frame([&] { ts::views::draw_lesson_panel(state.lesson, state.exporting, state); });
    EXPECT_NE(text.find("Lesson: Three steps"), std::string::npos) << text;
    EXPECT_NE(text.find("Lesson: Three steps · step 2 of 3\nTheatre"), std::string::npos) << text;
    EXPECT_NE(text.find("The block over the edge."), std::string::npos) << text;
    EXPECT_NE(text.find("How often is A[0][0] loaded?"), std::string::npos) << text;
    EXPECT_EQ(text.find("Answer:"), std::string::npos) << "revealed before Enter";
    state.lesson.revealed = true;
    text = harness.frame([&] { ts::views::draw_lesson_panel(state.lesson, state.exporting, state); });
    EXPECT_NE(text.find("Answer: 4"), std::string::npos) << text;
    EXPECT_NE(text.find("counted by the model"), std::string::npos) << text;
}

TEST(LessonProgress, ABrokenLessonIsShownInRedNotOpened) {
    AppState state;
    state.lesson.error = "bad.lesson:3: unknown key \"colour\"";
    ts::test::ImGuiHarness harness;
    const std::string text = harness.frame([&] { ts::views::draw_lesson_panel(state.lesson, state.exporting, state); });
    EXPECT_NE(text.find("Could not open the lesson: bad.lesson:3: unknown key"), std::string::npos) << text;
}

}  // namespace
