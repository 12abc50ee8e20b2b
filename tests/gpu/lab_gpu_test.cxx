// The latency lab on a real GPU: CUDA's occupancy for every kernel agrees with the model
// fed the compiled kernel's registers, the probed per-SM limits are the device's, and the
// measured roofline peaks are plausible. Each test skips, saying why, without a usable
// CUDA device.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "gpu/runner.hpp"
#include "model/ladder.hpp"
#include "model/launch_geometry.hpp"
#include "model/occupancy.hpp"
#include "model/rung_info.hpp"
#include "support/gpu_skip.hpp"

using namespace ts::gpu;
using namespace ts::model;

namespace {

using ts::testing_support::device;

RunRequest occupancy_request(const KernelConfig& kernel, Dtype dtype, std::int64_t batch = 1) {
    RunRequest request;
    request.kind = RequestKind::Occupancy;
    request.kernel = kernel;
    request.problem.m = request.problem.n = request.problem.k = 1000;
    request.problem.batch = batch;
    request.problem.dtype = dtype;
    return request;
}

KernelConfig config(KernelKind kind, int x, int y, int tile) {
    KernelConfig c;
    c.kind = kind;
    c.block_x = x;
    c.block_y = y;
    c.tile = tile;
    return c;
}

// Every tile width, and block shapes from one thread to 1024, in every element type,
// plain and batched.
std::vector<RunRequest> every_kernel() {
    std::vector<KernelConfig> configs;
    for (int tile = 1; tile <= kMaxTile; ++tile) configs.push_back(config(KernelKind::Tiled, 16, 16, tile));
    for (auto [x, y] : {std::pair{1, 1}, {32, 1}, {16, 16}, {32, 8}, {3, 5}, {32, 32}, {1024, 1}}) {
        configs.push_back(config(KernelKind::Naive, x, y, 16));
        configs.push_back(config(KernelKind::NaiveRowFromX, x, y, 16));
    }
    for (int threads : {1, 32, 100, 256, 1024}) {
        configs.push_back(config(KernelKind::RowPerThread, threads, 1, 16));
        configs.push_back(config(KernelKind::ColumnPerThread, threads, 1, 16));
    }
    // The ladder: every rung, and every shape of the tuned rung (named, so the model and CUDA
    // speak of the same kernel); the float rungs only in float.
    for (KernelKind kind : kAllKernelKinds)
        if (is_ladder(kind) && kind != KernelKind::Tuned) configs.push_back(config(kind, 16, 16, 16));
    for (int variant = 0; variant < kTunedCandidateCount; ++variant) {
        KernelConfig tuned = config(KernelKind::Tuned, 16, 16, 16);
        tuned.variant = variant;
        configs.push_back(tuned);
    }
    std::vector<RunRequest> requests;
    for (const KernelConfig& c : configs)
        for (Dtype dtype : {Dtype::Int32, Dtype::Float32, Dtype::Float64})
            for (std::int64_t batch : {1, 3})
                if (!dtype_unsupported(c.kind, dtype)) requests.push_back(occupancy_request(c, dtype, batch));
    // The tensor-core rungs in BF16: the mma ones from compute capability 8.0, the Hopper ones on
    // 9.0 alone.
    const DeviceLimits& limits = device().limits;
    for (KernelKind kind : kTensorCoreKinds) {
        if (limits.compute_major < 8 || (needs_sm90a(kind) && (limits.compute_major != 9 || limits.compute_minor != 0)))
            continue;
        requests.push_back(occupancy_request(config(kind, 16, 16, 16), Dtype::BFloat16, 1));
    }
    return requests;
}

TEST(LabOnGpu, ProbedSmLimitsAreFilledIn) {
    SKIP_WITHOUT_GPU();
    const DeviceLimits& limits = device().limits;
    EXPECT_GE(limits.max_threads_per_sm, 1024);
    EXPECT_GE(limits.max_blocks_per_sm, 16);
    EXPECT_GE(limits.registers_per_sm, 65536);
    EXPECT_GE(limits.shared_per_sm, 64 * 1024);
    EXPECT_EQ(limits.max_registers_per_block, 65536);
    // Hopper (H100, H200) has the H100 preset's SMs.
    if (limits.compute_major == 9 && limits.compute_minor == 0) {
        const DeviceLimits& h100 = device_presets().front();
        EXPECT_EQ(limits.max_threads_per_sm, h100.max_threads_per_sm);
        EXPECT_EQ(limits.max_blocks_per_sm, h100.max_blocks_per_sm);
        EXPECT_EQ(limits.shared_per_sm, h100.shared_per_sm);
        EXPECT_EQ(limits.reserved_shared_per_block, h100.reserved_shared_per_block);
    }
}

TEST(LabOnGpu, CudasOccupancyAgreesWithTheModel) {
    SKIP_WITHOUT_GPU();
    std::map<int, int> registers_seen;  // registers per thread → kernels
    int estimate_right = 0, compared = 0;
    int ladder_right = 0, ladder_compared = 0;
    for (const RunRequest& request : every_kernel()) {
        const RunResult result = run_request(request);
        const std::string what = describe(request.kernel) + " " + std::string(dtype_name(request.problem.dtype)) +
                                 (request.problem.batch > 1 ? " batched" : "");
        ASSERT_TRUE(result.ok) << what << ": " << result.error;
        ASSERT_TRUE(result.occupancy.has_value()) << what;
        const KernelOccupancy& cuda = *result.occupancy;
        const bool tensor_cores = is_tensor_core(request.kernel.kind);
        // (The tensor-core rungs' shared memory is the model's tc_block_tile, compared through the
        // blocks per SM it allows.)
        if (!tensor_cores) {
            EXPECT_EQ(cuda.static_shared_bytes, plan_launch(request.kernel, request.problem).shared_bytes) << what;
        }
        EXPECT_EQ(cuda.local_bytes_per_thread, 0) << what << " spills registers";
        const auto model = kernel_occupancy(request.kernel, request.problem, device().limits, cuda.registers_per_thread);
        ASSERT_TRUE(std::holds_alternative<Occupancy>(model)) << what << ": " << std::get<std::string>(model);
        EXPECT_EQ(std::get<Occupancy>(model).blocks_per_sm, cuda.blocks_per_sm)
            << what << " with " << cuda.registers_per_thread << " registers";
        if (tensor_cores) {
            std::cout << what << ": " << cuda.registers_per_thread << " registers (estimate "
                      << estimated_tc_registers(request.kernel) << "), " << cuda.blocks_per_sm << " blocks/SM\n";
            ++registers_seen[cuda.registers_per_thread];
            continue;
        }
        // The estimate the model uses without a GPU, judged by what it predicts: exact for
        // the kernels up to the tiled one; for the ladder only a rough guess (printed).
        const auto estimated = kernel_occupancy(request.kernel, request.problem, device().limits);
        const bool right = std::get<Occupancy>(estimated).blocks_per_sm == cuda.blocks_per_sm;
        if (is_ladder(request.kernel.kind)) {
            ladder_right += right;
            ++ladder_compared;
        } else {
            estimate_right += right;
            ++compared;
        }
        ++registers_seen[cuda.registers_per_thread];
    }
    std::cout << device().limits.name << ": " << compared + ladder_compared << " kernels; registers per thread:";
    for (const auto& [registers, count] : registers_seen) std::cout << " " << registers << " (" << count << ")";
    std::cout << "; the no-GPU estimate of " << estimated_registers_per_thread(device().limits)
              << " registers predicts the blocks per SM of " << estimate_right << " of " << compared
              << " before the ladder; the ladder's estimate (estimated_ladder_registers) those of " << ladder_right
              << " of " << ladder_compared << "\n";
    EXPECT_EQ(estimate_right, compared);
}

TEST(LabOnGpu, MeasureRequestsReportOccupancyToo) {
    SKIP_WITHOUT_GPU();
    RunRequest request = occupancy_request(config(KernelKind::Tiled, 16, 16, 16), Dtype::Float32);
    request.kind = RequestKind::Measure;
    request.problem.m = request.problem.n = request.problem.k = 256;
    request.timed_launches = 2;
    const RunResult result = run_request(request);
    ASSERT_TRUE(result.ok) << result.error;
    ASSERT_TRUE(result.occupancy.has_value());
    EXPECT_GT(result.occupancy->blocks_per_sm, 0);
    EXPECT_FALSE(result.roofline.has_value());
}

TEST(LabOnGpu, OccupancyOfImpossibleOrForeignKernelsIsExplained) {
    SKIP_WITHOUT_GPU();
    const RunResult too_big = run_request(occupancy_request(config(KernelKind::Naive, 64, 32, 16), Dtype::Float32));
    EXPECT_FALSE(too_big.ok);
    EXPECT_NE(too_big.error.find("2048 threads"), std::string::npos) << too_big.error;
    const RunResult cublas = run_request(occupancy_request(config(KernelKind::Cublas, 16, 16, 16), Dtype::Float32));
    EXPECT_FALSE(cublas.ok);
    EXPECT_TRUE(cublas.unsupported);
    EXPECT_FALSE(cublas.occupancy.has_value());
}

TEST(LabOnGpu, RooflinePeaksArePlausible) {
    SKIP_WITHOUT_GPU();
    RunRequest request;
    request.kind = RequestKind::Roofline;
    const RunResult result = run_request(request);
    ASSERT_TRUE(result.ok) << result.error;
    ASSERT_TRUE(result.roofline.has_value());
    const RooflinePeaks& peaks = *result.roofline;
    std::cout << device().limits.name << ": " << peaks.bandwidth_gbs << " GB/s (" << peaks.bandwidth_label << "); "
              << peaks.fp32_gflops << " GFLOP/s (" << (peaks.fp32_label.empty() ? peaks.fp32_unavailable : peaks.fp32_label)
              << ")\n";
    // Every CUDA GPU of the last decade moves more than 100 GB/s; none reaches 10 TB/s.
    EXPECT_GT(peaks.bandwidth_gbs, 100.0);
    EXPECT_LT(peaks.bandwidth_gbs, 10000.0);
    EXPECT_GT(peaks.copy_bytes, device().l2_cache_bytes * 4);
    EXPECT_FALSE(peaks.bandwidth_label.empty());
    if (peaks.fp32_gflops > 0.0) {
        EXPECT_GT(peaks.fp32_gflops, 1000.0);
        EXPECT_LT(peaks.fp32_gflops, 200000.0);
        EXPECT_FALSE(peaks.fp32_label.empty());
        EXPECT_TRUE(peaks.fp32_unavailable.empty());
        EXPECT_GT(peaks.sgemm_size, 0);
    } else {
        EXPECT_FALSE(peaks.fp32_unavailable.empty());
    }
    std::cout << "tensor cores: " << peaks.bf16_gflops << " GFLOP/s ("
              << (peaks.bf16_label.empty() ? peaks.bf16_unavailable : peaks.bf16_label) << ")\n";
    if (peaks.bf16_gflops > 0.0) {
        // BF16 on tensor cores: several times FP32 on any GPU that has them, under 5 PFLOP/s dense.
        EXPECT_GT(peaks.bf16_gflops, 2.0 * peaks.fp32_gflops);
        EXPECT_LT(peaks.bf16_gflops, 5e6);
        EXPECT_GT(peaks.bf16_size, 0);
    } else {
        EXPECT_FALSE(peaks.bf16_unavailable.empty());
    }
}

}  // namespace
