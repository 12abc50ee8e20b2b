// Property tests: run every kernel "by hand" over whole launches and check that the model's
// answers (thread map, tile schedule, traffic counts) agree with what the threads really do.
//
// Each test takes one kernel configuration and walks it over many problem shapes: square,
// rectangular, sizes that no block side divides, and degenerate 1-wide matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/format.hpp"
#include "model/thread_map.hpp"
#include "model/tile_schedule.hpp"
#include "model/traffic.hpp"
#include "support/problems.hpp"

using namespace ts::model;

namespace ts::model {
// How gtest shows a failing parameter: "tiled T=8" rather than the struct's bytes. Found by
// argument-dependent lookup, so it lives beside KernelConfig; static keeps it in this file.
}  // namespace ts::model

namespace {

using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;

struct Shape {
    int m;
    int n;
    int k;
};

constexpr Shape kShapes[] = {
    {1, 1, 1}, {4, 4, 4}, {40, 28, 36}, {33, 17, 65}, {7, 50, 3},
    {64, 64, 64}, {100, 1, 9}, {1, 100, 31}, {31, 33, 32},
};

Problem to_problem(Shape s) {
    Problem p;
    p.m = s.m;
    p.n = s.n;
    p.k = s.k;
    return p;
}

std::string shape_name(Shape s) { return format_text("M={} N={} K={}", s.m, s.n, s.k); }

// Small distinct-ish integers, so a product taken from the wrong k changes the sum.
std::vector<std::int64_t> fill(int count, int salt) {
    std::vector<std::int64_t> values(count);
    for (int i = 0; i < count; ++i) values[i] = (i * 7 + salt) % 23 - 11;
    return values;
}

std::vector<std::int64_t> reference_product(Shape s, const std::vector<std::int64_t>& a,
                                            const std::vector<std::int64_t>& b) {
    std::vector<std::int64_t> c(static_cast<std::size_t>(s.m) * s.n, 0);
    for (int row = 0; row < s.m; ++row)
        for (int k = 0; k < s.k; ++k)
            for (int col = 0; col < s.n; ++col) c[row * s.n + col] += a[row * s.k + k] * b[k * s.n + col];
    return c;
}

// One T×T array in shared memory, and which of its slots hold padding zeros.
struct SharedTile {
    explicit SharedTile(int tile) : value(tile * tile), padding(tile * tile) {}
    std::vector<std::int64_t> value;
    std::vector<char> padding;
};

// The cell a thread computes, written out the way the CUDA kernels spell it.
Cell cuda_cell(const KernelConfig& config, Index2 block, Index2 thread, Index2 block_dim) {
    const int x = block.x * block_dim.x + thread.x;
    const int y = block.y * block_dim.y + thread.y;
    return config.kind == KernelKind::NaiveRowFromX ? Cell{x, y} : Cell{y, x};
}

std::string config_name(const testing::TestParamInfo<KernelConfig>& info) {
    const KernelConfig& c = info.param;
    if (c.kind == KernelKind::Tiled) return format_text("tiled_T{}", c.tile);
    return format_text("{}_{}x{}", c.kind == KernelKind::Naive ? "naive" : "naive_row", c.block_x, c.block_y);
}



// Every (block, thread) of the planned launch: the cell matches the CUDA formula, the
// inverse map finds the thread again, and each cell of C has exactly one owner.
void check_cover(const KernelConfig& config, Shape s) {
    const Problem p = to_problem(s);
    const LaunchGeometry g = plan_launch(config, p);
    const Index2 dim{static_cast<int>(g.block.x), static_cast<int>(g.block.y)};
    std::vector<int> owners(static_cast<std::size_t>(s.m) * s.n, 0);
    std::int64_t ghosts = 0;
    for (int by = 0; by < g.grid.y; ++by)
        for (int bx = 0; bx < g.grid.x; ++bx)
            for (int ty = 0; ty < dim.y; ++ty)
                for (int tx = 0; tx < dim.x; ++tx) {
                    const Index2 block{bx, by};
                    const Index2 thread{tx, ty};
                    const Cell cell = cell_of_thread(config, block, thread);
                    ASSERT_EQ(cell, cuda_cell(config, block, thread, dim)) << bx << "," << by << " " << tx << "," << ty;
                    const bool outside = cell.row >= s.m || cell.col >= s.n;
                    ASSERT_EQ(is_ghost(config, p, block, thread), outside) << cell.row << "," << cell.col;
                    if (outside) {
                        ++ghosts;
                        continue;
                    }
                    ++owners[cell.row * s.n + cell.col];
                    const auto id = thread_of_cell(config, p, cell);
                    ASSERT_TRUE(id.has_value());
                    ASSERT_EQ(id->block, block);
                    ASSERT_EQ(id->thread, thread);
                    ASSERT_EQ(id->warp, (ty * dim.x + tx) / 32);
                    ASSERT_EQ(id->lane, (ty * dim.x + tx) % 32);
                }
    for (std::size_t i = 0; i < owners.size(); ++i)
        ASSERT_EQ(owners[i], 1) << "cell (" << i / s.n << ", " << i % s.n << ")";
    EXPECT_EQ(ghosts, g.ghost_threads);
}

// Each naive thread inside C runs for (k = 0; k < K; ++k) sum += A[row][k] * B[k][col].
void check_naive_loads(const KernelConfig& config, Shape s) {
    const Problem p = to_problem(s);
    const LaunchGeometry g = plan_launch(config, p);
    const auto a = fill(s.m * s.k, 3);
    const auto b = fill(s.k * s.n, 5);
    std::vector<std::int64_t> c(static_cast<std::size_t>(s.m) * s.n, 0);
    std::vector<int> a_loads(a.size(), 0);
    std::vector<int> b_loads(b.size(), 0);
    std::int64_t stores = 0;
    for (int by = 0; by < g.grid.y; ++by)
        for (int bx = 0; bx < g.grid.x; ++bx)
            for (int ty = 0; ty < g.block.y; ++ty)
                for (int tx = 0; tx < g.block.x; ++tx) {
                    const Cell cell = cell_of_thread(config, Index2{bx, by}, Index2{tx, ty});
                    if (!inside(cell.row, cell.col, s.m, s.n)) continue;
                    std::int64_t sum = 0;
                    for (int k = 0; k < s.k; ++k) {
                        const std::int64_t ia = row_major(cell.row, k, s.k);
                        const std::int64_t ib = row_major(k, cell.col, s.n);
                        ++a_loads[ia];
                        ++b_loads[ib];
                        sum += a[ia] * b[ib];
                    }
                    c[row_major(cell.row, cell.col, s.n)] = sum;
                    ++stores;
                }
    const std::int64_t per_a = loads_of_element(config, p, true);
    const std::int64_t per_b = loads_of_element(config, p, false);
    for (std::size_t i = 0; i < a_loads.size(); ++i) ASSERT_EQ(a_loads[i], per_a) << "A[" << i << "]";
    for (std::size_t i = 0; i < b_loads.size(); ++i) ASSERT_EQ(b_loads[i], per_b) << "B[" << i << "]";
    const Traffic t = count_traffic(config, p);
    EXPECT_EQ(t.global_loads_a, per_a * static_cast<std::int64_t>(a.size()));
    EXPECT_EQ(t.global_loads_b, per_b * static_cast<std::int64_t>(b.size()));
    EXPECT_EQ(t.global_stores, stores);
    EXPECT_EQ(c, reference_product(s, a, b));
}

// The tiled kernel simulated from the tile schedule alone: each phase fills As and Bs
// from tile_loads (zeros for padding), then every thread multiplies its row of As with its
// column of Bs. The result must be A · B, and the loads must match the traffic counts.
void check_tiled_schedule(int tile, Shape s) {
    const Problem p = to_problem(s);
    const KernelConfig config = make_tiled(tile);
    const LaunchGeometry g = plan_launch(config, p);
    const int phases = phase_count(s.k, tile);
    const auto a = fill(s.m * s.k, 3);
    const auto b = fill(s.k * s.n, 5);
    std::vector<std::int64_t> c(static_cast<std::size_t>(s.m) * s.n, 0);
    std::vector<int> a_loads(a.size(), 0);
    std::vector<int> b_loads(b.size(), 0);
    std::int64_t slots = 0;
    std::int64_t shared_reads = 0;
    SharedTile as(tile);
    SharedTile bs(tile);
    std::vector<std::int64_t> acc(tile * tile);
    std::vector<int> real_products(tile * tile);  // products where neither factor is padding

    // One operand's tile into shared memory, checking every slot against the kernel's formula.
    auto stage = [&](Index2 block, int phase, Operand operand, SharedTile& smem) {
        const bool is_a = operand == Operand::A;
        const int rows = is_a ? s.m : s.k;
        const int cols = is_a ? s.k : s.n;
        const auto loads = tile_loads(p, tile, block, phase, operand);
        ASSERT_EQ(loads.size(), static_cast<std::size_t>(tile * tile));
        for (const TileLoad& load : loads) {
            const int tx = load.thread.x;
            const int ty = load.thread.y;
            ASSERT_EQ(load.operand, operand);
            ASSERT_EQ(load.smem_row, ty);
            ASSERT_EQ(load.smem_col, tx);
            // As[ty][tx] = A[by·T + ty][p·T + tx]; Bs[ty][tx] = B[p·T + ty][bx·T + tx].
            ASSERT_EQ(load.global_row, is_a ? block.y * tile + ty : phase * tile + ty);
            ASSERT_EQ(load.global_col, is_a ? phase * tile + tx : block.x * tile + tx);
            const bool outside = load.global_row >= rows || load.global_col >= cols;
            ASSERT_EQ(load.padding, outside) << load.global_row << "," << load.global_col;
            ++slots;
            smem.padding[ty * tile + tx] = load.padding;
            if (load.padding) {
                ASSERT_EQ(load.address, -1);
                smem.value[ty * tile + tx] = 0;
                continue;
            }
            ASSERT_EQ(load.address, static_cast<std::int64_t>(load.global_row) * cols + load.global_col);
            ++(is_a ? a_loads : b_loads)[load.address];
            smem.value[ty * tile + tx] = (is_a ? a : b)[load.address];
        }
    };

    for (int by = 0; by < g.grid.y; ++by)
        for (int bx = 0; bx < g.grid.x; ++bx) {
            const Index2 block{bx, by};
            std::fill(acc.begin(), acc.end(), 0);
            std::fill(real_products.begin(), real_products.end(), 0);
            for (int phase = 0; phase < phases; ++phase) {
                stage(block, phase, Operand::A, as);
                stage(block, phase, Operand::B, bs);
                if (testing::Test::HasFatalFailure()) return;
                for (int ty = 0; ty < tile; ++ty)
                    for (int tx = 0; tx < tile; ++tx)
                        for (int kk = 0; kk < tile; ++kk) {
                            const int ia = ty * tile + kk;
                            const int ib = kk * tile + tx;
                            acc[ty * tile + tx] += as.value[ia] * bs.value[ib];
                            shared_reads += 2;
                            if (!as.padding[ia] && !bs.padding[ib]) ++real_products[ty * tile + tx];
                        }
                // Every thread inside C has now summed exactly the k range the model reports
                // (the final comparison with A · B shows they were the right products).
                const KRange done = accumulated_k(p, tile, phase);
                ASSERT_EQ(done.begin, 0);
                ASSERT_EQ(done.end, std::min((phase + 1) * tile, s.k));
                for (int ty = 0; ty < tile; ++ty)
                    for (int tx = 0; tx < tile; ++tx)
                        if (inside(by * tile + ty, bx * tile + tx, s.m, s.n)) {
                            ASSERT_EQ(real_products[ty * tile + tx], done.end) << "phase " << phase;
                        }
            }
            for (int ty = 0; ty < tile; ++ty)
                for (int tx = 0; tx < tile; ++tx) {
                    const int row = by * tile + ty;
                    const int col = bx * tile + tx;
                    if (inside(row, col, s.m, s.n)) c[row * s.n + col] = acc[ty * tile + tx];
                }
        }

    const KRange last = accumulated_k(p, tile, phases - 1);
    EXPECT_EQ(last.begin, 0);
    EXPECT_EQ(last.end, s.k);
    EXPECT_EQ(c, reference_product(s, a, b));

    const std::int64_t per_a = loads_of_element(config, p, true);
    const std::int64_t per_b = loads_of_element(config, p, false);
    EXPECT_EQ(per_a, g.grid.x);
    EXPECT_EQ(per_b, g.grid.y);
    for (std::size_t i = 0; i < a_loads.size(); ++i) ASSERT_EQ(a_loads[i], per_a) << "A[" << i << "]";
    for (std::size_t i = 0; i < b_loads.size(); ++i) ASSERT_EQ(b_loads[i], per_b) << "B[" << i << "]";
    const Traffic t = count_traffic(config, p);
    EXPECT_EQ(t.global_loads_a, per_a * static_cast<std::int64_t>(a.size()));
    EXPECT_EQ(t.global_loads_b, per_b * static_cast<std::int64_t>(b.size()));
    EXPECT_EQ(t.shared_stores, slots);
    EXPECT_EQ(t.shared_loads, shared_reads);
    EXPECT_EQ(t.global_stores, static_cast<std::int64_t>(s.m) * s.n);
}

// `check` of `param` on every shape, each failure named by its shape, up to the first fatal one.
template <typename Check, typename Param>
void on_every_shape(Check check, const Param& param) {
    for (Shape s : kShapes) {
        SCOPED_TRACE(shape_name(s));
        check(param, s);
        if (testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace

class EveryKernel : public testing::TestWithParam<KernelConfig> {};

TEST_P(EveryKernel, EachCellOfCHasExactlyOneThread) {
    on_every_shape(check_cover, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Naive, EveryKernel,
                         testing::Values(make_naive(KernelKind::Naive, 8, 1), make_naive(KernelKind::Naive, 16, 16),
                                         make_naive(KernelKind::Naive, 32, 8), make_naive(KernelKind::Naive, 64, 4),
                                         make_naive(KernelKind::Naive, 8, 32), make_naive(KernelKind::Naive, 13, 3)),
                         config_name);
INSTANTIATE_TEST_SUITE_P(NaiveRowFromX, EveryKernel,
                         testing::Values(make_naive(KernelKind::NaiveRowFromX, 8, 1),
                                         make_naive(KernelKind::NaiveRowFromX, 32, 8),
                                         make_naive(KernelKind::NaiveRowFromX, 64, 16),
                                         make_naive(KernelKind::NaiveRowFromX, 5, 11)),
                         config_name);
INSTANTIATE_TEST_SUITE_P(Tiled, EveryKernel,
                         testing::Values(make_tiled(1), make_tiled(2), make_tiled(3), make_tiled(8), make_tiled(13), make_tiled(32)), config_name);

class NaiveKernel : public testing::TestWithParam<KernelConfig> {};

TEST_P(NaiveKernel, LoadsMatchTrafficAndTheProductIsRight) {
    on_every_shape(check_naive_loads, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Shapes, NaiveKernel,
                         testing::Values(make_naive(KernelKind::Naive, 8, 1), make_naive(KernelKind::Naive, 32, 8),
                                         make_naive(KernelKind::Naive, 64, 4), make_naive(KernelKind::Naive, 7, 9),
                                         make_naive(KernelKind::NaiveRowFromX, 32, 8),
                                         make_naive(KernelKind::NaiveRowFromX, 16, 32)),
                         config_name);

class TiledKernel : public testing::TestWithParam<int> {};

TEST_P(TiledKernel, ScheduleLoadsEachElementAsCountedAndComputesAB) {
    on_every_shape(check_tiled_schedule, GetParam());
}

INSTANTIATE_TEST_SUITE_P(TileWidths, TiledKernel, testing::Values(1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 32),
                         [](const testing::TestParamInfo<int>& info) { return format_text("T{}", info.param); });
