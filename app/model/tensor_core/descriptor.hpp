// descriptor.hpp — the 64-bit shared-memory matrix descriptor wgmma reads A and B through:
// its encoding and decoding, and the descriptor of each K step of a tile that TMA brought in
// (swizzle.hpp's tma_tile_offset), for K-major and MN-major tiles under every swizzle mode.
//
// Source: the PTX ISA, "Matrix Descriptor Format" and "Canonical Layouts" of wgmma. The bits:
//   13–0   start address >> 4          (the address is taken & 0x3FFFF first)
//   29–16  leading dimension byte offset (LBO) >> 4
//   45–32  stride dimension byte offset (SBO) >> 4
//   51–49  base offset (swizzled modes only)
//   63–62  swizzle: 0 none, 1 128B, 2 64B, 3 32B
// The canonical layouts, with T = 16 bytes of elements (8 BF16), in CuTe's shape:stride form,
// then the mode's Swizzle<B,4,3> on the byte address:
//   K-major,  none:    ((8,m),(T,2k)):((1T,SBO),(1,LBO))
//   K-major,  swizzled:((8,m),(T,2k)):((sT,SBO),(1,T))        s = span / 16 = 2, 4, 8
//   MN-major, none:    ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//   MN-major, swizzled:((T,s,m),(8,k)):((1,T,LBO),(sT,SBO))
// so in words: K-major: SBO steps from one 8-row group to the next; LBO (no swizzle only) from one
// 16-byte column of core matrices to the next along K; swizzled K-major has no use for LBO ("not
// used, assumed 1"). MN-major: LBO steps along M/N from one span-wide atom to the next, SBO along K
// from one group of 8 rows to the next; unswizzled, the two trade places.
#pragma once

#include <cstdint>

#include "fragments.hpp"
#include "swizzle.hpp"

