// mma.hpp — the warp-level tensor-core rungs' block (13 wmma, 14 mma, 15 mma-async): warps
// tiling the block, their mma.sync and ldmatrix counts, the cp.async copies that fill shared
// memory, and the bank conflicts of the ldmatrix phases with and without the XOR swizzle.
//
// A block of (BM/WM)·(BN/WN) warps owns a BM×BN tile of C; warp w owns the WM×WN tile at warp row
// w / (BN/WN), warp column w % (BN/WN), as acc[WM/16][WN/8][4] (fragments.hpp's
// mma_warp_tile_cell). Each K step copies a BM×BK tile of A (row-major, K contiguous) and a BK×BN
// tile of B (row-major, N contiguous, as TileScope stores B) into shared memory, 16 bytes per
// cp.async, then per 16-wide K slice every warp loads its A fragments with ldmatrix.x4 (16×16 each)
// and its B fragments with ldmatrix.x4.trans (16 k × 16 n: two n8 fragments each), and issues
// (WM/16)·(WN/8) mma.m16n8k16.
//
// 13's wmma::mma_sync on 16×16×16 fragments does the same work in (WM/16)·(WN/16) calls per K
// slice; how wmma spreads a fragment over the lanes is left unspecified by CUDA, so the model
// draws 13's fragments as whole 16×16 tiles and counts only its calls.
#pragma once

#include <cstdint>

#include "fragments.hpp"
#include "swizzle.hpp"

namespace ts::model {

struct MmaShape {
    int bm = 128, bn = 128, bk = 32;
    int wm = 64, wn = 64;   // one warp's tile of C
    int stages = 1;         // K steps in shared memory at once (cp.async pipeline when > 1)
    bool swizzled = false;  // As and Bs XOR-swizzled (xor_swizzled_offset) rather than plain row-major
    int element_bytes = 2;
    int pad = 0;            // elements added to every row of As and Bs (unswizzled), so rows start in other banks

