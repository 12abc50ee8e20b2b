// The tensor-core fragments against the PTX ISA: every element of mma.m16n8k16's A, B and C and of
// wgmma.m64nNk16's accumulators has exactly one owner (lane or thread, register, half), the two
// directions invert each other, a few slots worked by hand from the ISA's formulas, and ldmatrix's
// x4 loads deliver exactly the fragments mma wants.
#include <gtest/gtest.h>

#include <vector>

#include "model/tensor_core/fragments.hpp"

namespace ts::model {
namespace {

// The ISA's formulas, lane 5: groupID 1, threadID_in_group 1.
//   A: row = groupID (+8 for a2,a3,a6,a7), col = 2·tig + (i & 1) (+8 for i ≥ 4)
//      a0 → (1, 2), a1 → (1, 3), a2 (reg 1, half 0) → (9, 2), a4 (reg 2) → (1, 10), a7 → (9, 11)
//   B: row = 2·tig + (i & 1) (+8 for i ≥ 2), col = groupID:  b0 → (2, 1), b3 (reg 1, half 1) → (11, 1)
//   C: row = groupID (+8 for c2, c3), col = 2·tig + (i & 1):  c0 → (1, 2), c3 → (9, 3)
static_assert(mma_a_cell(5, 0, 0) == Cell{1, 2});
static_assert(mma_a_cell(5, 0, 1) == Cell{1, 3});
static_assert(mma_a_cell(5, 1, 0) == Cell{9, 2});
static_assert(mma_a_cell(5, 2, 0) == Cell{1, 10});
static_assert(mma_a_cell(5, 3, 1) == Cell{9, 11});
static_assert(mma_b_cell(5, 0, 0) == Cell{2, 1});
static_assert(mma_b_cell(5, 1, 1) == Cell{11, 1});
static_assert(mma_c_cell(5, 0) == Cell{1, 2});
static_assert(mma_c_cell(5, 3) == Cell{9, 3});
static_assert(mma_c_cell(31, 3) == Cell{15, 7});  // the last lane's last register: the last cell

// An operand's fragment, rows × cols halves in `registers` registers of two halves a lane: every
// element has exactly one (lane, register, half), and slot_of finds the one cell_of gives.
template <typename CellOf, typename SlotOf>
void expect_one_owner_each_and_round_trips(int rows, int cols, int registers, CellOf cell_of, SlotOf slot_of) {
    std::vector<int> owners(rows * cols, 0);
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (int reg = 0; reg < registers; ++reg)
            for (int half = 0; half < 2; ++half) {
                const Cell c = cell_of(lane, reg, half);
                ASSERT_TRUE(c.row >= 0 && c.row < rows && c.col >= 0 && c.col < cols);
                owners[c.row * cols + c.col] += 1;
                EXPECT_EQ(slot_of(c.row, c.col), (FragmentSlot{lane, reg, half}));
            }
    for (int i = 0; i < rows * cols; ++i) EXPECT_EQ(owners[i], 1) << "element " << i;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const FragmentSlot s = slot_of(r, c);
            EXPECT_EQ(cell_of(s.lane, s.reg, s.half), (Cell{r, c}));
        }
}

TEST(TcFragments, MmaAEveryElementHasOneOwnerAndRoundTrips) {
    expect_one_owner_each_and_round_trips(kMmaM, kMmaK, kMmaARegisters, mma_a_cell, mma_a_slot);
}

TEST(TcFragments, MmaBEveryElementHasOneOwnerAndRoundTrips) {
    expect_one_owner_each_and_round_trips(kMmaK, kMmaN, kMmaBRegisters, mma_b_cell, mma_b_slot);
}

TEST(TcFragments, MmaCEveryElementHasOneOwnerAndRoundTrips) {
    std::vector<int> owners(kMmaM * kMmaN, 0);
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (int reg = 0; reg < kMmaCRegisters; ++reg) {
            const Cell c = mma_c_cell(lane, reg);
            ASSERT_TRUE(c.row >= 0 && c.row < kMmaM && c.col >= 0 && c.col < kMmaN);
            owners[c.row * kMmaN + c.col] += 1;
            EXPECT_EQ(mma_c_slot(c.row, c.col), (FragmentSlot{lane, reg, 0}));
        }
    for (int i = 0; i < kMmaM * kMmaN; ++i) EXPECT_EQ(owners[i], 1) << "element " << i;
}

// ---- ldmatrix ------------------------------------------------------------------------------------

TEST(TcFragments, LdmatrixAddressesComeFromEightLanesPerMatrix) {
    // .x1: lanes 0–7; .x2: 0–15; .x4: all. Lane 13 gives row 5 of matrix 1.
    for (int matrices : {1, 2, 4})
        for (int lane = 0; lane < kWarpSize; ++lane)
            EXPECT_EQ(ldmatrix_gives_address(lane, matrices), lane < 8 * matrices);
    EXPECT_EQ(ldmatrix_address_matrix(13), 1);
    EXPECT_EQ(ldmatrix_address_row(13), 5);
}

TEST(TcFragments, LdmatrixDeliversEveryElementOnceBothWays) {
    for (bool trans : {false, true})
        for (int matrices : {1, 2, 4}) {
            std::vector<int> received(matrices * 64, 0);
            for (int lane = 0; lane < kWarpSize; ++lane)
                for (int m = 0; m < matrices; ++m)
                    for (int half = 0; half < 2; ++half) {
                        const Cell e = ldmatrix_element(lane, half, trans);
                        ASSERT_TRUE(e.row >= 0 && e.row < 8 && e.col >= 0 && e.col < 8);
                        received[m * 64 + e.row * 8 + e.col] += 1;
                        EXPECT_EQ(ldmatrix_receiver(m, e.row, e.col, trans), (FragmentSlot{lane, m, half}));
                    }
            for (int i = 0; i < matrices * 64; ++i) EXPECT_EQ(received[i], 1) << "trans " << trans << " x" << matrices;
        }
    // By hand (ISA figure "ldmatrix fragment layout"): lane 6 gets row 1, columns 4 and 5; with
    // .trans it gets column 1, rows 4 and 5.
    EXPECT_EQ(ldmatrix_element(6, 0, false), (Cell{1, 4}));
    EXPECT_EQ(ldmatrix_element(6, 1, true), (Cell{5, 1}));
}

// What lane `lane` holds in register `reg`, half `half` after an ldmatrix.x4 whose lanes point at
// `row_of(lane)` of an operand tile (row = the 16-byte row, col = its first element): the stored
// row of matrix reg comes from lane 8·reg + that row.
template <class RowOf>
Cell loaded_element(RowOf row_of, int lane, int reg, int half, bool trans) {
    const Cell e = ldmatrix_element(lane, half, trans);
    const Cell p = row_of(8 * reg + e.row);
    return {p.row, p.col + e.col};
}

TEST(TcFragments, LdmatrixX4FeedsMmaA) {
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (int reg = 0; reg < kMmaARegisters; ++reg)
            for (int half = 0; half < 2; ++half)
                EXPECT_EQ(loaded_element(ldmatrix_x4_a_row, lane, reg, half, false), mma_a_cell(lane, reg, half))
                    << "lane " << lane << " reg " << reg;
}

TEST(TcFragments, LdmatrixX4TransFeedsMmaBFromRowMajorKxN) {
    // Register r of the x4 is register r & 1 of the n8 fragment r / 2 (columns 8·(r/2) on).
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (int reg = 0; reg < 4; ++reg)
            for (int half = 0; half < 2; ++half) {
                const Cell b = mma_b_cell(lane, reg & 1, half);
                EXPECT_EQ(loaded_element(ldmatrix_x4_trans_b_row, lane, reg, half, true),
                          (Cell{b.row, b.col + 8 * (reg >> 1)}))
                    << "lane " << lane << " reg " << reg;
            }
}

TEST(TcFragments, LdmatrixX4FeedsMmaBFromNxK) {
    // The tile is stored (n, k): the loaded element's (row, col) is (n, k).
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (int reg = 0; reg < 4; ++reg)
            for (int half = 0; half < 2; ++half) {
                const Cell b = mma_b_cell(lane, reg & 1, half);
                EXPECT_EQ(loaded_element(ldmatrix_x4_b_row, lane, reg, half, false),
                          (Cell{b.col + 8 * (reg >> 1), b.row}))
                    << "lane " << lane << " reg " << reg;
            }
}

// Checks that the feeding tests can fail: B's row-major K×N tile loaded without .trans gives lanes
// their elements along N, where mma wants them along K.
TEST(TcFragments, LdmatrixWithoutTransDoesNotFeedMmaBFromKxN) {
    int wrong = 0;
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (int half = 0; half < 2; ++half)
            wrong += loaded_element(ldmatrix_x4_trans_b_row, lane, 0, half, false) != mma_b_cell(lane, 0, half);
    EXPECT_GT(wrong, 0);
}

// ---- wgmma m64nNk16 accumulators ---------------------------------------------------------------

// Thread 37 is lane 5 of warp 1 (rows 16–31): d5 is c1 of column block 1 → (17, 11); d6 is c2 of
// column block 1 → (25, 10). Thread 0: d0 (0, 0), d2 (8, 0), d4 (0, 8).
static_assert(wgmma_accumulator_cell(37, 5) == Cell{17, 11});
static_assert(wgmma_accumulator_cell(37, 6) == Cell{25, 10});
static_assert(wgmma_accumulator_cell(0, 2) == Cell{8, 0});
static_assert(wgmma_accumulator_cell(0, 4) == Cell{0, 8});
static_assert(wgmma_accumulator_registers(256) == 128);

TEST(TcFragments, WgmmaAccumulatorsHaveOneOwnerForEveryN) {
    int shapes = 0;
    for (int n = 8; n <= 256; n += 8) {
        ASSERT_TRUE(wgmma_n_valid(n));
        std::vector<int> owners(kWgmmaM * n, 0);
        for (int thread = 0; thread < kWarpgroupSize; ++thread)
            for (int reg = 0; reg < wgmma_accumulator_registers(n); ++reg) {
                const Cell c = wgmma_accumulator_cell(thread, reg);
                ASSERT_TRUE(c.row >= 0 && c.row < kWgmmaM && c.col >= 0 && c.col < n) << "n " << n;
                owners[c.row * n + c.col] += 1;
                EXPECT_EQ(wgmma_accumulator_slot(c.row, c.col), (AccumulatorSlot{thread, reg}));
            }
        for (int i = 0; i < kWgmmaM * n; ++i) ASSERT_EQ(owners[i], 1) << "n " << n << " cell " << i;
        ++shapes;
    }
    EXPECT_EQ(shapes, 32);
    EXPECT_FALSE(wgmma_n_valid(0));
    EXPECT_FALSE(wgmma_n_valid(12));
    EXPECT_FALSE(wgmma_n_valid(264));
}

TEST(TcFragments, WgmmaWarpRowsAreMmaCTiles) {
    // Each warp's 16 rows, 8 columns at a time, are laid out as mma.m16n8's C.
    for (int warp = 0; warp < 4; ++warp)
        for (int lane = 0; lane < kWarpSize; ++lane)
            for (int reg = 0; reg < 32; ++reg) {
                const Cell w = wgmma_accumulator_cell(32 * warp + lane, reg);
                const Cell c = mma_c_cell(lane, reg % 4);
                EXPECT_EQ(w, (Cell{16 * warp + c.row, 8 * (reg / 4) + c.col}));
            }
}

// The PTX ISA gives wgmma's accumulator layout only as a figure. CUTLASS writes the same layout
// as a CuTe layout from (thread, value) to a column-major offset m + 64·n in the 64×N tile:
// ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)). Thread t = t0 + 4·t1 + 32·t2, value
// v = v0 + 2·v1 + 4·v2 sits at 128·t0 + t1 + 16·t2 + 64·v0 + 8·v1 + 512·v2. An independent
// statement of the figure; the model must agree with it.
TEST(TcFragments, WgmmaAccumulatorsAgreeWithTheCuteLayout) {
    for (int n = 8; n <= 256; n += 8)
        for (int t = 0; t < kWarpgroupSize; ++t)
            for (int v = 0; v < wgmma_accumulator_registers(n); ++v) {
                const int t0 = t % 4, t1 = (t / 4) % 8, t2 = t / 32;
                const int v0 = v % 2, v1 = (v / 2) % 2, v2 = v / 4;
                const int offset = 128 * t0 + t1 + 16 * t2 + 64 * v0 + 8 * v1 + 512 * v2;
                ASSERT_EQ(wgmma_accumulator_cell(t, v), (Cell{offset % kWgmmaM, offset / kWgmmaM}))
                    << "t " << t << " v " << v;
            }
}

TEST(TcFragments, MmaWarpTileCellsCoverTheWarpTileOnce) {
    constexpr int wm = 64, wn = 32;
    std::vector<int> owners(wm * wn, 0);
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (int mi = 0; mi < wm / kMmaM; ++mi)
            for (int ni = 0; ni < wn / kMmaN; ++ni)
                for (int reg = 0; reg < kMmaCRegisters; ++reg) {
                    const Cell c = mma_warp_tile_cell(lane, mi, ni, reg);
                    owners[c.row * wn + c.col] += 1;
                }
    for (int i = 0; i < wm * wn; ++i) EXPECT_EQ(owners[i], 1);
}

}  // namespace
}  // namespace ts::model
