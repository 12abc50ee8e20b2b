// The tensor-core rungs as kinds of kernel: names, types and what the model says of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include "model/kernel_config.hpp"
#include "model/problem.hpp"
#include "model/tc_mma.hpp"
#include "model/tc_pipeline.hpp"

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

}  // namespace
