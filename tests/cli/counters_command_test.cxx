// `tilescope counters`: its table and JSON from a report made up here, its arguments, and the
// command on a machine without a GPU (it says why and fails; it never crashes).
#include <gtest/gtest.h>

#include "cli/counters.hpp"
#include "model/device_limits.hpp"
#include "support/gpu_skip.hpp"
#include "support/run_command.hpp"

namespace {

// What the runner would send back for tiled T = 16 on 64³, with made-up measurements.
ts::model::CounterReport made_up_report() {
    ts::model::CounterReport report;
    report.kernel.kind = ts::model::KernelKind::Tiled;
    report.kernel.tile = 16;
    report.problem.m = report.problem.n = report.problem.k = 64;
    report.device = "NVIDIA H100 80GB HBM3";
    report.passes = 3;
    report.note = "one launch, replayed in 3 passes";
    const double measured[] = {1024, 4096, 5000, 50000, 0, 45.5};
    int i = 0;
    for (const ts::model::Counter counter : ts::model::kAllCounters)
        report.readings.push_back(ts::model::make_reading(counter, measured[i++], report.kernel, report.problem,
                                                          ts::model::device_presets()[0], 32));
    for (const std::string_view name : ts::model::all_counter_metrics()) report.metrics.emplace_back(name, 1.0);
    report.metrics[0].second = 1024;
    return report;
}

TEST(CountersCommand, TableShowsMeasuredModelRatioAndMetric) {
    const std::string table = ts::cli::counters_table(made_up_report());
    EXPECT_NE(table.find("tiled T=16 on 64×64×64 (float) on the NVIDIA H100 80GB HBM3: one launch, 3 passes"),
              std::string::npos)
        << table;
    // Requests: 16 blocks × 4 phases × 8 warps × 2 = 1024, measured 1024: ratio 1.
    EXPECT_NE(table.find("Global load requests    1024            1024            1.000    "
                         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("dram__bytes_read.sum + dram__bytes_write.sum"), std::string::npos);
    // Bank conflicts: the model says 0, so there is no ratio.
    EXPECT_NE(table.find("Shared bank conflicts   0               0               —"), std::string::npos) << table;
    EXPECT_NE(table.find("45.5 %"), std::string::npos);
    EXPECT_NE(table.find("metrics (Nsight Compute names):"), std::string::npos);
    EXPECT_NE(table.find("  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), std::string::npos);
}

TEST(CountersCommand, JsonHoldsEveryReadingAndMetric) {
    const std::string json = ts::cli::counters_json(made_up_report());
    EXPECT_NE(json.find("\"kind\": \"tiled\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"m\": 64"), std::string::npos);
    EXPECT_NE(json.find("\"counter\": \"Global load requests\""), std::string::npos);
    EXPECT_NE(json.find("\"model\": 1024.0"), std::string::npos);
    EXPECT_NE(json.find("\"ratio\": 1.0"), std::string::npos);
    EXPECT_NE(json.find("\"ratio\": null"), std::string::npos) << "the model says 0 bank conflicts";
    EXPECT_NE(json.find("\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\": 1024.0"), std::string::npos);
    EXPECT_NE(json.find("\"sm__warps_active.avg.pct_of_peak_sustained_active\": 1.0"), std::string::npos);
}

TEST(CountersCommand, SizeIsACubeOrThreeSides) {
    ts::cli::CountersOptions options;
    options.size = "256";
    auto cube = ts::cli::resolve_counters(options);
    ASSERT_TRUE(std::holds_alternative<ts::cli::Setup>(cube));
    EXPECT_EQ(std::get<ts::cli::Setup>(cube).problem.k, 256);
    EXPECT_EQ(std::get<ts::cli::Setup>(cube).kernel.kind, ts::model::KernelKind::Tiled) << "the default kernel";
    options.size = "128x64×32";
    auto sides = ts::cli::resolve_counters(options);
    ASSERT_TRUE(std::holds_alternative<ts::cli::Setup>(sides));
    EXPECT_EQ(std::get<ts::cli::Setup>(sides).problem.m, 128);
    EXPECT_EQ(std::get<ts::cli::Setup>(sides).problem.n, 64);
    EXPECT_EQ(std::get<ts::cli::Setup>(sides).problem.k, 32);
    for (const char* bad : {"12x", "1x2", "abc", "0"}) {
        options.size = bad;
        EXPECT_TRUE(std::holds_alternative<std::string>(ts::cli::resolve_counters(options))) << bad;
    }
    options.size = "abc";
    EXPECT_EQ(std::get<std::string>(ts::cli::resolve_counters(options)).rfind("--size", 0), 0u);
}

TEST(CountersCommand, RefusesBadArgumentsWithTwo) {
    ts::testing_support::expect_refused("counters --size 12x",
                                        "tilescope counters: --size expects M (a cube) or MxNxK");
}

TEST(CountersCommand, WithoutAGpuItSaysWhyAndFails) {
    ts::testing_support::expect_refused_without_gpu("counters --kernel tiled --size 256",
                                                    "tilescope counters: no usable GPU: ");
}

}  // namespace
