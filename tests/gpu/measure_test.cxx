// The timing engine on a real GPU: enough samples, honest statistics, the L2 flush on and
// off, the stop rules, and end-to-end times that include the kernel. Each test skips,
// saying why, when no CUDA device is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "support/gpu_skip.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/energy.hpp"
#include "gpu/measure.hpp"
#include "gpu/runner.hpp"

namespace ts::gpu {
namespace {

using ts::testing_support::device;

RunRequest naive_512(bool hot) {
    RunRequest request;
    request.kernel.kind = model::KernelKind::Naive;
    request.kernel.block_x = 32;
    request.kernel.block_y = 32;
    request.problem.m = request.problem.n = request.problem.k = 512;
    request.adaptive = true;
    request.hot = hot;
    request.budget_s = 1.0;
    request.check = false;
    return request;
}

void expect_consistent(const RunResult& r) {
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GE(r.samples_ms.size(), 10u);
    const SampleStats stats = summarize(r.samples_ms);
    EXPECT_DOUBLE_EQ(r.median_ms, stats.median);
    EXPECT_DOUBLE_EQ(r.noise, stats.noise);
    EXPECT_LE(r.min_ms, r.p20_ms);
    EXPECT_LE(r.p20_ms, r.median_ms);
    EXPECT_LE(r.median_ms, r.p80_ms);
    EXPECT_LE(r.p80_ms, r.max_ms);
    EXPECT_GT(r.min_ms, 0.0);
    EXPECT_FALSE(r.stop_reason.empty());
    EXPECT_GT(r.gflops, 0.0);
    EXPECT_GT(r.model_traffic_bytes, 0);
    EXPECT_NEAR(r.model_bandwidth_gbs, r.model_traffic_bytes / (r.median_ms * 1e-3) * 1e-9,
                r.model_bandwidth_gbs * 1e-9);
    EXPECT_TRUE(r.timing_warning.empty()) << r.timing_warning;
}

TEST(Measure, ColdFlushesL2BeforeEverySample) {
    SKIP_WITHOUT_GPU();
    const RunResult cold = run_request(naive_512(false));
    expect_consistent(cold);
    EXPECT_FALSE(cold.hot);
    EXPECT_EQ(cold.l2_flush_bytes, device().l2_cache_bytes);
    EXPECT_GT(cold.l2_flush_bytes, 0);
    std::cout << "naive 32×32 512³ cold: median " << cold.median_ms << " ms, noise " << cold.noise * 100 << " %, "
              << cold.samples_ms.size() << " samples, stopped by " << cold.stop_reason << "\n";
}

TEST(Measure, HotRunsBackToBackWithoutFlush) {
    SKIP_WITHOUT_GPU();
    const RunResult hot = run_request(naive_512(true));
    expect_consistent(hot);
    EXPECT_TRUE(hot.hot);
    EXPECT_EQ(hot.l2_flush_bytes, 0);
    std::cout << "naive 32×32 512³ hot: median " << hot.median_ms << " ms, noise " << hot.noise * 100 << " %, "
              << hot.samples_ms.size() << " samples, stopped by " << hot.stop_reason << "\n";
}

TEST(Measure, FixedCountTakesExactlyThatMany) {
    SKIP_WITHOUT_GPU();
    RunRequest request = naive_512(false);
    request.adaptive = false;
    request.timed_launches = 150;  // more than one batch of 64
    const RunResult r = run_request(request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.samples_ms.size(), 150u);
    EXPECT_EQ(r.stop_reason, "count");
}

TEST(Measure, BudgetEndsANoisyPointAfterTheMinimum) {
    SKIP_WITHOUT_GPU();
    RunRequest request = naive_512(false);
    request.max_noise = 0.0;   // never quiet enough
    request.min_time_s = 1e6;  // never enough samples
    request.budget_s = 0.3;
    const RunResult r = run_request(request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.stop_reason, "budget");
    EXPECT_GE(r.samples_ms.size(), 10u);
    EXPECT_GE(r.measure_wall_s, 0.3);
    EXPECT_LT(r.measure_wall_s, 1.5);  // the last batch is sized to the budget left
}

TEST(Measure, EndToEndIncludesTheKernel) {
    SKIP_WITHOUT_GPU();
    RunRequest request = naive_512(false);
    request.problem.m = request.problem.n = request.problem.k = 1024;
    request.end_to_end_runs = 3;
    const RunResult r = run_request(request);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.end_to_end_ms.size(), 3u);
    for (double ms : r.end_to_end_ms) EXPECT_GE(ms, r.min_ms);
    EXPECT_GE(r.end_to_end_median_ms, r.median_ms);
    std::cout << "naive 32×32 1024³: kernel " << r.median_ms << " ms, end to end " << r.end_to_end_median_ms
              << " ms\n";
}

// The clock while sampling, from NVML: a GPU with a driver has it, and the SM clock lies within
// what an NVIDIA GPU can run at; the readings stand for every batch.
TEST(Measure, ReadsTheSmClockWhileSampling) {
    SKIP_WITHOUT_GPU();
    RunRequest request = naive_512(false);
    request.adaptive = false;
    request.timed_launches = 150;  // three batches
    const RunResult r = run_request(request);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.clocks.readings, 3) << r.clocks.unavailable;
    EXPECT_TRUE(r.clocks.unavailable.empty());
    EXPECT_GE(r.clocks.min_sm_mhz, 100);
    EXPECT_LE(r.clocks.min_sm_mhz, r.clocks.mean_sm_mhz);
    EXPECT_LE(r.clocks.mean_sm_mhz, r.clocks.max_sm_mhz);
    EXPECT_LE(r.clocks.max_sm_mhz, 4000);
    EXPECT_GE(r.clocks.mean_power_w, 0.0);
    std::cout << "naive 32×32 512³ cold: SM " << r.clocks.mean_sm_mhz << " MHz (" << r.clocks.min_sm_mhz << "–"
              << r.clocks.max_sm_mhz << "), " << r.clocks.mean_power_w << " W, limits 0x" << std::hex
              << r.clocks.limits << std::dec << "\n";
}

