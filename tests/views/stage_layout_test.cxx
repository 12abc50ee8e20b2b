// The stage's layout and block tiling, checked without drawing.
#include <gtest/gtest.h>

#include "model/launch_geometry.hpp"
#include "support/problems.hpp"
#include "views/stage/stage_layout.hpp"

namespace {

using ts::model::KernelConfig;
using ts::model::KernelKind;
using ts::model::Problem;
using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;
using ts::views::BlockTiling;
using ts::views::Rect;
using ts::views::StageLayout;

const Rect kRegion{{100, 50}, {1300, 950}};
constexpr float kLine = 20.0f;

void expect_classic_layout(const Problem& p, const KernelConfig& config) {
    SCOPED_TRACE(testing::Message() << p.m << "×" << p.n << "×" << p.k);
    const StageLayout l = ts::views::layout_stage(p, ts::views::block_tiling(config, p), kRegion, kLine);
    // B above C, sharing C's columns; A left of C, sharing C's rows.
    EXPECT_LE(l.b.max.y, l.c.min.y);
    EXPECT_FLOAT_EQ(l.b.min.x, l.c.min.x);
    EXPECT_FLOAT_EQ(l.b.max.x, l.c.max.x);
    EXPECT_LE(l.a.max.x, l.c.min.x);
    EXPECT_FLOAT_EQ(l.a.min.y, l.c.min.y);
    EXPECT_FLOAT_EQ(l.a.max.y, l.c.max.y);
    // Room for a line of text above B, between the rows (A's name) and below the grid (C's).
    EXPECT_GE(l.b.min.y - kRegion.min.y, kLine);
    EXPECT_GE(l.c.min.y - l.b.max.y, kLine);
    EXPECT_GE(kRegion.max.y - l.grid.max.y, kLine);
    // The grid covers C and stays inside the region.
    EXPECT_FLOAT_EQ(l.grid.min.x, l.c.min.x);
    EXPECT_FLOAT_EQ(l.grid.min.y, l.c.min.y);
    EXPECT_GE(l.grid.max.x, l.c.max.x);
    EXPECT_GE(l.grid.max.y, l.c.max.y);
    EXPECT_GE(l.a.min.x, kRegion.min.x);
    EXPECT_LE(l.grid.max.x, kRegion.max.x);
    EXPECT_LE(l.grid.max.y, kRegion.max.y);
    // Matrices keep their proportions: K is as long in A as in B.
    EXPECT_FLOAT_EQ(l.a.width(), l.b.height());
}

TEST(StageLayout, PutsBAboveCAndALeftOfC) {
    expect_classic_layout(make_problem(4, 4, 4), make_tiled(2));
    expect_classic_layout(make_problem(12, 16, 8), make_tiled(4));
    expect_classic_layout(make_problem(40, 28, 36), make_tiled(8));
    expect_classic_layout(make_problem(4096, 4096, 4096), make_tiled(16));
    expect_classic_layout(make_problem(1, 1, 1), make_tiled(1));
}

TEST(StageLayout, CellsAreSquareAndFillTheRegion) {
    const Problem p = make_problem(40, 28, 36);
    const StageLayout l = ts::views::layout_stage(p, ts::views::block_tiling(make_tiled(8), p), kRegion, kLine);
    EXPECT_FLOAT_EQ(l.cell_w, l.cell_h);
    EXPECT_FLOAT_EQ(l.cell_w, l.k_cell);
    // The height is the tight side here: K + 40 rows against K + 32 columns.
    EXPECT_GT(l.grid.max.y - l.b.min.y, 0.8f * kRegion.height());
}

TEST(StageLayout, ThinDimensionsStayVisible) {
    // C is 4 × 4 beside K = 16384: proportional drawing would make C a fraction of a pixel.
    const Problem p = make_problem(4, 4, 16384);
    const StageLayout l = ts::views::layout_stage(p, ts::views::block_tiling(make_tiled(4), p), kRegion, kLine);
    EXPECT_GE(l.c.width(), 2.0f * kLine);
    EXPECT_GE(l.c.height(), 2.0f * kLine);
    EXPECT_LE(l.grid.max.x, kRegion.max.x);
    EXPECT_LE(l.grid.max.y, kRegion.max.y);
}

TEST(StageLayout, HugeProblemsFitTheRegion) {
    const Problem p = make_problem(16384, 16384, 16384);
    const StageLayout l = ts::views::layout_stage(p, ts::views::block_tiling(make_tiled(1), p), kRegion, kLine);
    EXPECT_GT(l.c.width(), 100.0f);
    EXPECT_LE(l.grid.max.x, kRegion.max.x);
    EXPECT_LE(l.grid.max.y, kRegion.max.y);
}

TEST(BlockTiling, PmppExampleHasFourBlocksOfTwoByTwo) {
    const BlockTiling t = ts::views::block_tiling(make_tiled(2), make_problem(4, 4, 4));
    EXPECT_EQ(t.rows_per_block, 2);
    EXPECT_EQ(t.cols_per_block, 2);
    EXPECT_EQ(t.grid_rows, 4);
    EXPECT_EQ(t.grid_cols, 4);
    EXPECT_EQ(t.block_rows(), 2);
    EXPECT_EQ(t.block_cols(), 2);
}

TEST(BlockTiling, GridOverhangsWhenSizesAreNotMultiples) {
    // N = 28 needs 4 blocks of 8 columns: 32 columns, 4 of them ghosts.
    const BlockTiling t = ts::views::block_tiling(make_tiled(8), make_problem(40, 28, 36));
    EXPECT_EQ(t.grid_rows, 40);
    EXPECT_EQ(t.grid_cols, 32);
    EXPECT_EQ(t.block_rows(), 5);
    EXPECT_EQ(t.block_cols(), 4);
    // The same count of ghost cells as the model's launch plan.
    const auto launch = ts::model::plan_launch(make_tiled(8), make_problem(40, 28, 36));
    EXPECT_EQ(t.grid_rows * t.grid_cols - 40 * 28, launch.ghost_threads);
}

TEST(BlockTiling, NaiveRowKernelBlocksRunDownTheRows) {
    // threadIdx.x walks the rows: a 32 × 8 block covers 32 rows and 8 columns of C.
    const BlockTiling t = ts::views::block_tiling(make_naive(KernelKind::NaiveRowFromX, 32, 8), make_problem(40, 28, 36));
    EXPECT_EQ(t.rows_per_block, 32);
    EXPECT_EQ(t.cols_per_block, 8);
    EXPECT_EQ(t.grid_rows, 64);
    EXPECT_EQ(t.grid_cols, 32);
}

TEST(BlockTiling, RowPerThreadBlocksSpanWholeRows) {
    const BlockTiling t = ts::views::block_tiling(make_naive(KernelKind::RowPerThread, 16), make_problem(40, 28, 36));
    EXPECT_TRUE(t.modelled);
    EXPECT_EQ(t.rows_per_block, 16);
    EXPECT_EQ(t.cols_per_block, 28);
    EXPECT_EQ(t.grid_rows, 48);
    EXPECT_EQ(t.grid_cols, 28);
}

TEST(BlockTiling, CublasIsOneUnknownBlock) {
    KernelConfig config;
    config.kind = KernelKind::Cublas;
    const BlockTiling t = ts::views::block_tiling(config, make_problem(40, 28, 36));
    EXPECT_FALSE(t.modelled);
    EXPECT_EQ(t.grid_rows, 40);
    EXPECT_EQ(t.grid_cols, 28);
    EXPECT_EQ(t.block_rows(), 1);
    EXPECT_EQ(t.block_cols(), 1);
}

TEST(CellAt, MapsPixelsToCellsAndBack) {
    const Rect area{{10, 20}, {110, 60}};  // 4 rows × 10 columns of 10 px
    const Rect cell = ts::views::cells_rect(area, 4, 10, 2, 7, 3, 8);
    EXPECT_FLOAT_EQ(cell.min.x, 80);
    EXPECT_FLOAT_EQ(cell.min.y, 40);
    const auto hit = ts::views::cell_at(area, 4, 10, ImVec2(85, 45));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->row, 2);
    EXPECT_EQ(hit->col, 7);
    EXPECT_FALSE(ts::views::cell_at(area, 4, 10, ImVec2(5, 45)));
    EXPECT_FALSE(ts::views::cell_at(area, 4, 10, ImVec2(110, 45)));  // max edge is outside
}

}  // namespace
