// The Experiments view ("break it on purpose") without a window or GPU: every experiment
// drawn from the model with the reason nothing runs, fake GPU results turned into numbers and
// explanations, "Show in the theatre" putting the theatre on the stale read and the buttons of
// its caption there, the batch of cases submitted one at a time, and recorded results read from
// JSON (tests/views/data), faded until live ones replace them, with a clear message for a file
// that is not one.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "imgui_harness.hpp"
#include "imgui_internal.h"
#include "model/experiment.hpp"
#include "support/app_states.hpp"
#include "views/window/app_state.hpp"
#include "views/experiments/experiment_state.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/lab/lab_view.hpp"
#include "views/window/view_switcher.hpp"
#include "views/window/main_view.hpp"
#include "views/theatre/block/race_overlay.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_view.hpp"

namespace {

using namespace ts::views;
using ts::model::Experiment;
using ts::test::ImGuiHarness;
using ts::testing_support::experiment_case;

const std::string kSample = TILESCOPE_TEST_DATA_DIR "/experiment_sample.json";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// No GPU, and no committed measurements read: what the model alone gives.
AppState state_without_gpu(Experiment experiment) {
    AppState state;
    ts::gpu::DeviceInfo info;
    info.usable = false;
    info.why_not = "no CUDA device: none in this test";
    state.device = info;
    state.experiments.measurements_loaded = true;
    state.experiments.experiment = experiment;
    state.view = ViewId::Experiment;
    return state;
}

// The view twice: ImGui sizes child windows from the previous frame.
std::string draw_experiment_view(ImGuiHarness& ui, AppState& state) {
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_experiment_view(state, 0.0f); });
    return text;
}

// Thread (5, 3) of block (1, 0) reads As[3][7] in phase 0 and gets phase 1's A[3][23]: thread
// (7, 3) had already stored the next tile.
ts::model::StaleRead overtaken_read() {
    ts::model::StaleRead read;
    read.block_x = 1;
    read.block_y = 0;
    read.phase = 0;
    read.operand = 'A';
    read.slot_row = 3;
    read.slot_col = 7;
    read.reader_x = 5;
    read.reader_y = 3;
    read.expected = ts::model::watched_value(3, 7, 64, 64);
    read.got = ts::model::watched_value(3, 23, 64, 64);
    read.value_phase = 1;
    read.writer_x = 7;
    read.writer_y = 3;
    read.read_clock = 15000;
    read.write_clock = 14200;
    return read;
}

// What the runner would answer for missing-second-sync at 64³, T = 16, 50 runs: 37 of them
// wrong, and overtaken_read() the one stale read its report found.
ts::gpu::RunResult fake_second_sync_result(std::uint64_t id = 1) {
    ts::gpu::RunResult result = ts::testing_support::fake_second_sync_result(37, id);
    const ts::model::ExperimentCase& c = result.experiment->c;
    ts::model::ExperimentRun& run = *result.experiment;
    run.wrong_cells_worst = 16;
    run.cells_ever_wrong = 16;
    run.wrong_cells_total = 16 * 37;
    run.max_error = 0.031;
    ts::model::StaleReadReport report;
    report.experiment = Experiment::MissingSecondSync;
    report.c = c;
    report.launches = 1;
    report.reads_checked = 262144;
    report.stale_reads = 1;
    report.reads.push_back(overtaken_read());
    result.stale_reads = report;
    return result;
}

TEST(ExperimentView, EveryExperimentDrawsFromTheModelWithoutAGpu) {
    ImGuiHarness ui;
    for (Experiment experiment : ts::model::kAllExperiments) {
        AppState state = state_without_gpu(experiment);
        const std::string text = draw_experiment_view(ui, state);
        const auto& words = ts::model::experiment_text(experiment);
        EXPECT_TRUE(has(text, std::string(words.title))) << ts::model::experiment_name(experiment);
        EXPECT_TRUE(has(text, std::string(words.real_file)));
        EXPECT_TRUE(has(text, std::string(words.kernel_file)));
        EXPECT_TRUE(has(text, "Not running here: no CUDA device: none in this test")) << text;
        EXPECT_TRUE(has(text, "Before you run it"));
        EXPECT_TRUE(has(text, "Run 50 times on the GPU"));
        for (const auto choice : prediction_choices(experiment)) EXPECT_TRUE(has(text, std::string(choice)));
        EXPECT_TRUE(has(text, "Nothing measured to show"));
        if (experiment == Experiment::NoBoundsCheck) {
            // Worked out from the indices before any run, for every default case.
            for (const auto& c : ts::model::default_experiment_cases(experiment))
                EXPECT_TRUE(has(text, ts::model::explain_out_of_bounds(c))) << text;
        }
        if (experiment == Experiment::BankConflicts) {
            EXPECT_TRUE(has(text, "The bank map of the As store"));
        }
    }
}