// The energy phase: launches back to back after the samples until NVML's counter moved 100 steps and
// half a second passed; joules per matmul times the launches give the joules counted, and the board's
// power lies between idle and any H100's or H200's cap.
TEST(Measure, EnergyComesFromLaunchesBackToBackAfterTheSamples) {
    SKIP_WITHOUT_GPU();
    RunRequest request = naive_512(false);
    request.energy = true;
    request.energy_max_s = 15.0;
    const RunResult r = run_request(request);
    ASSERT_TRUE(r.ok) << r.error;
    if (!r.energy.measured && r.energy.unavailable.find("NVML") != std::string::npos)
        GTEST_SKIP() << "no energy counter here: " << r.energy.unavailable;
    ASSERT_TRUE(r.energy.measured) << r.energy.unavailable;
    EXPECT_FALSE(r.energy.short_of_steps) << energy_method_text(r.energy);
    EXPECT_GE(r.energy.gpu_seconds, kEnergyMinSeconds * 0.9);
    EXPECT_LE(r.energy.gpu_seconds, request.energy_max_s + 0.5);
    // Back to back: the launches fill the time the events measured, within the gaps between them.
    EXPECT_NEAR(r.energy.launches * r.median_ms * 1e-3, r.energy.gpu_seconds, r.energy.gpu_seconds * 0.5);
    EXPECT_GE(r.energy.joules, kEnergyStepsNeeded * r.energy.step_joules);
    EXPECT_GT(average_watts(r.energy), 30.0);
    EXPECT_LT(average_watts(r.energy), 1200.0);
    EXPECT_GT(r.energy.mean_sm_mhz, 100);
    EXPECT_GE(r.measure_wall_s, r.energy.gpu_seconds);
    std::cout << "naive 32×32 512³: " << energy_short_text(r.energy, request.problem) << "; "
              << energy_method_text(r.energy) << "\n";
    // Without asking, nothing is measured and no time is spent on it.
    request.energy = false;
    const RunResult quiet = run_request(request);
    EXPECT_FALSE(quiet.energy.measured);
    EXPECT_EQ(quiet.energy.launches, 0);
}

// Settling runs the kernel untimed for the time asked, outside the budget: a point with a 0.3 s
// budget and 0.5 s of settling still takes its samples, and spends at least the settling time.
TEST(Measure, SettlingComesBeforeTheSamplesAndOutsideTheBudget) {
    SKIP_WITHOUT_GPU();
    RunRequest request = naive_512(false);
    request.settle_s = 0.5;
    request.budget_s = 0.3;
    request.max_noise = 0.0;
    request.min_time_s = 1e6;
    const RunResult r = run_request(request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.stop_reason, "budget");
    EXPECT_GE(r.samples_ms.size(), 10u);
    EXPECT_GE(r.measure_wall_s, 0.8);
    EXPECT_LT(r.measure_wall_s, 2.5);
}

// The engine on its own, with a plain memset as the "launch": prepare runs before every
// cold launch and once when hot, and the samples time the memset.
TEST(Measure, EngineCallsPrepareAsDocumented) {
    SKIP_WITHOUT_GPU();
    void* buffer = nullptr;
    const std::size_t bytes = std::size_t{64} << 20;
    ASSERT_EQ(cudaMalloc(&buffer, bytes), cudaSuccess);
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    for (bool hot : {false, true}) {
        MeasureSettings settings;
        settings.hot = hot;
        settings.warmup_launches = 2;
        settings.stop.adaptive = false;
        settings.stop.min_samples = 70;
        int launches = 0;
        int prepares = 0;
        const Measurement m = measure(
            settings, stream,
            [&](cudaStream_t s) {
                ++launches;
                TS_CUDA_CHECK(cudaMemsetAsync(buffer, 1, bytes, s));
            },
            [&](cudaStream_t) { ++prepares; });
        EXPECT_EQ(m.samples_ms.size(), 70u);
        EXPECT_EQ(launches, 72);
        EXPECT_EQ(prepares, hot ? 1 : 72);
        EXPECT_EQ(m.l2_flush_bytes, hot ? 0 : device().l2_cache_bytes);
        EXPECT_EQ(m.stop, StopReason::Count);
        // 64 MiB cannot be written in under a microsecond: the events time the memset.
        EXPECT_GT(m.stats.min, 1e-3);
    }
    cudaStreamDestroy(stream);
    cudaFree(buffer);
}

}  // namespace
}  // namespace ts::gpu
