// The kernels added after the textbook's first two: one output row per thread and one
// output column per thread (the PMPP exercise), and cuBLAS, which the model does not look
// inside. Launch geometry, the thread map both ways, and traffic counted by walking every
// thread's loop, as the kernels in kernels/03_row_per_thread.cu and 04_column_per_thread.cu
// run it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/problems.hpp"
#include "model/format.hpp"
#include "model/rung_info.hpp"
#include "model/thread_map.hpp"
#include "model/traffic.hpp"

using namespace ts::model;

namespace ts::model {
}  // namespace ts::model

namespace {

using ts::testing_support::make_problem;

KernelConfig config(KernelKind kind, int block_x, int block_y = 16) {
    KernelConfig c;
    c.kind = kind;
    c.block_x = block_x;
    c.block_y = block_y;  // the 1-D kernels must ignore it
    return c;
}

KernelConfig cublas() {
    KernelConfig c;
    c.kind = KernelKind::Cublas;
    return c;
}

}  // namespace

TEST(KernelKinds, NamesParseAndDescribeInTeachingOrder) {
    std::vector<std::string> names;
    for (KernelKind kind : kAllKernelKinds) {
        EXPECT_EQ(parse_kernel(kernel_name(kind)), kind);
        names.emplace_back(kernel_name(kind));
    }
    EXPECT_EQ(names, (std::vector<std::string>{"naive", "naive-row", "row-per-thread", "column-per-thread", "tiled",
                                               "regtile-1d", "regtile-2d", "vectorized", "conflict-free",
                                               "warptile", "pipelined", "tuned", "wmma", "mma", "mma-async", "wgmma",
                                               "warp-specialized", "persistent", "tc-tuned", "fp8", "fp8-blocks", "cublas"}));
    EXPECT_EQ(describe(config(KernelKind::RowPerThread, 128)), "row-per-thread 128");
    EXPECT_EQ(describe(config(KernelKind::ColumnPerThread, 32)), "column-per-thread 32");
    EXPECT_EQ(describe(cublas()), "cublas");
    EXPECT_TRUE(uses_1d_blocks(KernelKind::RowPerThread));
    EXPECT_TRUE(uses_1d_blocks(KernelKind::ColumnPerThread));
    EXPECT_FALSE(uses_1d_blocks(KernelKind::Naive));
    EXPECT_FALSE(is_modelled(KernelKind::Cublas));
    EXPECT_TRUE(is_modelled(KernelKind::Tiled));
    EXPECT_EQ(describe({KernelKind::RegTile2d, 16, 16, 16}), "regtile-2d");
    EXPECT_TRUE(is_ladder(KernelKind::RegTile1d));
    EXPECT_FALSE(is_ladder(KernelKind::Tiled));
}

TEST(IndexMath, OneDimensionalKernelsAndBatchOffsets) {
    EXPECT_EQ(row_per_thread_row(3, 32, 5), 101);
    EXPECT_EQ(column_per_thread_col(0, 100, 99), 99);
    // 65535 batches of 46341 × 46341: far beyond 2^31 elements, still exact.
    EXPECT_EQ(batch_offset(65535, 46341, 46341), std::int64_t{65535} * 46341 * 46341);
    EXPECT_GT(batch_offset(2, 46341, 46341), std::int64_t{1} << 32);
    EXPECT_EQ(batch_offset(0, 7, 9), 0);
}

TEST(PerThreadLaunch, OneDimensionalBlocksAlongX) {
    const Problem p = make_problem(100, 70, 9, 3);
    LaunchGeometry g = plan_launch(config(KernelKind::RowPerThread, 32), p);
    EXPECT_EQ(g.block, (Dim3{32, 1, 1})) << "block_y is not used";
    EXPECT_EQ(g.grid, (Dim3{4, 1, 3}));
    EXPECT_EQ(g.ghost_threads, 128 - 100);
    EXPECT_EQ(g.shared_bytes, 0);
    EXPECT_TRUE(g.modelled);

    g = plan_launch(config(KernelKind::ColumnPerThread, 32), p);
    EXPECT_EQ(g.block, (Dim3{32, 1, 1}));
    EXPECT_EQ(g.grid, (Dim3{3, 1, 3}));
    EXPECT_EQ(g.ghost_threads, 96 - 70);
}

