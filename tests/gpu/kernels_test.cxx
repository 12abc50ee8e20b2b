// Every kernel in every element type against its reference on a real GPU, through
// run_request: sizes that are not multiples of the tile or block (so ghost threads and
// padded tiles occur), batches (bmm: blockIdx.z), every tile width the brief names,
// several block shapes, cuBLAS, and the launches a GPU refuses.
#include <gtest/gtest.h>

#include <iostream>
#include <tuple>
#include <utility>

#include "support/gpu_skip.hpp"
#include "gpu/runner.hpp"
#include "model/launch_geometry.hpp"
#include "support/problems.hpp"

using namespace ts::gpu;
using namespace ts::model;


namespace {

using ts::testing_support::device;

struct Size {
    std::int64_t m, n, k, batch;
};

// No size is a multiple of the larger tiles or blocks, so every run has ghost threads and
// padded tiles; sides of 1 and K = 1025 stress the edges; three sizes are batched.
constexpr Size kSizes[] = {
    {37, 45, 29, 1}, {100, 1, 67, 1},  {1, 133, 250, 1}, {257, 129, 65, 1},
    {33, 47, 21, 3}, {1, 1, 1025, 1}, {65, 70, 130, 2}, {5, 300, 17, 4},
};

RunRequest make_request(const KernelConfig& kernel, const Size& size, Dtype dtype = Dtype::Float32) {
    RunRequest request;
    request.kernel = kernel;
    request.problem.m = size.m;
    request.problem.n = size.n;
    request.problem.k = size.k;
    request.problem.batch = size.batch;
    request.problem.dtype = dtype;
    request.warmup_launches = 1;
    request.timed_launches = 2;
    request.seed = static_cast<std::uint64_t>(size.m * 1000003 + size.n * 1009 + size.k * 7 + size.batch);
    return request;
}

KernelConfig tiled(int tile) {
    KernelConfig config;
    config.kind = KernelKind::Tiled;
    config.tile = tile;
    return config;
}

KernelConfig blocks(KernelKind kind, int block_x, int block_y = 1) {
    KernelConfig config;
    config.kind = kind;
    config.block_x = block_x;
    config.block_y = block_y;
    return config;
}

KernelConfig cublas() { return blocks(KernelKind::Cublas, 1); }

std::string size_text(const Size& size) {
    return std::to_string(size.m) + "×" + std::to_string(size.n) + "×" + std::to_string(size.k) + " batch " +
           std::to_string(size.batch);
}

void expect_matches_reference(const KernelConfig& kernel, Dtype dtype) {
    for (const Size& size : kSizes) {
        const RunResult result = run_request(make_request(kernel, size, dtype));
        SCOPED_TRACE(describe(kernel) + " " + std::string(dtype_name(dtype)) + " on " + size_text(size));
        ASSERT_TRUE(result.ok) << result.error;
        EXPECT_TRUE(result.checked);
        EXPECT_TRUE(result.check_passed) << result.check_summary;
        EXPECT_EQ(result.mismatches, 0);
        EXPECT_EQ(result.samples_ms.size(), 2u);
        EXPECT_GT(result.median_ms, 0.0);
        if (dtype == Dtype::Int32) {
            EXPECT_EQ(result.max_rel_error, 0.0) << "int32 is exact";
            EXPECT_NE(result.check_summary.find("equal to the exact product"), std::string::npos)
                << result.check_summary;
        }
    }
}

// Skips the calling test when cuBLAS cannot be loaded, saying what was looked for.
#define SKIP_WITHOUT_CUBLAS()                                                                            \
    do {                                                                                                 \
        const RunResult probe = run_request(make_request(cublas(), {2, 2, 2, 1}));                       \
        if (probe.unsupported) GTEST_SKIP() << probe.error;                                              \
    } while (0)

}  // namespace

TEST(Device, ProbeReadsTheRealGpu) {
    SKIP_WITHOUT_GPU();
    const DeviceInfo& info = device();
    EXPECT_FALSE(info.limits.is_preset);
    EXPECT_FALSE(info.limits.name.empty());
    EXPECT_EQ(info.limits.max_threads_per_block, 1024);
    EXPECT_EQ(info.limits.warp_size, 32);
    EXPECT_GT(info.free_memory_bytes, 0);
    EXPECT_FALSE(info.driver_version.empty());
    std::cout << info.limits.name << ", compute capability " << info.limits.compute_major << "."
              << info.limits.compute_minor << ", driver CUDA " << info.driver_version << ", runtime CUDA "
              << info.runtime_version << "\n";
}