TEST(ExperimentView, TheAnswerWaitsForAGuess) {
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingFirstSync);
    EXPECT_TRUE(has(draw_experiment_view(ui, state), "Pick an answer"));
    page_of(state.experiments, Experiment::MissingFirstSync).prediction = 1;
    const std::string text = draw_experiment_view(ui, state);
    EXPECT_FALSE(has(text, "Pick an answer"));
    EXPECT_TRUE(has(text, "What usually happens, and why"));
}

TEST(ExperimentView, AFakeResultBecomesNumbersAHeatMapAndTheStaleRead) {
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingSecondSync);
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    page_of(state.experiments, Experiment::MissingSecondSync).prediction = 1;  // "some runs"
    ASSERT_TRUE(take_experiment_result(state.experiments, fake_second_sync_result(), "Fake GPU"));
    const std::string text = draw_experiment_view(ui, state);
    EXPECT_TRUE(has(text, "measured on Fake GPU, this session")) << text;
    EXPECT_TRUE(has(text, "37 of 50")) << text;
    EXPECT_TRUE(has(text, "cells ever wrong"));
    EXPECT_TRUE(has(text, "largest error"));
    EXPECT_TRUE(has(text, "0.031"));
    EXPECT_TRUE(has(text, "never wrong")) << "the heat map's legend";
    EXPECT_TRUE(has(text, "You said some runs; the runs say some runs: right."));
    EXPECT_TRUE(has(text, ts::model::explain_stale_read(Experiment::MissingSecondSync, overtaken_read(), 16))) << text;
    EXPECT_TRUE(has(text, "Show in the theatre"));
    EXPECT_FALSE(has(text, "Not running here"));
}

TEST(ExperimentView, TheHeatMapShadesWrongCellsByTheirShareOfRuns) {
    EXPECT_EQ(wrong_share_value(0, 50), 0.0f);
    EXPECT_GT(wrong_share_value(1, 50), 0.3f) << "a cell wrong once must stand out from white";
    EXPECT_LT(wrong_share_value(1, 50), wrong_share_value(25, 50));
    EXPECT_EQ(wrong_share_value(50, 50), 1.0f);
}

TEST(ExperimentView, ShowInTheTheatrePutsItOnTheStaleRead) {
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingSecondSync);
    const auto c = experiment_case(Experiment::MissingSecondSync, 64, 64, 64, 16);
    show_race_in_theatre(state, race_moment(Experiment::MissingSecondSync, c, overtaken_read()));
    EXPECT_EQ(state.view, ViewId::Theatre);
    EXPECT_EQ(state.kernel.kind, ts::model::KernelKind::Tiled);
    EXPECT_EQ(state.kernel.tile, 16);
    EXPECT_EQ(state.problem.m, 64);
    EXPECT_EQ(state.theatre.block.x, 1);
    EXPECT_EQ(state.theatre.block.y, 0);
    const ts::model::KernelStep step = current_step(state);
    EXPECT_EQ(step.phase, 0);
    EXPECT_EQ(step.sub, ts::model::SubStep::Compute);
    EXPECT_EQ(step.k, 7) << "the reader meets As[3][7] at i = 7";
    ASSERT_TRUE(state.selected.has_value()) << "the reader's cell is pinned";
    EXPECT_EQ(state.selected->row, 3);
    EXPECT_EQ(state.selected->col, 16 + 5);
    EXPECT_TRUE(race_on_show(state));
    const auto flag = race_source_flag(state);
    ASSERT_TRUE(flag.has_value());
    EXPECT_EQ(flag->statement, ts::model::SubStep::SyncAfterCompute) << "the second barrier is the missing one";

    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_theatre_view(state, 0.0f); });
    EXPECT_TRUE(has(text, "missing-second-sync: a stale read of As[3][7]")) << text;
    EXPECT_TRUE(has(text, "taken out in missing-second-sync")) << "the struck-through barrier in the Source tab";

    // Another phase: the caption stays, with the way back; the canvas no longer marks the slot.
    jump_theatre(state.theatre, state, std::nullopt, 2, ts::model::SubStep::LoadTiles);
    EXPECT_FALSE(race_on_show(state));
    EXPECT_TRUE(race_applies(state));
    text = ui.frame([&] { draw_theatre_view(state, 0.0f); });
    EXPECT_TRUE(has(text, "Back to the stale read"));
}