TEST(PerThreadLaunch, ChecksCountThreadsNotBlockY) {
    const Problem p = make_problem(100, 70, 9);
    const DeviceLimits limits = generic_limits();
    for (KernelKind kind : {KernelKind::RowPerThread, KernelKind::ColumnPerThread}) {
        EXPECT_EQ(check_config(config(kind, 1024, 0)), std::nullopt) << "block_y is ignored";
        EXPECT_EQ(check_launch(config(kind, 1024, 64), p, limits), std::nullopt);
        const auto zero = check_config(config(kind, 0));
        ASSERT_TRUE(zero.has_value());
        EXPECT_NE(zero->find("at least 1 thread"), std::string::npos) << *zero;
        const auto too_many = check_launch(config(kind, 2048), p, limits);
        ASSERT_TRUE(too_many.has_value());
        EXPECT_NE(too_many->find("2048 threads"), std::string::npos) << *too_many;
        EXPECT_NE(too_many->find("invalid configuration argument"), std::string::npos) << *too_many;
    }
}

TEST(PerThreadMap, AThreadOwnsAWholeRowOrColumn) {
    const Problem p = make_problem(100, 70, 9);
    const KernelConfig rows = config(KernelKind::RowPerThread, 32);
    // Block 2, thread 5 owns row 69 and computes its 70 cells left to right.
    EXPECT_EQ(cell_of_thread(rows, {2, 0}, {5, 0}), (Cell{69, 0}));
    EXPECT_EQ(cells_of_thread(rows, p, {2, 0}, {5, 0}), (std::vector<CellRange>{{69, 70, 0, 70}}));
    auto id = thread_of_cell(rows, p, Cell{69, 40});
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->block, (Index2{2, 0}));
    EXPECT_EQ(id->thread, (Index2{5, 0}));
    EXPECT_EQ(id->step, 40) << "its 41st cell";
    EXPECT_EQ(id->warp, 0);
    EXPECT_EQ(id->lane, 5);
    // Block 3 covers rows 96..127; only 96..99 exist.
    EXPECT_EQ(cells_of_block(rows, p, {3, 0}), (CellRange{96, 128, 0, 70}));
    EXPECT_TRUE(is_ghost(rows, p, {3, 0}, {4, 0}));
    EXPECT_TRUE(cells_of_thread(rows, p, {3, 0}, {4, 0}).empty());

    const KernelConfig cols = config(KernelKind::ColumnPerThread, 100);
    // One block of 100 threads covers all 70 columns; thread 69 walks column 69 downwards.
    EXPECT_EQ(cell_of_thread(cols, {0, 0}, {69, 0}), (Cell{0, 69}));
    EXPECT_EQ(cells_of_thread(cols, p, {0, 0}, {69, 0}), (std::vector<CellRange>{{0, 100, 69, 70}}));
    id = thread_of_cell(cols, p, Cell{42, 69});
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->thread, (Index2{69, 0}));
    EXPECT_EQ(id->step, 42);
    EXPECT_EQ(id->warp, 2);
    EXPECT_EQ(id->lane, 5);
    EXPECT_TRUE(is_ghost(cols, p, {0, 0}, {70, 0}));
}

