// The swizzles: each a bijection on its atom, the TMA modes equal to the PTX ISA's tables of
// 16-byte chunks, the Ampere XOR equal to Swizzle<B,4,3> where they should agree, and the bank
// conflicts of an ldmatrix phase counted by hand before the swizzle and gone after it.
#include <gtest/gtest.h>

#include <vector>

#include "model/tensor_core/swizzle.hpp"

namespace ts::model {
namespace {

constexpr TmaSwizzle kModes[] = {TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128};

static_assert(swizzle_atom_bytes(TmaSwizzle::B128) == 1024 && swizzle_of(TmaSwizzle::B128).atom_size() == 1024);
static_assert(swizzle_atom_bytes(TmaSwizzle::B64) == 512 && swizzle_of(TmaSwizzle::B64).atom_size() == 512);
static_assert(swizzle_atom_bytes(TmaSwizzle::B32) == 256 && swizzle_of(TmaSwizzle::B32).atom_size() == 256);
// 128B: byte 0x90 (line 1, chunk 1) goes to chunk 1 ^ 1 = 0 of line 1: 0x80.
static_assert(swizzle_bytes(TmaSwizzle::B128, 0x90) == 0x80);

TEST(TcSwizzle, EveryModeIsABijectionOnItsAtomAndItsOwnInverse) {
    for (TmaSwizzle mode : kModes) {
        const Swizzle s = swizzle_of(mode);
        const int atom = s.atom_size();
        std::vector<int> hits(atom, 0);
        for (int offset = 0; offset < atom; ++offset) {
            const int to = s(offset);
            ASSERT_TRUE(to >= 0 && to < atom);
            hits[to] += 1;
            EXPECT_EQ(s(to), offset);
            EXPECT_EQ(to % 16, offset % 16) << "16-byte chunks stay whole";
            EXPECT_EQ(s(offset + 3 * atom), to + 3 * atom) << "the pattern repeats every atom";
        }
        for (int i = 0; i < atom; ++i) ASSERT_EQ(hits[i], 1);
    }
}

TEST(TcSwizzle, GeneralSwizzlesAreBijections) {
    for (int bits = 0; bits <= 3; ++bits)
        for (int base = 0; base <= 4; ++base)
            for (int shift = bits; shift <= 4; ++shift) {
                const Swizzle s{bits, base, shift};
                std::vector<int> hits(s.atom_size(), 0);
                for (int offset = 0; offset < s.atom_size(); ++offset) hits[s(offset)] += 1;
                for (int h : hits) ASSERT_EQ(h, 1) << bits << "," << base << "," << shift;
            }
}

// The PTX ISA's "Swizzling Modes": which 16-byte chunk sits at each place of each 128-byte line
// (lines from an atom-aligned start; the pattern repeats after the rows shown).
TEST(TcSwizzle, TmaModesMatchThePtxTables) {
    const int b32[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}};
    const int b64[4][8] = {
        {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4}};
    const int b128[8][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5},
                            {3, 2, 1, 0, 7, 6, 5, 4}, {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2},
                            {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}};
    for (int line = 0; line < 16; ++line)
        for (int place = 0; place < 8; ++place) {
            const int at = line * 128 + place * 16;
            EXPECT_EQ(swizzle_bytes(TmaSwizzle::None, at) / 16 % 8, place);
            EXPECT_EQ(swizzle_bytes(TmaSwizzle::B32, at) / 16 % 8, b32[line % 2][place]) << "line " << line;
            EXPECT_EQ(swizzle_bytes(TmaSwizzle::B64, at) / 16 % 8, b64[line % 4][place]) << "line " << line;
            EXPECT_EQ(swizzle_bytes(TmaSwizzle::B128, at) / 16 % 8, b128[line % 8][place]) << "line " << line;
            EXPECT_EQ(swizzle_bytes(TmaSwizzle::B128, at) / 128, line) << "chunks stay in their line";
        }
}

TEST(TcSwizzle, TmaTileLayoutIsABijectionOntoTheTile) {
    // A 64-row tile, 64 BF16 wide (128 bytes): one slab under 128B, two under 64B, four under 32B,
    // eight 16-byte slabs unswizzled.
    constexpr int rows = 64, cols = 64, bytes = rows * cols * 2;
    for (TmaSwizzle mode : kModes) {
        std::vector<int> hits(bytes / 2, 0);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const int at = tma_tile_offset(mode, rows, r, c, 2);
                ASSERT_TRUE(at >= 0 && at < bytes && at % 2 == 0);
                hits[at / 2] += 1;
            }
        for (int h : hits) ASSERT_EQ(h, 1);
    }
    // Unswizzled, slab j (columns 8j..8j+7) is 64 rows × 16 bytes = 1024 bytes: (5, 17) is slab 2,
    // row 5, element 1: 2·1024 + 5·16 + 2 = 2130.
    EXPECT_EQ(tma_tile_offset(TmaSwizzle::None, rows, 5, 17, 2), 2130);
    // 128B: (5, 17) is chunk 2 of row 5 → chunk 2 ^ 5 = 7: 5·128 + 7·16 + 2 = 754.
    EXPECT_EQ(tma_tile_offset(TmaSwizzle::B128, rows, 5, 17, 2), 754);
}

