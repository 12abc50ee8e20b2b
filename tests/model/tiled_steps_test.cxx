// The tiled kernel's sub-steps: index ↔ (phase, sub-step) and how much of K is accumulated.
#include <gtest/gtest.h>

#include "model/tiled_steps.hpp"

namespace {

using ts::model::SubStep;
using ts::model::TiledStep;

TEST(TiledSteps, CountIsFourPerPhasePlusStore) {
    EXPECT_EQ(ts::model::tiled_step_count(1), 5);
    EXPECT_EQ(ts::model::tiled_step_count(5), 21);
    // K = 36 with T = 8: five phases.
    EXPECT_EQ(ts::model::tiled_step_count(ts::model::phase_count(36, 8)), 21);
}

TEST(TiledSteps, IndexRoundTrips) {
    for (int phases = 1; phases <= 9; ++phases) {
        const int count = ts::model::tiled_step_count(phases);
        for (int i = 0; i < count; ++i) {
            const TiledStep step = ts::model::tiled_step_at(phases, i);
            ASSERT_EQ(ts::model::tiled_step_index(phases, step), i) << phases << " phases, index " << i;
            ASSERT_GE(step.phase, 0);
            ASSERT_LT(step.phase, phases);
            // Only the very last index is the store.
            ASSERT_EQ(step.sub == SubStep::Store, i == count - 1);
        }
    }
}

TEST(TiledSteps, KernelOrderWithinAPhase) {
    EXPECT_EQ(ts::model::tiled_step_at(3, 4), (TiledStep{1, SubStep::LoadTiles}));
    EXPECT_EQ(ts::model::tiled_step_at(3, 5), (TiledStep{1, SubStep::SyncAfterLoad}));
    EXPECT_EQ(ts::model::tiled_step_at(3, 6), (TiledStep{1, SubStep::Compute}));
    EXPECT_EQ(ts::model::tiled_step_at(3, 7), (TiledStep{1, SubStep::SyncAfterCompute}));
    EXPECT_EQ(ts::model::tiled_step_at(3, 12), (TiledStep{2, SubStep::Store}));
}

TEST(TiledSteps, OutOfRangeClamps) {
    EXPECT_EQ(ts::model::tiled_step_at(2, -3), (TiledStep{0, SubStep::LoadTiles}));
    EXPECT_EQ(ts::model::tiled_step_at(2, 99), (TiledStep{1, SubStep::Store}));
    EXPECT_EQ(ts::model::tiled_step_index(2, {7, SubStep::Compute}), 6);
}

TEST(TiledSteps, NamesParseBack) {
    for (const SubStep sub : {SubStep::LoadTiles, SubStep::SyncAfterLoad, SubStep::Compute, SubStep::SyncAfterCompute,
                              SubStep::Store})
        EXPECT_EQ(ts::model::parse_substep(ts::model::substep_name(sub)), sub);
    EXPECT_EQ(ts::model::parse_substep("sync1"), SubStep::SyncAfterLoad);
    EXPECT_FALSE(ts::model::parse_substep("barrier"));
}

TEST(TiledSteps, AccumulatedKGrowsAtCompute) {
    ts::model::Problem problem;
    problem.m = 40;
    problem.n = 28;
    problem.k = 36;
    // Phase 2 with T = 8: nothing of it before its compute, k 0..24 after.
    EXPECT_EQ(ts::model::accumulated_at(problem, 8, {2, SubStep::LoadTiles}).end, 16);
    EXPECT_EQ(ts::model::accumulated_at(problem, 8, {2, SubStep::SyncAfterLoad}).end, 16);
    EXPECT_EQ(ts::model::accumulated_at(problem, 8, {2, SubStep::Compute}).end, 24);
    EXPECT_EQ(ts::model::accumulated_at(problem, 8, {2, SubStep::SyncAfterCompute}).end, 24);
    EXPECT_EQ(ts::model::accumulated_at(problem, 8, {0, SubStep::LoadTiles}).end, 0);
    // The last phase is partial: 32..36, and the store has all of K.
    EXPECT_EQ(ts::model::accumulated_at(problem, 8, {4, SubStep::Compute}).end, 36);
    EXPECT_EQ(ts::model::accumulated_at(problem, 8, {4, SubStep::Store}).end, 36);
}

}  // namespace
