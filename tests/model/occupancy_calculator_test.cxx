// The occupancy model against NVIDIA's own calculator: cuda_occupancy.h from the CUDA
// toolkit is plain inline C++, so on a machine without a GPU it still answers what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor would for a device with the presets'
// numbers. Every preset, block sizes 1..1024, registers 8..255 and static shared memory
// up to 48 KiB must agree, as must the reason when nothing fits.
#include <gtest/gtest.h>

#include <cuda_occupancy.h>

#include <string>

#include "model/device_limits.hpp"
#include "model/occupancy.hpp"

using namespace ts::model;

namespace {

cudaOccDeviceProp calculator_device(const DeviceLimits& limits) {
    cudaOccDeviceProp prop;
    prop.computeMajor = limits.compute_major;
    prop.computeMinor = limits.compute_minor;
    prop.maxThreadsPerBlock = limits.max_threads_per_block;
    prop.maxThreadsPerMultiprocessor = limits.max_threads_per_sm;
    prop.regsPerBlock = limits.max_registers_per_block;
    prop.regsPerMultiprocessor = limits.registers_per_sm;
    prop.warpSize = limits.warp_size;
    prop.sharedMemPerBlock = static_cast<size_t>(limits.static_shared_per_block);
    prop.sharedMemPerMultiprocessor = static_cast<size_t>(limits.shared_per_sm);
    prop.numSms = limits.sm_count;
    prop.sharedMemPerBlockOptin = static_cast<size_t>(limits.shared_per_sm);
    prop.reservedSharedMemPerBlock = static_cast<size_t>(limits.reserved_shared_per_block);
    return prop;
}

struct Calculated {
    int blocks = 0;
    int by_warps = 0;
    int by_registers = 0;
    int by_shared = 0;
    int by_blocks = 0;
};

Calculated calculate(const DeviceLimits& limits, int threads, int registers, int shared) {
    const cudaOccDeviceProp prop = calculator_device(limits);
    cudaOccFuncAttributes attributes;
    attributes.maxThreadsPerBlock = 1024;
    attributes.numRegs = registers;
    attributes.sharedSizeBytes = static_cast<size_t>(shared);
    attributes.numBlockBarriers = 1;  // __syncthreads
    const cudaOccDeviceState state;  // default carveout, as TileScope launches
    cudaOccResult result{};
    EXPECT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attributes, &state, threads, 0),
              CUDA_OCC_SUCCESS);
    return {result.activeBlocksPerMultiprocessor, result.blockLimitWarps, result.blockLimitRegs,
            result.blockLimitSharedMem, result.blockLimitBlocks};
}

TEST(OccupancyCalculator, AgreesOnEveryPreset) {
    int compared = 0;
    for (const DeviceLimits& limits : device_presets()) {
        for (int threads = 1; threads <= 1024; threads += threads < 64 ? 1 : 31) {
            for (int registers = 8; registers <= 255; registers += 7) {
                for (int shared : {0, 1, 100, 2048, 8 * 1024, 16 * 1024, 24 * 1024 + 5, 48 * 1024}) {
                    const Calculated expected = calculate(limits, threads, registers, shared);
                    const auto model = block_occupancy({threads, shared, registers, true}, limits);
                    const std::string where = limits.name + ": " + std::to_string(threads) + " threads, " +
                                              std::to_string(registers) + " registers, " + std::to_string(shared) +
                                              " B shared";
                    if (expected.blocks == 0) {
                        EXPECT_TRUE(std::holds_alternative<std::string>(model)) << where;
                        continue;
                    }
                    ASSERT_TRUE(std::holds_alternative<Occupancy>(model)) << where << ": " << std::get<std::string>(model);
                    const Occupancy& o = std::get<Occupancy>(model);
                    ASSERT_EQ(o.blocks_per_sm, expected.blocks) << where;
                    ASSERT_EQ(o.blocks_by_threads, expected.by_warps) << where;
                    ASSERT_EQ(o.blocks_by_registers, expected.by_registers) << where;
                    ASSERT_EQ(o.blocks_by_slots, expected.by_blocks) << where;
                    // The calculator says INT_MAX where a resource is not used at all.
                    ASSERT_EQ(o.blocks_by_shared, expected.by_shared) << where;
                    ++compared;
                }
            }
        }
    }
    EXPECT_GT(compared, 50000);
}

TEST(OccupancyCalculator, TooLargeStaticSharedMemoryFitsNowhere) {
    const DeviceLimits& h100 = device_presets().front();
    EXPECT_EQ(calculate(h100, 256, 32, 48 * 1024 + 1).blocks, 0);
    // Dynamic shared memory may go past 48 KiB, up to what one block may opt in to (227 KiB).
    EXPECT_TRUE(std::holds_alternative<Occupancy>(block_occupancy({256, 48 * 1024 + 1, 32, true}, h100)));
    EXPECT_EQ(h100.optin_shared_per_block, 227 * 1024);
    EXPECT_TRUE(std::holds_alternative<std::string>(block_occupancy({256, 227 * 1024 + 1, 32, true}, h100)));
}

}  // namespace
