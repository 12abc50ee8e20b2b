// What `tilescope roofline` prints and the occupancy line of `tilescope bench`, from runner
// results made up here; and the command itself on a machine without a GPU.
#include <gtest/gtest.h>

#include "gpu/clock_watch.hpp"

#include "cli/bench_report.hpp"
#include "cli/roofline.hpp"
#include "model/device_limits.hpp"
#include "support/run_command.hpp"

namespace ts::cli {
namespace {

gpu::RooflinePeaks h200_like() {
    gpu::RooflinePeaks peaks;
    peaks.bandwidth_gbs = 4000.0;
    peaks.bandwidth_label = "device-to-device copy of 1.0 GiB, read + write, median of 40";
    peaks.fp32_gflops = 50000.0;
    peaks.sgemm_size = 8192;
    peaks.fp32_label = "cuBLAS SGEMM 8192³, FP32 without TF32, the fastest of 2048³, 4096³, 8192³";
    return peaks;
}

gpu::RunResult measured(model::KernelKind kind, double gflops) {
    gpu::RunResult r;
    r.request.kernel.kind = kind;
    r.request.kernel.tile = 16;
    r.request.problem.m = r.request.problem.n = r.request.problem.k = 2048;
    r.ok = true;
    r.gflops = gflops;
    if (kind != model::KernelKind::Cublas) {
        r.occupancy = gpu::KernelOccupancy{32, 2048, 0, 1024, 8};
    }
    return r;
}

const model::DeviceLimits& h100() { return model::device_presets().front(); }

TEST(RooflineReport, PeaksNameHowTheyWereMeasured) {
    const std::string text = peaks_text(h200_like());
    EXPECT_NE(text.find("4000 GB/s (device-to-device copy of 1.0 GiB"), std::string::npos) << text;
    EXPECT_NE(text.find("50000 GFLOP/s (cuBLAS SGEMM 8192³"), std::string::npos) << text;
    EXPECT_NE(text.find("ridge     12.5 FLOP/byte"), std::string::npos) << text;

    gpu::RooflinePeaks no_cublas = h200_like();
    no_cublas.fp32_gflops = 0.0;
    no_cublas.fp32_unavailable = "no FP32 peak: cuBLAS not found (libcublas.so.13): gone";
    const std::string without = peaks_text(no_cublas);
    EXPECT_NE(without.find("FP32      unknown: no FP32 peak: cuBLAS not found"), std::string::npos) << without;
    EXPECT_EQ(without.find("ridge     "), std::string::npos) << without;
}

TEST(RooflineReport, TheTensorCoresRoofIsCublasBf16) {
    gpu::RooflinePeaks peaks = h200_like();
    peaks.bf16_unavailable = "no tensor-core peak: cuBLAS not found (libcublas.so.13): gone";
    EXPECT_NE(peaks_text(peaks).find("BF16      unknown: no tensor-core peak"), std::string::npos) << peaks_text(peaks);
    peaks.bf16_unavailable.clear();
    peaks.bf16_gflops = 800000.0;
    peaks.bf16_size = 8192;
    peaks.bf16_label = "cuBLAS BF16 GEMM 8192³ on the tensor cores (FP32 sums), the fastest of 2048³, 4096³, 8192³";
    const std::string text = peaks_text(peaks);
    EXPECT_NE(text.find("BF16      800000 GFLOP/s (cuBLAS BF16 GEMM 8192³"), std::string::npos) << text;
    EXPECT_NE(text.find("16.0× FP32; its ridge at 200.0 FLOP/byte"), std::string::npos) << text;
}

TEST(RooflineReport, RoofIsTheLowerOfSlopeAndPeak) {
    const gpu::RooflinePeaks peaks = h200_like();
    EXPECT_DOUBLE_EQ(roof_gflops(peaks, 0.25), 1000.0);     // memory-bound: 0.25 × 4000
    EXPECT_DOUBLE_EQ(roof_gflops(peaks, 12.5), 50000.0);    // the ridge
    EXPECT_DOUBLE_EQ(roof_gflops(peaks, 100.0), 50000.0);   // compute-bound
    gpu::RooflinePeaks slope_only = peaks;
    slope_only.fp32_gflops = 0.0;
    EXPECT_DOUBLE_EQ(roof_gflops(slope_only, 100.0), 400000.0);
}

TEST(RooflineReport, IntensityFromTheModelOrCompulsoryTraffic) {
    bool compulsory = true;
    // Naive, float: 2·N³ FLOPs over (2·N³ loads + N² stores) × 4 bytes: just under 1/4.
    const double naive = point_intensity(measured(model::KernelKind::Naive, 1.0).request, compulsory);
    EXPECT_FALSE(compulsory);
    EXPECT_NEAR(naive, 0.25, 0.001);
    EXPECT_LT(naive, 0.25);
    // Tiled T=16 loads T times less: 4 / (1 + 8/2048) with the stores of C.
    EXPECT_NEAR(point_intensity(measured(model::KernelKind::Tiled, 1.0).request, compulsory), 4.0 / (1.0 + 8.0 / 2048),
                1e-12);
    // cuBLAS: 2·2048³ FLOPs over 3 matrices of 2048² floats once.
    const double cublas = point_intensity(measured(model::KernelKind::Cublas, 1.0).request, compulsory);
    EXPECT_TRUE(compulsory);
    EXPECT_NEAR(cublas, 2.0 * 2048 / 12.0, 1e-9);
}

TEST(RooflineReport, RowsShowRoofMeasuredShareAndOccupancy) {
    const std::string tiled = roofline_row(measured(model::KernelKind::Tiled, 8000.0), h200_like(), h100());
    EXPECT_NE(tiled.find("tiled T=16"), std::string::npos) << tiled;
    EXPECT_NE(tiled.find("2048×2048×2048"), std::string::npos) << tiled;
    EXPECT_NE(tiled.find("3.98"), std::string::npos) << tiled;
    EXPECT_NE(tiled.find("15938"), std::string::npos) << tiled;  // roof: 3.98 FLOP/B × 4000 GB/s
    EXPECT_NE(tiled.find("8000"), std::string::npos) << tiled;
    EXPECT_NE(tiled.find("50 %"), std::string::npos) << tiled;
    EXPECT_NE(tiled.find("8/SM, 100 % (threads per SM)"), std::string::npos) << tiled;
    const std::string cublas = roofline_row(measured(model::KernelKind::Cublas, 40000.0), h200_like(), h100());
    EXPECT_NE(cublas.find("341.33*"), std::string::npos) << cublas;
    EXPECT_NE(cublas.find("80 %"), std::string::npos) << cublas;
    gpu::RunResult failed = measured(model::KernelKind::Naive, 0.0);
    failed.ok = false;
    failed.error = "out of memory";
    EXPECT_NE(roofline_row(failed, h200_like(), h100()).find("FAILED: out of memory"), std::string::npos);
}

TEST(BenchOccupancy, ModelWithCompiledRegistersAndCudasCount) {
    gpu::RunResult r = measured(model::KernelKind::Tiled, 1.0);
    EXPECT_EQ(occupancy_text(r, h100()),
              "8 blocks/SM (limited by threads per SM, and equally by registers), 100 % occupancy, 15.52 waves; "
              "32 registers/thread");
    // Where CUDA disagrees with the model, both are shown.
    r.occupancy->blocks_per_sm = 7;
    r.occupancy->local_bytes_per_thread = 16;
    const std::string text = occupancy_text(r, h100());
    EXPECT_NE(text.find("16 B local memory (spills)"), std::string::npos) << text;
    EXPECT_NE(text.find("(CUDA says 7 blocks/SM)"), std::string::npos) << text;
    EXPECT_EQ(occupancy_text(measured(model::KernelKind::Cublas, 1.0), h100()), "");
    EXPECT_NE(progress_result(measured(model::KernelKind::Tiled, 1.0)).find("; 8 blocks/SM, 32 registers/thread"),
              std::string::npos);
}

TEST(RooflineCommand, WithoutAGpuSaysWhyAndBadListsExitTwo) {
    if (!gpu::probe_device().usable)
        testing_support::expect_refused("roofline --peaks", "no usable GPU");
    testing_support::expect_refused("roofline --tile 64", "--tile 64");
    testing_support::expect_help_lists("roofline", {"--peaks"});
}

}  // namespace
}  // namespace ts::cli