TEST(TcSwizzle, AmpereXorIsABijectionAndEqualsSwizzleB43UpTo128ByteRows) {
    for (int row_elements : {8, 16, 32, 64, 128, 256}) {
        const int rows = 32, bytes = rows * row_elements * 2;
        std::vector<int> hits(bytes / 2, 0);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < row_elements; ++c) {
                const int at = xor_swizzled_offset(r, c, row_elements, 2);
                ASSERT_TRUE(at >= 0 && at < bytes);
                hits[at / 2] += 1;
                const int chunks = row_elements * 2 / 16;
                if (chunks <= 8) {
                    const int b = chunks == 8 ? 3 : chunks == 4 ? 2 : chunks == 2 ? 1 : 0;
                    EXPECT_EQ(at, (Swizzle{b, 4, 3}(rowmajor_offset(r, c, row_elements, 2))))
                        << row_elements << " wide, (" << r << ", " << c << ")";
                }
            }
        for (int h : hits) ASSERT_EQ(h, 1) << row_elements << " wide";
    }
    // By hand, 64 wide (8 chunks): (3, 8) is chunk 1 of row 3 → chunk 1 ^ 3 = 2: 3·128 + 32 = 416.
    EXPECT_EQ(xor_swizzled_offset(3, 8, 64, 2), 416);
    // 32 wide (4 chunks of 64-byte rows): (3, 8) → chunk 1 ^ (3/2 % 4 = 1) = 0: 3·64 = 192.
    EXPECT_EQ(xor_swizzled_offset(3, 8, 32, 2), 192);
}

// ---- Banks -------------------------------------------------------------------------------------

TEST(TcSwizzle, PhaseWavefrontsCountsDistinctWordsPerBank) {
    // 32 lanes reading 4-byte words 2 apart: words 0, 2, ..., 62 → the even banks, twice each: 2-way.
    int stride2[32] = {};
    for (int i = 0; i < 32; ++i) stride2[i] = 8 * i;
    EXPECT_EQ(phase_wavefronts(stride2, 32, 4), 2);
    // All 8 lanes of an ldmatrix phase on the same row: one broadcast, no conflict.
    const int same[8] = {256, 256, 256, 256, 256, 256, 256, 256};
    EXPECT_EQ(ldmatrix_phase_wavefronts(same), 1);
    // 8 consecutive 16-byte rows: 128 contiguous bytes, all 32 banks once.
    const int packed[8] = {0, 16, 32, 48, 64, 80, 96, 112};
    EXPECT_EQ(ldmatrix_phase_wavefronts(packed), 1);
}

TEST(TcSwizzle, LdmatrixConflictsOfPlainRowMajorTilesCountedByHand) {
    // A phase reads 8 consecutive rows at the same column. Row r starts at r·row_bytes, so its 16
    // bytes sit in bank quad (r·row_bytes / 16) % 8 (banks 4q..4q+3):
    //  64 BF16 wide, 128-byte rows: quad 8r % 8 = 0 for every row → 8 rows in banks 0–3: 8-way.
    //  128 wide, 256-byte rows: quad 16r % 8 = 0 → 8-way.
    //  32 wide, 64-byte rows: quad 4r % 8 = 0, 4, 0, 4, ... → 4 rows per quad: 4-way.
    //  16 wide, 32-byte rows: quad 2r % 8 = 0, 2, 4, 6, 0, ... → 2-way.
    //  8 wide, 16-byte rows: the 8 rows are 128 contiguous bytes → conflict-free.
    const struct { int width, degree; } cases[] = {{64, 8}, {128, 8}, {32, 4}, {16, 2}, {8, 1}};
    for (const auto& c : cases) {
        const SmemTile plain{SmemLayout::RowMajor, 64, c.width, 2};
        EXPECT_EQ(ldmatrix_rows_wavefronts(plain, 0, 0), c.degree) << c.width << " wide";
        EXPECT_EQ(ldmatrix_worst_wavefronts(plain), c.degree) << c.width << " wide";
    }
}

TEST(TcSwizzle, LdmatrixPhasesAreConflictFreeAfterSwizzling) {
    for (int width : {8, 16, 32, 64, 128, 256}) {
        const SmemTile swizzled{SmemLayout::XorSwizzled, 64, width, 2};
        EXPECT_EQ(ldmatrix_worst_wavefronts(swizzled), 1) << width << " wide";
    }
    // The TMA layouts, each with rows one span wide (a slab), and a tile of several slabs: what
    // TMA writes is conflict-free for 8-row reads too.
    const struct {
        TmaSwizzle mode;
        int width;
    } tma[] = {{TmaSwizzle::None, 64}, {TmaSwizzle::B32, 16},  {TmaSwizzle::B32, 64},  {TmaSwizzle::B64, 32},
               {TmaSwizzle::B64, 128}, {TmaSwizzle::B128, 64}, {TmaSwizzle::B128, 256}};
    for (const auto& t : tma) {
        const SmemTile tile{SmemLayout::Tma, 64, t.width, 2, t.mode};
        EXPECT_EQ(ldmatrix_worst_wavefronts(tile), 1) << t.width << " wide, mode " << static_cast<int>(t.mode);
    }
}

}  // namespace
}  // namespace ts::model
