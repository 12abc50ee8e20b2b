// Grid and block shapes, and the explanations for launches a GPU would refuse.
#include <gtest/gtest.h>

#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "support/problems.hpp"

using namespace ts::model;

namespace {

using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;




bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

using ts::testing_support::reason_or_accepted;


TEST(KernelConfig, NamesParseAndDescribe) {
    for (KernelKind kind : {KernelKind::Naive, KernelKind::NaiveRowFromX, KernelKind::Tiled})
        EXPECT_EQ(parse_kernel(kernel_name(kind)), kind);
    EXPECT_EQ(kernel_name(KernelKind::Naive), "naive");
    EXPECT_EQ(kernel_name(KernelKind::NaiveRowFromX), "naive-row");
    EXPECT_EQ(kernel_name(KernelKind::Tiled), "tiled");
    EXPECT_EQ(parse_kernel("shared"), std::nullopt);
    EXPECT_EQ(describe(make_tiled(16)), "tiled T=16");
    EXPECT_EQ(describe(make_naive(KernelKind::Naive, 32, 8)), "naive 32×8");
    EXPECT_EQ(describe(make_naive(KernelKind::NaiveRowFromX, 8, 32)), "naive-row 8×32");
}

TEST(DeviceLimits, GenericLimitsAreCudasCommonOnes) {
    const DeviceLimits limits = generic_limits();
    EXPECT_TRUE(limits.is_preset);
    EXPECT_EQ(limits.max_threads_per_block, 1024);
    EXPECT_EQ(limits.static_shared_per_block, 48 * 1024);
    EXPECT_EQ(limits.max_grid_x, 2147483647);
    EXPECT_EQ(limits.max_grid_y, 65535);
    EXPECT_EQ(limits.max_grid_z, 65535);
    EXPECT_EQ(limits.warp_size, 32);
}

TEST(DeviceLimits, PresetsAreLabelledAndKnowTheirMemory) {
    const auto presets = device_presets();
    ASSERT_EQ(presets.size(), 5u);
    for (const DeviceLimits& preset : presets) {
        EXPECT_TRUE(preset.is_preset) << preset.name;
        EXPECT_TRUE(contains(preset.name, "(preset)")) << preset.name;
        EXPECT_GT(preset.global_memory_bytes, 0) << preset.name;
        EXPECT_EQ(preset.max_threads_per_block, 1024) << preset.name;
    }
    EXPECT_EQ(presets[0].global_memory_bytes, std::int64_t{80} << 30);
}

// One planned launch with its numbers worked out by hand.
struct GeometryCase {
    KernelConfig config;
    Problem problem;
    Dim3 grid;
    Dim3 block;
    int shared_bytes;
    std::int64_t ghosts;
};

void PrintTo(const GeometryCase& c, std::ostream* out) {
    *out << describe(c.config) << ", M=" << c.problem.m << " N=" << c.problem.n << " K=" << c.problem.k
         << " batch=" << c.problem.batch << " " << dtype_name(c.problem.dtype);
}


class PlanLaunch : public testing::TestWithParam<GeometryCase> {};

TEST_P(PlanLaunch, MatchesHandWorkedNumbers) {
    const GeometryCase& c = GetParam();
    const LaunchGeometry g = plan_launch(c.config, c.problem);
    EXPECT_EQ(g.grid, c.grid);
    EXPECT_EQ(g.block, c.block);
    EXPECT_EQ(g.shared_bytes, c.shared_bytes);
    EXPECT_EQ(g.ghost_threads, c.ghosts);
    EXPECT_EQ(g.threads(), c.grid.volume() * c.block.volume());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PlanLaunch,
    testing::Values(
        // Naive, C is 100 × 70: the grid's x covers the 70 columns, y the 100 rows.
        GeometryCase{make_naive(KernelKind::Naive, 8, 1), make_problem(100, 70, 5), {9, 100, 1}, {8, 1, 1}, 0, 200},
        GeometryCase{make_naive(KernelKind::Naive, 16, 16), make_problem(100, 70, 5), {5, 7, 1}, {16, 16, 1}, 0, 1960},
        GeometryCase{make_naive(KernelKind::Naive, 32, 8), make_problem(100, 70, 5), {3, 13, 1}, {32, 8, 1}, 0, 2984},
        GeometryCase{make_naive(KernelKind::Naive, 64, 16), make_problem(100, 70, 5), {2, 7, 1}, {64, 16, 1}, 0, 7336},
        GeometryCase{make_naive(KernelKind::Naive, 10, 10), make_problem(100, 70, 5), {7, 10, 1}, {10, 10, 1}, 0, 0},
        // threadIdx.x walks the rows: the grid's x now covers the 100 rows.
        GeometryCase{make_naive(KernelKind::NaiveRowFromX, 32, 8), make_problem(100, 70, 5), {4, 9, 1}, {32, 8, 1}, 0,
                     2216},
        GeometryCase{make_naive(KernelKind::NaiveRowFromX, 8, 32), make_problem(100, 70, 5), {13, 3, 1}, {8, 32, 1}, 0,
                     2984},
        // Tiled, C is 40 × 28; shared memory holds one T×T tile of A and one of B.
        GeometryCase{make_tiled(1), make_problem(40, 28, 36), {28, 40, 1}, {1, 1, 1}, 8, 0},
        GeometryCase{make_tiled(8), make_problem(40, 28, 36), {4, 5, 1}, {8, 8, 1}, 512, 160},
        GeometryCase{make_tiled(16), make_problem(40, 28, 36), {2, 3, 1}, {16, 16, 1}, 2048, 416},
        GeometryCase{make_tiled(32), make_problem(40, 28, 36, Dtype::Float64), {1, 2, 1}, {32, 32, 1}, 16384, 928},
        GeometryCase{make_tiled(32), make_problem(40, 28, 36, Dtype::Int32), {1, 2, 1}, {32, 32, 1}, 8192, 928},
        // Batches go to gridDim.z; ghost_threads counts one batch.
        GeometryCase{make_tiled(16), make_problem(40, 28, 36, Dtype::Float32, 3), {2, 3, 3}, {16, 16, 1}, 2048, 416}));

// kernel_tuner sweeps block_size_x over 8..64 and block_size_y over 1..32: every shape
// with at most 1024 threads is accepted, the others are explained.
using SweepParam = std::tuple<KernelKind, int, int>;
class NaiveBlockSweep : public testing::TestWithParam<SweepParam> {};

std::string sweep_name(const testing::TestParamInfo<SweepParam>& info) {
    const auto [kind, bx, by] = info.param;
    return format_text("{}_{}x{}", kind == KernelKind::Naive ? "naive" : "naive_row", bx, by);
}

TEST_P(NaiveBlockSweep, AcceptedExactlyUpTo1024Threads) {
    const auto [kind, bx, by] = GetParam();
    const auto reason = check_launch(make_naive(kind, bx, by), make_problem(300, 200, 50), generic_limits());
    if (bx * by <= 1024) {
        EXPECT_EQ(reason, std::nullopt);
        return;
    }
    const std::string text = reason_or_accepted(reason);
    EXPECT_TRUE(contains(text, std::to_string(bx) + "×" + std::to_string(by) + " = " + std::to_string(bx * by)))
        << text;
    EXPECT_TRUE(contains(text, "limit of 1024 threads per block")) << text;
    EXPECT_TRUE(contains(text, "invalid configuration argument")) << text;
}

INSTANTIATE_TEST_SUITE_P(KernelTunerRange, NaiveBlockSweep,
                         testing::Combine(testing::Values(KernelKind::Naive, KernelKind::NaiveRowFromX),
                                          testing::Values(8, 16, 32, 48, 64),
                                          testing::Values(1, 2, 4, 8, 16, 32)),
                         sweep_name);

TEST(CheckConfig, TileOf64ExplainsTheThreadLimit) {
    const std::string text = reason_or_accepted(check_config(make_tiled(64)));
    EXPECT_TRUE(contains(text, "T = 64")) << text;
    EXPECT_TRUE(contains(text, "64 × 64 = 4096 threads per block")) << text;
    EXPECT_TRUE(contains(text, "1024")) << text;
    EXPECT_TRUE(contains(text, "invalid configuration argument")) << text;
    // check_launch gives the same explanation.
    EXPECT_EQ(check_launch(make_tiled(64), make_problem(64, 64, 64), generic_limits()), check_config(make_tiled(64)));
}

TEST(CheckConfig, TileBoundsAndBlockSides) {
    EXPECT_EQ(check_config(make_tiled(1)), std::nullopt);
    EXPECT_EQ(check_config(make_tiled(32)), std::nullopt);
    EXPECT_TRUE(contains(reason_or_accepted(check_config(make_tiled(33))), "33 × 33 = 1089")) << reason_or_accepted(check_config(make_tiled(33)));
    EXPECT_TRUE(contains(reason_or_accepted(check_config(make_tiled(0))), "at least 1 (got 0)")) << reason_or_accepted(check_config(make_tiled(0)));
    EXPECT_TRUE(contains(reason_or_accepted(check_config(make_naive(KernelKind::Naive, 0, 4))), "0×4"));
    EXPECT_TRUE(contains(reason_or_accepted(check_config(make_naive(KernelKind::NaiveRowFromX, 8, -1))), "8×-1"));
    // A tiled config ignores block_x/block_y, a naive one ignores the tile.
    KernelConfig odd = make_naive(KernelKind::Naive, 16, 16);
    odd.tile = 0;
    EXPECT_EQ(check_config(odd), std::nullopt);
}

TEST(CheckLaunch, EveryTileUpTo32FitsStaticSharedMemory) {
    for (Dtype dtype : {Dtype::Int32, Dtype::Float32, Dtype::Float64})
        for (int tile = 1; tile <= kMaxTile; ++tile) {
            const Problem p = make_problem(100, 100, 100, dtype);
            EXPECT_LE(plan_launch(make_tiled(tile), p).shared_bytes, 48 * 1024);
            EXPECT_EQ(check_launch(make_tiled(tile), p, generic_limits()), std::nullopt) << tile;
        }
}

TEST(CheckLaunch, SharedMemoryOverTheLimitIsExplained) {
    DeviceLimits small = generic_limits();
    small.static_shared_per_block = 8 * 1024;
    // T = 32 floats: 2 · 32 · 32 · 4 = 8 KiB, an exact fit; doubles need 16 KiB.
    EXPECT_EQ(check_launch(make_tiled(32), make_problem(64, 64, 64), small), std::nullopt);
    const std::string text = reason_or_accepted(check_launch(make_tiled(32), make_problem(64, 64, 64, Dtype::Float64), small));
    EXPECT_TRUE(contains(text, "16.0 KiB")) << text;
    EXPECT_TRUE(contains(text, "8.0 KiB")) << text;
}

TEST(CheckLaunch, GridYOver65535IsExplained) {
    // One row per block: gridDim.y = M.
    EXPECT_EQ(check_launch(make_naive(KernelKind::Naive, 32, 1), make_problem(65535, 1, 1), generic_limits()),
              std::nullopt);
    const std::string text =
        reason_or_accepted(check_launch(make_naive(KernelKind::Naive, 32, 1), make_problem(70000, 1, 1), generic_limits()));
    EXPECT_TRUE(contains(text, "(1, 70000, 1)")) << text;
    EXPECT_TRUE(contains(text, "65535")) << text;
    // The same matrix fits when the rows go to gridDim.x, which allows 2^31 − 1 blocks.
    EXPECT_EQ(check_launch(make_naive(KernelKind::NaiveRowFromX, 32, 1), make_problem(70000, 1, 1), generic_limits()),
              std::nullopt);
    EXPECT_NE(check_launch(make_tiled(1), make_problem(65536, 1, 1), generic_limits()), std::nullopt);
}

TEST(CheckLaunch, BlockDimensionLimitIsChecked) {
    DeviceLimits limits = generic_limits();
    limits.max_block_dim_x = 512;
    const std::string text = reason_or_accepted(check_launch(make_naive(KernelKind::Naive, 1024, 1), make_problem(8, 8, 8), limits));
    EXPECT_TRUE(contains(text, "blockDim (1024, 1)")) << text;
    EXPECT_TRUE(contains(text, "(512, 1024)")) << text;
    EXPECT_EQ(check_launch(make_naive(KernelKind::Naive, 1024, 1), make_problem(8, 8, 8), generic_limits()), std::nullopt);
}

TEST(CheckLaunch, ProblemAndDeviceMemoryAreChecked) {
    // 3 · 40000² doubles = 38.4 GB, more than the 16 GiB of the V100 preset.
    const DeviceLimits& v100 = device_presets()[3];
    ASSERT_EQ(v100.global_memory_bytes, std::int64_t{16} << 30);
    const std::string text = reason_or_accepted(check_launch(make_tiled(16), make_problem(40000, 40000, 40000, Dtype::Float64), v100));
    EXPECT_TRUE(contains(text, "35.8 GiB")) << text;
    EXPECT_TRUE(contains(text, "16.0 GiB")) << text;
    EXPECT_TRUE(contains(reason_or_accepted(check_launch(make_tiled(16), make_problem(0, 4, 4), v100)), "M = 0"));
}

}  // namespace
