// The ladder's index math walked as its kernels walk it: every cell of C owned by exactly one
// thread, every element of A and B loaded as often as count_ladder says, for sizes that are
// not multiples of the tiles too.
#include <gtest/gtest.h>

#include <map>
#include <tuple>
#include <vector>

#include "model/ladder.hpp"
#include "model/launch_geometry.hpp"
#include "model/thread_map.hpp"
#include "model/traffic.hpp"

namespace ts::model {
namespace {

struct Size {
    int m, n, k;
};

// What one launch does, enumerated thread by thread with the kernels' own index functions.
struct Walk {
    std::vector<int> owners;                      // per cell of C: how many threads store it
    std::map<std::pair<int, int>, int> a_loads;   // element of A → loads from global memory
    std::map<std::pair<int, int>, int> b_loads;
    std::int64_t shared_stores = 0, shared_loads = 0, fmas = 0, stores = 0;
};

Walk walk(LadderShape s, Size size) {
    Walk w;
    w.owners.assign(static_cast<std::size_t>(size.m) * size.n, 0);
    const int blocks_x = ceil_div(size.n, s.bn), blocks_y = ceil_div(size.m, s.bm);
    for (int by = 0; by < blocks_y; ++by)
        for (int bx = 0; bx < blocks_x; ++bx)
            for (int t = 0; t < s.threads(); ++t) {
                for (int step = 0; step < ladder_steps(s, size.k); ++step) {
                    for (int i = 0; i < s.a_loads_per_thread(); ++i) {
                        const int row = by * s.bm + ladder_load_row(t, i, s.threads(), s.bk);
                        const int col = step * s.bk + ladder_load_col(t, i, s.threads(), s.bk);
                        if (inside(row, col, size.m, size.k)) ++w.a_loads[{row, col}];
                        ++w.shared_stores;
                    }
                    for (int i = 0; i < s.b_loads_per_thread(); ++i) {
                        const int row = step * s.bk + ladder_load_row(t, i, s.threads(), s.bn);
                        const int col = bx * s.bn + ladder_load_col(t, i, s.threads(), s.bn);
                        if (inside(row, col, size.k, size.n)) ++w.b_loads[{row, col}];
                        ++w.shared_stores;
                    }
                    w.shared_loads += std::int64_t{s.bk} * (s.tm + s.tn);
                    w.fmas += std::int64_t{s.bk} * s.tm * s.tn;
                }
                const int row0 = ladder_row(s, by, t), col0 = ladder_col(s, bx, t);
                for (int i = 0; i < s.tm; ++i)
                    for (int j = 0; j < s.tn; ++j)
                        if (inside(row0 + i, col0 + j, size.m, size.n)) {
                            ++w.owners[static_cast<std::size_t>(row0 + i) * size.n + col0 + j];
                            ++w.stores;
                        }
            }
    return w;
}

class LadderWalk : public testing::TestWithParam<std::tuple<LadderShape, Size>> {};

TEST_P(LadderWalk, EveryCellOnceAndLoadsEqualTheCounts) {
    const auto [shape, size] = GetParam();
    const Walk w = walk(shape, size);
    for (std::size_t cell = 0; cell < w.owners.size(); ++cell)
        ASSERT_EQ(w.owners[cell], 1) << "cell " << cell / size.n << "," << cell % size.n;

    const LadderCounts counts = count_ladder(shape, size.m, size.n, size.k);
    std::int64_t a_total = 0, b_total = 0;
    for (int r = 0; r < size.m; ++r)
        for (int c = 0; c < size.k; ++c) {
            const auto found = w.a_loads.find({r, c});
            const int loads = found == w.a_loads.end() ? 0 : found->second;
            ASSERT_EQ(loads, ladder_loads_of_element(shape, size.m, size.n, size.k, true, r, c)) << "A " << r << "," << c;
            a_total += loads;
        }
    for (int r = 0; r < size.k; ++r)
        for (int c = 0; c < size.n; ++c) {
            const auto found = w.b_loads.find({r, c});
            const int loads = found == w.b_loads.end() ? 0 : found->second;
            ASSERT_EQ(loads, ladder_loads_of_element(shape, size.m, size.n, size.k, false, r, c)) << "B " << r << "," << c;
            b_total += loads;
        }
    EXPECT_EQ(w.a_loads.size(), static_cast<std::size_t>(size.m) * size.k) << "an element of A never loaded";
    EXPECT_EQ(w.b_loads.size(), static_cast<std::size_t>(size.k) * size.n) << "an element of B never loaded";
    EXPECT_EQ(a_total, counts.global_loads_a);
    EXPECT_EQ(b_total, counts.global_loads_b);
    EXPECT_EQ(w.stores, counts.global_stores);
    EXPECT_EQ(w.shared_stores, counts.shared_stores);
    EXPECT_EQ(w.shared_loads, counts.shared_loads);
    EXPECT_EQ(w.fmas, counts.fmas);
}

// The textbook 4×4, sizes one past a tile, odd sizes, a tall and a wide one.
INSTANTIATE_TEST_SUITE_P(Shapes, LadderWalk,
                         testing::Combine(testing::Values(kRegTile1dShape, kRegTile2dShape, LadderShape{16, 8, 4, 2, 2}),
                                          testing::Values(Size{4, 4, 4}, Size{64, 64, 8}, Size{129, 65, 9},
                                                          Size{37, 200, 13}, Size{300, 7, 21}, Size{128, 128, 16})));

TEST(Ladder, ShapesOfTheRungs) {
    EXPECT_EQ(kRegTile1dShape.a_loads_per_thread(), 1);
    EXPECT_EQ(kRegTile1dShape.b_loads_per_thread(), 1);
    EXPECT_EQ(kRegTile2dShape.a_loads_per_thread(), 4);
    EXPECT_EQ(kRegTile2dShape.b_loads_per_thread(), 4);
    EXPECT_EQ(ladder_shared_bytes(kRegTile2dShape, 4), 8192);
    EXPECT_FALSE((LadderShape{64, 64, 8, 3, 1}.valid())) << "3 does not divide 64";
    EXPECT_FALSE((LadderShape{32, 32, 8, 1, 1}.valid())) << "1024 threads cannot split a 32×8 tile into whole rounds";
}

TEST(Ladder, RegisterTilesRaiseFmasPerSharedLoad) {
    // The tiled kernel reads two shared elements per FMA (0.5); 8×1 reads 9 for 8, 8×8 reads 16 for 64.
    const auto one_d = count_ladder(kRegTile1dShape, 1024, 1024, 1024);
    const auto two_d = count_ladder(kRegTile2dShape, 1024, 1024, 1024);
    EXPECT_NEAR(one_d.fmas_per_shared_load(), 8.0 / 9.0, 1e-12);
    EXPECT_NEAR(two_d.fmas_per_shared_load(), 4.0, 1e-12);
    // Global loads: A read once per column of blocks, B once per row of blocks.
    EXPECT_EQ(two_d.global_loads_a, std::int64_t{1024} * 1024 * 8);
    EXPECT_EQ(one_d.global_loads_b, std::int64_t{1024} * 1024 * 16);
}

TEST(Ladder, ThreadsTileTheBlockRowByRow) {
    // Thread 17 of the 8×8 rung: the 16 threads of a row of register tiles come first.
    EXPECT_EQ(ladder_thread_row(kRegTile2dShape, 17), 1);
    EXPECT_EQ(ladder_thread_col(kRegTile2dShape, 17), 1);
    EXPECT_EQ(ladder_row(kRegTile2dShape, 2, 17), 2 * 128 + 8);
    EXPECT_EQ(ladder_col(kRegTile2dShape, 3, 17), 3 * 128 + 8);
    // 06: a thread owns 8 rows of one column; 64 threads across.
    EXPECT_EQ(ladder_row(kRegTile1dShape, 0, 65), 8);
    EXPECT_EQ(ladder_col(kRegTile1dShape, 0, 65), 1);
}

// The thread map and the launch of a rung agree with ladder.hpp: every cell's owner, found
// with thread_of_cell, lists the cell among its cells at the step it names; ghosts are
// exactly the threads whose register tile starts outside C.
TEST(Ladder, ThreadMapRoundTripsEveryCell) {
    for (const KernelKind kind : {KernelKind::RegTile1d, KernelKind::RegTile2d})
        for (const Size size : {Size{4, 4, 4}, Size{129, 65, 9}, Size{300, 7, 21}}) {
            KernelConfig config;
            config.kind = kind;
            Problem problem;
            problem.m = size.m;
            problem.n = size.n;
            problem.k = size.k;
            const LadderShape s = ladder_shape(kind);
            const LaunchGeometry g = plan_launch(config, problem);
            ASSERT_EQ(g.block.x, s.threads());
            ASSERT_EQ(g.grid.x, ceil_div(size.n, s.bn));
            ASSERT_EQ(g.grid.y, ceil_div(size.m, s.bm));
            std::int64_t ghosts = 0;
            for (int by = 0; by < g.grid.y; ++by)
                for (int bx = 0; bx < g.grid.x; ++bx)
                    for (int t = 0; t < s.threads(); ++t)
                        ghosts += is_ghost(config, problem, {bx, by}, {t, 0});
            EXPECT_EQ(ghosts, g.ghost_threads) << kernel_name(kind);
            for (int row = 0; row < size.m; ++row)
                for (int col = 0; col < size.n; ++col) {
                    const auto id = thread_of_cell(config, problem, {row, col});
                    ASSERT_TRUE(id);
                    const CellRange cells = cells_of_thread(config, problem, id->block, id->thread);
                    ASSERT_TRUE(cells.contains({row, col})) << row << "," << col;
                    EXPECT_TRUE(cells_of_block(config, problem, id->block).contains({row, col}));
                    EXPECT_EQ(id->step, (row - cells.row_begin) * s.tn + (col - cells.col_begin));
                    EXPECT_EQ(id->warp, id->thread.x / kWarpSize);
                }
            const Traffic traffic = count_traffic(config, problem);
            const LadderCounts counts = count_ladder(s, size.m, size.n, size.k);
            EXPECT_EQ(traffic.global_loads(), counts.global_loads_a + counts.global_loads_b);
            EXPECT_EQ(traffic.shared_loads, counts.shared_loads);
        }
}

}  // namespace
}  // namespace ts::model
