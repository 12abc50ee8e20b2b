// Every kernel against the CPU reference on a real GPU, through run_request: sizes that are
// not multiples of the tile or block (so ghost threads and padded tiles occur), every tile
// width the brief names, several block shapes, batches, and the launches a GPU refuses.
#include <gtest/gtest.h>

#include <iostream>
#include <tuple>
#include <utility>

#include "gpu/runner.hpp"
#include "model/launch_geometry.hpp"

using namespace ts::gpu;
using namespace ts::model;

namespace ts::model {
// Readable parameter names in test output.
void PrintTo(const KernelConfig& config, std::ostream* out) { *out << describe(config); }
void PrintTo(KernelKind kind, std::ostream* out) { *out << kernel_name(kind); }
}  // namespace ts::model

namespace {

const DeviceInfo& device() {
    static const DeviceInfo info = probe_device();
    return info;
}

#define SKIP_WITHOUT_GPU()                                                                 \
    do {                                                                                   \
        if (!device().usable) GTEST_SKIP() << "no usable CUDA device: " << device().why_not; \
    } while (0)

struct Size {
    std::int64_t m, n, k, batch;
};

// No size is a multiple of the larger tiles or blocks, so every run has ghost threads and
// padded tiles; sides of 1 and K = 1025 stress the edges.
constexpr Size kSizes[] = {
    {37, 45, 29, 1}, {100, 1, 67, 1}, {1, 133, 250, 1}, {257, 129, 65, 1}, {33, 47, 21, 3}, {1, 1, 1025, 1},
};

RunRequest make_request(const KernelConfig& kernel, const Size& size) {
    RunRequest request;
    request.kernel = kernel;
    request.problem.m = size.m;
    request.problem.n = size.n;
    request.problem.k = size.k;
    request.problem.batch = size.batch;
    request.warmup_launches = 1;
    request.timed_launches = 2;
    request.seed = static_cast<std::uint64_t>(size.m * 1000003 + size.n * 1009 + size.k);
    return request;
}

KernelConfig tiled(int tile) {
    KernelConfig config;
    config.kind = KernelKind::Tiled;
    config.tile = tile;
    return config;
}

KernelConfig naive(KernelKind kind, int block_x, int block_y) {
    KernelConfig config;
    config.kind = kind;
    config.block_x = block_x;
    config.block_y = block_y;
    return config;
}

void expect_matches_reference(const KernelConfig& kernel) {
    for (const Size& size : kSizes) {
        const RunResult result = run_request(make_request(kernel, size));
        SCOPED_TRACE(describe(kernel) + " on " + std::to_string(size.m) + "×" + std::to_string(size.n) + "×" +
                     std::to_string(size.k) + " batch " + std::to_string(size.batch));
        ASSERT_TRUE(result.ok) << result.error;
        EXPECT_TRUE(result.checked);
        EXPECT_TRUE(result.check_passed) << result.check_summary;
        EXPECT_EQ(result.mismatches, 0);
        EXPECT_EQ(result.samples_ms.size(), 2u);
        EXPECT_GT(result.median_ms, 0.0);
    }
}

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

class TiledKernel : public ::testing::TestWithParam<int> {};

TEST_P(TiledKernel, MatchesReference) {
    SKIP_WITHOUT_GPU();
    expect_matches_reference(tiled(GetParam()));
}

// The brief's powers of two, plus odd widths whose tiles never line up with a warp.
INSTANTIATE_TEST_SUITE_P(Tiles, TiledKernel, ::testing::Values(1, 2, 3, 4, 8, 16, 17, 32));

class NaiveKernel : public ::testing::TestWithParam<std::tuple<KernelKind, std::pair<int, int>>> {};

TEST_P(NaiveKernel, MatchesReference) {
    SKIP_WITHOUT_GPU();
    const auto [kind, block] = GetParam();
    expect_matches_reference(naive(kind, block.first, block.second));
}

// Square, tall, wide, a single row or column of threads, and odd sides; all within 1024
// threads.
INSTANTIATE_TEST_SUITE_P(Blocks, NaiveKernel,
                         ::testing::Combine(::testing::Values(KernelKind::Naive, KernelKind::NaiveRowFromX),
                                            ::testing::Values(std::pair{32, 32}, std::pair{16, 16}, std::pair{8, 32},
                                                              std::pair{64, 4}, std::pair{32, 1}, std::pair{1, 64},
                                                              std::pair{3, 5}, std::pair{64, 16})));

TEST(Launch, TooManyThreadsReportsTheModelAndCuda) {
    SKIP_WITHOUT_GPU();
    for (KernelKind kind : {KernelKind::Naive, KernelKind::NaiveRowFromX}) {
        const KernelConfig config = naive(kind, 64, 32);
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
    const RunResult result = run_request(make_request(config, {100, 100, 100, 1}));
    EXPECT_FALSE(result.ok);
    const auto model_says = check_config(config);
    ASSERT_TRUE(model_says.has_value());
    EXPECT_EQ(result.error, *model_says);
}

TEST(Launch, OnlyFloatIsBuilt) {
    SKIP_WITHOUT_GPU();
    RunRequest request = make_request(tiled(16), {16, 16, 16, 1});
    request.problem.dtype = Dtype::Float64;
    const RunResult result = run_request(request);
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.error.find("double"), std::string::npos) << result.error;
}

// 1024³ float, checked, with timings printed for the record. The kernels must be right at
// a size where rounding error has had K = 1024 terms to grow.
class LargeSquare : public ::testing::TestWithParam<KernelConfig> {};

TEST_P(LargeSquare, MatchesReferenceAndIsTimed) {
    SKIP_WITHOUT_GPU();
    RunRequest request = make_request(GetParam(), {1024, 1024, 1024, 1});
    request.warmup_launches = 2;
    request.timed_launches = 10;
    const RunResult result = run_request(request);
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_TRUE(result.check_passed) << result.check_summary;
    EXPECT_EQ(result.samples_ms.size(), 10u);
    std::cout << describe(GetParam()) << " 1024³ float: median " << result.median_ms << " ms, " << result.gflops
              << " GFLOP/s; " << result.check_summary << "\n";
}

INSTANTIATE_TEST_SUITE_P(Kernels, LargeSquare,
                         ::testing::Values(naive(KernelKind::Naive, 32, 32), naive(KernelKind::Naive, 16, 16),
                                           naive(KernelKind::NaiveRowFromX, 32, 32), tiled(8), tiled(16),
                                           tiled(32)));
