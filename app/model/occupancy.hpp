// occupancy.hpp — how many blocks of a kernel fit on one SM at once, what stops more from
// fitting, and how many waves of blocks the grid takes.
//
// The rules are those of CUDA's occupancy calculator (cuda_occupancy.h,
// cudaOccMaxActiveBlocksPerMultiprocessor) for the default shared-memory carveout:
// - threads: an SM holds max_threads_per_sm / 32 warps; a block takes ceil(threads / 32).
// - registers: a warp gets registers_per_thread × 32 registers, rounded up to 256; each of
//   the SM's 4 sub-partitions (2 on compute capability 6.0) holds registers_per_sm / 4 of
//   them and whole warps only. A block needs its warps, rounded up to a multiple of the
//   sub-partitions, within max_registers_per_block.
// - shared memory: a block's static shared memory plus the driver's reservation, rounded
//   up to 128 bytes (256 before compute capability 8.0), out of shared_per_sm.
// - block slots: max_blocks_per_sm, whatever the blocks hold.
// Left out, as neither can bind for TileScope's kernels: partitioned global caching (off
// unless a kernel asks for it) and the barrier limit of compute capability 9.0 (these
// kernels use one barrier; an SM has two per block slot).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "device_limits.hpp"
#include "kernel_config.hpp"
#include "problem.hpp"

namespace ts::model {

// In the order the model names them when several bind at once: a tie with the threads
// means the other resource costs nothing.
enum class OccupancyLimit { Threads, Registers, SharedMemory, BlockSlots };

// "threads per SM", "registers", "shared memory", "block slots"
std::string_view limit_name(OccupancyLimit limit);

struct BlockResources {
    int threads = 0;
    int shared_bytes = 0;           // shared memory per block, static and dynamic
    int registers_per_thread = 0;
    bool registers_measured = false;  // true: cudaFuncGetAttributes on a GPU; false: the estimate below
};

struct Occupancy {
    BlockResources block;
    int warps_per_block = 0;
    int registers_per_block = 0;    // as allocated: per-warp rounding included
    int shared_per_block = 0;       // as allocated: reservation and rounding included

    // Blocks one SM could hold if only that resource counted.
    int blocks_by_threads = 0;
    int blocks_by_registers = 0;
    int blocks_by_shared = 0;
    int blocks_by_slots = 0;

    int blocks_per_sm = 0;          // the smallest of the four
    OccupancyLimit limited_by = OccupancyLimit::Threads;
    std::vector<OccupancyLimit> binding;  // every resource that allows exactly blocks_per_sm

    int active_warps_per_sm = 0;
    int max_warps_per_sm = 0;
    double occupancy = 0.0;         // active warps / max warps, 0..1

    // Filled by kernel_occupancy (0 from block_occupancy): the grid over the whole GPU.
    std::int64_t grid_blocks = 0;
    std::int64_t blocks_per_wave = 0;  // blocks_per_sm × sm_count
    double waves = 0.0;                // grid_blocks / blocks_per_wave
};

// Registers per thread the model assumes for TileScope's kernels when no GPU can say:
// registers_per_sm / max_threads_per_sm, rounded down to a multiple of 8 (at most 255).
// ptxas keeps small kernels within that budget so that register use never lowers
// occupancy, and with CUDA 13.0 every kernel here matches it: 32 on sm_80, sm_90 and
// sm_100 (one tiled instantiation, T = 2 in double, takes 40, where 4-thread blocks make
// registers irrelevant), 34–40 on sm_86, sm_89 and sm_120 (estimate 40), 34–64 on sm_75
// (estimate 64).
int estimated_registers_per_thread(const DeviceLimits& limits);

// The ladder's rungs hold their register tiles in registers, so they need far more: the
// estimate is one register per cell owned, one per value of A and B held for an outer
// product, and 24 for addresses and loop counters, rounded up to 8 and at most 255. On the
// H100 (CUDA 13.0, sm_90) the compiled rungs take 52 to 255 (bench prints them); the
// estimate is within about a fifth of that, and serves only where no GPU can say.
int estimated_ladder_registers(const KernelConfig& config);

// The tensor-core rungs alike: 13 to 15 hold their warp's accumulators and one K slice's
// fragments of A (4 registers an m16 tile) and B (2 an n8 tile), and 32 for addresses; 16 to 19
// are compiled with __launch_bounds__(threads, 1), so ptxas may take all of the SM's registers for
// one block: 65,536 / threads, down to 8, at most 255 (17 and 18 then move them between
// warpgroups with setmaxnreg). 0 for other kinds.
int estimated_tc_registers(const KernelConfig& kernel);

// Blocks of this shape per SM, or why none fits (such a launch fails with "too many
// resources requested for launch" or "invalid configuration argument").
std::variant<Occupancy, std::string> block_occupancy(const BlockResources& block, const DeviceLimits& limits);

// The same for the kernel `config` launches on `problem` (threads and shared memory from
// plan_launch; a tensor-core rung's from tc_block_tile), with registers from the GPU when given,
// else the estimate; and the waves its grid takes over limits.sm_count SMs (a tensor-core rung's
// grid: one block per tile of C, which the persistent rung walks in fewer blocks). cuBLAS is
// not modelled: a reason comes back.
std::variant<Occupancy, std::string> kernel_occupancy(const KernelConfig& config, const Problem& problem,
                                                      const DeviceLimits& limits,
                                                      std::optional<int> measured_registers = std::nullopt);

// "8 blocks/SM (limited by threads per SM, and equally by registers), 100 % occupancy,
// 1.90 waves"
std::string describe(const Occupancy& occupancy);

}  // namespace ts::model
