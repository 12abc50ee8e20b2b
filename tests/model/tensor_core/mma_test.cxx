// The mma.sync rungs' block: counts worked by hand, every cell of C owned once, the cp.async copies
// covering A's and B's tiles once, and the ldmatrix wavefronts of a warp's K step counted by hand
// before the XOR swizzle and at the minimum after it.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/tensor_core/mma.hpp"

namespace ts::model {
namespace {

// 14: 4 warps of 64×64 over 128×128, BK 32, plain row-major tiles, one stage.
constexpr MmaShape kMma{.bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 64};
// 15: the same tiles XOR-swizzled, three stages of cp.async.
constexpr MmaShape kMmaAsync{.bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 64, .stages = 3, .swizzled = true};
// 8 warps over 128×256 with BK 64: 128-byte rows of A, 512-byte rows of B.
constexpr MmaShape kWide{.bm = 128, .bn = 256, .bk = 64, .wm = 64, .wn = 64, .stages = 2, .swizzled = true};

static_assert(kMma.valid() && kMmaAsync.valid() && kWide.valid());
static_assert(!MmaShape{.wn = 8}.valid());   // B's x4.trans loads take n in pairs of 8
static_assert(!MmaShape{.bk = 24}.valid());  // not whole K slices
static_assert(!MmaShape{.bm = 128, .bn = 128, .wm = 128, .wn = 128}.valid());  // 512 accumulators a thread

TEST(TcMma, CountsWorkedByHand) {
    const MmaShape s = kMma;
    EXPECT_EQ(s.warps(), 4);  // (128/64) × (128/64)
    EXPECT_EQ(s.threads(), 128);
    EXPECT_EQ(s.m_tiles(), 4);             // 64 / 16
    EXPECT_EQ(s.n_tiles(), 8);             // 64 / 8
    EXPECT_EQ(s.k_slices(), 2);            // 32 / 16
    EXPECT_EQ(mmas_per_warp_step(s), 64);  // 4 × 8 × 2
    EXPECT_EQ(mmas_per_block_step(s), 256);
    EXPECT_EQ(wmmas_per_warp_step(s), 32);      // 13: (64/16) × (64/16) × 2 calls
    EXPECT_EQ(ldmatrix_a_per_warp_step(s), 8);  // 4 × 2 of 16×16
    EXPECT_EQ(ldmatrix_b_per_warp_step(s), 8);  // (64/16) × 2
    EXPECT_EQ(s.accumulator_registers(), 128);  // 4 × 8 × 4 floats
    EXPECT_EQ(s.a_chunks(), 512);               // 128 × 32 × 2 / 16
    EXPECT_EQ(s.b_chunks(), 512);
    EXPECT_EQ(s.chunks_per_thread(), 8);
    EXPECT_EQ(mma_stage_bytes(s), 16384);  // 8192 + 8192
    EXPECT_EQ(mma_shared_bytes(s), 16384);
    EXPECT_EQ(mma_shared_bytes(kMmaAsync), 3 * 16384);
    EXPECT_EQ(mmas_per_block(s, 4096), 128 * 256);
}

TEST(TcMma, MmasDoExactlyTheBlocksMultiplyAdds) {
    for (const MmaShape& s : {kMma, kMmaAsync, kWide})
        for (int k : {32, 100, 4096})
            EXPECT_EQ(mmas_per_block(s, k) * kMmaM * kMmaN * kMmaK,
                      static_cast<std::int64_t>(s.bm) * s.bn * mma_k_steps(s, k) * s.bk);
}

TEST(TcMma, EveryCellOfTheBlockTileHasOneOwner) {
    for (const MmaShape& s : {kMma, kWide}) {
        std::vector<int> owners(s.bm * s.bn, 0);
        for (int warp = 0; warp < s.warps(); ++warp)
            for (int lane = 0; lane < kWarpSize; ++lane)
                for (int mi = 0; mi < s.m_tiles(); ++mi)
                    for (int ni = 0; ni < s.n_tiles(); ++ni)
                        for (int reg = 0; reg < kMmaCRegisters; ++reg) {
                            const Cell c = mma_block_cell(s, warp, lane, mi, ni, reg);
                            ASSERT_TRUE(c.row >= 0 && c.row < s.bm && c.col >= 0 && c.col < s.bn);
                            owners[c.row * s.bn + c.col] += 1;
                        }
        for (int o : owners) ASSERT_EQ(o, 1);
    }
    // Warp 3 of 14 is warp row 1, column 1: its tile starts at (64, 64).
    EXPECT_EQ(mma_warp_origin(kMma, 3), (Cell{64, 64}));
}

TEST(TcMma, CopiesCoverEachTileOnceAndLandInsideIt) {
    for (const MmaShape& s : {kMma, kMmaAsync, kWide}) {
        std::vector<int> a_hits(s.bm * s.bk, 0), b_hits(s.bk * s.bn, 0);
        std::vector<int> a_slots(s.a_tile().bytes() / 2, 0), b_slots(s.b_tile().bytes() / 2, 0);  // 2-byte slots
        for (int t = 0; t < s.threads(); ++t)
            for (int i = 0; i < s.chunks_per_thread(); ++i) {
                const CopyChunk c = mma_copy_chunk(s, t, i);
                for (int e = 0; e < 8; ++e) {
                    if (c.of_a) {
                        a_hits[c.row * s.bk + c.col + e] += 1;
                        a_slots[s.a_tile().offset(c.row, c.col + e) / 2] += 1;
                    } else {
                        b_hits[c.row * s.bn + c.col + e] += 1;
                        b_slots[s.b_tile().offset(c.row, c.col + e) / 2] += 1;
                    }
                }
                // 16 bytes that stay together: the chunk lands 16-byte aligned.
                const int at = c.of_a ? s.a_tile().offset(c.row, c.col) : s.b_tile().offset(c.row, c.col);
                ASSERT_EQ(at % 16, 0);
            }
        for (int h : a_hits) ASSERT_EQ(h, 1);
        for (int h : b_hits) ASSERT_EQ(h, 1);
        for (int h : a_slots) ASSERT_EQ(h, 1);
        for (int h : b_slots) ASSERT_EQ(h, 1);
    }
}

TEST(TcMma, LdmatrixWavefrontsBeforeAndAfterTheSwizzle) {
    // 14, plain tiles. A is 128 × 32 BF16: 64-byte rows, so the 8 rows of a phase fall in bank
    // quads 4r % 8 = 0, 4, 0, 4, ...: 4-way, 4 wavefronts per phase, 16 per ldmatrix.x4 (the least
    // is 4). B is 32 × 128: 256-byte rows, every row of a phase in the same quad: 8-way, 32 per x4.
    // Warp 0's K step: 8 loads of A × 16 + 8 loads of B × 32 = 384 wavefronts where 16 × 4 = 64
    // would do.
    EXPECT_EQ(ldmatrix_x4_wavefronts(kMma.a_tile(), 0, 0), 16);
    EXPECT_EQ(ldmatrix_x4_wavefronts(kMma.b_tile(), 0, 0), 32);
    for (int warp = 0; warp < kMma.warps(); ++warp) {
        const LdmatrixCost plain = mma_warp_ldmatrix_cost(kMma, warp);
        EXPECT_EQ(plain.instructions, 16);
        EXPECT_EQ(plain.wavefronts, 8 * 16 + 8 * 32);
        EXPECT_EQ(plain.ideal, 64);
        // 15, swizzled: every phase conflict-free.
        const LdmatrixCost swizzled = mma_warp_ldmatrix_cost(kMmaAsync, warp);
        EXPECT_EQ(swizzled.wavefronts, swizzled.ideal);
    }
    for (int warp = 0; warp < kWide.warps(); ++warp) {
        const LdmatrixCost c = mma_warp_ldmatrix_cost(kWide, warp);
        EXPECT_EQ(c.wavefronts, c.ideal);
    }
}

}  // namespace
}  // namespace ts::model
