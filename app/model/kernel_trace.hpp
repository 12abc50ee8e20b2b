// kernel_trace.hpp — what an instrumented kernel recorded on a GPU (kernels/01_naive_recorded.cu,
// kernels/05_tiled_recorded.cu, kernels/07_regtile_2d_recorded.cu, kernels/10_warptile_recorded.cu):
// every global load of every thread, which SM ran each block, and clocks at the start and end
// of each of its phases.
//
// The recorded kernels write into flat device buffers at the slots the functions below
// give; the host reads the same slots back. Both sides call these functions, so a slot
// means the same thing on the GPU and in the app.
//
// A phase is the tiled kernel's: load a T×T tile of A and of B, compute, barriers. The
// naive kernel has no phases of its own; its k loop is cut into the same chunks of T so the
// two replay side by side (as in phase_timeline.hpp). For the ladder rungs (regtile-2d,
// warptile) a phase is one K step of BK (ladder_steps).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "index_math.hpp"
#include "kernel_config.hpp"
#include "ladder.hpp"
#include "problem.hpp"
#include "tile_schedule.hpp"

namespace ts::model {

// One global load as a thread performed it. Plain integers, written by device code.
struct RecordedLoad {
    std::int32_t row = 0;     // element (row, col) of A or B the thread computed
    std::int32_t col = 0;
    // tiled: As/Bs slot written, smem_row·T + smem_col; naive: the k; ladder: the first As
    // slot (ladder_as_slot) or Bs slot (row-major, BN to a row) the instruction writes
    std::int32_t slot = 0;
    std::int32_t loaded = kNotRecorded;  // kLoaded, kPadding (wrote 0), or kNotRecorded
    static constexpr std::int32_t kLoaded = 1;
    static constexpr std::int32_t kPadding = 0;
    // The buffer starts filled with 0xFF bytes: a slot no thread wrote reads -1. The naive
    // kernel's ghost threads return before their loop and leave theirs so.
    static constexpr std::int32_t kNotRecorded = -1;
};

// Stamps by thread (0, 0) of a block, taken at the start of a phase (before its loads) and
// at its end (after the second barrier; the naive kernel: after its chunk of k).
// `%globaltimer` nanoseconds are one clock for the whole GPU, so blocks on different SMs
// can be put on one time axis; clock64() cycles count on the block's own SM only.
struct PhaseClock {
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t start_cycles = 0;
    std::uint64_t end_cycles = 0;
};

inline constexpr std::uint32_t kNoSm = 0xFFFFFFFFu;

// The warp-specialized rung's trace (17_warp_specialized_recorded.cu): for each block, role
// (0: the producer; 1, 2: the consumer warpgroups) and K step, three readings of the SM's cycle
// counter (clock64, one counter for every warp of an SM): before the role's wait on the stage's
// barrier (the producer's on empty, a consumer's on full), when the wait ended, and when its work
// on the stage was done (the producer: its copies issued; a consumer: its wgmmas over, just before
// it arrives on empty). A producer's first round does not wait: wait_start == ready.
struct RoleClock {
    std::uint64_t wait_start = 0;
    std::uint64_t ready = 0;
    std::uint64_t done = 0;
};
inline constexpr int kRecordedRoles = 3;
TS_HOST_DEVICE constexpr std::int64_t role_clock_slot(int block, int k_steps, int role, int step) {
    return (static_cast<std::int64_t>(block) * kRecordedRoles + role) * k_steps + step;
}

// ---- Slots in the device buffers (host and device) --------------------------------------

// Blocks in launch order: x fastest, one matrix (traces are of batch 1).
TS_HOST_DEVICE constexpr int block_linear(int block_x, int block_y, int grid_x) { return block_y * grid_x + block_x; }

// Tiled: [block][phase][operand A=0, B=1][threadIdx.y][threadIdx.x].
TS_HOST_DEVICE constexpr std::int64_t tiled_load_slot(int block, int phases, int phase, int operand, int tile,
                                                      int thread_x, int thread_y) {
    return ((static_cast<std::int64_t>(block) * phases + phase) * 2 + operand) * tile * tile + thread_y * tile +
           thread_x;
}

// Naive: [block][threadIdx.y][threadIdx.x][k][operand A=0, B=1].
TS_HOST_DEVICE constexpr std::int64_t naive_load_slot(int block, int block_dim_x, int block_dim_y, int thread_x,
                                                      int thread_y, int k_count, int k, int operand) {
    const std::int64_t thread = (static_cast<std::int64_t>(block) * block_dim_y + thread_y) * block_dim_x + thread_x;
    return (thread * k_count + k) * 2 + operand;
}

// Ladder rungs (regtile-2d, warptile): one record per load instruction of a thread in a K
// step, [block][step][operand A=0, B=1][instruction][thread]. Row and col are the first
// element of A or B the instruction reads (a float4's first), the slot the first it writes.
// loads_per_operand = ladder_loads_per_operand: A's slots past a_loads_per_thread (or B's
// past b_loads_per_thread), if the two differ, stay kNotRecorded.
TS_HOST_DEVICE constexpr int ladder_loads_per_operand(LadderShape s) {
    return s.a_loads_per_thread() > s.b_loads_per_thread() ? s.a_loads_per_thread() : s.b_loads_per_thread();
}
TS_HOST_DEVICE constexpr std::int64_t ladder_load_record_slot(int block, int steps, int step, int operand,
                                                              int loads_per_operand, int instruction, int threads,
                                                              int thread) {
    return (((static_cast<std::int64_t>(block) * steps + step) * 2 + operand) * loads_per_operand + instruction) *
               threads +
           thread;
}

// [block][phase] for all kernels (a ladder rung's phase is its K step).
TS_HOST_DEVICE constexpr std::int64_t phase_clock_slot(int block, int phases, int phase) {
    return static_cast<std::int64_t>(block) * phases + phase;
}

// ---- A trace ----------------------------------------------------------------------

struct KernelTrace {
    // Naive (block_x × block_y threads; tile = the chunk of k), Tiled, RegTile2d or Warptile
    // (shapes fixed per rung, ladder_shape; block_x, block_y and tile unused)
    KernelConfig config;
    Problem problem;      // batch 1; recorded with float operands (indices do not depend on the type)
    std::string device;   // "NVIDIA H200"
    int sm_count = 0;
    std::string recorded_at;  // UTC, "YYYY-MM-DD hh:mm"
    // Whose kernel ran, when it was not the rung's own: "yours: my_tiled.cu" (a learner's kernel
    // recorded through its accessors, model/user_kernel/user_trace.hpp); empty for TileScope's rungs.
    std::string label;
    std::string source;  // with `label`: the learner's kernel as it was recorded, for the Source tab
    bool check_passed = false;  // C of the instrumented launch matched the CPU reference
    std::string check_summary;
    std::vector<RecordedLoad> loads;      // empty: only blocks and clocks were recorded
    std::vector<PhaseClock> clocks;       // phase_clock_slot order
    std::vector<std::uint32_t> block_sm;  // block_linear order; kNoSm: never ran
    // Wgmma: stage 0 of block (0, 0) once its first K step's copies landed, 16-bit words, A's
    // tile then B's (tensor_core/stage_record.hpp); the clocks are each block's K steps, the wait for the
    // stage to its wgmmas' end. Empty for the other kernels.
    std::vector<std::uint16_t> stage_words;
    // WarpSpecialized: role_clock_slot order; the clocks (phase clocks) are consumer 0's K steps.
    std::vector<RoleClock> role_clocks;
    // Mma: warp 0 of block (0, 0)'s registers after its first ldmatrix.x4 of A and of B, 16 halves
    // a lane (tensor_core/stage_record.hpp's fragment_word_slot); the clocks are each block's K steps.
    std::vector<std::uint16_t> fragment_words;

