// The wgmma shared-memory descriptor: the bit fields worked by hand, encode and decode inverse to
// each other, the canonical layouts equal to the PTX ISA's worked examples, and the descriptors of
// a TMA-written tile pointing at exactly the bytes TMA wrote, K step by K step.
#include <gtest/gtest.h>

#include <cstdint>

#include "model/tensor_core/descriptor.hpp"

namespace ts::model {
namespace {

constexpr TmaSwizzle kDescriptorModes[] = {TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128};

// A 128×64 BF16 tile of A under 128B swizzle at shared address 0x400 (1024), K step 0:
//   start 1024 >> 4 = 64 = 0x40                    → bits 0–13:  0x0000000000000040
//   LBO unused for swizzled K-major, "assumed 1":
//       16 bytes >> 4 = 1                           → bits 16–29: 0x0000000000010000
//   SBO: 8 rows of 128 bytes = 1024 >> 4 = 64       → bits 32–45: 0x0000004000000000
//   base offset 0 (1024 is on the 1024-byte boundary)
//   swizzle 128B = 1                                → bits 62–63: 0x4000000000000000
//   total 0x4000004000010040
static_assert(encode_descriptor(k_major_descriptor(TmaSwizzle::B128, 128, 0x400, 0)) == 0x4000004000010040ull);
// K step 1 starts 32 bytes (16 BF16) further along the same rows: 1056 >> 4 = 66 = 0x42.
static_assert(encode_descriptor(k_major_descriptor(TmaSwizzle::B128, 128, 0x400, 1)) == 0x4000004000010042ull);

TEST(TcDescriptor, FieldsSitWhereThePtxIsaPutsThem) {
    const SmemDescriptor d{.start_address = 0x3FFF0,
                           .leading_byte_offset = 0x20,
                           .stride_byte_offset = 0x400,
                           .base_offset = 5,
                           .swizzle = TmaSwizzle::B32};
    const std::uint64_t bits = encode_descriptor(d);
    EXPECT_EQ(bits & 0x3FFF, 0x3FFFu);        // 0x3FFF0 >> 4
    EXPECT_EQ((bits >> 14) & 3, 0u);          // bits 14–15 unused
    EXPECT_EQ((bits >> 16) & 0x3FFF, 2u);     // 0x20 >> 4
    EXPECT_EQ((bits >> 30) & 3, 0u);          // bits 30–31 unused
    EXPECT_EQ((bits >> 32) & 0x3FFF, 0x40u);  // 0x400 >> 4
    EXPECT_EQ((bits >> 46) & 7, 0u);          // bits 46–48 unused on sm_90
    EXPECT_EQ((bits >> 49) & 7, 5u);
    EXPECT_EQ((bits >> 52) & 0x3FF, 0u);  // bits 52–61 unused
    EXPECT_EQ(bits >> 62, 3u);            // 32B
    // matrix-descriptor-encode keeps 18 address bits: 0x40010 encodes as 0x10 does.
    EXPECT_EQ(descriptor_field(0x40010), descriptor_field(0x10));
    // The swizzle codes: 0 none, 1 128B, 2 64B, 3 32B.
    EXPECT_EQ(descriptor_swizzle_code(TmaSwizzle::None), 0);
    EXPECT_EQ(descriptor_swizzle_code(TmaSwizzle::B128), 1);
    EXPECT_EQ(descriptor_swizzle_code(TmaSwizzle::B64), 2);
    EXPECT_EQ(descriptor_swizzle_code(TmaSwizzle::B32), 3);
}

TEST(TcDescriptor, DecodeInvertsEncode) {
    for (TmaSwizzle mode : kDescriptorModes)
        for (int base = 0; base < 8; ++base)
            for (std::uint32_t v = 0; v < (1u << 18); v += 16 * 37) {
                const SmemDescriptor d{v, (v * 7) & 0x3FFF0u, (v * 13) & 0x3FFF0u, base, mode};
                EXPECT_EQ(decode_descriptor(encode_descriptor(d)), d);
            }
    // And every 64-bit pattern with only the defined bits set comes back unchanged.
    for (std::uint64_t bits : {0x4000004000010040ull, 0xC00E3FFF3FFF3FFFull, 0x8002000100020003ull})
        EXPECT_EQ(encode_descriptor(decode_descriptor(bits)), bits);
}

TEST(TcDescriptor, BaseOffsetFollowsTheIsaFormula) {
    // 0 on the pattern's boundary (1024, 512, 256 bytes); else (start >> 7) & 7.
    EXPECT_EQ(descriptor_base_offset(TmaSwizzle::B128, 0x800), 0);
    EXPECT_EQ(descriptor_base_offset(TmaSwizzle::B128, 0x480), 1);  // 1152 >> 7 = 9, & 7 = 1
    EXPECT_EQ(descriptor_base_offset(TmaSwizzle::B128, 0x700), 6);  // 1792 >> 7 = 14 → 6
    EXPECT_EQ(descriptor_base_offset(TmaSwizzle::B64, 0x600), 0);   // 1536 = 3·512
    EXPECT_EQ(descriptor_base_offset(TmaSwizzle::B32, 0x180), 3);   // 384 >> 7 = 3
    EXPECT_EQ(descriptor_base_offset(TmaSwizzle::None, 0x480), 0);  // not used without swizzle
}

// ---- The PTX ISA's worked examples ("Canonical Layouts") -----------------------------------------
//
// Each gives an exact layout in elements and the LBO and SBO that describe it; the canonical
// offsets with those LBO and SBO must give the same element offsets.

TEST(TcDescriptor, KMajorUnswizzledTf32Example) {
    // ((8,2),(4,4)):((4,32),(1,64)), LBO = 64·4 = 256 bytes (encoded 16), SBO = 32·4 = 128 (8).
    const SmemDescriptor d{0, 256, 128, 0, TmaSwizzle::None};
    EXPECT_EQ(descriptor_field(d.leading_byte_offset), 16u);
    EXPECT_EQ(descriptor_field(d.stride_byte_offset), 8u);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            const int elements = 4 * (r % 8) + 32 * (r / 8) + (c % 4) + 64 * (c / 4);
            EXPECT_EQ(canonical_k_major_offset(d, r, c, 4), static_cast<std::uint32_t>(4 * elements)) << r << "," << c;
        }
    // k_major_descriptor gives the same strides for a 16-row tile in 16-byte slabs.
    const SmemDescriptor ours = k_major_descriptor(TmaSwizzle::None, 16, 0, 0);
    EXPECT_EQ(ours.leading_byte_offset, 256u);
    EXPECT_EQ(ours.stride_byte_offset, 128u);
}

TEST(TcDescriptor, KMajor32ByteSwizzleTf32Example) {
    // ((8,2),(4,4)):((8,64),(1,4)) then Swizzle<1,4,3>; SBO = 64·4 = 256 (encoded 16); LBO unused
    // ("1, assumed"). One wgmma k8 reads 8 TF32 = 32 bytes: columns 0–7.
    const SmemDescriptor d{0, 16, 256, 0, TmaSwizzle::B32};
    EXPECT_EQ(descriptor_field(d.stride_byte_offset), 16u);
    EXPECT_EQ(descriptor_field(d.leading_byte_offset), 1u);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 8; ++c) {
            const int elements = 8 * (r % 8) + 64 * (r / 8) + (c % 4) + 4 * (c / 4);
            EXPECT_EQ(canonical_k_major_offset(d, r, c, 4), static_cast<std::uint32_t>(4 * elements));
        }
    const SmemDescriptor ours = k_major_descriptor(TmaSwizzle::B32, 16, 0, 0);
    EXPECT_EQ(ours.stride_byte_offset, 256u);
    EXPECT_EQ(ours.leading_byte_offset, 16u);
}

