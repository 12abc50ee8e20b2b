// global_requests.hpp — what one launch asks of global memory, warp instruction by warp
// instruction: the plain loads, cp.async copies and stores each warp issues, and the distinct
// 32-byte sectors they touch, walked from the kernels' own index math (index_math.hpp,
// ladder_access.hpp). counters.cxx turns the totals into its predictions of the load-request,
// load-sector and L2 counters. The walk is a file of its own because it is its own piece of
// reasoning (and the trick that keeps it fast on a 4096³ launch with it), apart from what the
// counters mean and how they are read.
#pragma once

#include <cstdint>
#include <optional>

#include "device_limits.hpp"
#include "kernel_config.hpp"
#include "problem.hpp"

namespace ts::model {

// What one launch asks of global memory.
struct GlobalAccess {
    std::int64_t load_requests = 0;   // plain loads (LDG): Nsight's op_ld
    std::int64_t load_sectors = 0;
    std::int64_t copy_requests = 0;   // cp.async copies into shared memory (LDGSTS): not op_ld
    std::int64_t copy_sectors = 0;
    std::int64_t store_requests = 0;
    std::int64_t store_sectors = 0;
};

// How a rung moves its elements: scalar (06, 07), float4 loads and stores where the rows of
// A, B and C start on 16 bytes (08 on; otherwise four guarded scalar accesses each), and
// cp.async copies for the pipelined rungs (11, 12) on GPUs that have cp.async (8.0 on).
struct RungAccess {
    bool vector = false;   // 08 on: float4 where aligned
    bool aligned = false;  // K and N multiples of 4 (ladder_vector.cuh, rows_aligned)
    bool async = false;    // loads are cp.async copies
};
RungAccess rung_access(const KernelConfig& config, const Problem& p, const DeviceLimits& limits);

// Every warp instruction of the launch that touches A, B or C, counted; nullopt where the
// kernel or the problem is invalid, and for cuBLAS (its kernels are not ours to walk).
std::optional<GlobalAccess> walk_global(const KernelConfig& config, const Problem& p, const DeviceLimits& limits);

}  // namespace ts::model
