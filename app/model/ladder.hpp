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
#include <string>

#include "index_math.hpp"
#include "kernel_config.hpp"

namespace ts::model {

struct LadderShape {
    int bm = 0, bn = 0, bk = 0;  // the block's tile of C, and the K step
    int tm = 1, tn = 1;          // one register tile of C (a thread may own several: see wm_iter, wn_iter)
    // The warp's tile of C (10 on): 0 means the block's threads tile BM×BN directly, with no
    // warp level in between (as if the whole block were one "warp" of threads()).
    int wm = 0, wn = 0;
    // Register tiles per thread along M and N: the warp's tile splits into wm_iter × wn_iter
    // sub-tiles, and each thread owns one TM×TN tile in each of them, at the same place.
    int wm_iter = 1, wn_iter = 1;
    int vec = 1;                 // elements per global and shared load instruction (4: float4)
    bool as_transposed = false;  // As stored k-major (BK rows of BM) so a thread's TM values sit side by side
    int as_pad = 0;              // extra slots at the end of each row of As, against bank conflicts
    int stages = 1;              // K steps in shared memory at once (the pipeline's depth)
    // Blocks that must fit on one SM at once (__launch_bounds__'s second number): the compiler
    // then keeps each thread within 64 Ki registers / (threads × blocks_per_sm). 0: no request.
    int blocks_per_sm = 0;