TEST(TcDescriptor, MnMajorBf16Examples) {
    struct Example {
        TmaSwizzle mode;
        std::uint32_t lbo, sbo;   // bytes
        int s;                    // 16-byte chunks per swizzled row along MN
        int mn_stride, k_stride;  // element strides of the repeats (m, k) in the exact layout
    };
    // none: ((8,1,2),(8,2)):((1,8,64),(8,128)),     LBO 128·2 = 256 (16), SBO 64·2 = 128 (8)
    // 32B:  ((8,2,2),(8,2)):((1,8,128),(16,256)),   LBO 128·2 = 256 (16), SBO 256·2 = 512 (32)
    // 64B:  ((8,4,2),(8,2)):((1,8,256),(32,512)),   LBO 256·2 = 512 (32), SBO 512·2 = 1024 (64)
    const Example examples[] = {{TmaSwizzle::None, 256, 128, 1, 64, 128},
                                {TmaSwizzle::B32, 256, 512, 2, 128, 256},
                                {TmaSwizzle::B64, 512, 1024, 4, 256, 512}};
    for (const Example& e : examples) {
        const SmemDescriptor d{0, e.lbo, e.sbo, 0, e.mode};
        const int atom_mn = 8 * e.s;  // elements along MN in one atom row
        for (int k = 0; k < 16; ++k)
            for (int mn = 0; mn < 2 * atom_mn; ++mn) {
                const int elements =
                    mn % atom_mn + e.mn_stride * (mn / atom_mn) + atom_mn * (k % 8) + e.k_stride * (k / 8);
                EXPECT_EQ(canonical_mn_major_offset(d, k, mn, 2), static_cast<std::uint32_t>(2 * elements))
                    << "mode " << static_cast<int>(e.mode) << " (" << k << ", " << mn << ")";
            }
    }
}

// ---- Descriptors of TMA-written tiles ----------------------------------------------------------

