// user_trace.hpp — what the learner's kernel did, recorded on the GPU (issue 25).
//
// NVRTC compiles the kernel a second time for tracing (gpu/user_kernel_tracing.hpp): the
// signature's A, B and C become accessors that note each A[i] and B[i] read and each C[i] store,
// and __syncthreads() notes each barrier a thread passes. Each note is a UserEvent; thread (0, 0)
// of each block also notes its SM and the time at its first access and at each barrier. This file
// reads those notes back: how many loads and stores, against what the model counts for the naive
// and tiled kernels; and, for a kernel shaped like the tiled rung, the same trace a tiled rung
// gives (model::KernelTrace), so the theatre replays it and compares it with the model.
//
// GPU-free; the device side writes the same struct (a static_assert there keeps the layouts one).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/kernel_trace.hpp"
#include "model/problem.hpp"
#include "model/user_kernel/launch.hpp"

namespace ts::model {

// One access. 16 bytes, written by device code.
struct UserEvent {
    std::int32_t block = 0;     // block_linear(blockIdx.x, blockIdx.y, gridDim.x)
    std::int16_t thread_x = 0;  // threadIdx
    std::int16_t thread_y = 0;
    std::int32_t barriers = 0;  // __syncthreads() the thread had passed
    std::int32_t kind_index = 0;  // kind in the top 2 bits, the element's index (i of A[i]) below
};
static_assert(sizeof(UserEvent) == 16);

enum class UserAccess { LoadA = 0, LoadB = 1, StoreC = 2, Shared = 3 };
inline constexpr int kUserIndexBits = 30;  // indices below 2^30: A, B and C of a trace are small
constexpr UserAccess access_of(const UserEvent& e) { return static_cast<UserAccess>((e.kind_index >> kUserIndexBits) & 3); }
constexpr std::int32_t index_of(const UserEvent& e) { return e.kind_index & ((1 << kUserIndexBits) - 1); }
// A shared-memory access's index: its array (3 bits), whether it wrote (1), its line (10 bits, 0
// for a line past 1023) and the 32-bit word of shared memory it touched (16 bits: a block has
// at most 227 KiB). The prelude's note_shared writes it.
inline constexpr int kMostSharedArrays = 8;
constexpr int shared_array_of(const UserEvent& e) { return (index_of(e) >> 27) & 7; }
constexpr bool shared_write_of(const UserEvent& e) { return ((index_of(e) >> 26) & 1) != 0; }
constexpr int shared_line_of(const UserEvent& e) { return (index_of(e) >> 16) & 1023; }
constexpr int shared_word_of(const UserEvent& e) { return index_of(e) & 0xFFFF; }

// The most notes one trace keeps, barriers per block it times, and the largest matrices.
inline constexpr std::int64_t kMostUserEvents = std::int64_t{1} << 24;  // 256 MiB
inline constexpr int kMostTimedBarriers = 1024;
inline constexpr std::int64_t kMostRecordedElements = std::int64_t{1} << kUserIndexBits;

struct UserTrace {
    Problem problem;
    UserLaunchShape shape;
    std::vector<UserEvent> events;          // in no particular order (atomics)
    std::int64_t events_dropped = 0;        // notes past kMostUserEvents, not kept
    std::vector<std::uint32_t> block_sm;    // by block; kNoSm: thread (0, 0) noted nothing
    // By block, kMostTimedBarriers + 1 each: [0] thread (0, 0)'s first access, [b] its b-th barrier.
    std::vector<std::uint64_t> times_ns;
    std::vector<std::uint64_t> times_cycles;
    // Shared memory (UserAccess::Shared notes): the arrays' names by id, and by id three numbers
    // the device wrote: the array's first word, its rows and columns (0, 0: extern, size unknown;
    // N, 1: one-dimensional). Or why it was not recorded.
    std::vector<std::string> shared_names;
    std::vector<std::uint32_t> shared_info;
    std::string shared_not_recorded;
};

// Why a trace of `problem` with `shape` cannot be made, or nullopt: too many blocks for the
// theatre, matrices past 2^30 elements.
std::optional<std::string> user_trace_problem(const Problem& problem, const UserLaunchShape& shape);

// The loads and stores, against the model's counts of the naive and the tiled kernel (T = the
// block's side when it is square and at most 32, else 16) on the same problem.
struct UserCounts {
    std::int64_t loads_a = 0, loads_b = 0, stores_c = 0;
    std::int64_t naive_loads = 0;   // count_traffic(naive) loads of A and B
    std::int64_t tiled_loads = 0;   // count_traffic(tiled T)
    int tile = 16;
    int most_barriers = 0;          // the most __syncthreads() one thread passed
};
UserCounts count_user_events(const UserTrace& trace);
// "5,242 loads of A and B: the naive kernel's 8,192 … the tiled kernel's (T = 32) 512 …"
std::string describe_counts(const UserCounts& counts);

// The trace as the tiled rung's (KernelKind::Tiled, T = the block's side), for the theatre,
// or why the kernel is not shaped so: square blocks of T ≤ 32 on a grid of (cdiv(N, T), cdiv(M, T)),
// each thread loading at most one element of A and one of B between its barriers, the same number
// of barriers in every thread, a whole number of them in each of the cdiv(K, T) phases. The slot of
// As or Bs a load went to is the one the thread wrote next in that phase, where shared memory was
// recorded (row and column of the array where it has T columns or more, else counted row-major in
// T × T tiles laid one after another); else the thread's own (threadIdx.y, threadIdx.x), as in the
// rung. A thread that loads nothing in a phase is taken to have written the zero padding, as the
// rung does for elements outside A or B, into the slot the rung's index math gives.
std::variant<KernelTrace, std::string> tiled_trace_of(const UserTrace& trace, const std::string& device,
                                                      int sm_count);

}  // namespace ts::model
