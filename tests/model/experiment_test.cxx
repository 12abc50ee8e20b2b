// The experiments' model: names, cases, guard zones, the wrong-cell map, watched values and
// the explanations, worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "model/experiment.hpp"
#include "support/problems.hpp"

using namespace ts::model;

using ts::testing_support::experiment_case;

TEST(Experiment, NamesRoundTripAndUnknownNamesAreRefused) {
    for (Experiment e : kAllExperiments) EXPECT_EQ(parse_experiment(experiment_name(e)), e);
    EXPECT_FALSE(parse_experiment("missing-third-sync"));
    EXPECT_EQ(experiment_names(), "missing-first-sync, missing-second-sync, no-bounds-check, bank-conflicts");
}

TEST(Experiment, EachBreaksItsRealKernel) {
    EXPECT_EQ(experiment_kernel(Experiment::MissingSecondSync, 16).kind, KernelKind::Tiled);
    EXPECT_EQ(experiment_kernel(Experiment::MissingSecondSync, 16).tile, 16);
    EXPECT_EQ(experiment_kernel(Experiment::BankConflicts, 16).kind, KernelKind::ConflictFree);
    for (Experiment e : kAllExperiments) {
        const ExperimentText& text = experiment_text(e);
        EXPECT_FALSE(text.title.empty());
        EXPECT_NE(text.kernel_file.find("kernels/experiments/"), std::string_view::npos);
        for (const ExperimentCase& c : default_experiment_cases(e)) EXPECT_EQ(check_experiment_case(e, c), std::nullopt);
    }
}

TEST(Experiment, BadCasesGetAReason) {
    auto c = experiment_case(Experiment::MissingFirstSync, 64, 64, 64, 12);
    EXPECT_NE(check_experiment_case(Experiment::MissingFirstSync, c)->find("T = 8, 16 and 32"), std::string::npos);
    c = experiment_case(Experiment::MissingFirstSync, 64, 64, 64, 64);
    EXPECT_TRUE(check_experiment_case(Experiment::MissingFirstSync, c));
    c = experiment_case(Experiment::NoBoundsCheck, 8192, 4096, 64, 16);
    EXPECT_NE(check_experiment_case(Experiment::NoBoundsCheck, c)->find("4096 × 4096"), std::string::npos);
    c = experiment_case(Experiment::NoBoundsCheck, 0, 4, 4, 16);
    EXPECT_TRUE(check_experiment_case(Experiment::NoBoundsCheck, c));
    c = experiment_case(Experiment::MissingSecondSync, 64, 64, 64, 16);
    c.problem.dtype = Dtype::Float64;
    EXPECT_NE(check_experiment_case(Experiment::MissingSecondSync, c)->find("float only"), std::string::npos);
    c = experiment_case(Experiment::BankConflicts, 64, 64, 64, 16);
    c.kernel.kind = KernelKind::Tiled;
    EXPECT_TRUE(check_experiment_case(Experiment::BankConflicts, c));
}

TEST(Experiment, GuardZonesReachTheFurthestStrayAccess) {
    // 100 × 100 × 100, T = 16: padded to 112. B's last load is (111, 111), 111·100 + 111 =
    // 11211, past B's 10000 elements by 1211 + 1; (T − 1)·100 + 16 = 1516 covers it.
    Problem p;
    p.m = p.n = p.k = 100;
    EXPECT_EQ(guard_elements(p, 16), 1536);  // 1516 rounded up to 64
    EXPECT_GE(guard_elements(p, 16), 111 * 100 + 111 - 100 * 100 + 1);
    EXPECT_EQ(guard_elements(p, 16) % 64, 0);
    std::uint32_t bits = kGuardPoisonBits;
    float poison;
    std::memcpy(&poison, &bits, sizeof poison);
    EXPECT_TRUE(std::isnan(poison));
}

TEST(Experiment, StrayWritesOfTheNoBoundsCheckVariant) {
    // Tile multiples: none.
    EXPECT_EQ(predicted_stray_writes(experiment_case(Experiment::NoBoundsCheck, 64, 64, 64, 16)), 0);
    // 100 × 100, T = 16 → 112 × 112 threads. The last thread stores to 111·100 + 111 = 11211;
    // everything from 10000 to 11211 is reached: 1212 elements.
    EXPECT_EQ(predicted_stray_writes(experiment_case(Experiment::NoBoundsCheck, 100, 100, 64, 16)), 1212);
    // Only N off a multiple: the last row's ghosts reach 63·70 + 79 = 4489, past 4480: 10.
    EXPECT_EQ(predicted_stray_writes(experiment_case(Experiment::NoBoundsCheck, 64, 70, 64, 16)), 10);
    EXPECT_NE(explain_out_of_bounds(experiment_case(Experiment::NoBoundsCheck, 64, 64, 64, 16)).find("nothing changes"),
              std::string::npos);
    const std::string text = explain_out_of_bounds(experiment_case(Experiment::NoBoundsCheck, 100, 100, 100, 16));
    EXPECT_NE(text.find("NaN"), std::string::npos);
    EXPECT_NE(text.find("(row + 1, col − N)"), std::string::npos);
    EXPECT_NE(text.find("1212 elements"), std::string::npos);
}