// The window the theatre's words were drawn in last frame: their column beside the picture
// ("##words"), else the theatre's own child ("##theatre"), whose top they take above the picture.
const ImGuiWindow* theatre_words_window() {
    const ImGuiWindow* theatre = nullptr;
    for (const ImGuiWindow* window : GImGui->Windows) {
        const std::string_view name = window->Name;
        if (!window->Active) continue;
        if (name.find("/##words_") != std::string_view::npos) return window;
        if (name.find("/##theatre_") != std::string_view::npos && name.find("##theatre_panel") == std::string_view::npos)
            theatre = window;
    }
    return theatre;
}

// Clicks along a line of the theatre's words, one press and release per position, until `landed`
// says a click did what it should: down their left edge (`row` unset), or along row `row` from
// its right end. Returns the height of the click that landed.
std::optional<float> click_the_words(ImGuiHarness& ui, AppState& state, const std::function<bool()>& landed,
                                     std::optional<float> row = std::nullopt) {
    ui.frame([&] { draw_theatre_view(state, 0.0f); });
    const ImGuiWindow* words = theatre_words_window();
    if (!words) return std::nullopt;
    const auto click = [&](ImVec2 at) {
        ui.frame([&] { draw_theatre_view(state, 0.0f); }, at, true);
        ui.frame([&] { draw_theatre_view(state, 0.0f); }, at, false);
        return landed();
    };
    if (row) {
        for (float x = words->Pos.x + words->Size.x - 2.0f; x > words->Pos.x; x -= 4.0f)
            if (click({x, *row})) return row;
        return std::nullopt;
    }
    for (float y = words->Pos.y + 2.0f; y < words->Pos.y + words->Size.y; y += 3.0f)
        if (click({words->Pos.x + 6.0f, y})) return y;
    return std::nullopt;
}

// The caption's buttons, pressed in the theatre: back to the stale read, hide the race, back
// to the Experiments view.
TEST(ExperimentView, TheRaceCaptionsButtonsGoBackHideTheRaceAndLeave) {
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingSecondSync);
    const RaceMoment moment =
        race_moment(Experiment::MissingSecondSync, experiment_case(Experiment::MissingSecondSync, 64, 64, 64, 16),
                    overtaken_read());
    show_race_in_theatre(state, moment);
    ASSERT_FALSE(jump_theatre(state.theatre, state, std::nullopt, 2, ts::model::SubStep::LoadTiles));
    ASSERT_FALSE(race_on_show(state));

    EXPECT_TRUE(click_the_words(ui, state, [&] { return race_on_show(state); }))
        << "\"Back to the stale read\" puts the theatre on the read's block and phase";
    EXPECT_EQ(current_step(state).k, moment.k);
    EXPECT_EQ(state.view, ViewId::Theatre);

    const auto row = click_the_words(ui, state, [&] { return !state.experiments.race.has_value(); });
    ASSERT_TRUE(row) << "\"Hide the race\" lets it go";
    EXPECT_EQ(state.view, ViewId::Theatre);

    state.experiments.race = moment;
    EXPECT_TRUE(click_the_words(ui, state, [&] { return state.view == ViewId::Experiment; }, row))
        << "\"Back to the experiment\" opens the Experiments view";
    EXPECT_TRUE(state.experiments.race.has_value());
}

