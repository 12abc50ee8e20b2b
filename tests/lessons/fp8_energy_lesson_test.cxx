// Lessons 18 (eight-bits) and 19 (power-and-clocks): each new answer worked out from a fixture
// measurement (cuBLAS in bf16 and fp8, tc-tuned with energy), from the model where it knows, and
// "not measured here" with the command to run where nothing is loaded; the `metric:` and
// `experiment: accumulator` keys set what --bars and --experiment set.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "lessons/lesson_catalog.hpp"
#include "lessons/lesson_parser.hpp"
#include "model/accumulator.hpp"
#include "model/kernel_config.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lessons/lesson_answers.hpp"
#include "views/lessons/lesson_state.hpp"

// Named, so that the unity build's other files' helpers (answer, state_with) do not clash.
namespace fp8_energy_lesson {
namespace {

using ts::views::AppState;

constexpr const char* kLabel = "measured on NVIDIA H100 80GB HBM3, fixture";

ts::record::Point point(const std::string& config, const std::string& dtype, std::int64_t size, double median_ms) {
    ts::record::Point p;
    p.kernel = config;
    p.config = config;
    p.m = p.n = p.k = size;
    p.dtype = dtype;
    p.ok = true;
    p.median_ms = median_ms;
    return p;
}

ts::record::Point with_energy(ts::record::Point p, double joules, double watts, int clock_mhz) {
    p.joules_per_matmul = joules;
    p.avg_watts = watts;
    p.energy_sm_clock_mhz = clock_mhz;
    return p;
}

ts::record::Point fp8(std::int64_t size, double median_ms, const char* scaling, double error_max, double error_rms) {
    ts::record::Point p = point("cublas", "fp8", size, median_ms);
    p.fp8_scaling = scaling;
    p.quantize_ms = 0.05;
    p.checked = true;
    p.error_vs_fp64_max = error_max;
    p.error_vs_fp64_rms = error_rms;
    return p;
}

// cuBLAS BF16 and FP8 at 2048³ and 4096³ (FP8 per tensor and per block at 4096³), tc-tuned and
// cuBLAS with energy at 4096³, and a block-scaled point alone at 8192³ that no answer may use.
AppState fixture_state() {
    AppState state;
    ts::record::Measurement m;
    m.points = {
        point("cublas", "bf16", 2048, 0.040),
        fp8(2048, 0.030, "tensor", 0.07, 0.02),
        with_energy(point("cublas", "bf16", 4096, 0.200), 0.140, 700.0, 1700),
        fp8(4096, 0.125, "tensor", 0.08, 0.021),
        fp8(4096, 0.150, "block", 0.05, 0.015),
        fp8(8192, 0.900, "block", 0.06, 0.016),
        with_energy(point("tc-tuned", "bf16", 4096, 0.202), 0.147, 690.0, 1615),
    };
    state.lab.measured.measurement = m;
    state.lab.measured.measurement_label = kLabel;
    return state;
}

ts::views::RevealedAnswer answer(const AppState& state, const std::string& word) {
    return ts::views::compute_answer(state, {word, std::nullopt, 1});
}

void set_kernel(AppState& state, const char* kernel, ts::model::Dtype dtype) {
    state.kernel = ts::model::KernelConfig{*ts::model::parse_kernel(kernel), 32, 32, 32};
    state.problem.dtype = dtype;
}

TEST(EightBitsLesson, E4m3KeepsFourSignificantBitsCountedFromTheDecoder) {
    const auto bits = answer(AppState{}, "e4m3-significant-bits");
    ASSERT_TRUE(bits.value) << bits.how;
    EXPECT_EQ(*bits.value, 4.0);
    EXPECT_EQ(bits.shown, "4 bits");
    EXPECT_TRUE(bits.how.starts_with("counted by the model")) << bits.how;
    EXPECT_NE(bits.how.find("1.125"), std::string::npos) << bits.how;
    EXPECT_NE(bits.how.find("448"), std::string::npos) << bits.how;
}

TEST(EightBitsLesson, SpeedAndErrorComeFromTheTensorScaledFp8PointAtTheLargestSize) {
    AppState state = fixture_state();
    set_kernel(state, "cublas", ts::model::Dtype::Fp8E4M3);
    const auto speed = answer(state, "fp8-speedup-over-bf16");
    ASSERT_TRUE(speed.value) << speed.how;
    EXPECT_NEAR(*speed.value, 0.200 / 0.125, 1e-12);  // 4096³: the block-scaled 8192³ has no BF16 beside it
    EXPECT_EQ(speed.shown, "1.60×");
    EXPECT_TRUE(speed.how.starts_with(kLabel)) << speed.how;
    EXPECT_NE(speed.how.find("4096³"), std::string::npos) << speed.how;
    EXPECT_NE(speed.how.find("timed apart"), std::string::npos) << speed.how;

    const auto error = answer(state, "fp8-error-vs-fp64");
    ASSERT_TRUE(error.value) << error.how;
    EXPECT_DOUBLE_EQ(*error.value, 0.08);
    EXPECT_EQ(error.shown, "0.08");
    EXPECT_TRUE(error.how.starts_with(kLabel)) << error.how;
    EXPECT_NE(error.how.find("‖C − exact‖ ÷ ‖exact‖, was off by 0.021"), std::string::npos) << error.how;
    EXPECT_NE(error.how.find("With block scales"), std::string::npos) << error.how;
    EXPECT_NE(error.how.find("was 0.05"), std::string::npos) << error.how;
}

TEST(EightBitsLesson, MeasuredAnswersSayWhatToRunWithoutAMeasurement) {
    AppState state;
    set_kernel(state, "cublas", ts::model::Dtype::Fp8E4M3);
    for (const char* word : {"fp8-speedup-over-bf16", "fp8-error-vs-fp64"}) {
        SCOPED_TRACE(word);
        const auto revealed = answer(state, word);
        EXPECT_FALSE(revealed.value);
        EXPECT_EQ(revealed.shown, "not measured here");
        EXPECT_NE(revealed.how.find("tilescope-cli bench --kernel cublas --dtype bf16,fp8"), std::string::npos)
            << revealed.how;
    }
}

TEST(EightBitsLesson, TheAccumulatorsErrorIsTheModelsUntilTheGpuRuns) {
    AppState state;
    const auto never = answer(state, "fp8-accumulator-error");
    const auto promoted = answer(state, "fp8-promoted-error");
    ASSERT_TRUE(never.value && promoted.value);
    EXPECT_TRUE(never.how.starts_with("computed by the model")) << never.how;
    // docs/notes/accumulator.md: the H100 measured 7.6e-2 never promoted and 1.9e-4 promoted at
    // K = 4096, and the model with 13 truncated bits matched it to two digits.
    EXPECT_NEAR(*never.value, 7.6, 0.2);
    EXPECT_LT(*promoted.value, 0.05);
    EXPECT_GT(*never.value, 100.0 * *promoted.value);
    EXPECT_TRUE(never.shown.ends_with(" %")) << never.shown;

    // A run of the experiment this session answers instead.
    ts::model::AccumulatorReport report;
    report.device = "NVIDIA H200";
    ts::model::AccumulatorTypeReport fp8;
    ts::model::GrowthPoint at_4096;
    at_4096.k = 4096;
    at_4096.never_max = 0.05;
    at_4096.promoted_max = 0.0002;
    fp8.growth = {at_4096};
    report.types = {fp8};
    state.experiments.accumulator.report = report;
    const auto measured = answer(state, "fp8-accumulator-error");
    ASSERT_TRUE(measured.value);
    EXPECT_DOUBLE_EQ(*measured.value, 5.0);
    EXPECT_TRUE(measured.how.starts_with("measured on NVIDIA H200 this session")) << measured.how;
    const auto measured_promoted = answer(state, "fp8-promoted-error");
    ASSERT_TRUE(measured_promoted.value);
    EXPECT_DOUBLE_EQ(*measured_promoted.value, 0.02);
}

TEST(PowerLesson, JoulesWattsAndClockOfTheStepsRungAgainstCublas) {
    AppState state = fixture_state();
    set_kernel(state, "tc-tuned", ts::model::Dtype::BFloat16);
    const auto joules = answer(state, "tc-joules-vs-cublas");
    ASSERT_TRUE(joules.value) << joules.how;
    EXPECT_NEAR(*joules.value, 0.147 / 0.140, 1e-12);
    EXPECT_EQ(joules.shown, "1.05×");
    EXPECT_TRUE(joules.how.starts_with(kLabel)) << joules.how;
    EXPECT_NE(joules.how.find("tc-tuned 147 mJ per matmul at 690 W, SM clock 1615 MHz"), std::string::npos)
        << joules.how;
    EXPECT_NE(joules.how.find("cuBLAS 140 mJ per matmul at 700 W, SM clock 1700 MHz"), std::string::npos)
        << joules.how;

    const auto watts = answer(state, "tc-avg-watts");
    ASSERT_TRUE(watts.value) << watts.how;
    EXPECT_DOUBLE_EQ(*watts.value, 690.0);
    EXPECT_EQ(watts.shown, "690 W");
    EXPECT_NE(watts.how.find("Power is energy over time"), std::string::npos) << watts.how;

    const auto clock = answer(state, "tc-clock-vs-cublas");
    ASSERT_TRUE(clock.value) << clock.how;
    EXPECT_NEAR(*clock.value, 100.0 * 1615 / 1700, 1e-9);
    EXPECT_EQ(clock.shown, "95.0 %");
}

TEST(PowerLesson, EnergyAnswersNeedATensorCoreRungAndAnEnergyMeasurement) {
    AppState state = fixture_state();
    set_kernel(state, "tiled", ts::model::Dtype::Float32);
    const auto why = ts::views::check_answer(state, {"tc-joules-vs-cublas", std::nullopt, 1});
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("set kernel: to a tensor-core rung"), std::string::npos) << *why;
    EXPECT_FALSE(answer(state, "tc-joules-vs-cublas").value);

