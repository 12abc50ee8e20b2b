// The model's side of the hardware counters: predictions worked out by hand for small
// problems, the metric list CUPTI is asked for, the ratio's edge cases and the words shown
// without the profiling permission.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "model/counters.hpp"
#include "model/device_limits.hpp"
#include "model/ladder.hpp"
#include "model/memory_sectors.hpp"
#include "support/problems.hpp"

namespace {

using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;

using ts::model::Counter;
using ts::model::KernelConfig;
using ts::model::KernelKind;
using ts::model::Problem;

Problem cube(std::int64_t size) { return make_problem(size, size, size); }



KernelConfig rung(KernelKind kind) {
    KernelConfig c;
    c.kind = kind;
    return c;
}

const ts::model::DeviceLimits& h100() { return ts::model::device_presets()[0]; }

double predicted(Counter counter, const KernelConfig& config, const Problem& p) {
    const auto prediction = ts::model::predict_counter(counter, config, p, h100());
    EXPECT_TRUE(prediction.has_value()) << ts::model::why_no_prediction(counter, config, p, h100());
    return prediction ? prediction->value : -1.0;
}

TEST(Counters, EveryCounterNamesItsNsightMetrics) {
    const auto metrics = ts::model::all_counter_metrics();
    ASSERT_EQ(metrics.size(), 8u) << "DRAM and bank conflicts are two metrics each, the rest one";
    EXPECT_EQ(metrics[0], "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    EXPECT_EQ(metrics[1], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    EXPECT_EQ(metrics[2], "lts__t_sectors.sum");
    EXPECT_EQ(metrics[3], "dram__bytes_read.sum");
    EXPECT_EQ(metrics[4], "dram__bytes_write.sum");
    EXPECT_EQ(metrics[7], "sm__warps_active.avg.pct_of_peak_sustained_active");
    for (const Counter counter : ts::model::kAllCounters) {
        EXPECT_FALSE(ts::model::counter_info(counter).label.empty());
        EXPECT_FALSE(ts::model::counter_info(counter).meaning.empty());
    }
}

TEST(Counters, CounterValueAddsItsMetricsAndNeedsAllOfThem) {
    const std::vector<std::pair<std::string, double>> metrics = {{"dram__bytes_read.sum", 1000.0},
                                                                 {"dram__bytes_write.sum", 24.0},
                                                                 {"lts__t_sectors.sum", 7.0}};
    EXPECT_EQ(ts::model::counter_value(Counter::DramBytes, metrics), 1024.0);
    EXPECT_EQ(ts::model::counter_value(Counter::L2Sectors, metrics), 7.0);
    EXPECT_FALSE(ts::model::counter_value(Counter::SharedBankConflicts, metrics).has_value());
}

// Tiled T = 16 on 64³: 4 × 4 = 16 blocks of 256 threads (8 warps), 4 phases. A warp is two
// rows of 16 threads; per phase it loads one element of A each (two rows × 64 bytes, each
// row 64-byte aligned: 4 sectors) and one of B (the same: 4 sectors).
TEST(Counters, TiledSixteenOnSixtyFourCubedByHand) {
    const Problem p = cube(64);
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, make_tiled(16), p), 16 * 4 * 8 * 2);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, make_tiled(16), p), 16 * 4 * 8 * 2 * 4);
    // Stores: 16 blocks × 8 warps, each two rows of 16 floats of C: 4 sectors.
    EXPECT_EQ(predicted(Counter::L2Sectors, make_tiled(16), p), 16 * 4 * 8 * 2 * 4 + 16 * 8 * 4);
    EXPECT_EQ(predicted(Counter::DramBytes, make_tiled(16), p), 3 * 64 * 64 * 4);
    EXPECT_EQ(predicted(Counter::SharedBankConflicts, make_tiled(16), p), 0.0);
}

// T = 32: one warp is one row of the tile: 32 floats of A (4 sectors), 32 of B (4 sectors).
// 2 × 2 blocks × 2 phases × 32 warps × 2 = 512 requests.
TEST(Counters, TiledThirtyTwoOnSixtyFourCubedByHand) {
    const Problem p = cube(64);
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, make_tiled(32), p), 4 * 2 * 32 * 2);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, make_tiled(32), p), 4 * 2 * 32 * 2 * 4);
}