TEST(ExperimentView, ALargeCaseIsShownAtAStandInSize) {
    const auto c = experiment_case(Experiment::MissingSecondSync, 1024, 1024, 1024, 32);
    ts::model::StaleRead read = overtaken_read();
    read.block_x = 17;
    read.block_y = 5;
    read.phase = 20;
    read.value_phase = 21;
    const RaceMoment moment = race_moment(Experiment::MissingSecondSync, c, read);
    EXPECT_FALSE(moment.size_note.empty());
    EXPECT_EQ(moment.block.x, 1);
    EXPECT_EQ(moment.block.y, 1);
    EXPECT_EQ(moment.phase, 1);
    EXPECT_EQ(moment.problem.m, 64);
    EXPECT_EQ(moment.problem.k, 96) << "a phase after the read's, where the overwriting value comes from";
    AppState state = state_without_gpu(Experiment::MissingSecondSync);
    show_race_in_theatre(state, moment);
    EXPECT_TRUE(race_on_show(state));
}

TEST(ExperimentView, TheBatchRunsOneCaseAtATimeAndCancelKeepsWhatCameBack) {
    AppState state = state_without_gpu(Experiment::MissingSecondSync);
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    ExperimentState& experiments = state.experiments;
    ASSERT_TRUE(start_experiment_batch(experiments, Experiment::MissingSecondSync));
    ASSERT_TRUE(experiments.batch.has_value());
    EXPECT_EQ(experiments.batch->total, 3);
    const auto first = next_experiment_request(experiments);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->kind, ts::gpu::RequestKind::Experiment);
    EXPECT_EQ(first->runs, 50);
    EXPECT_EQ(first->problem.m, 64);
    experiment_submitted(experiments, 7);
    EXPECT_FALSE(next_experiment_request(experiments).has_value()) << "one in flight at a time";
    ASSERT_TRUE(take_experiment_result(experiments, fake_second_sync_result(7), "Fake GPU"));
    EXPECT_EQ(experiments.batch->done, 1);

    ImGuiHarness ui;
    EXPECT_TRUE(has(draw_experiment_view(ui, state), "case 2 of 3"));
    const auto second = next_experiment_request(experiments);
    ASSERT_TRUE(second.has_value());
    experiment_submitted(experiments, 8);
    cancel_experiment_batch(experiments);
    EXPECT_FALSE(next_experiment_request(experiments).has_value());
    ts::gpu::RunResult failed;
    failed.id = 8;
    failed.request = *second;
    failed.error = "the GPU worker stopped during an experiment: an illegal memory access; it was restarted";
    take_experiment_result(experiments, failed, "Fake GPU");
    EXPECT_FALSE(experiments.batch.has_value());
    EXPECT_EQ(page_of(experiments, Experiment::MissingSecondSync).outcomes.size(), 2u) << "nothing measured is lost";

    const std::string text = draw_experiment_view(ui, state);
    EXPECT_TRUE(has(text, "The variant faulted; the GPU worker restarted, the app and your other results are fine."))
        << text;
    EXPECT_TRUE(has(text, "an illegal memory access"));
    EXPECT_TRUE(has(text, "Cancelled after case 2 of 3"));

    // Another experiment and back: the results stay.
    experiments.experiment = Experiment::BankConflicts;
    draw_experiment_view(ui, state);
    experiments.experiment = Experiment::MissingSecondSync;
    EXPECT_TRUE(has(draw_experiment_view(ui, state), "37 of 50"));
}

