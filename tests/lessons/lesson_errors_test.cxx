// Mistakes in a lesson file: each is reported as FILE:LINE: followed by what is wrong and
// what is allowed, whether the parser finds it or applying the step to the app does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "views/lessons/lesson_state.hpp"

namespace {

// A step that is fine on its own, to put before or after the line under test.
constexpr const char* kHeader = "title: A test lesson\n";

// Writes `text` to a file of its own and loads it; the error's full text, or "" if none.
std::string error_of(const std::string& text) {
    const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
    const auto file = std::filesystem::temp_directory_path() / (std::string("tilescope-") + test->name() + ".lesson");
    std::ofstream(file) << text;
    auto loaded = ts::views::load_lesson(file);
    std::filesystem::remove(file);
    if (auto* why = std::get_if<ts::lessons::LessonError>(&loaded)) return why->text();
    return "";
}

// The error must begin FILE:LINE: and contain `words`.
void expect_error(const std::string& text, int line, const std::string& words) {
    const std::string error = error_of(text);
    const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
    const std::string prefix = (std::filesystem::temp_directory_path() /
                                (std::string("tilescope-") + test->name() + ".lesson")).string() +
                               ":" + std::to_string(line) + ": ";
    EXPECT_TRUE(error.starts_with(prefix)) << "expected the prefix " << prefix << "\ngot: " << error;
    EXPECT_NE(error.find(words), std::string::npos) << error;
}

TEST(LessonErrors, AValidLessonHasNone) {
    EXPECT_EQ(error_of(std::string(kHeader) + "step: One\nm: 8\ntext: Hello.\n"), "");
}

TEST(LessonErrors, UnknownKeyNamesTheKeysAllowed) {
    expect_error(std::string(kHeader) + "step: One\ntext: Hi.\ncolour: red\n", 4, "unknown key \"colour\"; a step may hold:");
}

TEST(LessonErrors, DuplicateKeyInAStep) {
    expect_error(std::string(kHeader) + "step: One\nm: 8\ntext: Hi.\nm: 9\n", 5, "m is set twice in this step (first on line 3)");
}

TEST(LessonErrors, BadNumber) {
    expect_error(std::string(kHeader) + "step: One\nn: twelve\ntext: Hi.\n", 3, "n expects a whole number from 1 to 16384");
}

TEST(LessonErrors, ValueOutOfRange) {
    expect_error(std::string(kHeader) + "step: One\ntext: Hi.\ntile: 65\n", 4, "tile must be from 1 to 64, got 65");
}

TEST(LessonErrors, BlockOutsideTheGrid) {
    // The first step's sizes are the window's defaults: 12×16 with T = 4, 4 × 3 blocks.
    expect_error(std::string(kHeader) + "step: One\nview: theatre\nblock: 4,0\ntext: Hi.\n", 4,
                 "block 4,0 is outside the grid of 4 × 3 blocks");
}

TEST(LessonErrors, PhasePastTheLast) {
    expect_error(std::string(kHeader) + "step: One\nview: theatre\nk: 8\nphase: 2\ntext: Hi.\n", 5,
                 "phase 2 does not exist: K = 8 with T = 4 has phases 0 to 1");
}

TEST(LessonErrors, ALaterSizeThatBreaksAnInheritedBlockIsBlamedOnItsOwnLine) {
    expect_error(std::string(kHeader) +
                     "step: One\nview: theatre\nblock: 3,2\ntext: Hi.\n"
                     "step: Two\nn: 8\ntext: Smaller.\n",
                 7, "block 3,2 is outside the grid of 2 × 3 blocks");
}

TEST(LessonErrors, CellOutsideC) {
    expect_error(std::string(kHeader) + "step: One\nselect: 12,0\ntext: Hi.\n", 3,
                 "select 12,0 is outside C, which has 12 rows and 16 columns");
}

TEST(LessonErrors, UnknownWords) {
    expect_error(std::string(kHeader) + "step: One\nview: kitchen\ntext: Hi.\n", 3,
                 "view must be stage, latency, tuning, roofline, theatre, ladder or experiment, got \"kitchen\"");
    expect_error(std::string(kHeader) + "step: One\nexperiment: no-sync\ntext: Hi.\n", 3,
                 "experiment must be one of missing-first-sync, missing-second-sync, no-bounds-check, bank-conflicts, "
                 "accumulator or none, got \"no-sync\"");
    expect_error(std::string(kHeader) + "step: One\nkernel: fast\ntext: Hi.\n", 3, "kernel must be one of naive");
    expect_error(std::string(kHeader) + "step: One\npanel: sources\ntext: Hi.\n", 3,
                 "panel must be source, thread");
    expect_error(std::string(kHeader) + "step: One\nsub-step: lod\ntext: Hi.\n", 3,
                 "sub-step must be load, sync1, compute, sync2, store or none");
    expect_error(std::string(kHeader) + "step: One\ntext: Hi.\npredict: How many?\nanswer: 16\n", 5,
                 "answer must be one of offset-of-a ROW,COL");
}

TEST(LessonErrors, MissingTitleTextOrSteps) {
    expect_error("step: One\ntext: Hi.\n", 1, "the lesson has no title");
    expect_error(std::string(kHeader) + "\nstep: One\nm: 4\nstep: Two\ntext: Hi.\n", 3, "step 1 (\"One\") has no text");
    expect_error(std::string(kHeader) + "# nothing else\n", 2, "the lesson has no steps");
    expect_error(std::string(kHeader) + "step:\ntext: Hi.\n", 2, "step needs a title");
}

TEST(LessonErrors, PredictionsNeedAnAnswerAndAnswersAQuestion) {
    expect_error(std::string(kHeader) + "step: One\ntext: Hi.\npredict: How many?\n", 2, "asks to predict but has no `answer:`");
    expect_error(std::string(kHeader) + "step: One\ntext: Hi.\nanswer: reuse-factor\n", 4, "answer needs a question");
    expect_error(std::string(kHeader) + "step: One\ntext: Hi.\npredict: Where?\nanswer: offset-of-a 12,0\n", 5,
                 "A[12][0] is outside A, which has 12 rows and 8 columns");
}

TEST(LessonErrors, ExpectErrorMustMatchWhatTheAppReports) {
    expect_error(std::string(kHeader) + "step: One\ntile: 64\ntext: Too big.\n", 2,
                 "this step's launch would fail (tile width T = 64 means 64 × 64 = 4096 threads per block");
    expect_error(std::string(kHeader) + "step: One\ntile: 32\nexpect-error: yes\ntext: Fine.\n", 4,
                 "expect-error: yes, but this step's launch is fine");
    EXPECT_EQ(error_of(std::string(kHeader) + "step: One\ntile: 64\nexpect-error: yes\ntext: Too big.\n"), "");
}

TEST(LessonErrors, LayoutMistakes) {
    expect_error(std::string(kHeader) + "  stray indented line\n", 2, "an indented line continues a text");
    expect_error(std::string(kHeader) + "step: One\njust words\n", 3, "expected `key: value`");
    expect_error(std::string(kHeader) + "m: 4\nstep: One\ntext: Hi.\n", 2, "m belongs to a step");
}

TEST(LessonErrors, AMissingFileSaysSo) {
    auto loaded = ts::views::load_lesson("/nonexistent/dir/01-none.lesson");
    ASSERT_TRUE(std::holds_alternative<ts::lessons::LessonError>(loaded));
    EXPECT_EQ(std::get<ts::lessons::LessonError>(loaded).text(), "/nonexistent/dir/01-none.lesson: cannot be read (does it exist?)");
}

}  // namespace