    TS_HOST_DEVICE constexpr int warp_m() const { return wm > 0 ? wm : bm; }
    TS_HOST_DEVICE constexpr int warp_n() const { return wn > 0 ? wn : bn; }
    TS_HOST_DEVICE constexpr int sub_m() const { return warp_m() / wm_iter; }
    TS_HOST_DEVICE constexpr int sub_n() const { return warp_n() / wn_iter; }
    TS_HOST_DEVICE constexpr int threads_per_row() const { return sub_n() / tn; }  // lanes across a sub-tile
    TS_HOST_DEVICE constexpr int group_threads() const { return (sub_m() / tm) * (sub_n() / tn); }
    TS_HOST_DEVICE constexpr int warps_per_row() const { return bn / warp_n(); }
    TS_HOST_DEVICE constexpr int threads() const { return (bm / warp_m()) * warps_per_row() * group_threads(); }
    TS_HOST_DEVICE constexpr int cells_per_thread() const { return tm * tn * wm_iter * wn_iter; }
    // Elements per load of A. The pipelined rungs copy A one element at a time: cp.async
    // cannot scatter a float4 of A down a column of the transposed As, and four 4-byte
    // copies of one float4 per thread would ask for every sector of A four times over (one
    // instruction per element, neighbouring threads on neighbouring elements, asks once).
    TS_HOST_DEVICE constexpr int a_vec() const { return stages > 1 && as_transposed ? 1 : vec; }
    // Load instructions per thread per K step: whole rounds of `threads` vectors (see valid()).
    TS_HOST_DEVICE constexpr int a_loads_per_thread() const { return bm * bk / (threads() * a_vec()); }
    TS_HOST_DEVICE constexpr int b_loads_per_thread() const { return bk * bn / (threads() * vec); }
    // Row length of As in slots: BK (row-major) or BM (transposed), plus the padding.
    TS_HOST_DEVICE constexpr int as_row() const { return (as_transposed ? bm : bk) + as_pad; }
    TS_HOST_DEVICE constexpr int as_slots() const { return (as_transposed ? bk : bm) * as_row(); }
    TS_HOST_DEVICE constexpr int bs_slots() const { return bk * bn; }
    // The registers a thread may use at most: the hardware's 255, or less where blocks_per_sm
    // asks for several blocks of 64 Ki registers' SM (in whole allocation units of 8).
    TS_HOST_DEVICE constexpr int register_cap() const {
        const int share = blocks_per_sm > 0 ? 65536 / (threads() * blocks_per_sm) / 8 * 8 : 255;
        return share < 255 ? share : 255;
    }
    // The shape works when the register tiles cover the warp tiles and those the block's
    // tile exactly, a warp tile (where there is one) has 32 threads, the threads fit a block,
    // each tile of A and B splits into whole rounds of vector loads, and vector reads of As
    // and Bs stay inside one register tile and aligned.
    TS_HOST_DEVICE constexpr bool valid() const {
        if (bm <= 0 || bn <= 0 || bk <= 0 || tm <= 0 || tn <= 0 || wm < 0 || wn < 0 || wm_iter < 1 || wn_iter < 1 ||
            vec < 1 || as_pad < 0 || stages < 1 || blocks_per_sm < 0)
            return false;
        if (bm % warp_m() != 0 || bn % warp_n() != 0 || warp_m() % wm_iter != 0 || warp_n() % wn_iter != 0 ||
            sub_m() % tm != 0 || sub_n() % tn != 0)
            return false;
        if ((wm > 0 || wn > 0) && group_threads() != 32) return false;
        if (threads() > 1024 || (bm * bk) % (threads() * a_vec()) != 0 || (bk * bn) % (threads() * vec) != 0)
            return false;
        if (vec > 1 && (bk % vec != 0 || bn % vec != 0 || tn % vec != 0 || as_row() % vec != 0)) return false;
        return vec == 1 || !as_transposed || tm % vec == 0;
    }
    constexpr bool operator==(const LadderShape&) const = default;
};

// 06 regtile-1d: 512 threads, each computing 8 cells of one column of a 64×64 tile.
inline constexpr LadderShape kRegTile1dShape{64, 64, 8, 8, 1};
// 07 regtile-2d: 256 threads, each computing an 8×8 register tile of a 128×128 tile.
inline constexpr LadderShape kRegTile2dShape{128, 128, 8, 8, 8};
// 08 vectorized: 07's tiles, moved four floats at a time, with As stored transposed.
inline constexpr LadderShape kVectorizedShape{.bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 8, .vec = 4,
                                              .as_transposed = true};
// 09 conflict-free: 08 with each thread's 8 columns split in two halves 64 apart (so the
// eight threads of one 128-bit access read 128 contiguous bytes), and As padded by 4.
inline constexpr LadderShape kConflictFreeShape{.bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 4, .wn_iter = 2,
                                                .vec = 4, .as_transposed = true, .as_pad = 4};
// The bank-conflicts experiment (kernels/experiments/09_conflict_free_unpadded.cu): 09's
// shape with As's padding taken out, so the two threads of a warp that store one row of A
// at columns 0 and 4 write slots 4·128 floats apart, the same bank. The views draw its bank
// map beside 09's.
inline constexpr LadderShape kUnpaddedConflictFreeShape{.bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 4,
                                                        .wn_iter = 2, .vec = 4, .as_transposed = true, .as_pad = 0};
// 10 warptile: 4 warps each own a 64×64 warp tile; a thread owns four 8×4 tiles in it.
inline constexpr LadderShape kWarptileShape{.bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 4, .wm = 64, .wn = 64,
                                            .wn_iter = 4, .vec = 4, .as_transposed = true, .as_pad = 4};
// 11 pipelined: 10's block and warp tiles with four K steps of 8 in flight through cp.async.
inline constexpr LadderShape kPipelinedShape{.bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 4, .wm = 64, .wn = 64,
                                             .wn_iter = 4, .vec = 4, .as_transposed = true, .as_pad = 4,
                                             .stages = 4};
static_assert(kRegTile1dShape.valid() && kRegTile1dShape.threads() == 512);
static_assert(kRegTile2dShape.valid() && kRegTile2dShape.threads() == 256);
static_assert(kVectorizedShape.valid() && kVectorizedShape.threads() == 256);
static_assert(kConflictFreeShape.valid() && kConflictFreeShape.threads() == 256);
static_assert(kUnpaddedConflictFreeShape.valid() && kUnpaddedConflictFreeShape.threads() == 256);
static_assert(kWarptileShape.valid() && kWarptileShape.threads() == 128);
static_assert(kPipelinedShape.valid() && kPipelinedShape.threads() == 128);

// ---- Which cells of C a thread owns ------------------------------------------------------

// Thread t belongs to warp tile t / group_threads (warp tiles numbered row by row across the
// block's tile) as lane t % group_threads; without warp tiles there is one group, the block.
// Within a sub-tile, lanes sit side by side along a row, threads_per_row to a row. These
// give the first (top-left) cell of the thread's register tile in sub-tile (sub_i, sub_j),
// relative to the block's tile.
TS_HOST_DEVICE constexpr int ladder_tile_row(LadderShape s, int thread, int sub_i = 0) {
    const int group = thread / s.group_threads(), lane = thread % s.group_threads();
    return (group / s.warps_per_row()) * s.warp_m() + sub_i * s.sub_m() + (lane / s.threads_per_row()) * s.tm;
}
TS_HOST_DEVICE constexpr int ladder_tile_col(LadderShape s, int thread, int sub_j = 0) {
    const int group = thread / s.group_threads(), lane = thread % s.group_threads();
    return (group % s.warps_per_row()) * s.warp_n() + sub_j * s.sub_n() + (lane % s.threads_per_row()) * s.tn;
}

// The same in C, for block (block_x, block_y). It may lie outside C (a ghost thread or a
// partial tile).
TS_HOST_DEVICE constexpr int ladder_row(LadderShape s, int block_y, int thread, int sub_i = 0) {
    return block_y * s.bm + ladder_tile_row(s, thread, sub_i);
}
TS_HOST_DEVICE constexpr int ladder_col(LadderShape s, int block_x, int thread, int sub_j = 0) {
    return block_x * s.bn + ladder_tile_col(s, thread, sub_j);
}

// Where the thread's cell `step` lies (steps count its cells in the order it keeps them:
// sub-tile by sub-tile, each row by row), relative to the block's tile.
struct LadderCellPlace {
    int sub_i = 0, sub_j = 0, r = 0, c = 0;
};
TS_HOST_DEVICE constexpr LadderCellPlace ladder_place_of_step(LadderShape s, int step) {
    const int per_tile = s.tm * s.tn, tile = step / per_tile, within = step % per_tile;
    return {tile / s.wn_iter, tile % s.wn_iter, within / s.tn, within % s.tn};
}
TS_HOST_DEVICE constexpr int ladder_step_of_place(LadderShape s, LadderCellPlace p) {
    return ((p.sub_i * s.wn_iter + p.sub_j) * s.tm + p.r) * s.tn + p.c;
}

// How many of a block's threads own at least one cell when only `rows` × `cols` of its tile
// lie inside C: those whose first register tile starts inside.
constexpr int ladder_threads_inside(LadderShape s, int rows, int cols) {
    int count = 0;
    for (int t = 0; t < s.threads(); ++t) count += ladder_tile_row(s, t) < rows && ladder_tile_col(s, t) < cols;
    return count;
}

// ---- What a thread loads in each K step ----------------------------------------------------

// Load `i` of thread `thread` into a tile of `cols` columns: the `vec` elements from
// (thread + i·threads)·vec on, row-major. As is BM×BK (cols = BK), Bs is BK×BN (cols = BN).
TS_HOST_DEVICE constexpr int ladder_load_row(int thread, int i, int threads, int cols, int vec = 1) {
    return (thread + i * threads) * vec / cols;
}
TS_HOST_DEVICE constexpr int ladder_load_col(int thread, int i, int threads, int cols, int vec = 1) {
    return (thread + i * threads) * vec % cols;
}

// K steps: K walked BK at a time; the last step may be partial (its missing columns of A
// and rows of B are loaded as zeros).
TS_HOST_DEVICE constexpr int ladder_steps(LadderShape s, int k) { return ceil_div(k, s.bk); }

// Where element (row, col) of the BM×BK tile of A sits in As, counted in slots from As's
// start: transposed or not, padded or not.
TS_HOST_DEVICE constexpr int ladder_as_slot(LadderShape s, int row, int col) {
    return s.as_transposed ? col * s.as_row() + row : row * s.as_row() + col;
}

// ---- Counts, exact for any M, N, K ---------------------------------------------------------

struct LadderCounts {
    std::int64_t global_loads_a = 0;  // elements of A read from global memory (inside A only)
    std::int64_t global_loads_b = 0;
    std::int64_t global_stores = 0;   // cells of C written (inside C only)
    std::int64_t shared_stores = 0;   // slots of As and Bs written, zeros of padding included
    std::int64_t shared_loads = 0;    // elements read from As and Bs by all threads, ghosts too
    std::int64_t shared_load_instructions = 0;  // the same in instructions: a float4 read is one
    std::int64_t fmas = 0;            // multiply-adds issued, ghosts and padding included
    // FMAs per element read from shared memory: TM·TN / (TM + TN) for one register tile per
    // thread; more where a thread owns several (they share what they read).
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

// Shared memory of one block: every stage's As and Bs, padding included, in bytes for
// elements of `element_bytes`.
TS_HOST_DEVICE constexpr int ladder_shared_bytes(LadderShape s, int element_bytes) {
    return s.stages * (s.as_slots() + s.bs_slots()) * element_bytes;
}

// ---- The tuned rung ----------------------------------------------------------------------

// 12 tuned: the pipelined kernel (11) compiled for each of these shapes; `tilescope-cli tune`
// measures them and keeps the fastest per GPU and size (model/tuning_table.hpp). Candidate 0
// is 11's shape, the fallback where nothing was tuned. Every one has 32-thread warp tiles,
// float4 loads of B, a transposed and padded As, and 3 or 4 stages.
inline constexpr LadderShape kTunedCandidates[] = {
    kPipelinedShape,
    {.bm = 128, .bn = 256, .bk = 8, .tm = 8, .tn = 4, .wm = 64, .wn = 64, .wn_iter = 4, .vec = 4,
     .as_transposed = true, .as_pad = 4, .stages = 4},
    {.bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 4, .wm = 64, .wn = 32, .wn_iter = 2, .vec = 4,
     .as_transposed = true, .as_pad = 4, .stages = 3},
    {.bm = 64, .bn = 64, .bk = 16, .tm = 4, .tn = 4, .wm = 32, .wn = 32, .wn_iter = 2, .vec = 4,
     .as_transposed = true, .as_pad = 4, .stages = 3},
    {.bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 4, .wm = 32, .wn = 64, .wn_iter = 2, .vec = 4,
     .as_transposed = true, .as_pad = 4, .stages = 4, .blocks_per_sm = 2},
};
inline constexpr int kTunedCandidateCount = static_cast<int>(sizeof(kTunedCandidates) / sizeof(kTunedCandidates[0]));

// The shape of a rung, for the tuned rung the candidate config.variant names (0 when out of
// range); all zero for a kernel that is not on the ladder (is_ladder).
LadderShape ladder_shape(const KernelConfig& config);
LadderShape ladder_shape(KernelKind kind);  // the tuned rung's candidate 0

// "128×128×16, warp 64×64, 8×4 ×4, 3 stages": a shape in one line.
std::string describe_shape(LadderShape s);

}  // namespace ts::model