// A tile hanging over the edge: M = N = K = 20 with T = 16 makes 2 × 2 blocks and 2 phases.
// A warp of the last block row whose rows lie below row 19 loads nothing at all.
TEST(Counters, TiledEdgeWarpsWithNothingInsideAskForNothing) {
    const Problem p = cube(20);
    // Rows 0..15 of block row 0: all 8 warps load A in both phases (phase 1's columns 16..19
    // are inside for every row): 2 blocks × 8 warps × 2 phases. Block row 1 holds rows 16..19
    // (warps 0 and 1: rows 16..19), warps 2..7 hold rows 20..31: nothing of A.
    // B: phase 0 (rows 0..15 of B): 8 warps; phase 1 (rows 16..19): warps 0 and 1 only; in
    // both block columns and both block rows.
    const double a = 2 * 8 * 2 + 2 * 2 * 2;
    const double b = 2 * 2 * (8 + 2);
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, make_tiled(16), p), a + b);
}

// Naive 16×16 on 64³: 16 blocks × 8 warps; per k a warp loads A[row][k] for its two rows (2
// sectors: each half-warp reads one address) and B[k][col] for 16 columns (the same for both
// halves: 64 bytes, 2 sectors).
TEST(Counters, NaiveSixteenBySixteenOnSixtyFourCubedByHand) {
    const Problem p = cube(64);
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, make_naive(KernelKind::Naive, 16, 16), p), 16 * 8 * 64 * 2);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, make_naive(KernelKind::Naive, 16, 16), p), 16 * 8 * 64 * (2 + 2));
    EXPECT_EQ(predicted(Counter::SharedBankConflicts, make_naive(KernelKind::Naive, 16, 16), p), 0.0);
}

// Naive with x → row (02): a warp of 32×8 blocks holds 32 rows and one column: A is 32 rows
// apart (32 sectors), B one address (1 sector).
TEST(Counters, NaiveRowFromXReadsThirtyTwoSectorsOfA) {
    KernelConfig c = make_naive(KernelKind::Naive, 32, 8);
    c.kind = KernelKind::NaiveRowFromX;
    const Problem p = cube(64);
    // 2 × 8 blocks of 8 warps.
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, c, p), 2 * 8 * 8 * 64 * 2);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, c, p), 2 * 8 * 8 * 64 * (32 + 1));
}

// 07 regtile-2d on 256×256×16: 2 × 2 blocks of 256 threads (8 warps), 2 K steps, 4 loads of A
// and 4 of B per thread and step. A warp's load of A covers 4 rows × 8 columns of the A tile
// (4 rows × 32 bytes, aligned: 4 sectors), of B 32 neighbouring floats (4 sectors).
TEST(Counters, RegTile2dByHand) {
    const Problem p = make_problem(256, 256, 16);
    const KernelConfig c = rung(KernelKind::RegTile2d);
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, c, p), 4 * 2 * 8 * 8);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, c, p), 4 * 2 * 8 * 8 * 4);
}

// 10 warptile on 128×128×16: one block of 4 warps, one K step, 4 float4 loads of A and 4 of
// B per thread. A warp's float4s of A cover 8 rows × 16 floats (2 sectors a row: 16), of B
// 128 floats of one row (16 sectors).
TEST(Counters, WarptileFloat4IsOneRequest) {
    const Problem p = make_problem(128, 128, 16);
    const KernelConfig c = rung(KernelKind::Warptile);
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, c, p), 4 * 8);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, c, p), 4 * 8 * 16);
    // With N = 130 the rows of B and C no longer start on 16 bytes: every float4 is four
    // guarded scalar loads.
    const Problem odd = make_problem(128, 130, 16);
    EXPECT_GT(predicted(Counter::GlobalLoadRequests, c, odd), 4 * 8 * 2);
}

// The pipelined rungs copy with cp.async, which Nsight does not count as op_ld.
TEST(Counters, PipelinedLoadsAreCopiesNotLoads) {
    const Problem p = cube(256);
    const auto requests =
        ts::model::predict_counter(Counter::GlobalLoadRequests, rung(KernelKind::Pipelined), p, h100());
    ASSERT_TRUE(requests.has_value());
    EXPECT_EQ(requests->value, 0.0);
    EXPECT_NE(requests->basis.find("cp.async"), std::string::npos);
    EXPECT_GT(predicted(Counter::L2Sectors, rung(KernelKind::Pipelined), p), 0.0);
    EXPECT_FALSE(ts::model::predict_counter(Counter::SharedBankConflicts, rung(KernelKind::Pipelined), p, h100()));
}

