// What bench prints and records, from runner results made up here: no GPU needed.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli/bench_report.hpp"

namespace ts::cli {
namespace {

gpu::RunResult measured(model::KernelKind kind) {
    gpu::RunResult r;
    r.request.kernel.kind = kind;
    r.request.kernel.block_x = 32;
    r.request.kernel.block_y = 8;
    r.request.kernel.tile = 32;
    r.request.problem.m = r.request.problem.n = r.request.problem.k = 2048;
    r.request.end_to_end_runs = 3;
    r.ok = true;
    r.samples_ms = {1.93, 1.94, 1.92};
    r.median_ms = 1.93;
    r.p20_ms = 1.924;
    r.p80_ms = 1.936;
    r.mean_ms = 1.93;
    r.min_ms = 1.92;
    r.max_ms = 1.94;
    r.noise = 0.0052;
    r.stop_reason = "min-time";
    r.gflops = 8901.2;
    if (kind != model::KernelKind::Cublas) {
        r.model_traffic_bytes = 1 << 30;
        r.model_bandwidth_gbs = 556.3;
    }
    r.end_to_end_ms = {30.0, 21.0, 22.0};
    r.end_to_end_median_ms = 22.0;
    r.checked = true;
    r.check_passed = true;
    r.max_rel_error = 2e-7;
    r.check_summary = "pass";
    return r;
}

TEST(PointRecord, CopiesTimingAndNamesTheKernel) {
    const record::Point p = point_record(4, measured(model::KernelKind::Tiled), std::nullopt);
    EXPECT_EQ(p.index, 4);
    EXPECT_EQ(p.kernel, "tiled");
    EXPECT_EQ(p.config, "tiled T=32");
    EXPECT_EQ(p.tile, 32);
    EXPECT_FALSE(p.block_x.has_value());  // the tiled kernel has no free block shape
    EXPECT_EQ(p.mode, "cold");
    EXPECT_EQ(p.samples_ms.size(), 3u);
    EXPECT_DOUBLE_EQ(p.noise_pct, 0.52);
    EXPECT_EQ(p.model_traffic_bytes, 1 << 30);
    EXPECT_EQ(p.end_to_end_ms, 22.0);
    EXPECT_EQ(p.max_rel_error, 2e-7);
    EXPECT_FALSE(p.cpu_triple_loop_ms.has_value());
}

TEST(PointRecord, BlockShapesByKernelFamily) {
    const record::Point naive = point_record(0, measured(model::KernelKind::Naive), std::nullopt);
    EXPECT_EQ(naive.block_x, 32);
    EXPECT_EQ(naive.block_y, 8);
    EXPECT_FALSE(naive.tile.has_value());
    const record::Point rows = point_record(0, measured(model::KernelKind::RowPerThread), std::nullopt);
    EXPECT_EQ(rows.block_x, 32);
    EXPECT_FALSE(rows.block_y.has_value());
    const record::Point cublas = point_record(0, measured(model::KernelKind::Cublas), std::nullopt);
    EXPECT_FALSE(cublas.block_x.has_value());
    EXPECT_FALSE(cublas.model_bandwidth_GBps.has_value());  // not modelled: no traffic
}

TEST(PointRecord, HotAndCpuEstimatesAreLabelled) {
    gpu::RunResult r = measured(model::KernelKind::Tiled);
    r.request.hot = true;
    gpu::CpuTime cpu;
    cpu.problem = r.request.problem;
    cpu.ms = 64000.0;
    cpu.estimate = true;
    cpu.basis.m = cpu.basis.n = cpu.basis.k = 1024;
    const record::Point p = point_record(0, r, cpu);
    EXPECT_EQ(p.mode, "hot");
    EXPECT_EQ(p.cpu_triple_loop_ms, 64000.0);
    EXPECT_EQ(p.cpu_is_estimate, true);
    EXPECT_EQ(p.cpu_estimated_from, "1024x1024x1024");
    EXPECT_NE(table_row(p).find(" hot "), std::string::npos) << table_row(p);
    EXPECT_NE(progress_start(0, 1, r.request).find("hot"), std::string::npos);
}

TEST(PointRecord, FailedPointKeepsItsReasonAndNoTiming) {
    gpu::RunResult r;
    r.request.kernel.kind = model::KernelKind::Naive;
    r.request.kernel.block_x = 64;
    r.request.kernel.block_y = 32;
    r.error = "64×32 = 2048 threads; CUDA reports: invalid argument";
    const record::Point p = point_record(7, r, std::nullopt);
    EXPECT_FALSE(p.ok);
    EXPECT_EQ(p.error, r.error);
    EXPECT_TRUE(p.samples_ms.empty());
    EXPECT_NE(table_row(p).find("FAILED: " + r.error), std::string::npos);
    EXPECT_EQ(progress_result(r), "failed: " + r.error);
}

TEST(BenchReport, RecordOfFakeResultsHasPandasShape) {
    record::Measurement measurement;
    measurement.meta.device.name = "Fake GPU";
    measurement.meta.timing = timing_record(measured(model::KernelKind::Tiled).request);
    measurement.points = {point_record(0, measured(model::KernelKind::Tiled), std::nullopt),
                        point_record(1, measured(model::KernelKind::Cublas), std::nullopt)};
    const std::string csv = record::to_csv(measurement);
    // A header and two rows, every row as wide as the header.
    const auto commas = [](const std::string& line) { return std::count(line.begin(), line.end(), ','); };
    std::vector<std::string> lines;
    for (std::size_t start = 0, end; (end = csv.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(csv.substr(start, end - start));
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].rfind("index,kernel,config,", 0), 0u) << lines[0];
    EXPECT_EQ(commas(lines[1]), commas(lines[0])) << lines[1];
    EXPECT_EQ(commas(lines[2]), commas(lines[0])) << lines[2];
    // And the JSON reads back with the same points.
    auto back = record::parse_json(record::to_json(measurement), "fake.json");
    ASSERT_TRUE(std::holds_alternative<record::Measurement>(back)) << std::get<std::string>(back);
    EXPECT_EQ(std::get<record::Measurement>(back).points.size(), 2u);
    EXPECT_EQ(std::get<record::Measurement>(back).meta.timing.mode, "cold");
}

TEST(BenchReport, TableRowsLineUpWithTheHeader) {
    const std::string header = table_header();
    const std::string row = table_row(point_record(0, measured(model::KernelKind::Tiled), std::nullopt));
    // Column ends match (counting characters, not bytes: × and – are multi-byte).
    auto columns = [](const std::string& text) {
        std::size_t shown = 0;
        for (unsigned char c : text) shown += (c & 0xC0) != 0x80;
        return shown;
    };
    EXPECT_EQ(columns(row.substr(0, row.find("  pass"))), columns(header.substr(0, header.find("  check"))));
    EXPECT_NE(row.find("1.930"), std::string::npos) << row;
    EXPECT_NE(row.find("0.5 %"), std::string::npos) << row;
    EXPECT_NE(row.find("22.00 "), std::string::npos) << row;
}

gpu::EnergySummary energy_of(int launches, double joules) {
    return {.measured = true, .unavailable = {}, .launches = launches, .joules = joules, .gpu_seconds = 1.0, .step_joules = 0.5,
            .short_of_steps = false, .mean_sm_mhz = 1700, .limits = 0};
}

TEST(BenchReport, EnergyTableSetsEachKernelAgainstCublas) {
    gpu::RunResult tiled = measured(model::KernelKind::Tiled), cublas = measured(model::KernelKind::Cublas),
                   naive = measured(model::KernelKind::Naive);
    for (gpu::RunResult* r : {&tiled, &cublas, &naive}) r->request.energy = true;
    tiled.energy = energy_of(100, 60.0);   // 0.6 J a matmul
    cublas.energy = energy_of(100, 50.0);  // 0.5 J
    naive.energy.unavailable = "NVML does not report this GPU's energy: Not Supported";
    const std::string table = energy_table({tiled, cublas, naive});
    EXPECT_NE(table.find("J/matmul"), std::string::npos) << table;
    EXPECT_NE(table.find("600 mJ"), std::string::npos) << table;
    EXPECT_NE(table.find("120.0 %"), std::string::npos) << table;  // tiled's joules over cuBLAS's
    EXPECT_NE(table.find("not measured for some points: NVML does not report"), std::string::npos) << table;
    EXPECT_NE(progress_result(tiled).find("600 mJ per matmul"), std::string::npos) << progress_result(tiled);
    gpu::RunResult quiet = measured(model::KernelKind::Tiled);
    EXPECT_EQ(energy_table({quiet}), "") << "no point asked for the energy";
}

TEST(PointRecord, AnFp8PointSaysHowItWasScaledAndWhatTheEightBitsCost) {
    gpu::RunResult r = measured(model::KernelKind::Cublas);
    r.request.problem.dtype = model::Dtype::Fp8E4M3;
    r.request.problem.fp8_scaling = model::Fp8Scaling::Block;
    r.quantize_ms = 0.05;
    r.error_vs_fp64_max = 0.07;
    r.error_vs_fp64_rms = 0.02;
    const record::Point p = point_record(0, r, std::nullopt);
    EXPECT_EQ(p.dtype, "fp8");
    EXPECT_EQ(p.fp8_scaling, "block");
    EXPECT_EQ(p.quantize_ms, 0.05);
    EXPECT_EQ(p.error_vs_fp64_max, 0.07);
    EXPECT_EQ(p.error_vs_fp64_rms, 0.02);
    EXPECT_NE(table_row(p).find(" fp8 block "), std::string::npos) << table_row(p);
    EXPECT_NE(progress_start(0, 1, r.request).find("fp8 block"), std::string::npos);
    // Other types have none of it.
    const record::Point bf16 = point_record(0, measured(model::KernelKind::Cublas), std::nullopt);
    EXPECT_FALSE(bf16.fp8_scaling.has_value());
    EXPECT_FALSE(bf16.quantize_ms.has_value());
}

// BF16, FP16 and FP32 carry the error against FP64 as FP8 does; int32 and double do not.
TEST(PointRecord, SixteenBitAndFp32PointsKeepTheirErrorAgainstFp64) {
    gpu::RunResult bf16 = measured(model::KernelKind::Wgmma);
    bf16.request.problem.dtype = model::Dtype::BFloat16;
    bf16.error_vs_fp64_max = 0.004;
    bf16.error_vs_fp64_rms = 0.0011;
    const record::Point p = point_record(0, bf16, std::nullopt);
    EXPECT_EQ(p.error_vs_fp64_max, 0.004);
    EXPECT_EQ(p.error_vs_fp64_rms, 0.0011);
    EXPECT_FALSE(p.fp8_scaling.has_value());
    EXPECT_NE(error_vs_fp64_text(bf16).find("RMS rel. error 1.10e-03 against FP64 on the FP32 inputs before rounding to bf16"),
              std::string::npos)
        << error_vs_fp64_text(bf16);
    gpu::RunResult fp32 = measured(model::KernelKind::Tuned);
    fp32.error_vs_fp64_max = 3e-7;
    EXPECT_EQ(point_record(0, fp32, std::nullopt).error_vs_fp64_max, 3e-7);
    EXPECT_NE(error_vs_fp64_text(fp32).find("on the same FP32 inputs"), std::string::npos) << error_vs_fp64_text(fp32);
    // Not checked, or a type without the figure: none recorded.
    gpu::RunResult unchecked = bf16;
    unchecked.checked = false;
    EXPECT_FALSE(point_record(0, unchecked, std::nullopt).error_vs_fp64_max.has_value());
    for (model::Dtype dtype : {model::Dtype::Int32, model::Dtype::Float64}) {
        gpu::RunResult other = bf16;
        other.request.problem.dtype = dtype;
        EXPECT_FALSE(point_record(0, other, std::nullopt).error_vs_fp64_max.has_value()) << model::dtype_name(dtype);
    }
}

TEST(BenchReport, ErrorTableListsEveryPointWithTheError) {
    gpu::RunResult bf16 = measured(model::KernelKind::Wgmma);
    bf16.request.problem.dtype = model::Dtype::BFloat16;
    bf16.gflops = 612000.0;
    bf16.error_vs_fp64_max = 0.004;
    bf16.error_vs_fp64_rms = 0.0011;
    gpu::RunResult fp8 = measured(model::KernelKind::Cublas);
    fp8.request.problem.dtype = model::Dtype::Fp8E4M3;
    fp8.request.problem.fp8_scaling = model::Fp8Scaling::Block;
    fp8.error_vs_fp64_max = 0.07;
    fp8.error_vs_fp64_rms = 0.02;
    gpu::RunResult int32 = measured(model::KernelKind::Tiled);
    int32.request.problem.dtype = model::Dtype::Int32;
    const std::string table = error_table({bf16, fp8, int32});
    EXPECT_NE(table.find("error against FP64"), std::string::npos) << table;
    EXPECT_NE(table.find("bf16"), std::string::npos) << table;
    EXPECT_NE(table.find("612.0"), std::string::npos) << table;  // TFLOP/s
    EXPECT_NE(table.find("1.10e-03"), std::string::npos) << table;
    EXPECT_NE(table.find("fp8 block"), std::string::npos) << table;
    EXPECT_NE(table.find("2.00e-02"), std::string::npos) << table;
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 5) << "a blank line, the title, the header and two rows:\n" << table;
    EXPECT_EQ(error_table({int32}), "") << "no point has the error";
}

TEST(BenchReport, CommandLineIsThisProcesssOwn) {
    // The test binary's own path comes first.
    EXPECT_NE(own_command_line("fallback").find("cli_test"), std::string::npos) << own_command_line("fallback");
}

}  // namespace
}  // namespace ts::cli
