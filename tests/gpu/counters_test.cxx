// gpu: the hardware's own counters through CUPTI, beside the model. Global load requests and
// sectors are deterministic, so the model's must be exact; DRAM bytes must lie near the
// compulsory traffic. Skips without a usable GPU, and, saying so, without the profiling
// permission (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) or without CUPTI.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gpu/runner.hpp"
#include "model/counters.hpp"
#include "support/gpu_skip.hpp"

namespace ts::gpu {
namespace {

RunResult read(model::KernelConfig config, std::int64_t size) {
    RunRequest request;
    request.kind = RequestKind::Counters;
    request.kernel = config;
    request.problem.m = request.problem.n = request.problem.k = size;
    return run_request(request);
}

// Skips when the counters cannot be read here for a reason that is the machine's, not ours.
#define SKIP_WITHOUT_COUNTERS(result)                                                                   \
    do {                                                                                                \
        if (!(result).ok && ((result).error == model::counters_permission_help() ||                     \
                             (result).error.find("CUPTI (libcupti.so.13) was not found") != std::string::npos)) \
            GTEST_SKIP() << (result).error;                                                             \
    } while (0)

const model::CounterReading& reading(const model::CounterReport& report, model::Counter counter) {
    for (const model::CounterReading& r : report.readings)
        if (r.counter == counter) return r;
    throw std::runtime_error("no reading");
}

TEST(Counters, TiledRequestsAndSectorsAreTheModelsExactly) {
    SKIP_WITHOUT_GPU();
    model::KernelConfig tiled;
    tiled.kind = model::KernelKind::Tiled;
    tiled.tile = 16;
    const RunResult result = read(tiled, 256);
    SKIP_WITHOUT_COUNTERS(result);
    ASSERT_TRUE(result.ok) << result.error;
    ASSERT_TRUE(result.counters.has_value());
    const model::CounterReport& report = *result.counters;
    ASSERT_EQ(report.readings.size(), std::size(model::kAllCounters));
    EXPECT_EQ(report.metrics.size(), model::all_counter_metrics().size());
    EXPECT_GE(report.passes, 1);

    // 16 × 16 blocks × 16 phases × 8 warps × 2 loads; 4 sectors each.
    const auto& requests = reading(report, model::Counter::GlobalLoadRequests);
    ASSERT_TRUE(requests.model.has_value());
    EXPECT_EQ(*requests.model, 16.0 * 16 * 16 * 8 * 2);
    EXPECT_EQ(requests.measured, *requests.model);
    const auto& sectors = reading(report, model::Counter::GlobalLoadSectors);
    ASSERT_TRUE(sectors.model.has_value());
    EXPECT_EQ(sectors.measured, *sectors.model);

    // A, B and C are 256 KiB each, L2 was cleaned: every byte of A and B is read from DRAM
    // at least once, and not many times (they fit in L2 together).
    const auto& dram = reading(report, model::Counter::DramBytes);
    ASSERT_TRUE(dram.model.has_value());
    EXPECT_GT(dram.measured, 0.5 * *dram.model) << report.note;
    EXPECT_LT(dram.measured, 3.0 * *dram.model) << report.note;

    const auto& occupancy = reading(report, model::Counter::AchievedOccupancy);
    EXPECT_GT(occupancy.measured, 0.0);
    EXPECT_LE(occupancy.measured, 100.0);
    EXPECT_LE(occupancy.measured, *occupancy.model + 1.0) << "achieved above theoretical: " << occupancy.model_basis;
}

// After a reading the worker can go on: a second reading and a measurement work.
TEST(Counters, TheProfilerIsGoneAfterwards) {
    SKIP_WITHOUT_GPU();
    model::KernelConfig naive;
    naive.kind = model::KernelKind::Naive;
    const RunResult first = read(naive, 128);
    SKIP_WITHOUT_COUNTERS(first);
    ASSERT_TRUE(first.ok) << first.error;
    const RunResult second = read(naive, 128);
    ASSERT_TRUE(second.ok) << second.error;
    EXPECT_EQ(first.counters->metrics[0].second, second.counters->metrics[0].second);

    RunRequest measure;
    measure.kernel = naive;
    measure.problem.m = measure.problem.n = measure.problem.k = 128;
    const RunResult measured = run_request(measure);
    EXPECT_TRUE(measured.ok) << measured.error;
    EXPECT_TRUE(measured.check_passed);
}

// cuBLAS: measured, with no model value but the compulsory DRAM bytes.
TEST(Counters, CublasIsMeasuredWithoutAModel) {
    SKIP_WITHOUT_GPU();
    model::KernelConfig cublas;
    cublas.kind = model::KernelKind::Cublas;
    const RunResult result = read(cublas, 256);
    SKIP_WITHOUT_COUNTERS(result);
    if (!result.ok && result.unsupported) GTEST_SKIP() << result.error;
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_FALSE(reading(*result.counters, model::Counter::GlobalLoadRequests).model.has_value());
    EXPECT_GT(reading(*result.counters, model::Counter::GlobalLoadRequests).measured, 0.0);
    EXPECT_TRUE(reading(*result.counters, model::Counter::DramBytes).model.has_value());
}

}  // namespace
}  // namespace ts::gpu
