// swizzle.hpp — where a tile's elements sit in shared memory for the tensor-core rungs, and
// what the banks make of it: the XOR swizzles TMA writes and wgmma reads (32, 64 and 128 bytes),
// the XOR swizzle an Ampere-style kernel applies itself before ldmatrix, and the wavefronts of
// one ldmatrix phase (8 lanes × 16 bytes) on any layout.
//
// Why swizzle: ldmatrix (and wgmma) read 8 rows of 16 bytes at a time. In a plain row-major tile
// 128 bytes wide those 8 rows start 128 bytes apart, all in the same 4 banks: 8 wavefronts where
// one would do. XORing the 16-byte chunk index with the row index puts the 8 rows in 8 different
// bank quads without padding a single byte.
//
// Sources: the PTX ISA, "Swizzling Modes" (tensor copies; the tables of 16-byte chunks per 128-byte
// line) and the wgmma "Shared Memory Matrix Layout" (whose canonical layouts name the swizzles in
// CuTe's Swizzle<B, M, S> form: Swizzle<1,4,3>, <2,4,3>, <3,4,3> on byte addresses).
#pragma once

#include "model/index_math.hpp"

namespace ts::model {

// ---- Swizzle<B, M, S> -------------------------------------------------------------------------

// XOR the B bits starting at bit M of an offset with the B bits S places above them:
// offset ^ ((offset >> S) & (((1 << B) − 1) << M)). With S ≥ B the bits it reads are not among
// the bits it changes, so applying it twice gives the offset back: it is its own inverse, and a
// bijection on every aligned block of atom_size() offsets (the pattern repeats from there on).
struct Swizzle {
    int bits = 0;   // B: how many bits are XORed (0: the identity)
    int base = 4;   // M: the lowest bit changed (4 on byte offsets: 16-byte chunks stay whole)
    int shift = 3;  // S: how far above them the bits that say how to change them sit
    TS_HOST_DEVICE constexpr int operator()(int offset) const {
        return offset ^ ((offset >> shift) & (((1 << bits) - 1) << base));
    }
    TS_HOST_DEVICE constexpr int atom_size() const { return 1 << (base + shift + bits); }
    constexpr bool operator==(const Swizzle&) const = default;
};

// ---- The swizzle modes of TMA and wgmma ---------------------------------------------------------

// CU_TENSOR_MAP_SWIZZLE_NONE / _32B / _64B / _128B, and the descriptor's layout types.
enum class TmaSwizzle { None, B32, B64, B128 };

// On byte offsets: 32B is Swizzle<1,4,3> (line i of 128 bytes swaps its chunks in pairs when
// i is odd), 64B is Swizzle<2,4,3>, 128B is Swizzle<3,4,3> (chunk c of line i goes to c ^ (i % 8)).
TS_HOST_DEVICE constexpr Swizzle swizzle_of(TmaSwizzle mode) {
    switch (mode) {
        case TmaSwizzle::B32: return {1, 4, 3};
        case TmaSwizzle::B64: return {2, 4, 3};
        case TmaSwizzle::B128: return {3, 4, 3};
        default: return {0, 4, 3};
    }
}
// The width of one swizzled row, in bytes: a TMA box's inner dimension may be at most this wide
// (in bytes) under the mode. For None, 16: wgmma's unswizzled ("interleaved") layout is built of
// 8×16-byte core matrices, so a tile for it comes in 16-byte-wide column slabs.
TS_HOST_DEVICE constexpr int swizzle_span_bytes(TmaSwizzle mode) {
    switch (mode) {
        case TmaSwizzle::B32: return 32;
        case TmaSwizzle::B64: return 64;
        case TmaSwizzle::B128: return 128;
        default: return 16;
    }
}
// The repeating pattern: 8 rows of the span (256, 512, 1024 bytes; 128 for None, one core
// matrix). A swizzled tile must start on this boundary, or the wgmma descriptor needs a base
// offset (descriptor.hpp).
TS_HOST_DEVICE constexpr int swizzle_atom_bytes(TmaSwizzle mode) { return 8 * swizzle_span_bytes(mode); }

TS_HOST_DEVICE constexpr int swizzle_bytes(TmaSwizzle mode, int byte_offset) { return swizzle_of(mode)(byte_offset); }

// Where TMA puts element (row, col) of a `rows`-row tile, in bytes from the tile's start (which is
// aligned to the atom). The tile is cut into column slabs one span wide, each brought by its own
// box (a box's inner dimension cannot be wider than the span), slab after slab: within a slab a
// row is `span` contiguous bytes, then the mode's swizzle. `col` counts elements along the
// contiguous dimension (K for A stored M×K); `rows` counts the other.
TS_HOST_DEVICE constexpr int tma_tile_offset(TmaSwizzle mode, int rows, int row, int col, int element_bytes) {
    const int span = swizzle_span_bytes(mode);
    const int col_bytes = col * element_bytes;
    const int slab = col_bytes / span;
    return slab * rows * span + swizzle_bytes(mode, row * span + col_bytes % span);
}

// ---- Plain and Ampere-style layouts --------------------------------------------------------------

// A row-major tile with `row_elements` elements per row and nothing done to it.
TS_HOST_DEVICE constexpr int rowmajor_offset(int row, int col, int row_elements, int element_bytes) {
    return (row * row_elements + col) * element_bytes;
}

// The swizzle an mma.sync kernel writes itself (cp.async 16 bytes at a time) so that its ldmatrix
// reads hit 8 different bank quads: the 16-byte chunk index is XORed with the row index. With rows
// of 8 chunks or more (128 bytes: 64 BF16), chunk ^ (row % 8), within each group of 8 chunks.
// Narrower rows share a 128-byte line: 4 chunks (64 bytes) → chunk ^ ((row / 2) % 4), 2 chunks →
// chunk ^ ((row / 4) % 2), so that it is the XOR of the chunk with the 128-byte line's index
// again. (For rows of at most 128 bytes this is Swizzle<log2 chunks, 4, 3> on the row-major byte
// offset; the tests check that.)
TS_HOST_DEVICE constexpr int xor_swizzled_chunk(int row, int chunk, int chunks_per_row) {
    if (chunks_per_row >= 8) return chunk ^ (row & 7);
    return chunk ^ ((row / (8 / chunks_per_row)) % chunks_per_row);
}
TS_HOST_DEVICE constexpr int xor_swizzled_offset(int row, int col, int row_elements, int element_bytes) {
    const int row_bytes = row_elements * element_bytes, col_bytes = col * element_bytes;
    const int chunk = col_bytes / 16, chunks_per_row = row_bytes / 16;
    return row * row_bytes + xor_swizzled_chunk(row, chunk, chunks_per_row) * 16 + col_bytes % 16;
}

// ---- Banks ------------------------------------------------------------------------------------

// 32 banks of 4-byte words; word w is in bank w % 32. The lanes of one phase are served together:
// a bank gives one word per wavefront, lanes asking for the same word share it.
inline constexpr int kSharedBanks = 32;
inline constexpr int kBankWordBytes = 4;
inline constexpr int kLdmatrixPhaseLanes = 8;  // one 8×8 matrix: 8 rows of 16 bytes = 128 bytes

// Wavefronts for one phase of accesses (the lanes served together: 32 for 4-byte accesses, 16 for
// 8-byte, 8 for 16-byte), each `bytes_each` bytes (a multiple of 4, aligned) from the byte
// addresses given: the most distinct words any one bank must serve (1: no conflict). At most
// kMaxPhaseWords words in all; more are not counted.
inline constexpr int kMaxPhaseWords = 128;
TS_HOST_DEVICE constexpr int phase_wavefronts(const int* byte_addresses, int count, int bytes_each) {
    int words[kMaxPhaseWords] = {};
    int n = 0;
    for (int i = 0; i < count; ++i)
        for (int w = 0; w < bytes_each / kBankWordBytes && n < kMaxPhaseWords; ++w)
            words[n++] = byte_addresses[i] / kBankWordBytes + w;
    int per_bank[kSharedBanks] = {};
    int most = 0;
    for (int i = 0; i < n; ++i) {
        bool seen = false;  // the same word asked for earlier in the phase: a broadcast, not a conflict
        for (int j = 0; j < i && !seen; ++j) seen = words[j] == words[i];
        if (seen) continue;
        const int bank = words[i] % kSharedBanks;
        per_bank[bank] += 1;
        most = per_bank[bank] > most ? per_bank[bank] : most;
    }
    return most;
}
// One ldmatrix phase: the 8 row addresses of one 8×8 matrix. 1 is conflict-free, 8 is the worst.
TS_HOST_DEVICE constexpr int ldmatrix_phase_wavefronts(const int (&row_addresses)[kLdmatrixPhaseLanes]) {
    return phase_wavefronts(row_addresses, kLdmatrixPhaseLanes, 16);
}

// Which layout a tile uses, for the counts below.
enum class SmemLayout { RowMajor, XorSwizzled, Tma };
struct SmemTile {
    SmemLayout layout = SmemLayout::RowMajor;
    int rows = 0;          // M (or N, or K for B stored K×N)
    int row_elements = 0;  // the contiguous dimension
    int element_bytes = 2;
    TmaSwizzle mode = TmaSwizzle::None;  // for SmemLayout::Tma
    TS_HOST_DEVICE constexpr int offset(int row, int col) const {
        switch (layout) {
            case SmemLayout::XorSwizzled: return xor_swizzled_offset(row, col, row_elements, element_bytes);
            case SmemLayout::Tma: return tma_tile_offset(mode, rows, row, col, element_bytes);
            default: return rowmajor_offset(row, col, row_elements, element_bytes);
        }
    }
    TS_HOST_DEVICE constexpr int bytes() const { return rows * row_elements * element_bytes; }
};

// The ldmatrix phase that reads 8 consecutive rows from (first_row, col) of a tile: the bank
// conflict degree of the A and B loads of the mma rungs (one phase per 8×8 matrix).
TS_HOST_DEVICE constexpr int ldmatrix_rows_wavefronts(SmemTile tile, int first_row, int col) {
    int addresses[kLdmatrixPhaseLanes] = {};
    for (int i = 0; i < kLdmatrixPhaseLanes; ++i) addresses[i] = tile.offset(first_row + i, col);
    return ldmatrix_phase_wavefronts(addresses);
}
// The worst phase over a whole tile: every 8-row group at every 16-byte column.
TS_HOST_DEVICE constexpr int ldmatrix_worst_wavefronts(SmemTile tile) {
    int worst = 0;
    const int per_chunk = 16 / tile.element_bytes;
    for (int r = 0; r + kLdmatrixPhaseLanes <= tile.rows; r += kLdmatrixPhaseLanes)
        for (int c = 0; c < tile.row_elements; c += per_chunk) {
            const int w = ldmatrix_rows_wavefronts(tile, r, c);
            worst = w > worst ? w : worst;
        }
    return worst;
}

}  // namespace ts::model
