// The kernel ladder's lessons (09 register-tiles … 13 pipelining): the answers that compare a
// rung with the one below it, with tiled T=32 and with cuBLAS, computed from the committed
// H100 measurement and from the model; "not measured here" without a measurement; and a path
// that visits every rung in the theatre and asks about every rung's measured speed-up.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "lessons/lesson_catalog.hpp"
#include "lessons/lesson_parser.hpp"
#include "model/kernel_config.hpp"
#include "model/ladder_rungs.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lessons/lesson_answers.hpp"
#include "views/lessons/lesson_state.hpp"

namespace {

using ts::views::AppState;

const char* const kRungs[] = {"regtile-1d", "regtile-2d", "vectorized", "conflict-free",
                              "warptile",   "pipelined",  "tuned"};

// An app state with `kernel` chosen, as a lesson step sets it; the theatre's size, which the
// ladder's answers do not depend on.
void load_h100(AppState& state) {
    for (const auto& file : ts::views::committed_measurements()) {
        if (file.filename().string().find("h100") != std::string::npos) {
            EXPECT_TRUE(ts::views::load_measurement(state.lab.measured, file)) << state.lab.measured.load_error;
        }
    }
    EXPECT_TRUE(state.lab.measured.measurement) << "no H100 measurement in assets/measurements";
}

AppState state_with(const std::string& kernel, bool h100) {
    AppState state;
    if (h100) load_h100(state);
    state.problem.m = state.problem.n = 256;
    state.problem.k = 64;
    state.problem.dtype = ts::model::Dtype::Float32;
    state.kernel = ts::model::KernelConfig{*ts::model::parse_kernel(kernel), 32, 32, 32};
    return state;
}

ts::views::RevealedAnswer answer(const AppState& state, const std::string& word) {
    return ts::views::compute_answer(state, {word, std::nullopt, 1});
}

double median_ms(const AppState& state, const std::string& config) {
    const auto* point = ts::views::find_point(ts::views::lab_points(state.lab.measured), config, 4096, "float");
    EXPECT_NE(point, nullptr) << config << " at 4096³ is not in the H100 measurement";
    return point ? point->median_ms : 0.0;
}

TEST(LadderLesson, EveryRungHasACountedAndAMeasuredSpeedupFromTheH100Measurement) {
    std::string below = "tiled T=32";
    for (const char* rung : kRungs) {
        SCOPED_TRACE(rung);
        const AppState state = state_with(rung, true);
        ASSERT_TRUE(state.lab.measured.measurement);
        EXPECT_FALSE(ts::views::check_answer(state, {"rung-speedup-measured", std::nullopt, 1}));

        const auto counted = answer(state, "rung-speedup-predicted");
        ASSERT_TRUE(counted.value) << counted.how;
        EXPECT_TRUE(std::isfinite(*counted.value));
        EXPECT_GT(*counted.value, 0.5);
        EXPECT_LT(*counted.value, 5.0);
        EXPECT_TRUE(counted.how.starts_with("counted by the model, 4096³ float")) << counted.how;
        EXPECT_NE(counted.how.find("issue slots per FMA"), std::string::npos) << counted.how;

        const auto measured = answer(state, "rung-speedup-measured");
        ASSERT_TRUE(measured.value) << measured.how;
        EXPECT_NEAR(*measured.value, median_ms(state, below) / median_ms(state, rung), 1e-9);
        EXPECT_TRUE(measured.how.starts_with("measured on NVIDIA H100")) << measured.how;
        EXPECT_NE(measured.how.find("4096³ float"), std::string::npos) << measured.how;
        // The reveal puts the counts' prediction beside the measurement.
        EXPECT_NE(measured.shown.find(" (the counts: "), std::string::npos) << measured.shown;
        EXPECT_NE(measured.how.find("The model's counts at that size predicted"), std::string::npos) << measured.how;
        below = rung;
    }
}

// The tensor-core rungs: the measured speed-up over the rung below, in BF16, with the counts'
// traffic prediction beside it (mma-async keeps mma's tiles: 1×).
TEST(LadderLesson, TensorCoreRungsPutTheirTrafficPredictionBesideTheMeasurement) {
    for (const char* rung : {"mma", "mma-async", "wgmma", "warp-specialized", "persistent"}) {
        SCOPED_TRACE(rung);
        const AppState state = state_with(rung, true);
        const auto measured = answer(state, "tc-rung-speedup-measured");
        ASSERT_TRUE(measured.value) << measured.how;
        EXPECT_NE(measured.shown.find(" (the counts: "), std::string::npos) << measured.shown;
        EXPECT_NE(measured.how.find("were global traffic the limit"), std::string::npos) << measured.how;
        if (std::string(rung) == "mma-async") {
            EXPECT_NE(measured.shown.find("(the counts: 1.00×)"), std::string::npos) << measured.shown;
        }
    }
}

TEST(LadderLesson, CountsMatchTheKernelFilesComments) {
    // 06: 9 shared loads per 8 FMAs and 1/32 of a global load, against the tiled kernel's 2
    // and 1/16 (T = 32): (1 + 2 + 1/16) / (1 + 9/8 + 1/32).
    const auto regtile_1d = answer(state_with("regtile-1d", false), "rung-speedup-predicted");
    ASSERT_TRUE(regtile_1d.value);
    EXPECT_NEAR(*regtile_1d.value, (1 + 2 + 1.0 / 16) / (1 + 9.0 / 8 + 1.0 / 32), 1e-9);
    // 07: 16 shared loads per 64 FMAs, 1/64 of a global load.
    const auto regtile_2d = answer(state_with("regtile-2d", false), "rung-speedup-predicted");
    ASSERT_TRUE(regtile_2d.value);
    EXPECT_NEAR(*regtile_2d.value, (1 + 9.0 / 8 + 1.0 / 32) / (1 + 16.0 / 64 + 1.0 / 64), 1e-9);
    // 09 issues exactly 08's loads: the counts see no change, and say why.
    const auto conflict_free = answer(state_with("conflict-free", false), "rung-speedup-predicted");
    ASSERT_TRUE(conflict_free.value);
    EXPECT_DOUBLE_EQ(*conflict_free.value, 1.0);
    EXPECT_NE(conflict_free.how.find("what they leave out"), std::string::npos) << conflict_free.how;
}

TEST(LadderLesson, TheTunedRungAgainstCublasAndTheTiledKernel) {
    const AppState state = state_with("tuned", true);
    const auto percent = answer(state, "percent-of-cublas");
    ASSERT_TRUE(percent.value) << percent.how;
    EXPECT_NEAR(*percent.value, 100.0 * median_ms(state, "cublas") / median_ms(state, "tuned"), 1e-9);
    EXPECT_TRUE(percent.shown.ends_with(" %")) << percent.shown;
    const auto climb = answer(state, "speedup-over-tiled");
    ASSERT_TRUE(climb.value) << climb.how;
    EXPECT_NEAR(*climb.value, median_ms(state, "tiled T=32") / median_ms(state, "tuned"), 1e-9);
    EXPECT_GT(*climb.value, 2.0);
    // The tiled kernel itself, with T = 32, is on the ladder too: its share of cuBLAS.
    const auto tiled = answer(state_with("tiled", true), "percent-of-cublas");
    ASSERT_TRUE(tiled.value) << tiled.how;
    EXPECT_LT(*tiled.value, *percent.value);
}

TEST(LadderLesson, MeasuredAnswersSayNotMeasuredWithoutAMeasurement) {
    for (const char* word : {"rung-speedup-measured", "speedup-over-tiled", "percent-of-cublas"}) {
        SCOPED_TRACE(word);
        const auto revealed = answer(state_with("warptile", false), word);
        EXPECT_FALSE(revealed.value);
        EXPECT_EQ(revealed.shown, "not measured here");
        EXPECT_NE(revealed.how.find("no measurement of both"), std::string::npos) << revealed.how;
    }
    // The counts need no measurement.
    EXPECT_TRUE(answer(state_with("warptile", false), "rung-speedup-predicted").value);
}

TEST(LadderLesson, ARungAnswerNeedsARungAndSaysSoAtItsLine) {
    const auto naive = state_with("naive", true);
    const auto why = ts::views::check_answer(naive, {"rung-speedup-measured", std::nullopt, 1});
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("set kernel: to a rung above tiled T=32"), std::string::npos) << *why;
    EXPECT_FALSE(answer(naive, "rung-speedup-predicted").value);
    // The tiled kernel has no rung below it; only T = 32 is on the ladder.
    EXPECT_TRUE(ts::views::check_answer(state_with("tiled", true), {"rung-speedup-measured", std::nullopt, 1}));
    AppState tiled_16 = state_with("tiled", true);
    tiled_16.kernel.tile = 16;
    EXPECT_TRUE(ts::views::check_answer(tiled_16, {"percent-of-cublas", std::nullopt, 1}));