TEST(ExperimentView, TheSampleMeasurementDecodes) {
    auto loaded = load_experiment_file(kSample);
    ASSERT_TRUE(std::holds_alternative<ExperimentMeasurement>(loaded)) << std::get<std::string>(loaded);
    const ExperimentMeasurement& measurement = std::get<ExperimentMeasurement>(loaded);
    EXPECT_EQ(measurement.device, "Sample GPU");
    EXPECT_EQ(measurement.date, "2026-11-26");
    ASSERT_EQ(measurement.outcomes.size(), 4u);

    const ExperimentOutcome& second = measurement.outcomes[0];
    EXPECT_EQ(second.experiment, Experiment::MissingSecondSync);
    ASSERT_TRUE(second.run && second.stale);
    EXPECT_EQ(second.run->wrong_runs, 37);
    EXPECT_EQ(second.run->map.wrong_runs.size(), 64u * 64u);
    ASSERT_EQ(second.stale->reads.size(), 3u);
    // Each recorded read says what it got, and that value decodes to the element of the phase it names.
    for (const ts::model::StaleRead& read : second.stale->reads) {
        const auto place = ts::model::decode_watched_value(read.got, second.c.problem, read.operand == 'A');
        if (read.value_phase < 0) {
            EXPECT_FALSE(place.has_value());
            continue;
        }
        ASSERT_TRUE(place.has_value());
        const std::int64_t k_index = read.operand == 'A' ? place->col : place->row;
        EXPECT_EQ(k_index / 16, read.value_phase);
        EXPECT_EQ(read.writer_x, read.slot_col) << "thread (slot_col, slot_row) stores each slot";
        EXPECT_EQ(read.writer_y, read.slot_row);
    }
    const auto telling = ts::model::most_telling(*second.stale);
    ASSERT_TRUE(telling.has_value());
    EXPECT_EQ(telling->block_x, 1);
    EXPECT_EQ(telling->phase, 0);

    EXPECT_EQ(measurement.outcomes[1].experiment, Experiment::MissingFirstSync);
    EXPECT_EQ(measurement.outcomes[1].run->wrong_runs, 0);
    EXPECT_TRUE(measurement.outcomes[2].worker_restarted);
    EXPECT_EQ(measurement.outcomes[2].experiment, Experiment::NoBoundsCheck);
    EXPECT_EQ(measurement.outcomes[2].c.problem.m, 100);
    EXPECT_GT(measurement.outcomes[3].run->broken_ms, measurement.outcomes[3].run->real_ms);
}

// What `tilescope-cli experiment --json` writes: the device as a string, no date (the file's
// name has it), flat cases, the counts under "run", a missing report as null.
TEST(ExperimentView, TheCliFormatLoadsToo) {
    auto loaded = load_experiment_file(TILESCOPE_TEST_DATA_DIR "/nvidia-h100-2026-11-26.json");
    ASSERT_TRUE(std::holds_alternative<ExperimentMeasurement>(loaded)) << std::get<std::string>(loaded);
    const ExperimentMeasurement& measurement = std::get<ExperimentMeasurement>(loaded);
    EXPECT_EQ(measurement.device, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(measurement.date, "2026-11-26");
    ASSERT_EQ(measurement.outcomes.size(), 2u);
    const ExperimentOutcome& first = measurement.outcomes[0];
    EXPECT_EQ(first.experiment, Experiment::MissingFirstSync);
    EXPECT_EQ(first.c.kernel.kind, ts::model::KernelKind::Tiled);
    EXPECT_EQ(first.c.kernel.tile, 16);
    EXPECT_EQ(first.c.problem.k, 64);
    EXPECT_EQ(first.source, "measured on NVIDIA H100 80GB HBM3, 2026-11-26");
    ASSERT_TRUE(first.stale.has_value());
    ASSERT_EQ(first.stale->reads.size(), 1u);
    const ts::model::StaleRead& read = first.stale->reads[0];
    EXPECT_EQ(read.operand, 'B');
    // Bs[2][9] of block (0, 0) in phase 1 should hold B[18][9]; it still held phase 0's B[2][9].
    EXPECT_EQ(read.expected, ts::model::watched_value(18, 9, 64, 64));
    EXPECT_EQ(read.got, ts::model::watched_value(2, 9, 64, 64));
    EXPECT_FALSE(measurement.outcomes[1].stale.has_value());
    EXPECT_EQ(measurement.outcomes[1].c.kernel.tile, 32);
}

TEST(ExperimentView, RecordedResultsAreLabelledUntilLiveOnesReplaceThem) {
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingSecondSync);
    ASSERT_TRUE(load_experiment_measurement(state.experiments, kSample)) << state.experiments.load_message;
    std::string text = draw_experiment_view(ui, state);
    EXPECT_TRUE(has(text, "measured on Sample GPU, 2026-11-26")) << text;
    EXPECT_TRUE(has(text, "37 of 50"));

    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    auto live = fake_second_sync_result();
    live.experiment->wrong_runs = 12;
    take_experiment_result(state.experiments, live, "Fake GPU");
    text = draw_experiment_view(ui, state);
    EXPECT_TRUE(has(text, "12 of 50"));
    EXPECT_FALSE(has(text, "measured on Sample GPU")) << "the live result of the same case replaces the recorded one";
    // A measurement loaded later never hides it.
    load_experiment_measurement(state.experiments, kSample);
    EXPECT_TRUE(has(draw_experiment_view(ui, state), "12 of 50"));

    state.experiments.experiment = Experiment::NoBoundsCheck;
    EXPECT_TRUE(has(draw_experiment_view(ui, state), "The variant faulted; the GPU worker restarted"));
}

