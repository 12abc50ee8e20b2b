// cpu: what the rung theatre draws for one thread and one warp — loads, fragments, banks
// and stages — against counts worked out by hand from the kernels' comments.
#include <gtest/gtest.h>

#include <set>

#include "model/ladder_access.hpp"

namespace ts::model {
namespace {

constexpr LadderShape kRungs[] = {kRegTile1dShape, kRegTile2dShape,  kVectorizedShape,
                                  kConflictFreeShape, kWarptileShape, kPipelinedShape};

TEST(LadderAccess, EverySlotOfAStepIsWrittenOnceByTheOwnerTheModelNames) {
    for (const LadderShape& s : kRungs) {
        std::multiset<int> as_slots, bs_slots;
        for (int t = 0; t < s.threads(); ++t)
            for (const LadderLoad& load : ladder_thread_loads(s, t))
                for (int j = 0; j < load.width; ++j) {
                    (load.operand == Operand::A ? as_slots : bs_slots).insert(load.slots[j]);
                    const LoadOwner owner = ladder_load_owner(s, load.operand, load.row, load.col + j);
                    EXPECT_EQ(owner.thread, t);
                    EXPECT_EQ(owner.instruction, load.instruction);
                }
        EXPECT_EQ(static_cast<int>(as_slots.size()), s.bm * s.bk) << describe_shape(s);
        EXPECT_EQ(static_cast<int>(bs_slots.size()), s.bk * s.bn);
        EXPECT_EQ(std::set<int>(as_slots.begin(), as_slots.end()).size(), as_slots.size()) << describe_shape(s);
        EXPECT_EQ(std::set<int>(bs_slots.begin(), bs_slots.end()).size(), bs_slots.size());
    }
}

TEST(LadderAccess, EveryCellOfTheBlockTileBelongsToTheThreadWhoseTileHoldsIt) {
    for (const LadderShape& s : kRungs)
        for (int t = 0; t < s.threads(); ++t)
            for (int step = 0; step < s.cells_per_thread(); ++step) {
                const LadderCellPlace p = ladder_place_of_step(s, step);
                const int row = ladder_tile_row(s, t, p.sub_i) + p.r, col = ladder_tile_col(s, t, p.sub_j) + p.c;
                ASSERT_EQ(ladder_thread_of_tile_cell(s, row, col), t) << describe_shape(s) << " cell " << row << "," << col;
            }
}

TEST(LadderAccess, FragmentsFeedEveryCellOfTheRegisterTileOncePerK) {
    for (const LadderShape& s : kRungs) {
        const int t = s.threads() - 1;
        int a_values = 0, b_values = 0;
        for (const FragmentRead& read : ladder_fragment_reads(s, t, 3)) {
            (read.operand == Operand::A ? a_values : b_values) += read.width;
            if (read.operand == Operand::A) EXPECT_EQ(read.tile_col, 3);
            else EXPECT_EQ(read.tile_row, 3);
        }
        EXPECT_EQ(a_values, s.tm * s.wm_iter) << describe_shape(s);
        EXPECT_EQ(b_values, s.tn * s.wn_iter);
        EXPECT_EQ(a_values * b_values, s.cells_per_thread());
    }
}

TEST(LadderAccess, BankConflictsAreTheOnesTheKernelsDescribe) {
    // 07: 16 lanes share a row of As, lanes 16–31 read 8 rows lower: rows 0 and 8 of an
    // 8-wide As are 64 words apart, one bank: two-way.
    EXPECT_EQ(bank_map(warp_fragment_accesses(kRegTile2dShape, 0, 0, 0)).degree, 2);
    // 07 reading Bs: lanes 0, 4, 8, 12 read words 0, 32, 64, 96 apart: four-way.
    EXPECT_EQ(bank_map(warp_fragment_accesses(kRegTile2dShape, 0, 0, kRegTile2dShape.tm)).degree, 4);
    // 08: a float4 of A written down a column of the unpadded As: lanes 0 and 1 meet in one bank.
    const BankMap vectorized_store = bank_map(warp_store_accesses(kVectorizedShape, 0, Operand::A, 0));
    EXPECT_EQ(vectorized_store.degree, 2);
    // 08 reading Bs, 128-bit: each quarter-warp needs two wavefronts instead of one.
    const BankMap vectorized_b = bank_map(warp_fragment_accesses(kVectorizedShape, 0, 0, 2));
    EXPECT_EQ(vectorized_b.phases, 4);
    EXPECT_EQ(vectorized_b.ideal, 4);
    EXPECT_EQ(vectorized_b.wavefronts, 8);
    // 09 fixes both.
    EXPECT_EQ(bank_map(warp_store_accesses(kConflictFreeShape, 0, Operand::A, 0)).degree, 1);
    const BankMap conflict_free_b = bank_map(warp_fragment_accesses(kConflictFreeShape, 0, 0, 2));
    EXPECT_EQ(conflict_free_b.wavefronts, conflict_free_b.ideal);
    // ... and the comparison takes the padding away again.
    const auto comparison = layout_comparison(kConflictFreeShape, Operand::A);
    ASSERT_TRUE(comparison);
    EXPECT_EQ(bank_map(warp_store_accesses(comparison->other, 0, Operand::A, 0)).degree, 2);
    // 08's reads of Bs, compared with 09's split columns, and the other way round.
    const auto split = layout_comparison(kVectorizedShape, Operand::B);
    ASSERT_TRUE(split);
    EXPECT_EQ(split->other.threads(), kVectorizedShape.threads());
    const BankMap split_b = bank_map(warp_fragment_accesses(split->other, 0, 0, 2));
    EXPECT_EQ(split_b.wavefronts, split_b.ideal);
    const auto side_by_side = layout_comparison(kConflictFreeShape, Operand::B);
    ASSERT_TRUE(side_by_side);
    EXPECT_EQ(bank_map(warp_fragment_accesses(side_by_side->other, 0, 0, 2)).degree, 2);
    EXPECT_FALSE(layout_comparison(kWarptileShape, Operand::B));
    // 10: the warp reads 2 rows of As per quarter-warp, broadcast: no conflict.
    for (int read = 0; read < static_cast<int>(ladder_fragment_reads(kWarptileShape, 0, 0).size()); ++read) {
        const BankMap map = bank_map(warp_fragment_accesses(kWarptileShape, 1, 5, read));
        EXPECT_EQ(map.wavefronts, map.ideal) << "read " << read;
    }
}

TEST(LadderAccess, ThePipelineHoldsStagesMinusOneStepsAhead) {
    const auto at_start = pipeline_stages(kPipelinedShape, 10, 0);
    ASSERT_EQ(at_start.size(), 4u);
    EXPECT_EQ(at_start[0].use, StageUse::Computing);
    for (int stage = 1; stage < 4; ++stage) {
        EXPECT_EQ(at_start[stage].use, StageUse::Copying);
        EXPECT_EQ(at_start[stage].k_step, stage);
    }
    // Step 5 computes from stage 1; step 8 refills stage 0, which step 4 used.
    const auto middle = pipeline_stages(kPipelinedShape, 10, 5);
    EXPECT_EQ(middle[1].use, StageUse::Computing);
    EXPECT_EQ(middle[0].k_step, 8);
    // Near the end there is nothing left to copy.
    const auto last = pipeline_stages(kPipelinedShape, 10, 9);
    EXPECT_EQ(last[1].use, StageUse::Computing);
    EXPECT_EQ(last[2].use, StageUse::Free);
    EXPECT_EQ(pipeline_stages(kWarptileShape, 10, 3).size(), 1u);
}

}  // namespace
}  // namespace ts::model