class EveryKernel : public ::testing::TestWithParam<std::tuple<KernelConfig, Dtype>> {};

TEST_P(EveryKernel, MatchesReferenceOnSizesNoBlockDivides) {
    SKIP_WITHOUT_GPU();
    const auto [kernel, dtype] = GetParam();
    expect_matches_reference(kernel, dtype);
}

const auto kDtypes = ::testing::Values(Dtype::Int32, Dtype::Float32, Dtype::Float64);

// The brief's powers of two, plus odd widths whose tiles never line up with a warp.
INSTANTIATE_TEST_SUITE_P(Tiled, EveryKernel,
                         ::testing::Combine(::testing::Values(tiled(1), tiled(2), tiled(3), tiled(4), tiled(8),
                                                              tiled(16), tiled(17), tiled(32)),
                                            kDtypes));
// Square, tall, wide, a single row or column of threads, and odd sides; all within 1024
// threads.
INSTANTIATE_TEST_SUITE_P(
    Naive, EveryKernel,
    ::testing::Combine(::testing::Values(blocks(KernelKind::Naive, 32, 32), blocks(KernelKind::Naive, 16, 16),
                                         blocks(KernelKind::Naive, 8, 32), blocks(KernelKind::Naive, 64, 4),
                                         blocks(KernelKind::Naive, 32, 1), blocks(KernelKind::Naive, 1, 64),
                                         blocks(KernelKind::Naive, 3, 5), blocks(KernelKind::Naive, 64, 16)),
                       kDtypes));
INSTANTIATE_TEST_SUITE_P(NaiveRowFromX, EveryKernel,
                         ::testing::Combine(::testing::Values(blocks(KernelKind::NaiveRowFromX, 32, 32),
                                                              blocks(KernelKind::NaiveRowFromX, 16, 16),
                                                              blocks(KernelKind::NaiveRowFromX, 64, 4),
                                                              blocks(KernelKind::NaiveRowFromX, 1, 64),
                                                              blocks(KernelKind::NaiveRowFromX, 3, 5)),
                                            kDtypes));
INSTANTIATE_TEST_SUITE_P(
    PerThread, EveryKernel,
    ::testing::Combine(::testing::Values(blocks(KernelKind::RowPerThread, 1), blocks(KernelKind::RowPerThread, 32),
                                         blocks(KernelKind::RowPerThread, 100), blocks(KernelKind::RowPerThread, 1024),
                                         blocks(KernelKind::ColumnPerThread, 1),
                                         blocks(KernelKind::ColumnPerThread, 32),
                                         blocks(KernelKind::ColumnPerThread, 100),
                                         blocks(KernelKind::ColumnPerThread, 1024)),
                       kDtypes));

class Cublas : public ::testing::TestWithParam<Dtype> {};

