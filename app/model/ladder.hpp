// ladder.hpp — the kernel ladder past the tiled kernel: the shapes of its rungs and the
// index math their kernels and views share.
//
// From the register-tiled rungs on, a block of `threads` threads (1-D, threadIdx.x only)
// owns a BM×BN tile of C and walks K in steps of BK. In each step the block copies a BM×BK
// tile of A into As and a BK×BN tile of B into Bs, thread t taking elements t, t + threads,
// t + 2·threads, ... of each tile in row-major order (so neighbouring threads read
// neighbouring addresses: the loads are coalesced). Then every thread accumulates its own
// TM×TN register tile of C from As and Bs: TM + TN shared loads feed TM·TN FMAs, where the
// tiled kernel's two shared loads fed one.
//
// Everything here is constexpr and header-only; under nvcc the functions are __device__
// too, so the kernels in kernels/06_* and up call exactly these.
#pragma once

#include <cstdint>
#include <optional>

#include "index_math.hpp"
#include "kernel_config.hpp"

namespace ts::model {

struct LadderShape {
    int bm = 0, bn = 0, bk = 0;  // the block's tile of C, and the K step
    int tm = 1, tn = 1;          // one thread's register tile of C

    TS_HOST_DEVICE constexpr int threads_per_row() const { return bn / tn; }  // threads across the tile
    TS_HOST_DEVICE constexpr int threads() const { return (bm / tm) * (bn / tn); }
    // Loads per thread per K step: whole rounds of `threads` elements (see the valid() rule).
    TS_HOST_DEVICE constexpr int a_loads_per_thread() const { return bm * bk / threads(); }
    TS_HOST_DEVICE constexpr int b_loads_per_thread() const { return bk * bn / threads(); }
    // The shape works when the register tiles cover the block's tile exactly, the threads
    // fit a block, and each tile of A and B splits into whole rounds of loads.
    TS_HOST_DEVICE constexpr bool valid() const {
        return bm > 0 && bn > 0 && bk > 0 && tm > 0 && tn > 0 && bm % tm == 0 && bn % tn == 0 && threads() <= 1024 &&
               (bm * bk) % threads() == 0 && (bk * bn) % threads() == 0;
    }
    constexpr bool operator==(const LadderShape&) const = default;
};

// 06 regtile-1d: 512 threads, each computing 8 cells of one column of a 64×64 tile.
inline constexpr LadderShape kRegTile1dShape{64, 64, 8, 8, 1};
// 07 regtile-2d: 256 threads, each computing an 8×8 register tile of a 128×128 tile.
inline constexpr LadderShape kRegTile2dShape{128, 128, 8, 8, 8};
static_assert(kRegTile1dShape.valid() && kRegTile1dShape.threads() == 512);
static_assert(kRegTile2dShape.valid() && kRegTile2dShape.threads() == 256);

// The shape of a rung; all zero for a kernel that is not on the ladder (is_ladder).
constexpr LadderShape ladder_shape(KernelKind kind) {
    switch (kind) {
        case KernelKind::RegTile1d: return kRegTile1dShape;
        case KernelKind::RegTile2d: return kRegTile2dShape;
        default: return {};
    }
}

// ---- Which cells of C a thread owns ------------------------------------------------------

// Thread t of a block owns the register tile at row t / (BN/TN), column t % (BN/TN) of
// the block's grid of register tiles: consecutive threads sit side by side along a row.
TS_HOST_DEVICE constexpr int ladder_thread_row(LadderShape s, int thread) { return thread / s.threads_per_row(); }
TS_HOST_DEVICE constexpr int ladder_thread_col(LadderShape s, int thread) { return thread % s.threads_per_row(); }

// The first (top-left) cell of C of thread `thread` in block (block_x, block_y); its register
// tile is the TM×TN cells from there. It may lie outside C (a ghost thread or a partial tile).
TS_HOST_DEVICE constexpr int ladder_row(LadderShape s, int block_y, int thread) {
    return block_y * s.bm + ladder_thread_row(s, thread) * s.tm;
}
TS_HOST_DEVICE constexpr int ladder_col(LadderShape s, int block_x, int thread) {
    return block_x * s.bn + ladder_thread_col(s, thread) * s.tn;
}

// ---- What a thread loads in each K step ----------------------------------------------------

// Load `i` of thread `thread` into a tile of `cols` columns: element thread + i·threads,
// row-major. As is BM×BK (cols = BK), Bs is BK×BN (cols = BN).
TS_HOST_DEVICE constexpr int ladder_load_row(int thread, int i, int threads, int cols) {
    return (thread + i * threads) / cols;
}
TS_HOST_DEVICE constexpr int ladder_load_col(int thread, int i, int threads, int cols) {
    return (thread + i * threads) % cols;
}

// K steps: K walked BK at a time; the last step may be partial (its missing columns of A
// and rows of B are loaded as zeros).
TS_HOST_DEVICE constexpr int ladder_steps(LadderShape s, int k) { return ceil_div(k, s.bk); }

// ---- Counts, exact for any M, N, K ---------------------------------------------------------

struct LadderCounts {
    std::int64_t global_loads_a = 0;  // elements of A read from global memory (inside A only)
    std::int64_t global_loads_b = 0;
    std::int64_t global_stores = 0;   // cells of C written (inside C only)
    std::int64_t shared_stores = 0;   // slots of As and Bs written, zeros of padding included
    std::int64_t shared_loads = 0;    // elements read from As and Bs by all threads, ghosts too
    std::int64_t fmas = 0;            // multiply-adds issued, ghosts and padding included
    // FMAs per element read from shared memory: TM·TN / (TM + TN) for every shape.
    double fmas_per_shared_load() const {
        return shared_loads > 0 ? static_cast<double>(fmas) / static_cast<double>(shared_loads) : 0.0;
    }
};

// How many blocks load each element of A (of_a) or of B: the blocks of its row of blocks,
// ceil(N/BN), or of its column of blocks, ceil(M/BM), once each.
constexpr std::int64_t ladder_loads_per_element(LadderShape s, std::int64_t m, std::int64_t n, bool of_a) {
    return of_a ? ceil_div64(n, s.bn) : ceil_div64(m, s.bm);
}

// Per matrix of a batch. Each element of A is loaded once by every block of its row of
// blocks (ceil(N/BN) times), each element of B once per block of its column (ceil(M/BM)).
LadderCounts count_ladder(LadderShape shape, std::int64_t m, std::int64_t n, std::int64_t k);

// How many times A[row][col] (of_a) or B[row][col] is loaded from global memory, counted by
// walking the blocks and K steps as the kernel does; the tests compare it with count_ladder.
std::int64_t ladder_loads_of_element(LadderShape shape, std::int64_t m, std::int64_t n, std::int64_t k, bool of_a,
                                     int row, int col);

// Static shared memory of one block: As and Bs, in bytes, for elements of `element_bytes`.
constexpr int ladder_shared_bytes(LadderShape s, int element_bytes) {
    return (s.bm * s.bk + s.bk * s.bn) * element_bytes;
}

}  // namespace ts::model