    TS_HOST_DEVICE constexpr int warps_per_row() const { return bn / wn; }
    TS_HOST_DEVICE constexpr int warps() const { return (bm / wm) * warps_per_row(); }
    TS_HOST_DEVICE constexpr int threads() const { return warps() * kWarpSize; }
    TS_HOST_DEVICE constexpr int m_tiles() const { return wm / kMmaM; }  // mma tiles of a warp along M
    TS_HOST_DEVICE constexpr int n_tiles() const { return wn / kMmaN; }  // ... along N
    TS_HOST_DEVICE constexpr int k_slices() const { return bk / kMmaK; }
    // FP32 accumulators per thread: 4 per mma tile.
    TS_HOST_DEVICE constexpr int accumulator_registers() const { return m_tiles() * n_tiles() * kMmaCRegisters; }
    // 16-byte cp.async chunks per K step, of A and B, and per thread.
    TS_HOST_DEVICE constexpr int a_chunks() const { return bm * bk * element_bytes / 16; }
    TS_HOST_DEVICE constexpr int b_chunks() const { return bk * bn * element_bytes / 16; }
    TS_HOST_DEVICE constexpr int chunks_per_thread() const { return (a_chunks() + b_chunks()) / threads(); }
    TS_HOST_DEVICE constexpr SmemTile a_tile() const {
        return {swizzled ? SmemLayout::XorSwizzled : SmemLayout::RowMajor, bm, bk + (swizzled ? 0 : pad), element_bytes};
    }
    TS_HOST_DEVICE constexpr SmemTile b_tile() const {
        return {swizzled ? SmemLayout::XorSwizzled : SmemLayout::RowMajor, bk, bn + (swizzled ? 0 : pad), element_bytes};
    }
    // Valid when the warp tiles cover the block, the mma tiles the warp tile (WN in pairs of n8 for
    // the x4.trans loads), BK is whole K slices, the rows are whole 16-byte chunks (and a power of
    // two of them up to 8, or a multiple of 8, for the swizzle), the copies split evenly, and the
    // accumulators leave room.
    TS_HOST_DEVICE constexpr bool valid() const {
        if (bm <= 0 || bn <= 0 || bk <= 0 || wm <= 0 || wn <= 0 || stages < 1 || element_bytes != 2) return false;
        if (pad < 0 || (pad * element_bytes) % 16 != 0) return false;  // rows stay whole 16-byte chunks
        if (bm % wm != 0 || bn % wn != 0 || wm % kMmaM != 0 || wn % 16 != 0 || bk % kMmaK != 0) return false;
        if (threads() > 1024 || (a_chunks() + b_chunks()) % threads() != 0 || a_chunks() % threads() != 0) return false;
        const auto chunks_fit = [](int row_bytes) {
            const int c = row_bytes / 16;
            return row_bytes % 16 == 0 && (c % 8 == 0 || c == 1 || c == 2 || c == 4);
        };
        // Leave a thread at least 63 of its 255 registers for fragments, addresses and loop state.
        return chunks_fit(bk * element_bytes) && chunks_fit(bn * element_bytes) && accumulator_registers() <= 192;
    }
    constexpr bool operator==(const MmaShape&) const = default;
};

// The rungs' shapes: 8 warps of 64×32 over a 128×128 tile, rows padded by 16 bytes. 13 holds a
// warp's tile as 4×2 wmma fragments of 16×16, 14 as 4×4 mma tiles of 16×8 (64 accumulators a
// thread). (Warps of 64×64, 4 to a block, feed each ldmatrix to twice the mma but hold 128
// accumulators and 214 registers a thread, which leaves room for 8 warps an SM; both rungs ran
// slower so: docs/notes/14_mma.md.)
inline constexpr MmaShape kWmmaShape{.bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 32, .stages = 1,
                                     .swizzled = false, .element_bytes = 2, .pad = 8};
inline constexpr MmaShape kMmaShape{.bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 32, .stages = 1,
                                    .swizzled = false, .element_bytes = 2, .pad = 8};
// 15: 14's tiles, XOR-swizzled instead of padded, in 4 stages filled by cp.async (64 KiB).
inline constexpr MmaShape kMmaAsyncShape{.bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 32, .stages = 4,
                                         .swizzled = true, .element_bytes = 2, .pad = 0};
static_assert(kWmmaShape.valid() && kMmaShape.valid() && kMmaAsyncShape.valid());

// Where warp `warp`'s tile starts in the block's tile.
TS_HOST_DEVICE constexpr Cell mma_warp_origin(MmaShape s, int warp) {
    return {(warp / s.warps_per_row()) * s.wm, (warp % s.warps_per_row()) * s.wn};
}
// The cell of the block's tile that lane `lane` of warp `warp` holds in acc[mi][ni][reg].
TS_HOST_DEVICE constexpr Cell mma_block_cell(MmaShape s, int warp, int lane, int mi, int ni, int reg) {
    const Cell o = mma_warp_origin(s, warp), c = mma_warp_tile_cell(lane, mi, ni, reg);
    return {o.row + c.row, o.col + c.col};
}

// The cp.async copy `i` of thread `thread` in a K step: chunk thread + i·threads, A's chunks first
// (row-major over the BM×BK tile, 8 BF16 each), then B's. Neighbouring threads copy neighbouring
// 16 bytes of global memory; the chunk lands at tile.offset(row, col) in shared memory.
struct CopyChunk {
    bool of_a = true;
    int row = 0, col = 0;  // first element, in the A tile (m, k) or the B tile (k, n)
};
TS_HOST_DEVICE constexpr CopyChunk mma_copy_chunk(MmaShape s, int thread, int i) {
    const int chunk = thread + i * s.threads(), per_chunk = 16 / s.element_bytes;
    if (chunk < s.a_chunks()) return {true, chunk * per_chunk / s.bk, chunk * per_chunk % s.bk};
    const int b = chunk - s.a_chunks();
    return {false, b * per_chunk / s.bn, b * per_chunk % s.bn};
}

// ---- Counts ----------------------------------------------------------------------------------

TS_HOST_DEVICE constexpr int mmas_per_warp_step(MmaShape s) { return s.m_tiles() * s.n_tiles() * s.k_slices(); }
TS_HOST_DEVICE constexpr int mmas_per_block_step(MmaShape s) { return s.warps() * mmas_per_warp_step(s); }
TS_HOST_DEVICE constexpr int wmmas_per_warp_step(MmaShape s) { return (s.wm / 16) * (s.wn / 16) * s.k_slices(); }
// ldmatrix.x4 per warp and K step: one per 16×16 of A, one per 16 k × 16 n of B.
TS_HOST_DEVICE constexpr int ldmatrix_a_per_warp_step(MmaShape s) { return s.m_tiles() * s.k_slices(); }
TS_HOST_DEVICE constexpr int ldmatrix_b_per_warp_step(MmaShape s) { return (s.wn / 16) * s.k_slices(); }
TS_HOST_DEVICE constexpr int mma_k_steps(MmaShape s, int k) { return ceil_div(k, s.bk); }
TS_HOST_DEVICE constexpr std::int64_t mmas_per_block(MmaShape s, int k) {
    return static_cast<std::int64_t>(mmas_per_block_step(s)) * mma_k_steps(s, k);
}
// Bytes one K step brings in, and shared memory of the block (every stage's A and B tiles).
TS_HOST_DEVICE constexpr int mma_stage_bytes(MmaShape s) { return s.a_tile().bytes() + s.b_tile().bytes(); }
TS_HOST_DEVICE constexpr int mma_shared_bytes(MmaShape s) { return s.stages * mma_stage_bytes(s); }

// ---- Bank conflicts of the fragment loads ----------------------------------------------------------

// Wavefronts of one ldmatrix.x4 that reads the 16×16 square at (row, col) of `tile` the way the
// mma rungs do (lanes 0–15 rows row..row+15 at col, lanes 16–31 the same rows at col + 8; A's and
// the .trans B's loads point alike): four phases of 8 lanes, one per 8×8 matrix. 4 is the least.
TS_HOST_DEVICE constexpr int ldmatrix_x4_wavefronts(SmemTile tile, int row, int col) {
    int total = 0;
    for (int matrix = 0; matrix < 4; ++matrix) {
        int addresses[kLdmatrixPhaseLanes] = {};
        for (int i = 0; i < kLdmatrixPhaseLanes; ++i) {
            const Cell p = ldmatrix_x4_a_row(8 * matrix + i);
            addresses[i] = tile.offset(row + p.row, col + p.col);
        }
        total += ldmatrix_phase_wavefronts(addresses);
    }
    return total;
}
// Everything one warp's ldmatrix loads cost in one K step, and what they would cost without a
// conflict (4 wavefronts each).
struct LdmatrixCost {
    int instructions = 0;
    int wavefronts = 0;
    int ideal = 0;
};
TS_HOST_DEVICE constexpr LdmatrixCost mma_warp_ldmatrix_cost(MmaShape s, int warp) {
    LdmatrixCost cost;
    const Cell o = mma_warp_origin(s, warp);
    for (int ks = 0; ks < s.k_slices(); ++ks) {
        for (int mi = 0; mi < s.m_tiles(); ++mi) {
            cost.wavefronts += ldmatrix_x4_wavefronts(s.a_tile(), o.row + kMmaM * mi, kMmaK * ks);
            cost.instructions += 1;
        }
        for (int nj = 0; nj < s.wn / 16; ++nj) {
            cost.wavefronts += ldmatrix_x4_wavefronts(s.b_tile(), kMmaK * ks, o.col + 16 * nj);
            cost.instructions += 1;
        }
    }
    cost.ideal = 4 * cost.instructions;
    return cost;
}

}  // namespace ts::model