TEST_P(Cublas, MatchesReferenceInPureFp32AndFp64) {
    SKIP_WITHOUT_GPU();
    SKIP_WITHOUT_CUBLAS();
    expect_matches_reference(cublas(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(Types, Cublas, ::testing::Values(Dtype::Float32, Dtype::Float64));

TEST(CublasInt32, HasNoLineAndSaysSo) {
    SKIP_WITHOUT_GPU();
    const RunResult result = run_request(make_request(cublas(), {16, 16, 16, 1}, Dtype::Int32));
    EXPECT_FALSE(result.ok);
    EXPECT_TRUE(result.unsupported);
    EXPECT_NE(result.error.find("no cuBLAS line for int32"), std::string::npos) << result.error;
}

// Above 2048³ multiply-adds the floats are checked against cuBLAS in FP64 rather than the
// CPU; int32 stays exact on the CPU.
class AboveCpuLimit : public ::testing::TestWithParam<Dtype> {};

TEST_P(AboveCpuLimit, ChecksAgainstCublasInFp64) {
    SKIP_WITHOUT_GPU();
    const Dtype dtype = GetParam();
    const RunResult result = run_request(make_request(tiled(32), {2111, 2143, 2087, 1}, dtype));
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_TRUE(result.check_passed) << result.check_summary;
    const RunResult probe = run_request(make_request(cublas(), {2, 2, 2, 1}));
    const bool by_cublas = dtype != Dtype::Int32 && !probe.unsupported;
    EXPECT_NE(result.check_summary.find(by_cublas ? "cuBLAS in FP64" : "the CPU reference"), std::string::npos)
        << result.check_summary;
    std::cout << "tiled T=32 2111×2143×2087 " << dtype_name(dtype) << ": " << result.median_ms << " ms; "
              << result.check_summary << "\n";
}

INSTANTIATE_TEST_SUITE_P(Types, AboveCpuLimit, kDtypes);

TEST(Launch, TooManyThreadsReportsTheModelAndCuda) {
    SKIP_WITHOUT_GPU();
    for (const KernelConfig& config :
         {blocks(KernelKind::Naive, 64, 32), blocks(KernelKind::NaiveRowFromX, 64, 32),
          blocks(KernelKind::RowPerThread, 2048), blocks(KernelKind::ColumnPerThread, 2048)}) {
        const RunRequest request = make_request(config, {100, 100, 100, 1});
        const RunResult result = run_request(request);
        SCOPED_TRACE(describe(config));
        EXPECT_FALSE(result.ok);
        // The model's explanation first, then the error CUDA really returned.
        const auto model_says = check_launch(config, request.problem, device().limits);
        ASSERT_TRUE(model_says.has_value());
        EXPECT_NE(result.error.find(*model_says), std::string::npos) << result.error;
        // The launch really happened: the error names it. CUDA 12 calls the refusal
        // cudaErrorInvalidConfiguration; the CUDA 13.0 runtime with a 580 driver was seen to
        // return cudaErrorInvalidValue for the same block.
        EXPECT_NE(result.error.find("CUDA reports: launching " + describe(config)), std::string::npos)
            << result.error;
        const bool refused = result.error.find("(cudaErrorInvalidConfiguration at") != std::string::npos ||
                             result.error.find("(cudaErrorInvalidValue at") != std::string::npos;
        EXPECT_TRUE(refused) << result.error;
    }
    // The failed launch must not poison the next request.
    const RunResult after = run_request(make_request(tiled(16), {64, 64, 64, 1}));
    EXPECT_TRUE(after.ok) << after.error;
    EXPECT_TRUE(after.check_passed) << after.check_summary;
}

TEST(Launch, TileWiderThan32IsTheModelsReason) {
    SKIP_WITHOUT_GPU();
    const KernelConfig config = tiled(64);
    for (Dtype dtype : {Dtype::Int32, Dtype::Float32, Dtype::Float64}) {
        const RunResult result = run_request(make_request(config, {100, 100, 100, 1}, dtype));
        EXPECT_FALSE(result.ok);
        EXPECT_FALSE(result.unsupported) << "a bad tile is the user's to fix, not a missing library";
        const auto model_says = check_config(config);
        ASSERT_TRUE(model_says.has_value());
        EXPECT_EQ(result.error, *model_says);
    }
}

// 1024³, checked, with timings printed for the record. The kernels must be right at a
// size where rounding error has had K = 1024 terms to grow.
class LargeSquare : public ::testing::TestWithParam<std::tuple<KernelConfig, Dtype>> {};

TEST_P(LargeSquare, MatchesReferenceAndIsTimed) {
    SKIP_WITHOUT_GPU();
    const auto [kernel, dtype] = GetParam();
    RunRequest request = make_request(kernel, {1024, 1024, 1024, 1}, dtype);
    request.warmup_launches = 2;
    request.timed_launches = 10;
    const RunResult result = run_request(request);
    if (result.unsupported) GTEST_SKIP() << result.error;
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_TRUE(result.check_passed) << result.check_summary;
    EXPECT_EQ(result.samples_ms.size(), 10u);
    std::cout << describe(kernel) << " 1024³ " << dtype_name(dtype) << ": median " << result.median_ms << " ms, "
              << result.gflops << " GFLOP/s; " << result.check_summary << "\n";
}

INSTANTIATE_TEST_SUITE_P(Float, LargeSquare,
                         ::testing::Combine(::testing::Values(blocks(KernelKind::Naive, 32, 32),
                                                              blocks(KernelKind::Naive, 16, 16),
                                                              blocks(KernelKind::NaiveRowFromX, 32, 32),
                                                              blocks(KernelKind::RowPerThread, 128),
                                                              blocks(KernelKind::ColumnPerThread, 128), tiled(8),
                                                              tiled(16), tiled(32), cublas()),
                                            ::testing::Values(Dtype::Float32)));
INSTANTIATE_TEST_SUITE_P(OtherTypes, LargeSquare,
                         ::testing::Combine(::testing::Values(tiled(32), cublas()),
                                            ::testing::Values(Dtype::Int32, Dtype::Float64)));
