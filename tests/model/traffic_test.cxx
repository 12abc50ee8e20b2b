// Memory traffic and FLOPs of the naive and tiled kernels, worked out by hand.
#include <gtest/gtest.h>

#include "support/problems.hpp"
#include "model/traffic.hpp"

using namespace ts::model;

using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;

TEST(Traffic, Naive64Cubed) {
    const Traffic t = count_traffic(make_naive(), make_problem(64, 64, 64));
    EXPECT_EQ(t.global_loads_a, 262144);
    EXPECT_EQ(t.global_loads_b, 262144);
    EXPECT_EQ(t.global_loads(), 524288) << "2 · M · N · K";
    EXPECT_EQ(t.global_stores, 4096);
    EXPECT_EQ(t.shared_stores, 0);
    EXPECT_EQ(t.shared_loads, 0);
    EXPECT_EQ(t.flops, 524288);
    EXPECT_EQ(t.global_bytes(4), (524288 + 4096) * 4);
    // One FLOP per 4 bytes loaded, a little less once the stores count.
    EXPECT_NEAR(t.arithmetic_intensity(4), 0.24806, 1e-5);
    EXPECT_NEAR(t.arithmetic_intensity(8), 0.12403, 1e-5);
}

TEST(Traffic, Tiled64CubedWithT16) {
    const Traffic t = count_traffic(make_tiled(16), make_problem(64, 64, 64));
    EXPECT_EQ(t.global_loads_a, 16384);
    EXPECT_EQ(t.global_loads_b, 16384);
    EXPECT_EQ(t.global_loads(), 32768) << "2 · M · N · K / T";
    EXPECT_EQ(t.global_stores, 4096);
    // 4096 threads, 4 phases: one As and one Bs slot each per phase, then 16 reads of each.
    EXPECT_EQ(t.shared_stores, 32768);
    EXPECT_EQ(t.shared_loads, 524288);
    EXPECT_EQ(t.flops, 524288);
    EXPECT_NEAR(t.arithmetic_intensity(4), 3.55556, 1e-5);
}

TEST(Traffic, TiledAtTheEdges) {
    // C 40 × 28, K 36, T 8: a 4 × 5 grid of 64 threads (160 ghosts), 5 phases. Every A
    // element is loaded once per block column (4), every B element once per block row (5).
    const Problem p = make_problem(40, 28, 36);
    EXPECT_EQ(loads_of_element(make_tiled(8), p, true), 4);
    EXPECT_EQ(loads_of_element(make_tiled(8), p, false), 5);
    const Traffic t = count_traffic(make_tiled(8), p);
    EXPECT_EQ(t.global_loads_a, 4 * 40 * 36);
    EXPECT_EQ(t.global_loads_b, 5 * 36 * 28);
    EXPECT_EQ(t.global_stores, 1120);
    EXPECT_EQ(t.shared_stores, 1280 * 2 * 5);
    EXPECT_EQ(t.shared_loads, 1280 * 2 * 8 * 5);
    EXPECT_EQ(t.flops, 80640);

    // The batch multiplies everything.
    const Traffic batched = count_traffic(make_tiled(8), make_problem(40, 28, 36, 3));
    EXPECT_EQ(batched.global_loads_a, 3 * t.global_loads_a);
    EXPECT_EQ(batched.global_loads_b, 3 * t.global_loads_b);
    EXPECT_EQ(batched.global_stores, 3 * t.global_stores);
    EXPECT_EQ(batched.shared_stores, 3 * t.shared_stores);
    EXPECT_EQ(batched.shared_loads, 3 * t.shared_loads);
    EXPECT_EQ(batched.flops, 3 * t.flops);
}

TEST(Traffic, NaiveAtTheEdgesDoesNotDependOnTheBlockShape) {
    // Ghost threads load nothing, so only the problem matters: A[r][k] is read by the N
    // threads of row r, B[k][c] by the M threads of column c.
    const Problem p = make_problem(40, 28, 36);
    for (KernelKind kind : {KernelKind::Naive, KernelKind::NaiveRowFromX})
        for (auto [bx, by] : {std::pair{8, 1}, std::pair{32, 8}, std::pair{64, 16}, std::pair{13, 7}}) {
            EXPECT_EQ(loads_of_element(make_naive(kind, bx, by), p, true), 28);
            EXPECT_EQ(loads_of_element(make_naive(kind, bx, by), p, false), 40);
            const Traffic t = count_traffic(make_naive(kind, bx, by), p);
            EXPECT_EQ(t.global_loads_a, 40320);
            EXPECT_EQ(t.global_loads_b, 40320);
            EXPECT_EQ(t.global_stores, 1120);
        }
}

// When T divides M, N and K there are no ghosts and no padding: the tiled kernel loads
// exactly T times less than the naive one, and its shared reads replace the naive loads.
class DividingTile : public testing::TestWithParam<std::tuple<std::int64_t, std::int64_t, std::int64_t, int>> {};

TEST_P(DividingTile, TiledLoadsAreNaiveLoadsOverT) {
    const auto [m, n, k, tile] = GetParam();
    const Problem p = make_problem(m, n, k);
    const Traffic slow = count_traffic(make_naive(), p);
    const Traffic fast = count_traffic(make_tiled(tile), p);
    EXPECT_EQ(slow.global_loads(), 2 * m * n * k);
    EXPECT_EQ(fast.global_loads(), 2 * m * n * k / tile);
    EXPECT_EQ(fast.global_loads_a, m * n * k / tile);
    EXPECT_EQ(fast.shared_loads, slow.global_loads());
    EXPECT_EQ(fast.shared_stores, fast.global_loads());
    EXPECT_EQ(slow.flops, fast.flops);
    EXPECT_EQ(slow.global_stores, fast.global_stores);
    if (tile == 1) EXPECT_DOUBLE_EQ(fast.arithmetic_intensity(4), slow.arithmetic_intensity(4));
    else EXPECT_GT(fast.arithmetic_intensity(4), slow.arithmetic_intensity(4));
}

INSTANTIATE_TEST_SUITE_P(Square, DividingTile,
                         testing::Combine(testing::Values(64), testing::Values(64), testing::Values(64),
                                          testing::Values(1, 2, 4, 8, 16, 32)));
INSTANTIATE_TEST_SUITE_P(Rectangular, DividingTile,
                         testing::Values(std::tuple{64, 32, 96, 32}, std::tuple{64, 32, 96, 16},
                                         std::tuple{12, 30, 6, 3}, std::tuple{12, 30, 6, 6},
                                         std::tuple{7, 14, 21, 7}));
