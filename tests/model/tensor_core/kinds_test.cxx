// The tensor-core rungs as kinds of kernel: names, types and what the model says of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <iterator>
#include <string>

#include "model/kernel_config.hpp"
#include "model/ladder_rungs.hpp"
#include "model/problem.hpp"
#include "model/tensor_core/mma.hpp"
#include "model/tensor_core/descriptor.hpp"
#include "model/tensor_core/pipeline.hpp"

namespace {

using ts::model::Dtype;
using ts::model::KernelKind;

TEST(TensorCoreKinds, NamesParseBackAndFollowTheFloatLadder) {
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        EXPECT_EQ(ts::model::parse_kernel(ts::model::kernel_name(kind)), kind);
        EXPECT_TRUE(ts::model::is_tensor_core(kind));
        EXPECT_FALSE(ts::model::is_ladder(kind));
        EXPECT_FALSE(ts::model::is_modelled(kind)) << "the CUDA-core views do not draw fragments";
        EXPECT_NE(std::find(std::begin(ts::model::kAllKernelKinds), std::end(ts::model::kAllKernelKinds), kind),
                  std::end(ts::model::kAllKernelKinds));
        EXPECT_GT(kind, KernelKind::Tuned);
        EXPECT_LT(kind, KernelKind::Cublas);
    }
    EXPECT_EQ(ts::model::kernel_name(KernelKind::WarpSpecialized), "warp-specialized");
    EXPECT_FALSE(ts::model::is_tensor_core(KernelKind::Cublas));
    EXPECT_TRUE(ts::model::needs_sm90a(KernelKind::Wgmma));
    EXPECT_FALSE(ts::model::needs_sm90a(KernelKind::Mma));
}

TEST(TensorCoreKinds, TypesGoWithTheirKernels) {
    EXPECT_EQ(ts::model::parse_dtype("bf16"), Dtype::BFloat16);
    EXPECT_EQ(ts::model::parse_dtype("bfloat16"), Dtype::BFloat16);
    EXPECT_EQ(ts::model::parse_dtype("half"), Dtype::Float16);
    EXPECT_EQ(ts::model::dtype_name(Dtype::Float16), "fp16");
    EXPECT_EQ(ts::model::dtype_size(Dtype::BFloat16), 2u);
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        if (ts::model::fp8_rung_scaling(kind)) {  // the FP8 rungs: e4m3 alone, each with its scales
            EXPECT_FALSE(ts::model::dtype_unsupported(kind, Dtype::Fp8E4M3));
            const auto why = ts::model::dtype_unsupported(kind, Dtype::BFloat16);
            ASSERT_TRUE(why);
            EXPECT_NE(why->find("fp8 (e4m3) inputs only"), std::string::npos) << *why;
            continue;
        }
        EXPECT_FALSE(ts::model::dtype_unsupported(kind, Dtype::BFloat16));
        EXPECT_FALSE(ts::model::dtype_unsupported(kind, Dtype::Float16));
        const auto why = ts::model::dtype_unsupported(kind, Dtype::Float32);
        ASSERT_TRUE(why);
        EXPECT_NE(why->find("bf16 or fp16"), std::string::npos) << *why;
    }
    EXPECT_FALSE(ts::model::dtype_unsupported(KernelKind::Cublas, Dtype::BFloat16));
    const auto why = ts::model::dtype_unsupported(KernelKind::Tiled, Dtype::BFloat16);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("tensor-core"), std::string::npos) << *why;
    ts::model::Problem p{100, 100, 100, 1, Dtype::BFloat16};
    EXPECT_EQ(p.total_bytes(), 3 * 100 * 100 * 2);
}

// The rungs' shapes fit one block of an H100 or H200 (227 KiB of shared memory a block).
TEST(TensorCoreKinds, RungShapesFitAHopperBlock) {
    constexpr int kOptinShared = 227 * 1024;
    EXPECT_LE(ts::model::mma_shared_bytes(ts::model::kWmmaShape), 48 * 1024);
    EXPECT_LE(ts::model::mma_shared_bytes(ts::model::kMmaShape), 48 * 1024);
    EXPECT_LE(ts::model::wgmma_shared_bytes(ts::model::kWgmmaShape) + 1024, kOptinShared);
    EXPECT_LE(ts::model::wgmma_shared_bytes(ts::model::kWarpSpecializedShape) + 1024, kOptinShared);
    EXPECT_EQ(ts::model::kWarpSpecializedShape.threads(), 384);
    EXPECT_EQ(ts::model::kWarpSpecializedShape.accumulator_registers(), 128);
    EXPECT_EQ(ts::model::kMmaShape.accumulator_registers(), 64);
}