namespace ts::model {

// A descriptor's fields, in bytes (the encoding keeps bits 4–17 of each).
struct SmemDescriptor {
    std::uint32_t start_address = 0;        // shared-window address of the matrix's first element
    std::uint32_t leading_byte_offset = 0;  // LBO
    std::uint32_t stride_byte_offset = 0;   // SBO
    int base_offset = 0;                    // 0..7
    TmaSwizzle swizzle = TmaSwizzle::None;
    constexpr bool operator==(const SmemDescriptor&) const = default;
};

// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4
TS_HOST_DEVICE constexpr std::uint64_t descriptor_field(std::uint32_t bytes) { return (bytes & 0x3FFFFu) >> 4; }

TS_HOST_DEVICE constexpr int descriptor_swizzle_code(TmaSwizzle mode) {
    switch (mode) {
        case TmaSwizzle::B128: return 1;
        case TmaSwizzle::B64: return 2;
        case TmaSwizzle::B32: return 3;
        default: return 0;
    }
}
TS_HOST_DEVICE constexpr TmaSwizzle swizzle_of_descriptor_code(int code) {
    switch (code & 3) {
        case 1: return TmaSwizzle::B128;
        case 2: return TmaSwizzle::B64;
        case 3: return TmaSwizzle::B32;
        default: return TmaSwizzle::None;
    }
}

TS_HOST_DEVICE constexpr std::uint64_t encode_descriptor(SmemDescriptor d) {
    return descriptor_field(d.start_address) | descriptor_field(d.leading_byte_offset) << 16 |
           descriptor_field(d.stride_byte_offset) << 32 | static_cast<std::uint64_t>(d.base_offset & 7) << 49 |
           static_cast<std::uint64_t>(descriptor_swizzle_code(d.swizzle)) << 62;
}
// The fields back, in bytes: exact for addresses and offsets below 2^18 that are multiples of 16.
TS_HOST_DEVICE constexpr SmemDescriptor decode_descriptor(std::uint64_t bits) {
    return {static_cast<std::uint32_t>(bits & 0x3FFF) << 4, static_cast<std::uint32_t>((bits >> 16) & 0x3FFF) << 4,
            static_cast<std::uint32_t>((bits >> 32) & 0x3FFF) << 4, static_cast<int>((bits >> 49) & 7),
            swizzle_of_descriptor_code(static_cast<int>(bits >> 62))};
}

// The base offset: 0 when the swizzle's repeating pattern starts on its boundary (1024, 512, 256
// bytes for 128B, 64B, 32B), else (pattern start address >> 7) & 7. The rungs align every tile to
// 1024 bytes, so theirs is 0.
TS_HOST_DEVICE constexpr int descriptor_base_offset(TmaSwizzle mode, std::uint32_t pattern_start) {
    if (mode == TmaSwizzle::None || pattern_start % static_cast<std::uint32_t>(swizzle_atom_bytes(mode)) == 0) return 0;
    return static_cast<int>((pattern_start >> 7) & 7);
}

// One wgmma reads 32 bytes of K (16 BF16 or FP16, 8 TF32) from each of A and B.
inline constexpr int kWgmmaKBytes = 32;

// The descriptor for K step `k_step` (0, 1, ...: elements [16·k_step, 16·k_step + 16) for 16-bit
// types) of a tile laid out by tma_tile_offset(mode, rows, ...) from `tile_start` (aligned to the
// mode's atom). K-major: the tile is `rows` (M of A or N of B) × K, K contiguous. Swizzled, a K
// step inside a span only moves the start address on by 32 bytes: the hardware applies the
// swizzle to the address bits, so the rows below follow the same XOR pattern TMA wrote.
TS_HOST_DEVICE constexpr SmemDescriptor k_major_descriptor(TmaSwizzle mode, int rows, std::uint32_t tile_start,
                                                           int k_step) {
    const int span = swizzle_span_bytes(mode);
    const int k_bytes = k_step * kWgmmaKBytes;
    const std::uint32_t start =
        tile_start + static_cast<std::uint32_t>((k_bytes / span) * rows * span + k_bytes % span);
    if (mode == TmaSwizzle::None)  // core matrices: 8 rows × 16 bytes, 128 bytes each
        return {start, static_cast<std::uint32_t>(rows * 16), 128u, 0, mode};
    return {start, 16u, static_cast<std::uint32_t>(8 * span), descriptor_base_offset(mode, tile_start), mode};
}

// MN-major: the tile is K rows × `mn` (M of A or N of B) contiguous, as TileScope stores B (K×N,
// row-major), with wgmma's transpose flag for that operand set. A K step is 16 rows of the tile.
TS_HOST_DEVICE constexpr SmemDescriptor mn_major_descriptor(TmaSwizzle mode, int k_rows, std::uint32_t tile_start,
                                                            int k_step) {
    const int span = swizzle_span_bytes(mode);
    const std::uint32_t start = tile_start + static_cast<std::uint32_t>(k_step * kWgmmaK * span);
    const auto slab = static_cast<std::uint32_t>(k_rows * span);  // one span-wide column of the tile
    if (mode == TmaSwizzle::None) return {start, 128u, slab, 0, mode};
    return {start, slab, static_cast<std::uint32_t>(8 * span), descriptor_base_offset(mode, tile_start), mode};
}

// Where the canonical layout a descriptor describes puts element (row, col) of the operand one
// wgmma reads, in bytes, before the swizzle (add to nothing else: start_address is included).
// K-major: row < 64 (A) or N (B), col < 16 along K. MN-major: row < 16 along K, col < 64 or N.
// The tests compare this, swizzled, with where TMA wrote the element.
TS_HOST_DEVICE constexpr std::uint32_t canonical_k_major_offset(SmemDescriptor d, int row, int col, int element_bytes) {
    const int t = 16 / element_bytes;  // T: elements per 16 bytes
    const int s = swizzle_span_bytes(d.swizzle) / 16;
    const int r0 = row % 8, r1 = row / 8, c0 = col % t, c1 = col / t;
    const std::uint32_t elements_in = d.swizzle == TmaSwizzle::None
                                          ? static_cast<std::uint32_t>(r0 * t + c0)
                                          : static_cast<std::uint32_t>(r0 * s * t + c0 + c1 * t);
    const std::uint32_t strided = d.swizzle == TmaSwizzle::None ? r1 * d.stride_byte_offset + c1 * d.leading_byte_offset
                                                                : r1 * d.stride_byte_offset;
    return d.start_address + elements_in * static_cast<std::uint32_t>(element_bytes) + strided;
}
TS_HOST_DEVICE constexpr std::uint32_t canonical_mn_major_offset(SmemDescriptor d, int k, int mn, int element_bytes) {
    const int t = 16 / element_bytes;
    const int s = swizzle_span_bytes(d.swizzle) / 16;
    const int k0 = k % 8, k1 = k / 8;
    if (d.swizzle == TmaSwizzle::None) {  // ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
        const int m0 = mn % t, m2 = mn / t;
        return d.start_address + static_cast<std::uint32_t>((m0 + k0 * t) * element_bytes) + m2 * d.stride_byte_offset +
               k1 * d.leading_byte_offset;
    }
    const int m01 = mn % (s * t), m2 = mn / (s * t);  // ((T,s,m),(8,k)):((1,T,LBO),(sT,SBO))
    return d.start_address + static_cast<std::uint32_t>((m01 + k0 * s * t) * element_bytes) +
           m2 * d.leading_byte_offset + k1 * d.stride_byte_offset;
}

}  // namespace ts::model
