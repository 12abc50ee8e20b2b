// The kernels' sub-steps (index ↔ step, for the tiled and the naive timeline, the compute
// whole or one k at a time), how much of K is accumulated, and the running counters, which
// must end exactly at count_traffic()'s totals.
#include <gtest/gtest.h>

#include "model/phase_timeline.hpp"
#include "model/traffic.hpp"
#include "support/problems.hpp"

namespace {

using ts::model::KernelKind;
using ts::model::KernelStep;
using ts::model::Operand;
using ts::model::SubStep;
using ts::model::Timeline;

using ts::testing_support::make_problem;

TEST(PhaseTimeline, TiledIsFourStepsPerPhasePlusStore) {
    EXPECT_EQ(ts::model::make_timeline(make_problem(4, 4, 4), 4, false, false).count(), 5);
    // K = 36 with T = 8: five phases.
    EXPECT_EQ(ts::model::make_timeline(make_problem(40, 28, 36), 8, false, false).count(), 21);
    // One k at a time: load, sync, 8 k steps, sync per phase.
    EXPECT_EQ(ts::model::make_timeline(make_problem(40, 28, 36), 8, false, true).count(), 5 * 11 + 1);
    // Naive: the compute alone per chunk of T.
    EXPECT_EQ(ts::model::make_timeline(make_problem(40, 28, 36), 8, true, false).count(), 6);
    EXPECT_EQ(ts::model::make_timeline(make_problem(40, 28, 36), 8, true, true).count(), 41);
}

TEST(PhaseTimeline, IndexRoundTripsForEveryShape) {
    for (const bool naive : {false, true})
        for (const bool each_k : {false, true})
            for (int phases = 1; phases <= 5; ++phases)
                for (int tile = 1; tile <= 4; ++tile) {
                    const Timeline t{phases, tile, naive, each_k};
                    for (int i = 0; i < t.count(); ++i) {
                        const KernelStep step = ts::model::step_at(t, i);
                        ASSERT_EQ(ts::model::step_index(t, step), i) << naive << each_k << phases << tile << " " << i;
                        ASSERT_TRUE(ts::model::has_substep(t, step.sub));
                        ASSERT_EQ(step.sub == SubStep::Store, i == t.count() - 1);
                        ASSERT_EQ(step.k >= 0, each_k && step.sub == SubStep::Compute);
                    }
                }
}

TEST(PhaseTimeline, KernelOrderWithinAPhase) {
    const Timeline t{3, 4, false, false};
    EXPECT_EQ(ts::model::step_at(t, 4), (KernelStep{1, SubStep::LoadTiles, -1}));
    EXPECT_EQ(ts::model::step_at(t, 5), (KernelStep{1, SubStep::SyncAfterLoad, -1}));
    EXPECT_EQ(ts::model::step_at(t, 6), (KernelStep{1, SubStep::Compute, -1}));
    EXPECT_EQ(ts::model::step_at(t, 7), (KernelStep{1, SubStep::SyncAfterCompute, -1}));
    EXPECT_EQ(ts::model::step_at(t, 12), (KernelStep{2, SubStep::Store, -1}));
    const Timeline each{3, 4, false, true};
    EXPECT_EQ(ts::model::step_at(each, 7 + 2 + 3), (KernelStep{1, SubStep::Compute, 3}));
    EXPECT_EQ(ts::model::step_at(each, 7 + 6), (KernelStep{1, SubStep::SyncAfterCompute, -1}));
}

TEST(PhaseTimeline, OutOfRangeClampsAndNaiveMapsMissingStepsToItsCompute) {
    const Timeline t{2, 4, false, false};
    EXPECT_EQ(ts::model::step_at(t, -3), (KernelStep{0, SubStep::LoadTiles, -1}));
    EXPECT_EQ(ts::model::step_at(t, 99), (KernelStep{1, SubStep::Store, -1}));
    EXPECT_EQ(ts::model::step_index(t, {7, SubStep::Compute, -1}), 6);
    const Timeline naive{3, 4, true, true};
    EXPECT_EQ(ts::model::step_index(naive, {1, SubStep::LoadTiles, -1}), 4);
    EXPECT_EQ(ts::model::step_index(naive, {1, SubStep::SyncAfterCompute, -1}), 7);
    EXPECT_FALSE(ts::model::has_substep(naive, SubStep::SyncAfterLoad));
}

TEST(PhaseTimeline, NamesParseBack) {
    for (const SubStep sub : {SubStep::LoadTiles, SubStep::SyncAfterLoad, SubStep::Compute, SubStep::SyncAfterCompute,
                              SubStep::Store})
        EXPECT_EQ(ts::model::parse_substep(ts::model::substep_name(sub)), sub);
    EXPECT_EQ(ts::model::parse_substep("sync1"), SubStep::SyncAfterLoad);
    EXPECT_FALSE(ts::model::parse_substep("barrier"));
}

TEST(PhaseTimeline, AccumulatedKGrowsAtComputeAndStopsAtK) {
    const auto p = make_problem(40, 28, 36);
    const auto end = [&](KernelStep step) { return ts::model::accumulated_at(p, 8, step).end; };
    EXPECT_EQ(end({2, SubStep::LoadTiles}), 16);
    EXPECT_EQ(end({2, SubStep::SyncAfterLoad}), 16);
    EXPECT_EQ(end({2, SubStep::Compute}), 24);
    EXPECT_EQ(end({2, SubStep::Compute, 0}), 17);
    EXPECT_EQ(end({2, SubStep::Compute, 7}), 24);
    EXPECT_EQ(end({2, SubStep::SyncAfterCompute}), 24);
    EXPECT_EQ(end({0, SubStep::LoadTiles}), 0);
    // The last phase is partial: 32..35, whatever k of the tile loop.
    EXPECT_EQ(end({4, SubStep::Compute, 2}), 35);
    EXPECT_EQ(end({4, SubStep::Compute, 6}), 36);
    EXPECT_EQ(end({4, SubStep::Store}), 36);
}

// Sizes that are and are not multiples of T, rectangular, batched.
const ts::model::Problem kProblems[] = {make_problem(4, 4, 4), make_problem(40, 28, 36), make_problem(7, 13, 5, 3),
                                        make_problem(33, 1, 64, 2), make_problem(1, 50, 9)};

TEST(TrafficSoFar, EndsAtTheModelsTotals) {
    for (const auto& p : kProblems)
        for (const int tile : {1, 2, 3, 8, 16, 32})
            for (const KernelKind kind : {KernelKind::Naive, KernelKind::Tiled}) {
                const ts::model::KernelConfig config{kind, tile, tile, tile};
                const auto total = ts::model::count_traffic(config, p);
                const Timeline t = ts::model::make_timeline(p, tile, kind == KernelKind::Naive, false);
                const auto end = ts::model::traffic_so_far(kind, p, tile, ts::model::step_at(t, t.count() - 1));
                EXPECT_EQ(end.global_loads_a, total.global_loads_a) << p.m << "×" << p.n << "×" << p.k << " T=" << tile;
                EXPECT_EQ(end.global_loads_b, total.global_loads_b);
                EXPECT_EQ(end.shared_stores, total.shared_stores);
                EXPECT_EQ(end.shared_loads, total.shared_loads);
                EXPECT_EQ(end.global_stores, total.global_stores);
            }
}

TEST(TrafficSoFar, GrowsStepByStepAndMatchesTheElementCounts) {
    for (const auto& p : kProblems)
        for (const int tile : {1, 3, 8})
            for (const KernelKind kind : {KernelKind::Naive, KernelKind::Tiled})
                for (const bool each_k : {false, true}) {
                    // The naive kernel also walks the tiled timeline in the side-by-side view.
                    for (const bool naive_timeline : {false, true}) {
                        const Timeline t = ts::model::make_timeline(p, tile, naive_timeline, each_k);
                        ts::model::TrafficSoFar previous;
                        for (int i = 0; i < t.count(); ++i) {
                            const KernelStep step = ts::model::step_at(t, i);
                            const auto now = ts::model::traffic_so_far(kind, p, tile, step);
                            ASSERT_GE(now.global_loads_a, previous.global_loads_a);
                            ASSERT_GE(now.shared_loads, previous.shared_loads);
                            ASSERT_GE(now.shared_stores, previous.shared_stores);
                            previous = now;
                            // Every element's count, summed over the matrix and the batches,
                            // is the counter; and every row of A (column of B) reads alike.
                            std::int64_t a = 0, b = 0;
                            for (int r = 0; r < p.m; ++r)
                                for (int c = 0; c < p.k; ++c) {
                                    const auto reads =
                                        ts::model::element_reads_so_far(kind, p, tile, step, Operand::A, r, c);
                                    ASSERT_EQ(reads, ts::model::element_reads_so_far(kind, p, tile, step, Operand::A,
                                                                                     0, c));
                                    a += reads;
                                }
                            for (int r = 0; r < p.k; ++r)
                                for (int c = 0; c < p.n; ++c)
                                    b += ts::model::element_reads_so_far(kind, p, tile, step, Operand::B, r, c);
                            ASSERT_EQ(a * p.batch, now.global_loads_a) << "step " << i;
                            ASSERT_EQ(b * p.batch, now.global_loads_b) << "step " << i;
                        }
                    }
                }
}

TEST(TrafficSoFar, ReuseFactorIsVisibleAtTheEnd) {
    // 40×28×36, T = 8: the grid is 4 × 5 blocks. Tiled, each A element is read by the 4
    // blocks of its row of blocks; naive, by all N = 28 threads of its row of C.
    const auto p = make_problem(40, 28, 36);
    const KernelStep store{4, SubStep::Store};
    const ts::model::KernelConfig tiled{KernelKind::Tiled, 8, 8, 8};
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Tiled, p, 8, store, Operand::A, 5, 35), 4);
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Tiled, p, 8, store, Operand::A, 5, 35),
              ts::model::loads_of_element(tiled, p, true));
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Naive, p, 8, store, Operand::A, 5, 35), 28);
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Tiled, p, 8, store, Operand::B, 35, 5), 5);
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Naive, p, 8, store, Operand::B, 35, 5), 40);
    // Mid-way: phase 1's tiles are loaded (k 0..15), but its compute has not run.
    const KernelStep load1{1, SubStep::LoadTiles};
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Tiled, p, 8, load1, Operand::A, 0, 15), 4);
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Tiled, p, 8, load1, Operand::A, 0, 16), 0);
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Naive, p, 8, load1, Operand::A, 0, 7), 28);
    EXPECT_EQ(ts::model::element_reads_so_far(KernelKind::Naive, p, 8, load1, Operand::A, 0, 8), 0);
}

TEST(TrafficSoFar, CublasIsNotModelled) {
    const auto none = ts::model::traffic_so_far(KernelKind::Cublas, make_problem(8, 8, 8), 4, {1, SubStep::Store});
    EXPECT_EQ(none, ts::model::TrafficSoFar{});
}

}  // namespace
