// gpu: the experiments' broken variants on a real device (model/experiment.hpp,
// app/gpu/experiment_runner.cxx): every experiment runs N times and fills its map; what
// no-bounds-check does is deterministic and checked exactly; the watched kernel with both
// barriers never sees a stale read, and every stale read the broken ones record is one a
// missing barrier can cause. Skips without a usable GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>

#include "gpu/experiment_runner.hpp"
#include "gpu/runner.hpp"
#include "model/experiment.hpp"
#include "model/launch_geometry.hpp"
#include "support/gpu_skip.hpp"

namespace ts::gpu {
namespace {

using model::Experiment;

model::ExperimentCase make_case(Experiment experiment, std::int64_t m, std::int64_t n, std::int64_t k, int tile) {
    model::ExperimentCase c;
    c.problem.m = m;
    c.problem.n = n;
    c.problem.k = k;
    c.kernel = model::experiment_kernel(experiment, tile);
    return c;
}

RunResult run(Experiment experiment, const model::ExperimentCase& c, int runs) {
    RunRequest request;
    request.kind = RequestKind::Experiment;
    request.experiment = experiment;
    request.runs = runs;
    request.kernel = c.kernel;
    request.problem = c.problem;
    return run_request(request);
}

class OwnStream {
public:
    OwnStream() { cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking); }
    ~OwnStream() { cudaStreamDestroy(m_stream); }
    cudaStream_t get() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

// The elements of C past its end that no-bounds-check stores to in each launch: the ghost
// rows' stores and the last row's ghost columns (explain_out_of_bounds says the same).
std::int64_t stores_past_c(const model::ExperimentCase& c) {
    const std::int64_t t = c.kernel.tile;
    const model::Problem& p = c.problem;
    const std::int64_t padded_m = (p.m + t - 1) / t * t, padded_n = (p.n + t - 1) / t * t;
    return std::max<std::int64_t>(0, (padded_m - 1) * p.n + padded_n - p.m * p.n);
}

TEST(Experiments, EveryExperimentRunsNTimesAndFillsItsMap) {
    SKIP_WITHOUT_GPU();
    for (const Experiment experiment : model::kAllExperiments) {
        const bool tiled = experiment != Experiment::BankConflicts;
        const model::ExperimentCase c =
            tiled ? make_case(experiment, 64, 48, 40, 16) : make_case(experiment, 256, 256, 256, 0);
        SCOPED_TRACE(std::string(model::experiment_name(experiment)));
        const RunResult result = run(experiment, c, 7);
        ASSERT_TRUE(result.ok) << result.error;
        ASSERT_TRUE(result.experiment);
        const model::ExperimentRun& r = *result.experiment;
        EXPECT_EQ(r.experiment, experiment);
        EXPECT_EQ(r.runs, 7);
        EXPECT_LE(r.wrong_runs, 7);
        const model::LaunchGeometry g = model::plan_launch(c.kernel, c.problem);
        EXPECT_EQ(r.blocks, g.grid.x * g.grid.y);
        EXPECT_EQ(r.map.rows, c.problem.m);
        EXPECT_EQ(r.map.cols, c.problem.n);
        EXPECT_EQ(r.map.bin_rows, 1);
        EXPECT_EQ(r.map.bin_cols, 1);
        ASSERT_EQ(r.map.wrong_runs.size(), static_cast<std::size_t>(c.problem.m * c.problem.n));
        std::int64_t ever = 0;
        for (const std::int32_t runs : r.map.wrong_runs) {
            EXPECT_GE(runs, 0);
            EXPECT_LE(runs, r.wrong_runs);
            ever += runs > 0;
        }
        EXPECT_EQ(ever, r.cells_ever_wrong);
        EXPECT_LE(r.wrong_cells_worst, r.cells_ever_wrong);
        EXPECT_LE(r.wrong_cells_total, std::int64_t{7} * r.wrong_cells_worst);
        // M and N are multiples of the tile, so even no-bounds-check stores inside C only.
        EXPECT_EQ(r.stray_writes, 0);
        const bool missing_sync = experiment == Experiment::MissingFirstSync || experiment == Experiment::MissingSecondSync;
        EXPECT_EQ(result.stale_reads.has_value(), missing_sync);
        std::cout << model::summarize_run(r) << '\n';
    }
}

TEST(Experiments, NoBoundsCheckAtATileMultipleChangesNothing) {
    SKIP_WITHOUT_GPU();
    const model::ExperimentCase c = make_case(Experiment::NoBoundsCheck, 64, 64, 64, 16);
    const RunResult result = run(Experiment::NoBoundsCheck, c, 10);
    ASSERT_TRUE(result.ok) << result.error;
    const model::ExperimentRun& r = *result.experiment;
    EXPECT_EQ(r.wrong_runs, 0);
    EXPECT_EQ(r.cells_ever_wrong, 0);
    EXPECT_EQ(r.nan_cells, 0);
    EXPECT_EQ(r.stray_writes, 0);
    EXPECT_LT(r.max_error, 1e-5);
}

// K = 70 is not a multiple of 16: in the last phase every thread loads B's rows 70 to 79, past
// B's end, so every cell adds the poison and comes out NaN, in every run. M = 70: rows 70 to 79
// store past C's end, 710 elements each launch (the rows' ranges overlap: row r stores
// [70·r, 70·r + 80)).
TEST(Experiments, NoBoundsCheckPastKPoisonsEveryCellAndStoresPastC) {
    SKIP_WITHOUT_GPU();
    const model::ExperimentCase c = make_case(Experiment::NoBoundsCheck, 70, 70, 70, 16);
    const int runs = 10;
    const RunResult result = run(Experiment::NoBoundsCheck, c, runs);
    ASSERT_TRUE(result.ok) << result.error;
    const model::ExperimentRun& r = *result.experiment;
    EXPECT_EQ(stores_past_c(c), 710);
    EXPECT_EQ(r.stray_writes, runs * stores_past_c(c));
    EXPECT_EQ(r.wrong_runs, runs);
    EXPECT_EQ(r.wrong_cells_worst, 70 * 70);
    EXPECT_EQ(r.wrong_cells_total, runs * 70 * 70);
    EXPECT_EQ(r.nan_cells, 70 * 70);
    EXPECT_EQ(r.max_error, 0.0);  // every cell is NaN, and NaN is left out
    EXPECT_TRUE(r.note.empty()) << r.note;  // no cell is ever left unwritten
}

// K = 64 is a multiple: the cells of C are right except where a ghost thread of columns 70 to
// 79 stores onto the next row's cells 0 to 9, racing with their own threads (its sum is NaN:
// its last B load, row 63 past column 69, lies past B's end). Rows 70 to 79 store past C.
TEST(Experiments, NoBoundsCheckPastNOnlyTheRacedCellsGoWrong) {
    SKIP_WITHOUT_GPU();
    const model::ExperimentCase c = make_case(Experiment::NoBoundsCheck, 70, 70, 64, 16);
    const int runs = 20;
    const RunResult result = run(Experiment::NoBoundsCheck, c, runs);
    ASSERT_TRUE(result.ok) << result.error;
    const model::ExperimentRun& r = *result.experiment;
    EXPECT_EQ(r.stray_writes, runs * stores_past_c(c));
    EXPECT_LE(r.cells_ever_wrong, 69 * 10);
    EXPECT_LE(r.nan_cells, 69 * 10);
    for (int row = 0; row < 70; ++row)
        for (int col = 0; col < 70; ++col) {
            const bool raced = row >= 1 && col < 10;
            if (!raced) {
                EXPECT_EQ(r.map.wrong_runs[static_cast<std::size_t>(row * 70 + col)], 0) << row << ", " << col;
            }
        }
    std::cout << model::summarize_run(r) << '\n';
}

TEST(Experiments, WatchedControlSeesNoStaleReadAndGetsCRight) {
    SKIP_WITHOUT_GPU();
    const OwnStream stream;
    const model::ExperimentCase cases[] = {
        make_case(Experiment::MissingFirstSync, 64, 64, 64, 16),
        make_case(Experiment::MissingFirstSync, 70, 50, 37, 8),  // padded tiles: the expected zeros
        make_case(Experiment::MissingFirstSync, 100, 40, 90, 32),
    };
    for (const model::ExperimentCase& c : cases) {
        SCOPED_TRACE(model::describe(c.kernel) + " at " + std::to_string(c.problem.m) + "×" +
                     std::to_string(c.problem.n) + "×" + std::to_string(c.problem.k));
        const WatchOutcome outcome = watch_shared_memory(WatchedBarriers::BothKept, c, 5, true, stream.get());
        const model::LaunchGeometry g = model::plan_launch(c.kernel, c.problem);
        const std::int64_t t = c.kernel.tile;
        const std::int64_t phases = (c.problem.k + t - 1) / t;
        EXPECT_EQ(outcome.report.launches, 5);
        EXPECT_EQ(outcome.report.stale_reads, 0);
        EXPECT_TRUE(outcome.report.reads.empty());
        EXPECT_EQ(outcome.report.reads_checked, g.grid.x * g.grid.y * t * t * phases * 2 * t);
        EXPECT_TRUE(outcome.c_right) << outcome.c_summary;
    }
}

// Every record must be a read a missing barrier can explain: inside the block and the tile,
// of the slot the reader reads, with a value other than the phase's; and when the host named
// the phase the value came from, that value is this slot's element in that phase.
void expect_consistent(const model::StaleReadReport& report, WatchedBarriers barriers) {
    const model::ExperimentCase& c = report.c;
    const model::Problem& p = c.problem;
    const int t = c.kernel.tile;
    const model::LaunchGeometry g = model::plan_launch(c.kernel, p);
    const int phases = static_cast<int>((p.k + t - 1) / t);
    EXPECT_GE(report.launches, 1);
    EXPECT_LE(report.launches, kMaxWatchedLaunches);
    EXPECT_GT(report.reads_checked, 0);
    EXPECT_LE(report.stale_reads, report.reads_checked);
    // Up to half the records for phase 0's reads, then up to half for the later phases'.
    EXPECT_LE(static_cast<std::int64_t>(report.reads.size()),
              std::min<std::int64_t>(report.stale_reads, model::kMaxStaleReads));
    EXPECT_EQ(report.reads.empty(), report.stale_reads == 0);
    int named = 0;
    bool later = false;
    for (const model::StaleRead& read : report.reads) {
        if (read.phase > 0) later = true;
        else EXPECT_FALSE(later) << "a phase-0 record after a later phase's";
        const bool of_a = read.operand == 'A';
        ASSERT_TRUE(of_a || read.operand == 'B');
        ASSERT_GE(read.block_x, 0);
        ASSERT_LT(read.block_x, g.grid.x);
        ASSERT_GE(read.block_y, 0);
        ASSERT_LT(read.block_y, g.grid.y);
        ASSERT_GE(read.phase, 0);
        ASSERT_LT(read.phase, phases);
        for (const int v : {read.slot_row, read.slot_col, read.reader_x, read.reader_y}) {
            ASSERT_GE(v, 0);
            ASSERT_LT(v, t);
        }
        // As[ty][i] and Bs[i][tx]: the reader's own row of As, its own column of Bs.
        if (of_a) EXPECT_EQ(read.reader_y, read.slot_row);
        else EXPECT_EQ(read.reader_x, read.slot_col);
        EXPECT_EQ(read.writer_x, read.slot_col);
        EXPECT_EQ(read.writer_y, read.slot_row);
        const std::int64_t band = of_a ? std::int64_t{read.block_y} * t + read.slot_row
                                       : std::int64_t{read.block_x} * t + read.slot_col;
        const std::int64_t along = std::int64_t{read.phase} * t + (of_a ? read.slot_col : read.slot_row);
        const float expected = of_a ? model::watched_value(band, along, p.m, p.k) : model::watched_value(along, band, p.k, p.n);
        EXPECT_EQ(read.expected, expected);
        EXPECT_FALSE(read.got == read.expected);
        if (read.value_phase < 0) continue;
        ++named;
        EXPECT_EQ(read.value_phase, barriers == WatchedBarriers::FirstMissing ? read.phase - 1 : read.phase + 1);
        if (read.got == 0.0f) continue;  // the zero padding of that phase's slot
        const auto place = model::decode_watched_value(read.got, p, of_a);
        ASSERT_TRUE(place);
        EXPECT_EQ(of_a ? place->row : place->col, band);
        EXPECT_EQ((of_a ? place->col : place->row) / t, read.value_phase);
        EXPECT_EQ((of_a ? place->col : place->row) % t, of_a ? read.slot_col : read.slot_row);
    }
    std::cout << report.stale_reads << " stale of " << report.reads_checked << " reads in launch " << report.launches
              << ", " << named << " of " << report.reads.size() << " kept traced to a phase\n";
    if (const auto telling = model::most_telling(report))
        std::cout << model::explain_stale_read(report.experiment, *telling, t) << '\n';
}

TEST(Experiments, MissingBarrierStaleReadsAreConsistent) {
    SKIP_WITHOUT_GPU();
    const OwnStream stream;
    for (const WatchedBarriers barriers : {WatchedBarriers::FirstMissing, WatchedBarriers::SecondMissing})
        for (const int tile : {8, 16, 32}) {
            const model::ExperimentCase c = make_case(Experiment::MissingFirstSync, 256, 256, 256, tile);
            SCOPED_TRACE((barriers == WatchedBarriers::FirstMissing ? "first missing, T = " : "second missing, T = ") +
                         std::to_string(tile));
            const WatchOutcome outcome = watch_shared_memory(barriers, c, kMaxWatchedLaunches, false, stream.get());
            EXPECT_EQ(outcome.report.experiment, barriers == WatchedBarriers::FirstMissing
                                                     ? Experiment::MissingFirstSync
                                                     : Experiment::MissingSecondSync);
            expect_consistent(outcome.report, barriers);
        }
}

TEST(Experiments, MissingSyncRequestsCarryTheirStaleReads) {
    SKIP_WITHOUT_GPU();
    for (const Experiment experiment : {Experiment::MissingFirstSync, Experiment::MissingSecondSync}) {
        const model::ExperimentCase c = make_case(experiment, 128, 128, 128, 16);
        const RunResult result = run(experiment, c, 5);
        ASSERT_TRUE(result.ok) << result.error;
        ASSERT_TRUE(result.stale_reads);
        EXPECT_EQ(result.stale_reads->experiment, experiment);
        expect_consistent(*result.stale_reads, experiment == Experiment::MissingFirstSync
                                                   ? WatchedBarriers::FirstMissing
                                                   : WatchedBarriers::SecondMissing);
    }
}

TEST(Experiments, BankConflictsStayRightAndAreTimed) {
    SKIP_WITHOUT_GPU();
    const model::ExperimentCase c = make_case(Experiment::BankConflicts, 1024, 1024, 1024, 0);
    const RunResult result = run(Experiment::BankConflicts, c, 3);
    ASSERT_TRUE(result.ok) << result.error;
    const model::ExperimentRun& r = *result.experiment;
    EXPECT_EQ(r.runs, 3);
    EXPECT_EQ(r.wrong_runs, 0);
    EXPECT_EQ(r.stray_writes, 0);
    EXPECT_GT(r.broken_ms, 0.0);
    EXPECT_GT(r.real_ms, 0.0);
    EXPECT_FALSE(result.stale_reads);
    std::cout << model::summarize_run(r) << '\n';
}

TEST(Experiments, RefusesWhatItCannotRun) {
    SKIP_WITHOUT_GPU();
    const RunResult tile = run(Experiment::MissingFirstSync, make_case(Experiment::MissingFirstSync, 64, 64, 64, 12), 3);
    EXPECT_FALSE(tile.ok);
    EXPECT_FALSE(tile.error.empty());
    const RunResult none = run(Experiment::NoBoundsCheck, make_case(Experiment::NoBoundsCheck, 64, 64, 64, 16), 0);
    EXPECT_FALSE(none.ok);
    EXPECT_NE(none.error.find("not 0"), std::string::npos) << none.error;
}

}  // namespace
}  // namespace ts::gpu
