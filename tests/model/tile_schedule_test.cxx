// What the tiled kernel loads into shared memory, slot by slot, at the edges of the matrices.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/tile_schedule.hpp"
#include "support/problems.hpp"

using namespace ts::model;

namespace {

using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;


// The tile as a picture, one line per smem row: '#' for padding, '.' for a real load.
std::vector<std::string> padding_picture(const std::vector<TileLoad>& loads, int tile) {
    std::vector<std::string> rows(tile, std::string(tile, '?'));
    for (const TileLoad& load : loads) rows[load.smem_row][load.smem_col] = load.padding ? '#' : '.';
    return rows;
}

int padding_count(const std::vector<TileLoad>& loads) {
    int count = 0;
    for (const TileLoad& load : loads) count += load.padding ? 1 : 0;
    return count;
}

const TileLoad& load_of(const std::vector<TileLoad>& loads, int tile, Index2 thread) {
    return loads.at(static_cast<std::size_t>(thread.y * tile + thread.x));
}

}  // namespace

// C is 40 × 28, K = 36, T = 8. Block (x 3, y 2) owns rows 16..23 and columns 24..31 of C,
// so its B tile hangs over the right edge (N = 28) in every phase, and in the last phase
// (k 32..39) both tiles hang over K = 36.
class EdgeBlock : public testing::Test {
protected:
    const Problem m_problem = make_problem(40, 28, 36);
    static constexpr int kTile = 8;
    static constexpr Index2 kBlock{3, 2};
};

TEST_F(EdgeBlock, FivePhasesCoverK) {
    EXPECT_EQ(phase_count(36, kTile), 5);
}

TEST_F(EdgeBlock, LoadsAreInThreadOrderAndLandInTheThreadsSlot) {
    for (Operand operand : {Operand::A, Operand::B}) {
        const auto loads = tile_loads(m_problem, kTile, kBlock, 2, operand);
        ASSERT_EQ(loads.size(), 64u);
        for (int i = 0; i < 64; ++i) {
            EXPECT_EQ(loads[i].operand, operand);
            EXPECT_EQ(loads[i].thread, (Index2{i % kTile, i / kTile}));
            EXPECT_EQ(loads[i].smem_row, i / kTile);
            EXPECT_EQ(loads[i].smem_col, i % kTile);
        }
    }
}

TEST_F(EdgeBlock, ATileIsFullUntilTheLastPhase) {
    for (int phase = 0; phase < 4; ++phase)
        EXPECT_EQ(padding_count(tile_loads(m_problem, kTile, kBlock, phase, Operand::A)), 0) << phase;

    // Phase 4 reads A columns 32..39; only 32..35 exist.
    const auto loads = tile_loads(m_problem, kTile, kBlock, 4, Operand::A);
    const std::vector<std::string> expected(8, "....####");
    EXPECT_EQ(padding_picture(loads, kTile), expected);

    // Thread (x 3, y 5) copies A[21][35] (offset 21 · 36 + 35) into As[5][3].
    const TileLoad& real = load_of(loads, kTile, Index2{3, 5});
    EXPECT_EQ(real.global_row, 21);
    EXPECT_EQ(real.global_col, 35);
    EXPECT_FALSE(real.padding);
    EXPECT_EQ(real.address, 791);
    // Its neighbour (x 4) would read A[21][36], past K: it writes a zero instead.
    const TileLoad& pad = load_of(loads, kTile, Index2{4, 5});
    EXPECT_EQ(pad.global_row, 21);
    EXPECT_EQ(pad.global_col, 36);
    EXPECT_TRUE(pad.padding);
    EXPECT_EQ(pad.address, -1);
}

TEST_F(EdgeBlock, BTileHangsOverTheRightEdgeInEveryPhase) {
    const std::vector<std::string> right_edge(8, "....####");
    for (int phase = 0; phase < 4; ++phase)
        EXPECT_EQ(padding_picture(tile_loads(m_problem, kTile, kBlock, phase, Operand::B), kTile), right_edge)
            << phase;

    // Phase 0, thread (x 3, y 7): B[7][27], the last real column, at offset 7 · 28 + 27.
    const auto loads = tile_loads(m_problem, kTile, kBlock, 0, Operand::B);  // alive while `load` is read
    const TileLoad& load = load_of(loads, kTile, Index2{3, 7});
    EXPECT_EQ(load.global_row, 7);
    EXPECT_EQ(load.global_col, 27);
    EXPECT_EQ(load.address, 223);
}

TEST_F(EdgeBlock, BTileAtPhase4HangsOverTheRightEdgeAndOverK) {
    // Rows k = 32..39 of B, of which 32..35 exist; columns 24..31, of which 24..27 exist.
    const auto loads = tile_loads(m_problem, kTile, kBlock, 4, Operand::B);
    const std::vector<std::string> expected = {
        "....####", "....####", "....####", "....####",
        "########", "########", "########", "########",
    };
    EXPECT_EQ(padding_picture(loads, kTile), expected);
    EXPECT_EQ(padding_count(loads), 48);

    const TileLoad& real = load_of(loads, kTile, Index2{2, 1});
    EXPECT_EQ(real.global_row, 33);
    EXPECT_EQ(real.global_col, 26);
    EXPECT_EQ(real.address, 33 * 28 + 26);
    const TileLoad& past_k = load_of(loads, kTile, Index2{0, 4});
    EXPECT_EQ(past_k.global_row, 36);
    EXPECT_EQ(past_k.global_col, 24);
    EXPECT_TRUE(past_k.padding);
}

TEST_F(EdgeBlock, AccumulatedKGrowsOneTileWidthPerPhase) {
    const auto range = [&](int phase) {
        const KRange r = accumulated_k(m_problem, kTile, phase);
        return std::pair{r.begin, r.end};
    };
    EXPECT_EQ(range(-1), std::pair(0, 0));
    EXPECT_EQ(range(0), std::pair(0, 8));
    EXPECT_EQ(range(1), std::pair(0, 16));
    EXPECT_EQ(range(3), std::pair(0, 32));
    EXPECT_EQ(range(4), std::pair(0, 36)) << "the last phase stops at K, not at 40";
}

// PMPP's tiled example: Width = 4, TILE_WIDTH = 2. In phase 1, block (0,0) loads
// M[0..1][2..3] and N[2..3][0..1].
TEST(TextbookTiledExample, Block00Phase1) {
    const Problem p = make_problem(4, 4, 4);
    std::vector<std::int64_t> a;
    std::vector<std::int64_t> b;
    for (const TileLoad& load : tile_loads(p, 2, Index2{0, 0}, 1, Operand::A)) a.push_back(load.address);
    for (const TileLoad& load : tile_loads(p, 2, Index2{0, 0}, 1, Operand::B)) b.push_back(load.address);
    EXPECT_EQ(a, (std::vector<std::int64_t>{2, 3, 6, 7}));
    EXPECT_EQ(b, (std::vector<std::int64_t>{8, 9, 12, 13}));
    EXPECT_EQ(accumulated_k(p, 2, 1).end, 4);
}