TEST(CellsOfBlock, OneCellKernelsCoverTheirBlockShape) {
    const Problem p = make_problem(40, 28, 36);
    // Naive 32×8, block (1, 2): rows 16..23, columns 32..63 (all ghosts: N is 28).
    EXPECT_EQ(cells_of_block(config(KernelKind::Naive, 32, 8), p, {1, 2}), (CellRange{16, 24, 32, 64}));
    // Row from x 32×8, block (1, 2): x walks rows 32..63, y columns 16..23.
    EXPECT_EQ(cells_of_block(config(KernelKind::NaiveRowFromX, 32, 8), p, {1, 2}), (CellRange{32, 64, 16, 24}));
    KernelConfig tiled;
    tiled.kind = KernelKind::Tiled;
    tiled.tile = 8;
    EXPECT_EQ(cells_of_block(tiled, p, {3, 4}), (CellRange{32, 40, 24, 32}));
    EXPECT_EQ(cells_of_thread(tiled, p, {3, 4}, {3, 7}), (std::vector<CellRange>{{39, 40, 27, 28}}));
    EXPECT_TRUE(cells_of_thread(tiled, p, {3, 4}, {4, 7}).empty()) << "column 28 is outside C";
}

TEST(Cublas, IsNotModelledAndSaysSo) {
    const Problem p = make_problem(64, 48, 32, 2);
    const LaunchGeometry g = plan_launch(cublas(), p);
    EXPECT_FALSE(g.modelled);
    EXPECT_EQ(g.threads(), 0);
    EXPECT_EQ(g.ghost_threads, 0);
    EXPECT_EQ(thread_of_cell(cublas(), p, Cell{0, 0}), std::nullopt);
    EXPECT_TRUE(cells_of_block(cublas(), p, {0, 0}).empty());
    EXPECT_TRUE(cells_of_thread(cublas(), p, {0, 0}, {0, 0}).empty());
    const Traffic t = count_traffic(cublas(), p);
    EXPECT_FALSE(t.modelled);
    EXPECT_EQ(t.global_loads(), 0);
    EXPECT_EQ(t.global_stores, 0);
    EXPECT_EQ(t.flops, 2 * 64 * 48 * 32 * 2) << "the useful work is known whatever runs it";
    EXPECT_EQ(loads_of_element(cublas(), p, true), 0);
    // cuBLAS takes no parameters of ours; only the problem itself can be wrong.
    EXPECT_EQ(check_config(cublas()), std::nullopt);
    EXPECT_EQ(check_launch(cublas(), p, generic_limits()), std::nullopt);
    EXPECT_TRUE(check_launch(cublas(), make_problem(0, 4, 4), generic_limits()).has_value());
}

// Every thread of the planned launch, running the kernel's loop: its cells cover C exactly
// once, thread_of_cell finds the thread and the step again, and the loads per element and
// in total are what count_traffic predicts. The product is checked too.
class PerThreadKernel : public testing::TestWithParam<KernelConfig> {};