    // persistent has no energy in the fixture: the answer says what to run.
    set_kernel(state, "persistent", ts::model::Dtype::BFloat16);
    for (const char* word : {"tc-joules-vs-cublas", "tc-avg-watts", "tc-clock-vs-cublas"}) {
        SCOPED_TRACE(word);
        const auto revealed = answer(state, word);
        EXPECT_FALSE(revealed.value);
        EXPECT_EQ(revealed.shown, "not measured here");
        EXPECT_NE(revealed.how.find("tilescope-cli bench --kernel persistent,cublas --dtype bf16"), std::string::npos)
            << revealed.how;
    }
}

ts::lessons::Lesson parsed(const std::string& text) {
    auto result = ts::lessons::parse_lesson(text, "test.lesson", "test");
    EXPECT_TRUE(std::holds_alternative<ts::lessons::Lesson>(result))
        << std::get<ts::lessons::LessonError>(result).text();
    return std::get<ts::lessons::Lesson>(result);
}

TEST(PowerLesson, MetricSetsTheBarsAndAStepWithoutItKeepsTheOneBefore) {
    const auto lesson = parsed("title: T\n"
                               "step: One\nview: ladder\ntext: Speed.\n"
                               "step: Two\nmetric: energy\ntext: Joules.\n"
                               "step: Three\ntext: Still joules.\n"
                               "step: Four\nmetric: speed\ntext: Time again.\n");
    AppState state;
    const ts::views::LadderMetric expected[] = {ts::views::LadderMetric::Speed, ts::views::LadderMetric::Energy,
                                                ts::views::LadderMetric::Energy, ts::views::LadderMetric::Speed};
    for (int i = 0; i < 4; ++i) {
        ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, i));
        EXPECT_EQ(state.lab.choices.metric, expected[i]) << "step " << i + 1;
    }
    // Going back to a step without metric: takes the bars back to speed.
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, 1));
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, 0));
    EXPECT_EQ(state.lab.choices.metric, ts::views::LadderMetric::Speed);

    auto bad = ts::lessons::parse_lesson("title: T\nstep: One\nmetric: joules\ntext: Hi.\n", "bad.lesson", "bad");
    ASSERT_TRUE(std::holds_alternative<ts::lessons::LessonError>(bad));
    const auto& error = std::get<ts::lessons::LessonError>(bad);
    EXPECT_EQ(error.line, 3);
    EXPECT_NE(error.message.find("metric must be speed or energy, got \"joules\""), std::string::npos) << error.message;
}