TEST(Experiment, WrongCellMapCountsRunsPerBin) {
    WrongCellMap small = make_wrong_cell_map(3, 4);
    EXPECT_EQ(small.rows, 3);
    EXPECT_EQ(small.cols, 4);
    std::vector<std::uint8_t> wrong(12, 0);
    wrong[1 * 4 + 2] = 1;
    add_run(small, 3, 4, wrong);
    add_run(small, 3, 4, wrong);
    EXPECT_EQ(small.wrong_runs[1 * 4 + 2], 2);
    EXPECT_EQ(small.wrong_runs[0], 0);

    // 1024 × 600: bins of 4 × 3 cells, 256 × 200 of them; two wrong cells of one bin count once.
    WrongCellMap big = make_wrong_cell_map(1024, 600);
    EXPECT_EQ(big.bin_rows, 4);
    EXPECT_EQ(big.bin_cols, 3);
    EXPECT_EQ(big.rows, 256);
    EXPECT_EQ(big.cols, 200);
    std::vector<std::uint8_t> cells(1024 * 600, 0);
    cells[5 * 600 + 7] = cells[4 * 600 + 6] = 1;
    add_run(big, 1024, 600, cells);
    EXPECT_EQ(big.wrong_runs[1 * 200 + 2], 1);
    EXPECT_EQ(big.wrong_runs[1 * 200 + 3], 0);
}

TEST(Experiment, WatchedValuesNameTheirElement) {
    Problem p;
    p.m = 64;
    p.n = 48;
    p.k = 32;
    EXPECT_EQ(watched_value(3, 5, p.m, p.k), 3 * 32 + 5 + 1);
    EXPECT_EQ(watched_value(64, 0, p.m, p.k), 0.0f);  // outside: the zero padding
    const auto a = decode_watched_value(watched_value(3, 5, p.m, p.k), p, true);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->row, 3);
    EXPECT_EQ(a->col, 5);
    const auto b = decode_watched_value(watched_value(31, 47, p.k, p.n), p, false);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->row, 31);
    EXPECT_EQ(b->col, 47);
    EXPECT_FALSE(decode_watched_value(0.0f, p, true));
    EXPECT_FALSE(decode_watched_value(2.5f, p, true));
    EXPECT_FALSE(decode_watched_value(64 * 32 + 1, p, true));  // one past A
    EXPECT_FALSE(decode_watched_value(std::nanf(""), p, true));
    EXPECT_TRUE(watchable(p));
    p.m = p.k = 4097;
    EXPECT_FALSE(watchable(p));
}

TEST(Experiment, AStaleReadIsExplainedWithItsThreadsAndClocks) {
    // Missing second barrier, T = 16: in phase 0 thread (2, 3) of block (1, 0) reads As[3][5]
    // and finds phase 1's A[3][21], stored by thread (5, 3) 40 cycles earlier.
    Problem p;
    p.m = p.n = p.k = 64;
    StaleRead read;
    read.block_x = 1;
    read.phase = 0;
    read.operand = 'A';
    read.slot_row = 3;
    read.slot_col = 5;
    read.reader_x = 2;
    read.reader_y = 3;
    read.read_clock = 1040;
    read.expected = watched_value(3, 5, p.m, p.k);
    read.got = watched_value(3, 21, p.m, p.k);
    read.value_phase = 1;
    read.writer_x = 5;
    read.writer_y = 3;
    read.write_clock = 1000;
    const std::string text = explain_stale_read(Experiment::MissingSecondSync, read, 16);
    EXPECT_NE(text.find("In phase 0, thread (2, 3) of block (1, 0) read As[3][5] and got 214"), std::string::npos)
        << text;
    EXPECT_NE(text.find("should have got 198 (A[3][5])"), std::string::npos) << text;
    EXPECT_NE(text.find("phase 1's element: thread (5, 3)"), std::string::npos) << text;
    EXPECT_NE(text.find("40 cycles before the read"), std::string::npos) << text;

    // Missing first barrier: phase 2 reads Bs[4][1] 25 cycles before its store, finding phase 1's B[20][17].
    StaleRead early = read;
    early.phase = 2;
    early.operand = 'B';
    early.slot_row = 4;
    early.slot_col = 1;
    early.value_phase = 1;
    early.read_clock = 975;
    early.write_clock = 1000;
    const std::string first = explain_stale_read(Experiment::MissingFirstSync, early, 16);
    EXPECT_NE(first.find("(B[36][17])"), std::string::npos) << first;
    EXPECT_NE(first.find("25 cycles too early"), std::string::npos) << first;

    StaleReadReport report;
    report.reads = {early, read};
    EXPECT_EQ(most_telling(report)->phase, 0);
    report.reads.clear();
    EXPECT_FALSE(most_telling(report));
}

TEST(Experiment, SummaryOfRuns) {
    ExperimentRun run;
    run.experiment = Experiment::MissingSecondSync;
    run.c = experiment_case(Experiment::MissingSecondSync, 256, 256, 256, 16);
    run.blocks = 256;
    run.runs = 50;
    run.wrong_runs = 37;
    run.wrong_cells_worst = 655;
    run.cells_ever_wrong = 4000;
    run.max_error = 0.25;
    const std::string text = summarize_run(run);
    EXPECT_NE(text.find("256 blocks: 37 of 50 runs wrong"), std::string::npos) << text;
    EXPECT_NE(text.find("655 wrong cells in one run (1.0 % of C)"), std::string::npos) << text;

    ExperimentRun slow;
    slow.experiment = Experiment::BankConflicts;
    slow.c.kernel = experiment_kernel(Experiment::BankConflicts, 0);
    slow.runs = 50;
    slow.broken_ms = 1.1;
    slow.real_ms = 1.0;
    EXPECT_NE(summarize_run(slow).find("10.0 % slower"), std::string::npos) << summarize_run(slow);
}