TEST_P(PerThreadKernel, LoopsCoverCOnceAndLoadWhatTrafficCounts) {
    struct Shape {
        int m, n, k, batch;
    };
    for (const Shape s : {Shape{1, 1, 1, 1}, Shape{40, 28, 36, 1}, Shape{33, 17, 5, 2}, Shape{7, 50, 3, 1},
                          Shape{100, 1, 9, 1}, Shape{1, 100, 31, 3}, Shape{64, 64, 4, 1}}) {
        SCOPED_TRACE(format_text("M={} N={} K={} batch {}", s.m, s.n, s.k, s.batch));
        const KernelConfig c = GetParam();
        const Problem p = make_problem(s.m, s.n, s.k, s.batch);
        const LaunchGeometry g = plan_launch(c, p);
        ASSERT_EQ(g.block.y, 1);
        ASSERT_EQ(g.grid.y, 1);
        ASSERT_EQ(g.grid.z, s.batch);
        std::vector<int> a(static_cast<std::size_t>(s.m) * s.k), b(static_cast<std::size_t>(s.k) * s.n);
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int>(i % 7) - 3;
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int>(i % 5) - 2;
        std::vector<int> owners(static_cast<std::size_t>(s.m) * s.n, 0);
        std::vector<std::int64_t> a_loads(a.size(), 0), b_loads(b.size(), 0), product(owners.size(), 0);
        std::int64_t ghosts = 0;
        for (int bx = 0; bx < g.grid.x; ++bx)
            for (int tx = 0; tx < g.block.x; ++tx) {
                const Index2 block{bx, 0};
                const Index2 thread{tx, 0};
                const std::vector<CellRange> ranges = cells_of_thread(c, p, block, thread);
                if (ranges.empty()) {
                    ASSERT_TRUE(is_ghost(c, p, block, thread));
                    ++ghosts;
                    continue;
                }
                ASSERT_EQ(ranges.size(), 1u) << "a per-thread kernel's cells are one row or column";
                const CellRange& cells = ranges[0];
                ASSERT_TRUE(cells_of_block(c, p, block).contains({cells.row_begin, cells.col_begin}));
                int step = 0;
                // The kernel's loop, in the kernel's order: columns of a row, or rows of a column.
                for (int row = cells.row_begin; row < cells.row_end; ++row)
                    for (int col = cells.col_begin; col < cells.col_end; ++col, ++step) {
                        ++owners[row_major(row, col, s.n)];
                        const auto id = thread_of_cell(c, p, {row, col});
                        ASSERT_TRUE(id.has_value());
                        ASSERT_EQ(id->block, block);
                        ASSERT_EQ(id->thread, thread);
                        ASSERT_EQ(id->step, step);
                        ASSERT_EQ(id->lane, tx % 32);
                        std::int64_t sum = 0;
                        for (int i = 0; i < s.k; ++i) {
                            ++a_loads[row_major(row, i, s.k)];
                            ++b_loads[row_major(i, col, s.n)];
                            sum += a[row_major(row, i, s.k)] * b[row_major(i, col, s.n)];
                        }
                        product[row_major(row, col, s.n)] = sum;
                    }
            }
        for (std::size_t i = 0; i < owners.size(); ++i) ASSERT_EQ(owners[i], 1) << "cell " << i;
        EXPECT_EQ(ghosts, g.ghost_threads);
        for (int row = 0; row < s.m; ++row)
            for (int col = 0; col < s.n; ++col) {
                std::int64_t sum = 0;
                for (int i = 0; i < s.k; ++i) sum += a[row_major(row, i, s.k)] * b[row_major(i, col, s.n)];
                ASSERT_EQ(product[row_major(row, col, s.n)], sum);
            }
        const std::int64_t per_a = loads_of_element(c, p, true);
        const std::int64_t per_b = loads_of_element(c, p, false);
        for (std::int64_t n : a_loads) ASSERT_EQ(n, per_a);
        for (std::int64_t n : b_loads) ASSERT_EQ(n, per_b);
        // Every batch repeats the same loops.
        const Traffic t = count_traffic(c, p);
        EXPECT_TRUE(t.modelled);
        EXPECT_EQ(t.global_loads_a, per_a * static_cast<std::int64_t>(a.size()) * s.batch);
        EXPECT_EQ(t.global_loads_b, per_b * static_cast<std::int64_t>(b.size()) * s.batch);
        EXPECT_EQ(t.global_stores, std::int64_t{s.m} * s.n * s.batch);
        EXPECT_EQ(t.global_loads(), 2 * std::int64_t{s.m} * s.n * s.k * s.batch) << "the naive count";
        EXPECT_EQ(t.shared_loads + t.shared_stores, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(Blocks, PerThreadKernel,
                         testing::Values(config(KernelKind::RowPerThread, 1), config(KernelKind::RowPerThread, 32),
                                         config(KernelKind::RowPerThread, 13), config(KernelKind::ColumnPerThread, 1),
                                         config(KernelKind::ColumnPerThread, 32),
                                         config(KernelKind::ColumnPerThread, 100)),
                         [](const testing::TestParamInfo<KernelConfig>& info) {
                             const KernelConfig& c = info.param;
                             return format_text("{}_{}", c.kind == KernelKind::RowPerThread ? "row" : "column", c.block_x);
                         });
