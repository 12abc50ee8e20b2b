// phase_timeline.hpp — the naive and tiled kernels as sequences of sub-steps a student can
// step through, and what the whole grid has read and written by each one.
//
// Tiled: in every phase the block loads a tile of A and of B into shared memory, waits at a
// barrier, computes, waits again; after the last phase each thread stores its cell of C.
// Naive: the same k loop, cut into chunks of T (called phases too, so that the two kernels
// line up side by side); a chunk is only a compute, reading A and B from global memory.
// The compute is one step, or T steps of one k each.
//
// The counters assume every block of the grid advances in lockstep: a GPU runs blocks in
// any order, but the totals at the end are the same, and equal count_traffic()'s.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "kernel_config.hpp"
#include "problem.hpp"
#include "tile_schedule.hpp"

namespace ts::model {

// In the tiled kernel's order; Store happens once, after the last phase.
enum class SubStep { LoadTiles, SyncAfterLoad, Compute, SyncAfterCompute, Store };

// "load", "sync1", "compute", "sync2", "store": the --step flag's words.
std::string_view substep_name(SubStep sub);
std::optional<SubStep> parse_substep(std::string_view text);

// What the block does in this sub-step, for a title: "load tiles into shared memory".
std::string_view substep_title(SubStep sub);

struct KernelStep {
    int phase = 0;  // the Store step carries the last phase
    SubStep sub = SubStep::LoadTiles;
    int k = -1;     // Compute one k at a time: the tile loop's i, 0..T-1; otherwise -1
    constexpr bool operator==(const KernelStep&) const = default;
};

struct Timeline {
    int phases = 1;       // phase_count(K, T), at least 1
    int tile = 1;         // T
    bool naive = false;   // no shared memory: a phase is its compute alone
    bool each_k = false;  // the compute is T steps, one per k, instead of one

    int compute_steps() const { return each_k ? tile : 1; }
    int steps_per_phase() const { return (naive ? 0 : 3) + compute_steps(); }
    int count() const { return phases * steps_per_phase() + 1; }  // the store comes last
    bool operator==(const Timeline&) const = default;
};

Timeline make_timeline(const Problem& problem, int tile, bool naive, bool each_k);

// Whether the timeline has this sub-step: the naive kernel has no loads and no barriers.
bool has_substep(const Timeline& timeline, SubStep sub);

// Index ↔ step. step_at clamps the index into [0, count); step_index clamps the phase and
// k, maps any Store to the last index, and a sub-step the naive timeline lacks to its
// phase's first compute step (loads, the first barrier) or its last (the second barrier).
KernelStep step_at(const Timeline& timeline, int index);
int step_index(const Timeline& timeline, KernelStep step);

// How much of K every cell of C has accumulated once `step` has run: the phases whose
// compute has run, and within the current compute the k already taken. The naive kernel's
// loop stops at K; the tiled kernel's last tile multiplies zeros of padding past it, which
// adds nothing, so both end at K.
KRange accumulated_at(const Problem& problem, int tile, KernelStep step);

// What every block of the grid, in every batch, has read and written once `step` has run.
struct TrafficSoFar {
    std::int64_t global_loads_a = 0;
    std::int64_t global_loads_b = 0;
    std::int64_t shared_stores = 0;  // tiled only: slots of As and Bs written (padding too)
    std::int64_t shared_loads = 0;   // tiled only: reads of As and Bs in the k loop
    std::int64_t global_stores = 0;  // cells of C written
    std::int64_t global_loads() const { return global_loads_a + global_loads_b; }
    bool operator==(const TrafficSoFar&) const = default;
};

// `kind` Tiled follows the tiled kernel with tile width `tile`; every other modelled kernel
// reads the naive kernel's elements, in chunks of `tile` k; cuBLAS is not modelled: zeros.
TrafficSoFar traffic_so_far(KernelKind kind, const Problem& problem, int tile, KernelStep step);

// How many times A[row][col] (or B[row][col]) of one batch has been read from global memory
// once `step` has run. It depends on the k index alone (col for A, row for B): every row of
// A is read alike.
std::int64_t element_reads_so_far(KernelKind kind, const Problem& problem, int tile, KernelStep step,
                                  Operand operand, int row, int col);

}  // namespace ts::model