// 07 reads As[tile_row + r][i]: lanes 0..15 share one row (a broadcast), lanes 16..31 the row 8
// below, 64 words further: the same bank, a second wavefront. The model counts such reads.
TEST(Counters, RegTile2dHasBankConflictsTheModelCounts) {
    EXPECT_GT(predicted(Counter::SharedBankConflicts, rung(KernelKind::RegTile2d), cube(256)), 0.0);
}

TEST(Counters, SectorsAreAtLeastRequestsAndL2AtLeastLoads) {
    for (const KernelConfig& c : {make_naive(KernelKind::Naive, 16, 16), make_naive(KernelKind::Naive, 32, 8), make_tiled(8), make_tiled(32), rung(KernelKind::RegTile1d),
                                  rung(KernelKind::RegTile2d), rung(KernelKind::Vectorized),
                                  rung(KernelKind::ConflictFree), rung(KernelKind::Warptile)}) {
        for (const Problem& p : {cube(96), make_problem(100, 60, 37), make_problem(33, 129, 64)}) {
            const double requests = predicted(Counter::GlobalLoadRequests, c, p);
            const double sectors = predicted(Counter::GlobalLoadSectors, c, p);
            EXPECT_GE(sectors, requests) << ts::model::describe(c);
            EXPECT_GT(predicted(Counter::L2Sectors, c, p), sectors) << ts::model::describe(c);
        }
    }
}

// Walking every warp of a 4096³ launch would take seconds; the walk uses the blocks that
// repeat. It must stay fast enough to run beside each reading.
TEST(Counters, PredictionsOfLargeProblemsAreQuick) {
    const Problem p = cube(4096);
    for (const KernelConfig& c : {make_naive(KernelKind::Naive, 16, 16), make_tiled(32), rung(KernelKind::RegTile2d), rung(KernelKind::Warptile)}) {
        const auto begin = std::chrono::steady_clock::now();
        const double requests = predicted(Counter::GlobalLoadRequests, c, p);
        const double took_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        EXPECT_GT(requests, 0.0);
        EXPECT_LT(took_ms, 500.0) << ts::model::describe(c) << " (debug build; release is several times faster)";
    }
    // Sizes that nothing divides are the slowest: every dimension needs 9 representatives.
    const Problem odd = cube(4093);
    for (const KernelConfig& c : {make_naive(KernelKind::Naive, 16, 16), make_tiled(32), rung(KernelKind::RegTile2d), rung(KernelKind::Warptile)}) {
        const auto begin = std::chrono::steady_clock::now();
        for (const Counter counter : ts::model::kAllCounters) ts::model::predict_counter(counter, c, odd, h100());
        const double took_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        EXPECT_LT(took_ms, 2000.0) << ts::model::describe(c) << ", every counter (debug build)";
    }
    // Tiled T = 32 at 4096³: 128² blocks × 128 phases × 32 warps × 2.
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, make_tiled(32), p), 128.0 * 128 * 128 * 32 * 2);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, make_tiled(32), p), 128.0 * 128 * 128 * 32 * 2 * 4);
}

// The prediction walks at most 9 representatives per dimension; every warp of every block,
// walked one by one with memory_sectors.hpp, must count the same. T = 12 and K = 77 make the
// rows of A start at every alignment, and 200 × 130 leaves partial tiles at the edges.
TEST(Counters, RepresentativeBlocksCountLikeEveryBlock) {
    const Problem p = make_problem(200, 130, 77);
    const int t = 12;
    const int grid_x = (130 + t - 1) / t, grid_y = (200 + t - 1) / t, phases = (77 + t - 1) / t;
    double requests = 0, sectors = 0;
    for (int by = 0; by < grid_y; ++by)
        for (int bx = 0; bx < grid_x; ++bx)
            for (int phase = 0; phase < phases; ++phase)
                for (int warp = 0; warp < (t * t + 31) / 32; ++warp)
                    for (const auto operand : {ts::model::Operand::A, ts::model::Operand::B}) {
                        const auto access = ts::model::tiled_load_access(p, t, {bx, by}, phase, operand, warp,
                                                                         ts::model::WarpMapping::Coalesced);
                        requests += access.active_lanes > 0;
                        sectors += access.sectors;
                    }
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, make_tiled(t), p), requests);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, make_tiled(t), p), sectors);

    // The naive kernel: every k of every warp.
    const Problem q = make_problem(150, 60, 37);
    const KernelConfig c = make_naive(KernelKind::Naive, 16, 8);
    requests = sectors = 0;
    for (int by = 0; by < (150 + 7) / 8; ++by)
        for (int bx = 0; bx < (60 + 15) / 16; ++bx)
            for (int warp = 0; warp < 4; ++warp)
                for (int k = 0; k < 37; ++k)
                    for (const auto operand : {ts::model::Operand::A, ts::model::Operand::B}) {
                        const auto access = ts::model::naive_read_access(q, {16, 8}, {bx, by}, k, operand, warp,
                                                                         ts::model::WarpMapping::Coalesced);
                        requests += access.active_lanes > 0;
                        sectors += access.sectors;
                    }
    EXPECT_EQ(predicted(Counter::GlobalLoadRequests, c, q), requests);
    EXPECT_EQ(predicted(Counter::GlobalLoadSectors, c, q), sectors);
}

