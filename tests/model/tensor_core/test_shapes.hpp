// The wgmma shapes the tensor-core pipeline tests run over (tc_pipeline_test, tc_ring_test): every
// rung's shape, shapes the rungs do not use but the model must get right (K-major B, narrower
// swizzles, no swizzle), and tc-tuned's candidates.
#pragma once

#include "model/tensor_core/pipeline.hpp"

namespace ts::model::test_shapes {

// 16: one warpgroup computes 128×128 (two 64-row slices) and its thread 0 issues the copies.
constexpr WgmmaShape kWgmma16{
    .bm = 128, .bn = 128, .bk = 64, .stages = 4, .consumers = 1, .producer = false, .wgmma_n = 128};
// 17: a producer warpgroup and two consumers of 64 rows each, 128×256 tiles.
constexpr WgmmaShape kWarpSpecialized{
    .bm = 128, .bn = 256, .bk = 64, .stages = 4, .consumers = 2, .producer = true, .wgmma_n = 256};
// 18: 17 in clusters of 2 along M, B's tile multicast.
constexpr WgmmaShape kClustered{
    .bm = 128, .bn = 256, .bk = 64, .stages = 4, .consumers = 2, .producer = true, .wgmma_n = 256, .cluster_m = 2};
// B stored N×K (K-major), as cuBLAS's TN and fast.cu use it.
constexpr WgmmaShape kKMajorB{
    .bm = 128, .bn = 256, .bk = 64, .stages = 3, .consumers = 2, .producer = true, .wgmma_n = 128, .b_k_major = true};
// Narrower swizzles: A's 64 (or 32) columns come in several boxes, one per span.
constexpr WgmmaShape kSwizzle64{.bm = 128,
                                .bn = 128,
                                .bk = 64,
                                .stages = 2,
                                .consumers = 2,
                                .producer = true,
                                .wgmma_n = 64,
                                .swizzle = TmaSwizzle::B64};
constexpr WgmmaShape kUnswizzled{.bm = 128,
                                 .bn = 128,
                                 .bk = 32,
                                 .stages = 3,
                                 .consumers = 1,
                                 .producer = false,
                                 .wgmma_n = 128,
                                 .swizzle = TmaSwizzle::None};
// K-major B in clusters of 2: B's 256 rows of N split in halves of 128.
constexpr WgmmaShape kClusteredKMajorB{.bm = 128,
                                       .bn = 256,
                                       .bk = 64,
                                       .stages = 4,
                                       .consumers = 2,
                                       .producer = true,
                                       .wgmma_n = 256,
                                       .b_k_major = true,
                                       .cluster_m = 2};
// 18's operands swapped (Cᵀ = Bᵀ·Aᵀ): each consumer 128 columns of C in two 64-wide slices, all
// 128 rows as wgmma's N.
constexpr WgmmaShape kSwapped{.bm = 128,
                              .bn = 256,
                              .bk = 64,
                              .stages = 3,
                              .consumers = 2,
                              .producer = true,
                              .wgmma_n = 128,
                              .cluster_m = 2,
                              .swap_ab = true};
constexpr WgmmaShape kShapes[] = {kWgmma16,   kWarpSpecialized, kClustered,        kKMajorB,
                                  kSwizzle64, kUnswizzled,      kClusteredKMajorB, kSwapped,
                                  // tc-tuned's 128×128 candidates, in a cluster and alone, 18's alone, and
                                  // 18's with four stages and C a slab at a time
                                  kTcTunedCandidates[1], kTcTunedCandidates[2], kTcTunedCandidates[3], kTcTunedCandidates[4],
                                  // the FP8 rungs': 8-bit elements, 32 of them per wgmma K, both operands K-major
                                  kFp8Shape, kFp8BlocksShape};

static_assert(kWgmma16.valid() && kWarpSpecialized.valid() && kClustered.valid() && kKMajorB.valid() &&
              kSwizzle64.valid() && kUnswizzled.valid() && kClusteredKMajorB.valid());
static_assert(a_boxes(kSwizzle64) == 2 && b_boxes(kSwizzle64) == 4 && a_boxes(kUnswizzled) == 4);
static_assert(!WgmmaShape{.bm = 96}.valid());                           // consumers' rows not whole 64-row slices
static_assert(!WgmmaShape{.wgmma_n = 96, .b_k_major = false}.valid());  // K×N B: N slices not whole 128-byte atoms
static_assert(WgmmaShape{.bn = 192, .wgmma_n = 64}.valid());
static_assert(kSwapped.valid() && kSwapped.m_slices() == 2 && kSwapped.n_slices() == 1);
static_assert(!WgmmaShape{.b_k_major = true, .swap_ab = true}.valid());  // swapping reads B's K×N tile
static_assert(!WgmmaShape{.bm = 128, .bn = 192, .consumers = 2, .swap_ab = true}.valid());  // 96 columns each

}  // namespace ts::model::test_shapes