// For every mode, every K step of the tile and every element one wgmma reads: the address the
// descriptor's canonical layout names, swizzled as the hardware does on the address, is where TMA
// wrote that element.
TEST(TcDescriptor, KMajorDescriptorsPointWhereTmaWrote) {
    constexpr std::uint32_t tile_start = 3 * 1024;
    for (TmaSwizzle mode : kDescriptorModes)
        for (int rows : {64, 128, 256})
            for (int k_width : {64, 128}) {  // BK in elements: one or more spans
                for (int k_step = 0; k_step < k_width / kWgmmaK; ++k_step) {
                    const SmemDescriptor d = k_major_descriptor(mode, rows, tile_start, k_step);
                    ASSERT_EQ(d.start_address % 16, 0u);
                    for (int r = 0; r < rows; ++r)
                        for (int c = 0; c < kWgmmaK; ++c) {
                            const auto canonical = static_cast<int>(canonical_k_major_offset(d, r, c, 2));
                            const int tma =
                                static_cast<int>(tile_start) + tma_tile_offset(mode, rows, r, k_step * kWgmmaK + c, 2);
                            ASSERT_EQ(swizzle_bytes(mode, canonical), tma)
                                << "mode " << static_cast<int>(mode) << " rows " << rows << " k step " << k_step << " ("
                                << r << ", " << c << ")";
                        }
                }
            }
}

TEST(TcDescriptor, MnMajorDescriptorsPointWhereTmaWrote) {
    constexpr std::uint32_t tile_start = 5 * 1024;
    for (TmaSwizzle mode : kDescriptorModes)
        for (int k_rows : {32, 64})
            for (int mn : {64, 128, 256}) {
                for (int k_step = 0; k_step < k_rows / kWgmmaK; ++k_step) {
                    const SmemDescriptor d = mn_major_descriptor(mode, k_rows, tile_start, k_step);
                    for (int k = 0; k < kWgmmaK; ++k)
                        for (int j = 0; j < mn; ++j) {
                            const auto canonical = static_cast<int>(canonical_mn_major_offset(d, k, j, 2));
                            const int tma = static_cast<int>(tile_start) +
                                            tma_tile_offset(mode, k_rows, k_step * kWgmmaK + k, j, 2);
                            ASSERT_EQ(swizzle_bytes(mode, canonical), tma)
                                << "mode " << static_cast<int>(mode) << " k rows " << k_rows << " (" << k << ", " << j
                                << ")";
                        }
                }
            }
}

// Checks that the comparison above can fail: K-major strides read as MN-major do not match.
TEST(TcDescriptor, WrongStridesAreCaught) {
    const SmemDescriptor d = k_major_descriptor(TmaSwizzle::B128, 64, 0, 0);
    SmemDescriptor wrong = d;
    wrong.stride_byte_offset = 512;  // as if rows were 64 bytes
    int mismatches = 0;
    for (int r = 0; r < 64; ++r)
        mismatches += swizzle_bytes(TmaSwizzle::B128, static_cast<int>(canonical_k_major_offset(wrong, r, 0, 2))) !=
                      tma_tile_offset(TmaSwizzle::B128, 64, r, 0, 2);
    EXPECT_GT(mismatches, 0);
}

TEST(TcDescriptor, CanonicalKMajorValuesForBf16) {
    // K-major BF16 tiles of 128 rows, per mode: LBO and SBO in bytes (and encoded).
    //  none: core matrices 8 rows × 16 bytes; along K the next one is a whole 16-byte slab of 128
    //        rows further: LBO = 128·16 = 2048 (128); along M the next 8 rows: SBO = 128 (8).
    //  32B:  SBO = 8 rows × 32 bytes = 256 (16); LBO unused, 16 (1).
    //  64B:  SBO = 8 × 64 = 512 (32).
    //  128B: SBO = 8 × 128 = 1024 (64).
    const struct {
        TmaSwizzle mode;
        std::uint32_t lbo, sbo;
    } expected[] = {{TmaSwizzle::None, 2048, 128},
                    {TmaSwizzle::B32, 16, 256},
                    {TmaSwizzle::B64, 16, 512},
                    {TmaSwizzle::B128, 16, 1024}};
    for (const auto& e : expected) {
        const SmemDescriptor d = k_major_descriptor(e.mode, 128, 0, 0);
        EXPECT_EQ(d.leading_byte_offset, e.lbo);
        EXPECT_EQ(d.stride_byte_offset, e.sbo);
        EXPECT_EQ(d.base_offset, 0);
    }
    // K step 2 of a 128-row tile: 64 bytes of K in. 128B: inside the span, start + 64. 32B: two
    // spans in, start + 2·(128 rows · 32 bytes) = 8192. none: four 16-byte slabs in, 4·2048 = 8192.
    EXPECT_EQ(k_major_descriptor(TmaSwizzle::B128, 128, 0, 2).start_address, 64u);
    EXPECT_EQ(k_major_descriptor(TmaSwizzle::B64, 128, 0, 2).start_address, 128u * 64u);
    EXPECT_EQ(k_major_descriptor(TmaSwizzle::B32, 128, 0, 2).start_address, 8192u);
    EXPECT_EQ(k_major_descriptor(TmaSwizzle::None, 128, 0, 2).start_address, 8192u);
}

}  // namespace
}  // namespace ts::model