TEST(ExperimentView, TheTheatreFlagOpensTheRecordedStaleRead) {
    AppState state = state_without_gpu(Experiment::MissingSecondSync);
    ASSERT_TRUE(load_experiment_measurement(state.experiments, kSample));
    EXPECT_FALSE(open_experiment(state, Experiment::MissingSecondSync, true).has_value());
    EXPECT_EQ(state.view, ViewId::Theatre);
    EXPECT_TRUE(race_on_show(state));
    EXPECT_EQ(state.theatre.block.x, 1);

    AppState other = state_without_gpu(Experiment::MissingFirstSync);
    const auto note = open_experiment(other, Experiment::MissingFirstSync, true);
    ASSERT_TRUE(note.has_value()) << "no recorded stale read of missing-first-sync";
    EXPECT_FALSE(other.experiments.race.has_value());

    AppState plain = state_without_gpu(Experiment::MissingFirstSync);
    plain.view = ViewId::Stage;
    EXPECT_FALSE(open_experiment(plain, Experiment::BankConflicts, false).has_value());
    EXPECT_EQ(plain.view, ViewId::Experiment);
    EXPECT_EQ(plain.experiments.experiment, Experiment::BankConflicts);
}

TEST(ExperimentView, ACorruptOrMissingFileGivesAClearMessage) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "tilescope-experiment-view-test";
    std::filesystem::create_directories(dir);
    const std::filesystem::path corrupt = dir / "corrupt.json";
    std::ofstream(corrupt) << "{ \"results\": [ {\"experiment\": ";
    AppState state = state_without_gpu(Experiment::MissingFirstSync);
    EXPECT_FALSE(load_experiment_measurement(state.experiments, corrupt));
    EXPECT_TRUE(has(state.experiments.load_message, "corrupt.json: not a measurement of experiments"))
        << state.experiments.load_message;

    const std::filesystem::path wrong_type = dir / "wrong-type.json";
    std::ofstream(wrong_type) << R"({"results": [{"experiment": "missing-first-sync", "case": {"problem": {"m": "many"}}}]})";
    EXPECT_FALSE(load_experiment_measurement(state.experiments, wrong_type));
    EXPECT_TRUE(has(state.experiments.load_message, "wrong-type.json")) << state.experiments.load_message;

    EXPECT_FALSE(load_experiment_measurement(state.experiments, dir / "absent.json"));
    EXPECT_TRUE(has(state.experiments.load_message, "cannot be opened"));

    ImGuiHarness ui;
    EXPECT_TRUE(has(draw_experiment_view(ui, state), "Recorded results: ")) << "the view says so and keeps working";
    std::filesystem::remove_all(dir);
}

TEST(ExperimentView, TheViewSwitcherAndNameKnowIt) {
    EXPECT_EQ(parse_view("experiment"), ViewId::Experiment);
    EXPECT_EQ(view_name(ViewId::Experiment), "experiment");
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingFirstSync);
    std::string text;
    for (int i = 0; i < 2; ++i) {
        ui.bare_frame([&] { draw_main_view(state); });
    }
    text = ui.frame([&] { draw_view_switcher(state.view, state.presentation); });
    EXPECT_TRUE(has(text, "Experiments")) << text;
}

}  // namespace

// ---- The accumulator measurement (views/experiments/accumulator_panel.hpp) ---------------------

