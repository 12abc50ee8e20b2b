// `tilescope experiment`: its arguments, its answer without a GPU, and the report it prints
// for a run (built by hand here: the GPU side has its own tests).
#include <gtest/gtest.h>

#include <string>

#include "cli/experiment.hpp"
#include "support/gpu_skip.hpp"
#include "support/run_command.hpp"

namespace {

ts::testing_support::CommandOutcome experiment(const std::string& arguments) {
    return ts::testing_support::run_cli("experiment " + arguments);
}

TEST(ExperimentCommand, UnknownNameExits2WithTheList) {
    const auto outcome = experiment("no-such-thing");
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_NE(outcome.output.find("no experiment called \"no-such-thing\""), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find(ts::model::experiment_names()), std::string::npos) << outcome.output;
}

TEST(ExperimentCommand, BadArgumentsExit2WithAMessage) {
    const std::pair<const char*, const char*> cases[] = {
        {"experiment missing-first-sync --runs 0", "--runs must be from 1 to"},
        {"experiment missing-first-sync --runs many", "--runs expects a whole number"},
        {"experiment missing-first-sync --size 64x64", "--size expects M (a cube) or MxNxK"},
        {"experiment missing-first-sync --size 64 --tile 12", "T = 8, 16 and 32 only"},
        {"experiment bank-conflicts --tile 16", "--tile does not apply to bank-conflicts"},
    };
    ts::testing_support::expect_refused(cases);
}

TEST(ExperimentCommand, WithoutAGpuItSaysWhy) {
    ts::testing_support::expect_refused_without_gpu("experiment missing-first-sync --size 64 --runs 2",
                                                    "tilescope experiment: no usable GPU: ");
}

TEST(ExperimentCommand, AccumulatorWithoutAGpuItSaysWhy) {
    ts::testing_support::expect_refused_without_gpu("experiment accumulator --dtype fp8",
                                                    "tilescope experiment: no usable GPU: ");
}

TEST(ExperimentCommand, AccumulatorRefusesAnUnknownType) {
    ts::testing_support::expect_refused("experiment accumulator --dtype fp64", "--dtype must be fp8, bf16, fp16 or all");
}

// A report as the GPU would give it for an accumulator of 13 truncated bits (model::simulate_*).
TEST(ExperimentCommand, AccumulatorReportSaysTheBitsTheTableAndWhy) {
    using namespace ts::model;
    AccumulatorReport report;
    report.device = "made-up H100";
    AccumulatorTypeReport& fp8 = report.types.emplace_back();
    fp8.input = AccumulatorInput::Fp8E4m3;
    fp8.identity_passed = true;
    const AccumulatorModel model{13, AccumulatorRounding::TowardZero};
    const ProbeOperands inside = make_probe(AccumulatorInput::Fp8E4m3, ProbeKind::InsideWgmma);
    const ProbeOperands across = make_probe(AccumulatorInput::Fp8E4m3, ProbeKind::AcrossSteps);
    fp8.inside = decode_probe(inside, simulate_probe(inside, {22, AccumulatorRounding::TowardZero}));
    fp8.across = decode_probe(across, simulate_probe(across, model));
    fp8.growth = simulate_growth(make_growth_inputs(AccumulatorInput::Fp8E4m3, kGrowthLargestK, 1), model);
    const std::string text = ts::cli::accumulator_report_text(report);
    EXPECT_NE(text.find("inside one wgmma:   22 fraction bits, truncated toward zero"), std::string::npos) << text;
    EXPECT_NE(text.find("across k-steps:     13 fraction bits, truncated toward zero"), std::string::npos) << text;
    EXPECT_NE(text.find("   16384   "), std::string::npos) << text;
    EXPECT_NE(text.find("promoting every 128 of K"), std::string::npos) << text;
    EXPECT_NE(text.find("keeps 13 bits"), std::string::npos) << text;

    fp8.identity_passed = false;
    fp8.identity_note = "3 of 512 cells are wrong";
    EXPECT_NE(ts::cli::accumulator_report_text(report).find("identity check failed: 3 of 512"), std::string::npos);
}

TEST(ExperimentCommand, HeatMapShadesByShareOfRuns) {
    ts::model::WrongCellMap map = ts::model::make_wrong_cell_map(2, 4);
    map.wrong_runs = {0, 1, 5, 10, 10, 0, 0, 9};
    const std::string text = ts::cli::heat_map_text(map, 10, 2, 4);
    // 1 of 10 runs is ≤ 1/9: '.'; 5 of 10: '+' (≤ 5/9); 9 of 10: '@' (> 8/9); all: '@'.
    EXPECT_NE(text.find("| .+@|"), std::string::npos) << text;
    EXPECT_NE(text.find("|@  @|"), std::string::npos) << text;
    EXPECT_NE(text.find("one character: 1 × 1 cell)"), std::string::npos) << text;
    EXPECT_NE(text.find("' ' never wrong"), std::string::npos) << text;
}

TEST(ExperimentCommand, LargeMapsFitTheTerminal) {
    ts::model::WrongCellMap map = ts::model::make_wrong_cell_map(1000, 1000);
    for (std::size_t i = 0; i < map.wrong_runs.size(); ++i) map.wrong_runs[i] = static_cast<std::int32_t>(i % 6);
    const std::string text = ts::cli::heat_map_text(map, 5, 1000, 1000);
    std::size_t rows = 0, widest = 0, start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::string line = text.substr(start, end - start);
        if (line.rfind("  |", 0) == 0) {
            ++rows;
            widest = std::max(widest, line.size());
        }
        start = end + 1;
    }
    EXPECT_GT(rows, 0u);
    EXPECT_LE(rows, 32u);
    EXPECT_LE(widest, 64u + 4u);
}