    auto parsed = ts::lessons::parse_lesson("title: T\nstep: S\nkernel: naive\ntext: t\npredict: How fast?\n"
                                            "answer: rung-speedup-measured\n",
                                            "bad.lesson", "bad");
    const auto& lesson = std::get<ts::lessons::Lesson>(parsed);
    AppState state;
    const auto error = ts::views::apply_lesson_step(state, lesson, 0);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->line, 6) << error->text();
}

TEST(LadderLesson, ThePathVisitsEveryRungInTheTheatreAndMeasuresEachStep) {
    const std::set<std::string> path = {"register-tiles", "wider-loads", "bank-conflicts", "warp-tiles", "pipelining"};
    std::set<std::string> in_theatre, measured, counted;
    int lessons_seen = 0;
    for (const auto& file : ts::lessons::lesson_files(ts::lessons::lessons_dir())) {
        auto loaded = ts::views::load_lesson(file);
        ASSERT_TRUE(std::holds_alternative<ts::lessons::Lesson>(loaded))
            << std::get<ts::lessons::LessonError>(loaded).text();
        const auto& lesson = std::get<ts::lessons::Lesson>(loaded);
        if (!path.count(lesson.name)) continue;
        ++lessons_seen;
        AppState state;
        load_h100(state);
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, i));
            const std::string kernel = ts::model::describe(state.kernel);
            if (state.view == ts::views::ViewId::Theatre) in_theatre.insert(kernel);
            const auto& step = lesson.steps[i];
            if (!step.answer) continue;
            if (step.answer->word == "rung-speedup-measured") measured.insert(kernel);
            if (step.answer->word == "rung-speedup-predicted") counted.insert(kernel);
            // Asked while the theatre shows the rung, and answered at 4096³ whatever its size.
            EXPECT_EQ(state.view, ts::views::ViewId::Theatre) << lesson.name << " step " << i + 1;
            EXPECT_NE(ts::views::compute_answer(state, *step.answer).how.find("4096³"), std::string::npos);
        }
    }
    EXPECT_EQ(lessons_seen, 5);
    for (const char* rung : kRungs) {
        EXPECT_TRUE(measured.count(rung)) << "no step asks for " << rung << "'s measured speed-up";
        if (std::string(rung) != "tuned") {  // the theatre plays the tuned rung as candidate 0, pipelined's shape
            EXPECT_TRUE(in_theatre.count(rung)) << rung << " is never shown in the theatre";
        }
    }
    EXPECT_GE(counted.size(), 4u);
}

}  // namespace