    Index2 grid() const;
    int blocks() const { return grid().x * grid().y; }
    int phases() const;
    bool has_loads() const { return !loads.empty(); }
};

// How many load records and phase clocks a trace of `config` on `problem` takes.
std::int64_t load_records(const KernelConfig& config, const Problem& problem);
std::int64_t clock_records(const KernelConfig& config, const Problem& problem);

// Traces above these sizes are refused, or (loads) left out: the loads of a 40×28×36
// problem fit in a few MB; 4096² would take gigabytes, and nobody can look at them all.
inline constexpr std::int64_t kMaxLoadRecords = std::int64_t{1} << 22;
inline constexpr std::int64_t kMaxClockRecords = std::int64_t{1} << 22;
inline constexpr std::int64_t kMaxRecordedBlocks = 65536;

// How many role clocks a trace of `config` on `problem` takes (the warp-specialized rung's).
std::int64_t role_clock_records(const KernelConfig& config, const Problem& problem);

// A warp-specialized trace in averages per K step over every block: for each role the
// cycles spent waiting on its barrier and working on the stage.
struct RoleTimes {
    double wait_cycles[kRecordedRoles] = {};
    double work_cycles[kRecordedRoles] = {};
};
RoleTimes role_times(const KernelTrace& trace);

// Why `config` on `problem` cannot be recorded, or nullopt.
std::optional<std::string> check_recordable(const KernelConfig& config, const Problem& problem);

// The recorded T×T loads of `operand` by `block` in `phase` (tiled traces with loads), in
// the TileLoad form of tile_schedule.hpp so that they compare with and replace the model's.
std::vector<TileLoad> recorded_tile_loads(const KernelTrace& trace, Index2 block, int phase, Operand operand);

// The first place the trace differs from what the model says the kernel does, in
// words ("block (3, 2) phase 4, B, thread (x=5, y=0): recorded B[37][29], model: padding"),
// or nullopt when every load (and every block's SM) is as the model says.
std::optional<std::string> compare_with_model(const KernelTrace& trace);

// True for the ladder rungs that have a recorded variant: RegTile2d and Warptile.
bool is_recorded_ladder(KernelKind kind);
// Whether `kind` has a recorded variant: naive, tiled, regtile-2d, warptile, mma, wgmma and
// warp-specialized.
bool recorded_kind(KernelKind kind);

// What the model says load instruction `instruction` of `thread` in K step `step` of `block`
// does on a ladder rung (config.kind RegTile2d or Warptile): the element of A (row
// block.y·BM + tile row, col step·BK + tile col) or B, from ladder_load_row/col, its first
// As slot (ladder_as_slot) or Bs slot, and kPadding where that element lies outside the
// matrix. kNotRecorded for an instruction past the operand's loads per thread.
RecordedLoad ladder_model_load(const KernelConfig& config, const Problem& problem, Index2 block, int step,
                               Operand operand, int instruction, int thread);

// The recorded load of a ladder trace (RegTile2d or Warptile, with loads) at those indices;
// nullopt when the trace has no loads, is not a ladder rung's, or an index is out of range
// (block outside the grid, step outside [0, phases()), instruction outside [0, the operand's
// loads per thread), thread outside [0, threads)).
std::optional<RecordedLoad> recorded_ladder_load(const KernelTrace& trace, Index2 block, int step, Operand operand,
                                                 int instruction, int thread);

// ---- Which SM ran what, and when ----------------------------------------------------------

struct BlockSpan {
    Index2 block;
    std::uint32_t sm = kNoSm;
    double start_us = 0.0;  // from the first block's start
    double end_us = 0.0;
    int wave = 0;           // 1: among the first blocks on its SM; n: began after a wave n−1 block on its SM ended
};

struct SmTimeline {
    std::vector<BlockSpan> blocks;  // block_linear order
    std::vector<std::uint32_t> sms_used;  // ascending
    int waves = 0;                  // the largest wave
    int most_at_once = 0;           // blocks resident at the same time, at the busiest moment
    double span_us = 0.0;           // first start to last end
};

SmTimeline sm_timeline(const KernelTrace& trace);

// Start and end of `phase` of `block`, in µs on the timeline's axis.
struct PhaseSpan {
    double start_us = 0.0;
    double end_us = 0.0;
    std::uint64_t cycles = 0;
};
PhaseSpan phase_span(const KernelTrace& trace, Index2 block, int phase);

}  // namespace ts::model