namespace accumulator {

using namespace ts::model;
using namespace ts::views;
using ts::test::ImGuiHarness;
using ts::model::Experiment;

// What the runner would answer for FP8 and BF16 on a GPU whose accumulator keeps 13 truncated bits
// across k-steps and 22 inside one wgmma (model::simulate_*).
ts::gpu::RunResult fake_accumulator_result(std::uint64_t id) {
    ts::gpu::RunResult result;
    result.id = id;
    result.ok = true;
    result.request.kind = ts::gpu::RequestKind::Accumulator;
    AccumulatorReport report;
    report.device = "made-up H100";
    for (AccumulatorInput input : {AccumulatorInput::Fp8E4m3, AccumulatorInput::Bf16}) {
        AccumulatorTypeReport& t = report.types.emplace_back();
        t.input = input;
        t.identity_passed = true;
        const ProbeOperands inside = make_probe(input, ProbeKind::InsideWgmma);
        const ProbeOperands across = make_probe(input, ProbeKind::AcrossSteps);
        t.inside = decode_probe(inside, simulate_probe(inside, {22, AccumulatorRounding::TowardZero}));
        t.across = decode_probe(across, simulate_probe(across, {13, AccumulatorRounding::TowardZero}));
        t.growth = simulate_growth(make_growth_inputs(input, 1024, 1), {13, AccumulatorRounding::TowardZero});
    }
    result.accumulator = report;
    return result;
}

TEST(AccumulatorPanel, WithoutAGpuItExplainsAndSaysWhyNothingRuns) {
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingFirstSync);
    state.experiments.accumulator_shown = true;
    const std::string text = draw_experiment_view(ui, state);
    EXPECT_TRUE(has(text, "The tensor cores' accumulator, measured")) << text;
    EXPECT_TRUE(has(text, "No run here: no CUDA device: none in this test")) << text;
    EXPECT_TRUE(has(text, "Why promoting every 128 of K bounds the error")) << text;
    EXPECT_FALSE(next_accumulator_request(state.experiments.accumulator));
}

TEST(AccumulatorPanel, AResultBecomesTheBitsAndAPlotOfTheErrorAgainstK) {
    ImGuiHarness ui;
    AppState state = state_without_gpu(Experiment::MissingFirstSync);
    state.experiments.accumulator_shown = true;
    AccumulatorPanelState& panel = state.experiments.accumulator;
    panel.submit = true;
    panel.dtype = "fp8";
    const auto request = next_accumulator_request(panel);
    ASSERT_TRUE(request);
    EXPECT_EQ(request->kind, ts::gpu::RequestKind::Accumulator);
    EXPECT_EQ(request->accumulator_input, "fp8");
    accumulator_submitted(panel, 5);

    ts::gpu::RunResult other;
    other.request.kind = ts::gpu::RequestKind::Measure;
    EXPECT_FALSE(take_accumulator_result(panel, other));
    EXPECT_TRUE(take_accumulator_result(panel, fake_accumulator_result(5)));
    EXPECT_EQ(panel.in_flight, 0u);
    ASSERT_TRUE(panel.report);
    ASSERT_EQ(panel.plot.series.size(), 4u);  // never and promoted, for FP8 and BF16
    EXPECT_EQ(panel.plot.series[0].points.size(), 4u);  // K = 128, 256, 512, 1024

    const std::string text = draw_experiment_view(ui, state);
    EXPECT_TRUE(has(text, "measured on the made-up H100")) << text;
    EXPECT_TRUE(has(text, "inside one wgmma: 22 fraction bits, truncated toward zero")) << text;
    EXPECT_TRUE(has(text, "across k-steps: 13 fraction bits, truncated toward zero")) << text;
    EXPECT_TRUE(has(text, "keeps 13 bits below the leading bit")) << text;

    ts::gpu::RunResult failed;
    failed.request.kind = ts::gpu::RequestKind::Accumulator;
    failed.error = "needs an H100/H200: wgmma is sm_90a";
    EXPECT_TRUE(take_accumulator_result(panel, failed));
    EXPECT_TRUE(has(draw_experiment_view(ui, state), "needs an H100/H200"));
}

}  // namespace accumulator
