// experiment_launchers.hpp — host functions that launch the broken variants of
// kernels/experiments/, for "break it on purpose" (model/experiment.hpp).
//
// Kept apart from kernels/common/launchers.hpp: these kernels are wrong on purpose, and nothing but
// the experiment runner (app/gpu/experiment_runner.cxx) and its tests may launch them. Like
// the real launchers they take device pointers, compute the grid with ts::model::plan_launch
// for the real kernel's config (tiled T, or the conflict-free rung), launch on `stream` and
// return cudaGetLastError(). Float only, one matrix (batch 1); the tiled variants exist for
// T = 8, 16 and 32 only and return cudaErrorInvalidConfiguration for any other T.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/common/launchers.hpp"
#include "model/experiment.hpp"
#include "model/index_math.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"

namespace ts::kernels {

// 05_tiled_missing_first_sync.cu: tiled without the barrier between the loads and the reads.
cudaError_t launch_tiled_missing_first_sync(const model::KernelConfig& config, const model::Problem& problem,
                                            Operands<float> operands, cudaStream_t stream);
// 05_tiled_missing_second_sync.cu: tiled without the barrier between the reads and the next loads.
cudaError_t launch_tiled_missing_second_sync(const model::KernelConfig& config, const model::Problem& problem,
                                             Operands<float> operands, cudaStream_t stream);
// 05_tiled_no_bounds_check.cu: tiled without its inside() tests. It loads and stores past
// A, B and C (up to model::guard_elements(problem, T) elements past each one's end), so the
// buffers must have that much room after them.
cudaError_t launch_tiled_no_bounds_check(const model::KernelConfig& config, const model::Problem& problem,
                                         Operands<float> operands, cudaStream_t stream);
// 09_conflict_free_unpadded.cu: the conflict-free rung (config.kind == ConflictFree) with
// model::kUnpaddedConflictFreeShape.
cudaError_t launch_conflict_free_unpadded(const model::KernelConfig& config, const model::Problem& problem,
                                          Operands<float> operands, cudaStream_t stream);

// The broken variant of `experiment` (config and problem are the case).
cudaError_t launch_experiment(model::Experiment experiment, const model::KernelConfig& config,
                              const model::Problem& problem, Operands<float> operands, cudaStream_t stream);

// ---- The instrumented variant (05_tiled_missing_sync_watched.cu) ------------------------

// Which of the tiled kernel's two barriers the watched kernel keeps. BothKept is the real
// kernel's order, the control: it must never see a stale read.
enum class WatchedBarriers { FirstMissing, SecondMissing, BothKept };

// Where the watched kernel writes (device pointers).
struct WatchBuffers {
    // Room for model::kMaxStaleReads records, in two halves: the first for reads in phase 0,
    // the second for reads in later phases, each in the order an atomicAdd gave them a place.
    // Without the first barrier phase 0's stale reads come first and in the hundreds of
    // thousands; kept apart, they cannot crowd out the later phases' reads, which are the
    // ones whose value tells which phase stored it. The kernel fills every field but
    // value_phase, writer_x, writer_y and write_clock (left −1 and 0), which the host works out.
    model::StaleRead* reads = nullptr;
    // kWatchCounts counters: [0] stale reads (also those not kept), [1] reads compared,
    // [2] and [3] places taken in the phase-0 and the later half (may pass the half's size).
    unsigned long long* counts = nullptr;
    // clock64() just after each shared-memory store, at watched_clock_slot(); blocks whose
    // linear index (y · grid x + x) is clock_blocks or more store no clocks. May be null.
    long long* store_clocks = nullptr;
    int clock_blocks = 0;
};

inline constexpr int kWatchCounts = 4;
inline constexpr int kWatchHalf = model::kMaxStaleReads / 2;  // records kept per half of WatchBuffers::reads

// The store clock of As (operand 0) or Bs (operand 1) slot [slot_row][slot_col] in `phase`
// of block `block` (linear), for a kernel of `phases` phases and tile T. The thread that
// stores the slot is thread (slot_col, slot_row).
TS_HOST_DEVICE constexpr std::int64_t watched_clock_slot(std::int64_t block, int phases, int phase, int operand, int tile,
                                          int slot_row, int slot_col) {
    return ((block * phases + phase) * 2 + operand) * tile * tile + slot_row * tile + slot_col;
}
// Entries of the clock buffer for `blocks` clocked blocks.
TS_HOST_DEVICE constexpr std::int64_t watched_clock_count(std::int64_t blocks, int phases, int tile) {
    return blocks * phases * 2 * tile * tile;
}

// The tiled kernel with `barriers`, comparing every read of As and Bs with what the phase
// should hold. A and B must hold the watched values (model::watched_value: A[r][c] = r·K + c + 1,
// B[r][c] = r·N + c + 1). C gets the product, as the real kernel's.
cudaError_t launch_tiled_watched(WatchedBarriers barriers, const model::KernelConfig& config,
                                 const model::Problem& problem, Operands<float> operands, WatchBuffers watch,
                                 cudaStream_t stream);

}  // namespace ts::kernels
