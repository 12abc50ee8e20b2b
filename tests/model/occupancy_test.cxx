// Occupancy: blocks per SM, what limits them and the waves of a grid, against the rules of
// CUDA's occupancy calculator (cuda_occupancy.h) on the preset GPUs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "model/device_limits.hpp"
#include "model/occupancy.hpp"
#include "support/problems.hpp"

using namespace ts::model;

namespace {

using ts::testing_support::make_naive;
using ts::testing_support::make_problem;
using ts::testing_support::make_tiled;

const DeviceLimits& preset_named(const std::string& part) {
    for (const DeviceLimits& limits : device_presets())
        if (limits.name.find(part) != std::string::npos) return limits;
    throw std::runtime_error("no preset named " + part);
}

Problem square(std::int64_t size, Dtype dtype = Dtype::Float32) {
    Problem p;
    p.m = p.n = p.k = size;
    p.dtype = dtype;
    return p;
}


Occupancy expect_fits(const std::variant<Occupancy, std::string>& result) {
    if (const auto* why = std::get_if<std::string>(&result)) {
        ADD_FAILURE() << "expected blocks to fit: " << *why;
        return {};
    }
    return std::get<Occupancy>(result);
}

Occupancy of_block(int threads, int shared, int registers, const DeviceLimits& limits) {
    return expect_fits(block_occupancy({threads, shared, registers, true}, limits));
}

bool binds(const Occupancy& o, OccupancyLimit limit) {
    return std::find(o.binding.begin(), o.binding.end(), limit) != o.binding.end();
}

TEST(Occupancy, PresetsKnowTheirSms) {
    const DeviceLimits& a100 = preset_named("A100");
    EXPECT_EQ(a100.max_threads_per_sm, 2048);
    EXPECT_EQ(a100.max_blocks_per_sm, 32);
    EXPECT_EQ(a100.shared_per_sm, 164 * 1024);
    EXPECT_EQ(a100.reserved_shared_per_block, 1024);
    const DeviceLimits& rtx = preset_named("3090");
    EXPECT_EQ(rtx.max_threads_per_sm, 1536);
    EXPECT_EQ(rtx.max_blocks_per_sm, 16);
    EXPECT_EQ(preset_named("H100").shared_per_sm, 228 * 1024);
    EXPECT_EQ(preset_named("V100").reserved_shared_per_block, 0);
    for (const DeviceLimits& limits : device_presets()) EXPECT_EQ(limits.registers_per_sm, 65536) << limits.name;
}

TEST(Occupancy, TiledT16FloatOnA100IsLimitedByThreads) {
    // 256 threads = 8 warps; 2048 threads per SM hold 8 such blocks. Shared memory: 2 KiB of
    // tiles + 1 KiB reserved = 3 KiB, 54 blocks' worth; block slots: 32.
    const DeviceLimits& a100 = preset_named("A100");
    const Occupancy o = expect_fits(kernel_occupancy(make_tiled(16), square(2048), a100));
    EXPECT_EQ(o.block.threads, 256);
    EXPECT_EQ(o.block.shared_bytes, 2048);
    EXPECT_FALSE(o.block.registers_measured);
    EXPECT_EQ(o.block.registers_per_thread, 32);
    EXPECT_EQ(o.warps_per_block, 8);
    EXPECT_EQ(o.shared_per_block, 3072);
    EXPECT_EQ(o.blocks_by_threads, 8);
    EXPECT_EQ(o.blocks_by_shared, 54);
    EXPECT_EQ(o.blocks_by_slots, 32);
    EXPECT_EQ(o.blocks_per_sm, 8);
    EXPECT_EQ(o.limited_by, OccupancyLimit::Threads);
    EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
    // 2048 / 16 = 128 × 128 blocks over 8 × 108 per wave.
    EXPECT_EQ(o.grid_blocks, 128 * 128);
    EXPECT_EQ(o.blocks_per_wave, 8 * 108);
    EXPECT_NEAR(o.waves, 16384.0 / 864.0, 1e-12);
}

TEST(Occupancy, TiledT32IsTwoBlocksOfAThousandThreads) {
    const Occupancy o = expect_fits(kernel_occupancy(make_tiled(32), square(2048), preset_named("A100")));
    EXPECT_EQ(o.block.threads, 1024);
    EXPECT_EQ(o.blocks_per_sm, 2);
    EXPECT_EQ(o.limited_by, OccupancyLimit::Threads);
    // The RTX 3090 holds 1536 threads per SM: one block of 1024, two thirds of its warps.
    const Occupancy rtx = expect_fits(kernel_occupancy(make_tiled(32), square(2048), preset_named("3090")));
    EXPECT_EQ(rtx.blocks_per_sm, 1);
    EXPECT_NEAR(rtx.occupancy, 32.0 / 48.0, 1e-12);
}

TEST(Occupancy, SmallBlocksRunOutOfBlockSlots) {
    // T = 4: 16 threads, one warp, 32 block slots on an A100: 32 of 64 warps.
    const Occupancy o = expect_fits(kernel_occupancy(make_tiled(4), square(512), preset_named("A100")));
    EXPECT_EQ(o.blocks_by_threads, 64);
    EXPECT_EQ(o.blocks_per_sm, 32);
    EXPECT_EQ(o.limited_by, OccupancyLimit::BlockSlots);
    EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
    // A partial warp still takes a whole warp: 33 threads are 2 warps.
    EXPECT_EQ(of_block(33, 0, 32, preset_named("A100")).warps_per_block, 2);
}

TEST(Occupancy, RegistersAreAllocatedPerWarpInUnitsOf256) {
    const DeviceLimits& a100 = preset_named("A100");
    // 33 registers × 32 threads = 1056, rounded up to 1280 per warp; a sub-partition's
    // 16384 registers hold 12 such warps, the SM 48: 6 blocks of 8 warps.
    const Occupancy o = of_block(256, 0, 33, a100);
    EXPECT_EQ(o.registers_per_block, 1280 * 8);
    EXPECT_EQ(o.blocks_by_registers, 6);
    EXPECT_EQ(o.blocks_per_sm, 6);
    EXPECT_EQ(o.limited_by, OccupancyLimit::Registers);
    EXPECT_DOUBLE_EQ(o.occupancy, 48.0 / 64.0);
    // 32 registers fill the SM exactly: threads and registers allow 8 blocks each.
    const Occupancy even = of_block(256, 0, 32, a100);
    EXPECT_EQ(even.blocks_per_sm, 8);
    EXPECT_EQ(even.limited_by, OccupancyLimit::Threads);
    EXPECT_TRUE(binds(even, OccupancyLimit::Registers));
    EXPECT_FALSE(binds(even, OccupancyLimit::SharedMemory));
    // Whole warps per sub-partition: 40 registers are 1280 per warp, 12 warps in each of the
    // 4 parts, 48 in all (not 65536 / 1280 = 51), so 16 blocks of 3 warps, not 17.
    EXPECT_EQ(of_block(96, 0, 40, a100).blocks_by_registers, 16);
}

TEST(Occupancy, TooManyRegistersForOneBlockIsExplained) {
    // 1024 threads × 72 registers = 2304 per warp × 32 warps = 73728 > 65536.
    const auto result = block_occupancy({1024, 0, 72, true}, preset_named("A100"));
    ASSERT_TRUE(std::holds_alternative<std::string>(result));
    EXPECT_NE(std::get<std::string>(result).find("too many resources requested for launch"), std::string::npos)
        << std::get<std::string>(result);
    // 64 registers still fit: 2048 × 32 = 65536.
    EXPECT_EQ(of_block(1024, 0, 64, preset_named("A100")).blocks_per_sm, 1);
}

TEST(Occupancy, SharedMemoryLimitsBigTiles) {
    const DeviceLimits& a100 = preset_named("A100");
    // 40 KiB per block + 1 KiB reserved: 164 / 41 = 4 blocks (rounding to 128 B is exact here).
    const Occupancy o = of_block(128, 40 * 1024, 32, a100);
    EXPECT_EQ(o.shared_per_block, 41 * 1024);
    EXPECT_EQ(o.blocks_by_shared, 4);
    EXPECT_EQ(o.limited_by, OccupancyLimit::SharedMemory);
    // The allocation granularity: 100 bytes + 1024 reserved round up to 1152 on cc 8.0;
    // V100 (cc 7.0, no reservation) rounds 100 up to 256.
    EXPECT_EQ(of_block(32, 100, 32, a100).shared_per_block, 1152);
    EXPECT_EQ(of_block(32, 100, 32, preset_named("V100")).shared_per_block, 256);
    // Over what one block may have at all.
    EXPECT_TRUE(std::holds_alternative<std::string>(block_occupancy({128, 200 * 1024, 32, true}, a100)));
}

TEST(Occupancy, TiledDoubleUsesTwiceTheSharedMemory) {
    const Occupancy o = expect_fits(kernel_occupancy(make_tiled(32), square(1024, Dtype::Float64), preset_named("H100")));
    EXPECT_EQ(o.block.shared_bytes, 2 * 32 * 32 * 8);  // 16 KiB
    EXPECT_EQ(o.blocks_by_shared, 228 / 17);
}

TEST(Occupancy, EstimatedRegistersKeepTheSmFull) {
    EXPECT_EQ(estimated_registers_per_thread(preset_named("H100")), 32);
    EXPECT_EQ(estimated_registers_per_thread(preset_named("A100")), 32);
    EXPECT_EQ(estimated_registers_per_thread(preset_named("3090")), 40);  // 65536 / 1536 = 42.7
    EXPECT_EQ(estimated_registers_per_thread(generic_limits()), 64);      // Turing: 1024 threads
    for (const DeviceLimits& limits : device_presets())
        for (int tile : {8, 16, 32}) {
            const Occupancy o = expect_fits(kernel_occupancy(make_tiled(tile), square(1024), limits));
            EXPECT_GE(o.blocks_by_registers, o.blocks_by_threads) << limits.name << " T=" << tile;
        }
}

TEST(Occupancy, MeasuredRegistersReplaceTheEstimate) {
    const Occupancy o = expect_fits(kernel_occupancy(make_tiled(16), square(2048), preset_named("A100"), 64));
    EXPECT_TRUE(o.block.registers_measured);
    EXPECT_EQ(o.block.registers_per_thread, 64);
    EXPECT_EQ(o.blocks_per_sm, 4);  // 2048 registers per warp: 32 warps per SM, 4 blocks of 8
    EXPECT_EQ(o.limited_by, OccupancyLimit::Registers);
}

TEST(Occupancy, WavesCountPartialLastWave) {
    // 1-D kernel of 128 threads over 1000 rows: 8 blocks; an A100 runs 16 per SM × 108.
    KernelConfig rows;
    rows.kind = KernelKind::RowPerThread;
    rows.block_x = 128;
    const Occupancy o = expect_fits(kernel_occupancy(rows, square(1000), preset_named("A100")));
    EXPECT_EQ(o.grid_blocks, 8);
    EXPECT_EQ(o.blocks_per_sm, 16);
    EXPECT_NEAR(o.waves, 8.0 / (16.0 * 108.0), 1e-12);
}

TEST(Occupancy, OversizedBlocksAndCublasHaveReasons) {
    KernelConfig naive;
    naive.kind = KernelKind::Naive;
    naive.block_x = 64;
    naive.block_y = 32;
    const auto too_big = kernel_occupancy(naive, square(256), preset_named("A100"));
    ASSERT_TRUE(std::holds_alternative<std::string>(too_big));
    EXPECT_NE(std::get<std::string>(too_big).find("2048 threads"), std::string::npos) << std::get<std::string>(too_big);
    KernelConfig cublas;
    cublas.kind = KernelKind::Cublas;
    EXPECT_TRUE(std::holds_alternative<std::string>(kernel_occupancy(cublas, square(256), preset_named("A100"))));
    EXPECT_TRUE(std::holds_alternative<std::string>(kernel_occupancy(make_tiled(64), square(256), preset_named("A100"))));
}

TEST(Occupancy, DescribeNamesEveryBindingLimit) {
    const Occupancy o = expect_fits(kernel_occupancy(make_tiled(16), square(2048), preset_named("A100")));
    EXPECT_EQ(describe(o), "8 blocks/SM (limited by threads per SM, and equally by registers), 100 % occupancy, "
                           "18.96 waves");
}

}  // namespace
