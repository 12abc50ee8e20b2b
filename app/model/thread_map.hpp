// thread_map.hpp — which thread computes which cell of C, both ways.
#pragma once

#include <optional>

#include "index_math.hpp"
#include "kernel_config.hpp"
#include "launch_geometry.hpp"
#include "problem.hpp"

namespace ts::model {

struct ThreadId {
    Index2 block;   // blockIdx.x, blockIdx.y
    Index2 thread;  // threadIdx.x, threadIdx.y
    int warp = 0;   // warp within the block
    int lane = 0;   // lane within the warp
    bool operator==(const ThreadId&) const = default;
};

// (block, thread) → the C cell it computes. The cell may lie outside C: see is_ghost().
Cell cell_of_thread(const KernelConfig& config, Index2 block, Index2 thread);

// True when the thread's cell lies outside C, so it must not store (a ghost thread).
bool is_ghost(const KernelConfig& config, const Problem& problem, Index2 block, Index2 thread);

// (row, col) → the one thread that computes it, with its warp and lane; nullopt outside C.
std::optional<ThreadId> thread_of_cell(const KernelConfig& config, const Problem& problem, Cell cell);

}  // namespace ts::model