TEST(ExperimentCommand, AMapWithNothingWrongIsOneLine) {
    const ts::model::WrongCellMap map = ts::model::make_wrong_cell_map(64, 64);
    EXPECT_EQ(ts::cli::heat_map_text(map, 50, 64, 64), "  C (64 × 64 cells) was right in every run\n");
}

TEST(ExperimentCommand, ReportSaysWhatTheRunsFound) {
    ts::model::ExperimentRun run;
    run.experiment = ts::model::Experiment::NoBoundsCheck;
    run.c.problem.m = 70;
    run.c.problem.n = 70;
    run.c.problem.k = 70;
    run.c.kernel = ts::model::experiment_kernel(run.experiment, 16);
    run.blocks = 25;
    run.runs = 4;
    run.wrong_runs = 4;
    run.wrong_cells_worst = 4900;
    run.wrong_cells_total = 4 * 4900;
    run.cells_ever_wrong = 4900;
    run.nan_cells = 4900;
    run.stray_writes = 4 * 710;
    run.map = ts::model::make_wrong_cell_map(70, 70);
    for (auto& runs : run.map.wrong_runs) runs = 4;
    const std::string text = ts::cli::experiment_report(run, std::nullopt);
    for (const char* line : {"runs: 4, wrong runs: 4", "most wrong cells in one run: 4900 of 4900 (100.0 %)",
                             "cells ever wrong: 4900", "NaN cells: 4900", "stray writes: 2840"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    EXPECT_NE(text.find(ts::model::summarize_run(run)), std::string::npos) << text;
    EXPECT_NE(text.find(ts::model::explain_out_of_bounds(run.c)), std::string::npos) << text;
}

TEST(ExperimentCommand, ReportExplainsStaleReads) {
    ts::model::ExperimentRun run;
    run.experiment = ts::model::Experiment::MissingFirstSync;
    run.c.problem.m = run.c.problem.n = run.c.problem.k = 64;
    run.c.kernel = ts::model::experiment_kernel(run.experiment, 16);
    run.runs = 1;
    run.map = ts::model::make_wrong_cell_map(64, 64);
    ts::model::StaleReadReport report;
    report.experiment = run.experiment;
    report.c = run.c;
    report.launches = 2;
    report.reads_checked = 524288;
    report.stale_reads = 1;
    ts::model::StaleRead read;
    read.phase = 1;
    read.operand = 'B';
    read.slot_row = 3;
    read.slot_col = 5;
    read.reader_x = 5;
    read.reader_y = 9;
    read.expected = 1.0f;
    read.got = 2.0f;
    read.value_phase = 0;
    read.writer_x = 5;
    read.writer_y = 3;
    report.reads = {read};
    const std::string text = ts::cli::experiment_report(run, report);
    EXPECT_NE(text.find("stale reads: 1 of 524288 shared-memory reads, in instrumented launch 2"), std::string::npos)
        << text;
    EXPECT_NE(text.find(ts::model::explain_stale_read(run.experiment, read, 16)), std::string::npos) << text;

    report.stale_reads = 0;
    report.reads.clear();
    EXPECT_NE(ts::cli::experiment_report(run, report).find("stale reads: none in 2 instrumented launches"),
              std::string::npos);
    EXPECT_NE(ts::cli::experiment_report(run, std::nullopt).find("stale reads: not watched"), std::string::npos);
}

}  // namespace