TEST(EightBitsLesson, ExperimentAccumulatorOpensItsPanelAndALaterExperimentClosesIt) {
    const auto lesson = parsed("title: T\n"
                               "step: One\nview: experiment\nexperiment: accumulator\ntext: Bits.\n"
                               "step: Two\nexperiment: bank-conflicts\ntext: Padding.\n");
    AppState state;
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, 0));
    EXPECT_EQ(state.view, ts::views::ViewId::Experiment);
    EXPECT_TRUE(state.experiments.accumulator_shown);
    ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, 1));
    EXPECT_FALSE(state.experiments.accumulator_shown);
    EXPECT_EQ(state.experiments.experiment, ts::model::Experiment::BankConflicts);
}

// The shipped lessons ask each new answer where the app shows what it is about.
TEST(EightBitsLesson, TheShippedLessonsAskTheirAnswersInTheirViews) {
    std::map<std::string, std::string> asked;  // answer → "lesson: view, metric"
    for (const auto& file : ts::lessons::lesson_files(ts::lessons::lessons_dir())) {
        auto loaded = ts::views::load_lesson(file);
        ASSERT_TRUE(std::holds_alternative<ts::lessons::Lesson>(loaded))
            << std::get<ts::lessons::LessonError>(loaded).text();
        const auto& lesson = std::get<ts::lessons::Lesson>(loaded);
        if (lesson.name != "eight-bits" && lesson.name != "power-and-clocks") continue;
        AppState state;
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            ASSERT_FALSE(ts::views::apply_lesson_step(state, lesson, i));
            if (!lesson.steps[i].answer) continue;
            const std::string& word = lesson.steps[i].answer->word;
            if (word.starts_with("fp8-accumulator") || word == "fp8-promoted-error") {
                EXPECT_EQ(state.view, ts::views::ViewId::Experiment) << word;
                EXPECT_TRUE(state.experiments.accumulator_shown) << word;
            }
            if (word == "tc-joules-vs-cublas") EXPECT_EQ(state.lab.choices.metric, ts::views::LadderMetric::Energy);
            if (lesson.name == "power-and-clocks") EXPECT_EQ(ts::model::describe(state.kernel), "tc-tuned") << word;
            asked[word] = lesson.name;
        }
    }
    for (const char* word : {"e4m3-significant-bits", "fp8-speedup-over-bf16", "fp8-error-vs-fp64",
                             "fp8-accumulator-error", "fp8-promoted-error"})
        EXPECT_EQ(asked[word], "eight-bits") << word;
    for (const char* word : {"tc-joules-vs-cublas", "tc-avg-watts", "tc-clock-vs-cublas"})
        EXPECT_EQ(asked[word], "power-and-clocks") << word;
}

}  // namespace
}  // namespace fp8_energy_lesson