namespace ts::cli {
namespace {

gpu::RunResult timed(model::KernelKind kind, double median_ms, std::int64_t size = 2048) {
    gpu::RunResult r = measured(kind, 1.0);
    r.request.kernel.tile = 32;
    r.request.problem.m = r.request.problem.n = r.request.problem.k = size;
    r.median_ms = median_ms;
    return r;
}

TEST(VersusCublas, PercentOfCublasPerSizeWithRegistersAndSpills) {
    std::vector<gpu::RunResult> results{timed(model::KernelKind::Tiled, 2.0), timed(model::KernelKind::RegTile2d, 0.8),
                                        timed(model::KernelKind::Cublas, 0.4), timed(model::KernelKind::Tiled, 9.0, 1024)};
    results[1].occupancy->local_bytes_per_thread = 16;
    const std::string text = versus_cublas(results, h100());
    EXPECT_NE(text.find("2048×2048×2048 float: cuBLAS 0.4000 ms"), std::string::npos) << text;
    EXPECT_NE(text.find("  tiled T=32               20.0 %  "), std::string::npos) << text;
    EXPECT_NE(text.find("  regtile-2d               50.0 %  "), std::string::npos) << text;
    EXPECT_NE(text.find("16 B local memory (spills)"), std::string::npos) << text;
    EXPECT_EQ(text.find("1024×1024×1024"), std::string::npos) << "no cuBLAS at 1024: nothing to compare";
}

gpu::ClockSummary clocks_read(int readings, int mean_mhz, int min_mhz, int max_mhz, double power_w = 0.0,
                              std::uint64_t limits = 0) {
    gpu::ClockSummary c;
    c.readings = readings;
    c.mean_sm_mhz = mean_mhz;
    c.min_sm_mhz = min_mhz;
    c.max_sm_mhz = max_mhz;
    c.mean_power_w = power_w;
    c.limits = limits;
    return c;
}

// With unlocked clocks the power cap may clock two kernels differently: the clock goes beside the
// ratio, and beside cuBLAS's time.
TEST(VersusCublas, ShowsTheSmClockEachRanAt) {
    std::vector<gpu::RunResult> results{timed(model::KernelKind::Tiled, 2.0), timed(model::KernelKind::Cublas, 0.4)};
    results[0].clocks = clocks_read(3, 1690, 1680, 1700);
    results[1].clocks = clocks_read(5, 1755, 1755, 1755);
    const std::string text = versus_cublas(results, h100());
    EXPECT_NE(text.find("2048×2048×2048 float: cuBLAS 0.4000 ms at SM 1755 MHz\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  tiled T=32               20.0 %   SM 1690 MHz  "), std::string::npos) << text;
}

TEST(ClockText, TheClockItsRangePowerAndWhatHeldItBack) {
    EXPECT_EQ(clock_text(clocks_read(4, 1690, 1650, 1755, 655.4, gpu::kClockLimitSwPowerCap)),
              "SM 1690 MHz (1650–1755), 655 W; held back by the power cap");
    EXPECT_EQ(clock_text(clocks_read(1, 1980, 1980, 1980)), "SM 1980 MHz");
    gpu::ClockSummary unread;
    unread.unavailable = "NVML (libnvidia-ml.so.1, part of the NVIDIA driver) could not be opened";
    EXPECT_EQ(clock_text(unread),
              "not read: NVML (libnvidia-ml.so.1, part of the NVIDIA driver) could not be opened");
    gpu::RunResult r = timed(model::KernelKind::Tiled, 2.0);
    r.clocks = clocks_read(1, 1980, 1980, 1980);
    EXPECT_NE(progress_result(r).find("; SM 1980 MHz"), std::string::npos) << progress_result(r);
}

TEST(VersusCublas, NothingWithoutCublasOrWithOnlyCublas) {
    EXPECT_EQ(versus_cublas({timed(model::KernelKind::Tiled, 2.0)}, h100()), "");
    EXPECT_EQ(versus_cublas({timed(model::KernelKind::Cublas, 0.4)}, h100()), "");
    gpu::RunResult failed = timed(model::KernelKind::Tiled, 2.0);
    failed.ok = false;
    EXPECT_EQ(versus_cublas({failed, timed(model::KernelKind::Cublas, 0.4)}, h100()), "");
}

}  // namespace
}  // namespace ts::cli
