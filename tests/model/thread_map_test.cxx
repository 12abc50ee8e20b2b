// Which thread computes which cell of C, both ways, including the textbook's example.
#include <gtest/gtest.h>

#include <vector>

#include "model/thread_map.hpp"
#include "support/problems.hpp"

using namespace ts::model;

namespace {

using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;




}  // namespace

// PMPP 3.4: Width = 4, 2×2 blocks, one thread per element of P = M · N. The book writes
// coordinates as (y, x), so "thread (1,0) of block (0,0)" is threadIdx.y = 1, threadIdx.x = 0.
TEST(TextbookExample, Thread10OfBlock00ComputesP10) {
    const KernelConfig config = make_naive(KernelKind::Naive, 2, 2);
    const Problem p = make_problem(4, 4, 4);
    const Cell cell = cell_of_thread(config, Index2{0, 0}, Index2{0, 1});
    EXPECT_EQ(cell, (Cell{1, 0}));

    // for (k = 0; k < Width; ++k) Pvalue += M[Row*Width + k] * N[k*Width + Col];
    std::vector<std::int64_t> m_reads;
    std::vector<std::int64_t> n_reads;
    for (int k = 0; k < 4; ++k) {
        m_reads.push_back(row_major(cell.row, k, 4));
        n_reads.push_back(row_major(k, cell.col, 4));
    }
    EXPECT_EQ(m_reads, (std::vector<std::int64_t>{4, 5, 6, 7}));
    EXPECT_EQ(n_reads, (std::vector<std::int64_t>{0, 4, 8, 12}));
    EXPECT_EQ(row_major(cell.row, cell.col, 4), 4) << "P[1][0] is stored at P[4]";

    EXPECT_FALSE(is_ghost(config, p, Index2{0, 0}, Index2{0, 1}));
}

TEST(TextbookExample, Thread00OfBlock10ComputesP20) {
    const KernelConfig config = make_naive(KernelKind::Naive, 2, 2);
    // Block (1,0) in (y, x) order: blockIdx.y = 1, blockIdx.x = 0.
    EXPECT_EQ(cell_of_thread(config, Index2{0, 1}, Index2{0, 0}), (Cell{2, 0}));
    const auto id = thread_of_cell(config, make_problem(4, 4, 4), Cell{2, 0});
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->block, (Index2{0, 1}));
    EXPECT_EQ(id->thread, (Index2{0, 0}));
    EXPECT_EQ(id->warp, 0);
    EXPECT_EQ(id->lane, 0);
}

TEST(TextbookExample, FourBlocksOfFourThreadsAndNoGhosts) {
    const LaunchGeometry g = plan_launch(make_naive(KernelKind::Naive, 2, 2), make_problem(4, 4, 4));
    EXPECT_EQ(g.grid, (Dim3{2, 2, 1}));
    EXPECT_EQ(g.block, (Dim3{2, 2, 1}));
    EXPECT_EQ(g.ghost_threads, 0);
}

TEST(ThreadOfCell, WarpAndLaneFollowXFastestLinearization) {
    const Problem p = make_problem(100, 70, 5);

    // Naive 32×8: column 40 is block x 1, thread x 8; row 5 is thread y 5. Linear 5·32 + 8.
    auto id = thread_of_cell(make_naive(KernelKind::Naive, 32, 8), p, Cell{5, 40});
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->block, (Index2{1, 0}));
    EXPECT_EQ(id->thread, (Index2{8, 5}));
    EXPECT_EQ(id->warp, 5);
    EXPECT_EQ(id->lane, 8);

    // Row from x, 16×16: row 40 is block x 2, thread x 8; column 5 is thread y 5. Linear 88.
    id = thread_of_cell(make_naive(KernelKind::NaiveRowFromX, 16, 16), p, Cell{40, 5});
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->block, (Index2{2, 0}));
    EXPECT_EQ(id->thread, (Index2{8, 5}));
    EXPECT_EQ(id->warp, 2);
    EXPECT_EQ(id->lane, 24);

    // Tiled T = 8: cell (19, 27) is block (x 3, y 2), thread (x 3, y 3). Linear 27.
    id = thread_of_cell(make_tiled(8), p, Cell{19, 27});
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->block, (Index2{3, 2}));
    EXPECT_EQ(id->thread, (Index2{3, 3}));
    EXPECT_EQ(id->warp, 0);
    EXPECT_EQ(id->lane, 27);
}

// Why the naive mapping is the coalesced one: a warp of the 32×8 naive kernel covers 32
// neighbouring columns of one row; with threadIdx.x as the row it covers 32 rows of one column.
TEST(ThreadOfCell, WarpShapeDependsOnWhichIndexWalksColumns) {
    const Problem p = make_problem(64, 64, 64);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        // Warp 3 of block (1, 1): linear threads 96..127, i.e. threadIdx.y = 3, threadIdx.x = lane.
        const Index2 thread{lane, 3};
        EXPECT_EQ(cell_of_thread(make_naive(KernelKind::Naive, 32, 8), Index2{1, 1}, thread), (Cell{11, 32 + lane}));
        EXPECT_EQ(cell_of_thread(make_naive(KernelKind::NaiveRowFromX, 32, 8), Index2{1, 1}, thread),
                  (Cell{32 + lane, 11}));
        EXPECT_EQ(thread_of_cell(make_naive(KernelKind::NaiveRowFromX, 32, 8), p, Cell{32 + lane, 11})->warp, 3);
    }
}

TEST(IsGhost, ThreadsPastTheEdgeOfCAreGhosts) {
    // C is 40 × 28, T = 8: block x 3 covers columns 24..31, so threadIdx.x >= 4 is a ghost.
    const Problem p = make_problem(40, 28, 36);
    EXPECT_FALSE(is_ghost(make_tiled(8), p, Index2{3, 0}, Index2{3, 0}));
    EXPECT_TRUE(is_ghost(make_tiled(8), p, Index2{3, 0}, Index2{4, 0}));
    EXPECT_FALSE(is_ghost(make_tiled(8), p, Index2{3, 4}, Index2{0, 0})) << "row 32 and column 24 are inside";
    EXPECT_TRUE(is_ghost(make_tiled(8), p, Index2{0, 5}, Index2{0, 0})) << "block y 5 starts at row 40";
    EXPECT_FALSE(is_ghost(make_tiled(8), p, Index2{0, 4}, Index2{7, 7}));

    // Row from x, 32×4: block x 1 covers rows 32..63, so threadIdx.x >= 8 is a ghost.
    EXPECT_FALSE(is_ghost(make_naive(KernelKind::NaiveRowFromX, 32, 4), p, Index2{1, 0}, Index2{7, 0}));
    EXPECT_TRUE(is_ghost(make_naive(KernelKind::NaiveRowFromX, 32, 4), p, Index2{1, 0}, Index2{8, 0}));

    EXPECT_EQ(thread_of_cell(make_tiled(8), p, Cell{40, 0}), std::nullopt);
    EXPECT_EQ(thread_of_cell(make_tiled(8), p, Cell{0, 28}), std::nullopt);
    EXPECT_EQ(thread_of_cell(make_tiled(8), p, Cell{-1, 0}), std::nullopt);
}