// tc-tuned's candidates: 18's shape first (the fallback), then shapes that each compile to the same
// kernel: valid, within a Hopper block's shared memory and registers, no two alike, and each a line
// the tuner can print.
TEST(TensorCoreKinds, TcTunedCandidatesAreRunnableShapes) {
    using ts::model::kTcTunedCandidates;
    EXPECT_TRUE(ts::model::is_tuned(KernelKind::TcTuned));
    EXPECT_TRUE(ts::model::needs_sm90a(KernelKind::TcTuned));
    EXPECT_EQ(ts::model::tuned_candidate_count(KernelKind::TcTuned), ts::model::kTcTunedCandidateCount);
    EXPECT_EQ(ts::model::tuned_candidate_count(KernelKind::Persistent), 0);
    EXPECT_EQ(kTcTunedCandidates[0], ts::model::kPersistentShape);
    std::set<std::string> described;
    for (int v = 0; v < ts::model::kTcTunedCandidateCount; ++v) {
        const ts::model::WgmmaShape& s = kTcTunedCandidates[v];
        SCOPED_TRACE(v);
        EXPECT_TRUE(s.valid());
        EXPECT_TRUE(s.producer && s.c_staged && s.swap_ab) << "18's kernel: a producer, staged C, swapped operands";
        EXPECT_TRUE(s.wgmma_n == 128 || s.wgmma_n == 256) << "the wgmma forms the kernel is generated for";
        EXPECT_LE(ts::model::wgmma_shared_bytes(s) + 1024, 227 * 1024);
        EXPECT_TRUE(ts::model::setmaxnreg_fits(s, 40, 232));
        EXPECT_EQ(ts::model::empty_arrivals(s), s.consumers * s.cluster_m);
        described.insert(ts::model::describe_candidate(KernelKind::TcTuned, v));
        for (int w = 0; w < v; ++w) EXPECT_FALSE(kTcTunedCandidates[w] == s) << "same as candidate " << w;
    }
    EXPECT_EQ(described.size(), static_cast<std::size_t>(ts::model::kTcTunedCandidateCount));
    EXPECT_EQ(ts::model::describe_candidate(KernelKind::TcTuned, 1), "128×128×64, 5 stages, clusters of 2");
    EXPECT_EQ(ts::model::describe_candidate(KernelKind::TcTuned, 3), "128×128×64, 5 stages, no cluster");
    EXPECT_EQ(ts::model::describe_candidate(KernelKind::TcTuned, ts::model::kTcTunedCandidateCount), "");
    EXPECT_EQ(ts::model::describe(ts::model::KernelConfig{.kind = KernelKind::TcTuned, .variant = 2}), "tc-tuned #2");
    EXPECT_EQ(ts::model::describe(ts::model::KernelConfig{.kind = KernelKind::TcTuned}), "tc-tuned");
    // The model draws an unresolved tc-tuned as candidate 0, and each candidate's own tile.
    EXPECT_EQ(ts::model::tc_block_tile({.kind = KernelKind::TcTuned}).bn, 256);
    EXPECT_EQ(ts::model::tc_block_tile({.kind = KernelKind::TcTuned, .variant = 1}).bn, 128);
    EXPECT_EQ(ts::model::tc_block_tile({.kind = KernelKind::TcTuned, .variant = 3}).cluster_m, 1);
}

// A persistent grid's order visits every cluster tile once, and the tiles in flight together
// (consecutive indices) stay within a group of rows.
TEST(PersistentOrder, EveryTileOnceGroupedByRows) {
    for (const auto [rows, cols, batches] : {std::array{1, 1, 1}, std::array{3, 5, 2}, std::array{32, 32, 1},
                                             std::array{17, 9, 3}, std::array{8, 1, 1}}) {
        std::set<std::array<int, 3>> seen;
        const int tiles = rows * cols * batches;
        for (int i = 0; i < tiles; ++i) {
            const ts::model::ClusterTile t = ts::model::persistent_tile(i, rows, cols, ts::model::kPersistentGroupRows);
            ASSERT_GE(t.cluster_row, 0);
            ASSERT_LT(t.cluster_row, rows);
            ASSERT_GE(t.col, 0);
            ASSERT_LT(t.col, cols);
            ASSERT_LT(t.batch, batches);
            EXPECT_TRUE(seen.insert({t.batch, t.cluster_row, t.col}).second) << "tile " << i << " twice";
        }
        EXPECT_EQ(static_cast<int>(seen.size()), tiles);
    }
    // 32 × 32 cluster tiles: the first 66 (an H100's clusters) span 8 rows and 9 columns.
    std::set<int> rows_in_flight, cols_in_flight;
    for (int i = 0; i < 66; ++i) {
        const auto t = ts::model::persistent_tile(i, 32, 32, ts::model::kPersistentGroupRows);
        rows_in_flight.insert(t.cluster_row);
        cols_in_flight.insert(t.col);
    }
    EXPECT_EQ(rows_in_flight.size(), 8u);
    EXPECT_EQ(cols_in_flight.size(), 9u);
    EXPECT_EQ(ts::model::cluster_rows_of(ts::model::kPersistentShape, 4099), 17) << "256 rows a cluster tile";
    EXPECT_EQ(ts::model::block_cols_of(ts::model::kPersistentShape, 4095), 16);
}

// A kernel adds a_descriptor_step / b_descriptor_step (and a_slice_step) to the (0, 0) descriptor:
// the same bits as the whole computation, for every stage, K slice, M slice and consumer of the
// Hopper rungs' shapes, 18's swapped operands included.
TEST(DescriptorSteps, SumsEqualTheWholeComputation) {
    using namespace ts::model;
    for (const WgmmaShape s : {kWgmmaShape, kWarpSpecializedShape, kPersistentShape})
        for (const std::uint32_t base : {0u, 1024u, 7168u}) {
            for (int consumer = 0; consumer < s.consumers; ++consumer)
                for (int stage = 0; stage < s.stages; ++stage)
                    for (int ks = 0; ks < s.k_slices(); ++ks)
                        for (int ms = 0; ms < s.m_slices(); ++ms) {
                            EXPECT_EQ(encode_descriptor(wgmma_a_descriptor(s, base, 0, consumer, 0, 0)) +
                                          a_descriptor_step(s, stage, ks) + a_slice_step(s, ms),
                                      encode_descriptor(wgmma_a_descriptor(s, base, stage, consumer, ms, ks)));
                            EXPECT_EQ(encode_descriptor(wgmma_b_descriptor(s, base, 0, 0, 0)) +
                                          b_descriptor_step(s, stage, ks),
                                      encode_descriptor(wgmma_b_descriptor(s, base, stage, 0, ks)));
                        }
            EXPECT_LT(base + wgmma_shared_bytes(s), 1u << 18) << "start addresses fit the 14 bits";
        }
}

}  // namespace