TEST(Counters, CublasHasNoModelButDramHasItsCompulsoryBytes) {
    const KernelConfig c = rung(KernelKind::Cublas);
    const Problem p = cube(256);
    EXPECT_FALSE(ts::model::predict_counter(Counter::GlobalLoadRequests, c, p, h100()));
    EXPECT_NE(ts::model::why_no_prediction(Counter::GlobalLoadRequests, c, p, h100()).find("cuBLAS"),
              std::string::npos);
    EXPECT_EQ(predicted(Counter::DramBytes, c, p), 3.0 * 256 * 256 * 4);
}

TEST(Counters, OccupancyIsTheTheoreticalAndSaysSo) {
    const auto o = ts::model::predict_counter(Counter::AchievedOccupancy, make_tiled(16), cube(1024), h100(), 32);
    ASSERT_TRUE(o.has_value());
    EXPECT_EQ(o->value, 100.0) << "8 blocks of 256 threads fill the H100's 2048 threads at 32 registers";
    EXPECT_NE(o->basis.find("theoretical"), std::string::npos);
    EXPECT_NE(o->basis.find("only be lower"), std::string::npos);
}

TEST(Counters, RatioNeedsAModelValueThatIsNotZero) {
    ts::model::CounterReading r;
    r.measured = 1010.0;
    EXPECT_FALSE(ts::model::counter_ratio(r).has_value()) << "no model value";
    r.model = 0.0;
    EXPECT_FALSE(ts::model::counter_ratio(r).has_value()) << "the model says 0";
    r.model = 1000.0;
    ASSERT_TRUE(ts::model::counter_ratio(r).has_value());
    EXPECT_DOUBLE_EQ(*ts::model::counter_ratio(r), 1.01);
    r.measured = 0.0;
    EXPECT_DOUBLE_EQ(*ts::model::counter_ratio(r), 0.0);
}

TEST(Counters, MakeReadingKeepsTheReasonWhereThereIsNoModel) {
    const auto reading = ts::model::make_reading(Counter::L2Sectors, 5.0, rung(KernelKind::Cublas), cube(64), h100());
    EXPECT_EQ(reading.measured, 5.0);
    EXPECT_FALSE(reading.model.has_value());
    EXPECT_NE(reading.model_basis.find("cuBLAS"), std::string::npos);
    const auto tiled_reading = ts::model::make_reading(Counter::GlobalLoadRequests, 1024.0, make_tiled(16), cube(64), h100());
    EXPECT_EQ(tiled_reading.model, 1024.0);
    EXPECT_EQ(ts::model::counter_ratio(tiled_reading), 1.0);
}

TEST(Counters, PermissionHelpSaysWhyAndHowToAllow) {
    const std::string help = ts::model::counters_permission_help();
    EXPECT_NE(help.find("NVreg_RestrictProfilingToAdminUsers=1"), std::string::npos) << "why";
    EXPECT_NE(help.find("options nvidia NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << "how";
    EXPECT_NE(help.find("/etc/modprobe.d/"), std::string::npos);
    EXPECT_NE(help.find("root"), std::string::npos);
    EXPECT_NE(help.find("reboot"), std::string::npos);
    EXPECT_NE(help.find("https://developer.nvidia.com/ERR_NVGPUCTRPERM"), std::string::npos);
}

}  // namespace
