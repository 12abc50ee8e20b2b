// --lab-benchmark's state machine with a fake clock and results handed over by hand, as
// exchange_with_runner would: latencies from the change's frame, superseded results counted
// and not kept, and an end after N changes or at the first reason to stop.
#include <gtest/gtest.h>

#include "views/lab/lab_benchmark.hpp"
#include "views/lab/latency_view.hpp"

using namespace ts::views;
using ts::gpu::RunRequest;
using ts::gpu::RunResult;

namespace {

using Sent = std::vector<std::pair<std::string, RunRequest>>;

AppState with_gpu() {
    AppState state;
    state.device = ts::gpu::DeviceInfo{};
    state.device->usable = true;
    state.device->limits.name = "Fake GPU";
    return state;
}

// exchange_with_runner's half that submits.
Sent submit(LabState& lab) {
    Sent sent = lab.measured.to_submit;
    lab.measured.in_flight += static_cast<int>(sent.size());
    lab.measured.to_submit.clear();
    return sent;
}

// exchange_with_runner's half that takes a finished result.
void arrive(LabState& lab, const std::pair<std::string, RunRequest>& request, bool ok = true,
            std::uint64_t superseded_by = 0) {
    RunResult result;
    result.request = request.second;
    result.live_key = request.first;
    result.ok = ok;
    result.error = ok ? "" : "launch failed";
    result.samples_ms = {1.0};
    result.median_ms = result.p20_ms = result.p80_ms = 1.0;
    result.superseded_by = superseded_by;
    take_live_result(lab.measured, lab.panels, result);
}

TEST(LabBenchmark, TimesEachChangeToItsFirstAndLastPoint) {
    AppState state = with_gpu();
    LabBenchmark bench(2, {512, 1024});

    bench.on_frame(state.lab, state, 0.000);  // change 1
    // naive, naive-row, T = 32, warptile, tuned, cuBLAS: first a quick preview of each, then the full,
    // adaptive and checked measurement that replaces it.
    ASSERT_EQ(state.lab.measured.to_submit.size(), 12u);
    for (std::size_t i = 0; i < 12; ++i) {
        const auto& [key, request] = state.lab.measured.to_submit[i];
        EXPECT_EQ(request.problem.m, 512) << key;
        EXPECT_EQ(request.adaptive, i >= 6) << key;
        EXPECT_EQ(key.rfind(i < 6 ? "latency/preview/" : "latency/full/", 0), 0u) << key;
    }
    const Sent first = submit(state.lab);
    bench.on_frame(state.lab, state, 0.010);
    arrive(state.lab, first[0]);
    bench.on_frame(state.lab, state, 0.030);
    for (std::size_t i = 1; i < first.size(); ++i) arrive(state.lab, first[i]);
    bench.on_frame(state.lab, state, 0.050);  // change 1 complete; change 2
    ASSERT_EQ(state.lab.measured.to_submit.size(), 12u);
    EXPECT_EQ(state.lab.measured.to_submit.front().second.problem.m, 1024);
    EXPECT_FALSE(bench.finished());

    const Sent second = submit(state.lab);
    bench.on_frame(state.lab, state, 0.060);
    for (const auto& request : second) arrive(state.lab, request);
    bench.on_frame(state.lab, state, 0.150);
    EXPECT_TRUE(bench.finished());
    EXPECT_FALSE(bench.failure());
    EXPECT_TRUE(state.lab.measured.to_submit.empty()) << "no change after the last";

    ASSERT_EQ(bench.first_point_ms().size(), 2u);
    EXPECT_NEAR(bench.first_point_ms()[0], 30.0, 1e-9);
    EXPECT_NEAR(bench.first_point_ms()[1], 100.0, 1e-9);
    ASSERT_EQ(bench.all_points_ms().size(), 2u);
    EXPECT_NEAR(bench.all_points_ms()[0], 50.0, 1e-9);
    EXPECT_NEAR(bench.all_points_ms()[1], 100.0, 1e-9);
    const std::vector<double> frames = {10, 20, 20, 10, 90};
    ASSERT_EQ(bench.frame_ms().size(), frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_NEAR(bench.frame_ms()[i], frames[i], 1e-9) << i;
    EXPECT_EQ(state.lab.measured.live_points.size(), 12u);
    EXPECT_EQ(bench.superseded(), 0);

    const std::string report = bench.report();
    EXPECT_NE(report.find("Fake GPU: 2 changes of the size (512, 1024), 12 requests each"), std::string::npos) << report;
    EXPECT_NE(report.find("first new point: median 65.0 ms, p90 100.0 ms, max 100.0 ms"), std::string::npos) << report;
    EXPECT_NE(report.find("5 frames: median 20.0 ms, p90 90.0 ms, max 90.0 ms"), std::string::npos) << report;
}

TEST(LabBenchmark, SupersededResultsAreCountedNotTakenForPoints) {
    AppState state = with_gpu();
    // A measurement the user started is still running when the benchmark changes the size.
    measure_latency_now(state.lab);
    const Sent older = submit(state.lab);
    LabBenchmark bench(1, {256});
    bench.on_frame(state.lab, state, 0.0);
    const Sent newer = submit(state.lab);
    for (std::size_t i = 0; i < older.size(); ++i) arrive(state.lab, older[i], true, 100 + i);
    bench.on_frame(state.lab, state, 0.020);
    EXPECT_TRUE(bench.first_point_ms().empty()) << "a superseded result is no new point";
    EXPECT_EQ(bench.superseded(), 12);
    for (const auto& request : newer) arrive(state.lab, request);
    bench.on_frame(state.lab, state, 0.045);
    EXPECT_TRUE(bench.finished());
    ASSERT_EQ(bench.first_point_ms().size(), 1u);
    EXPECT_NEAR(bench.first_point_ms()[0], 45.0, 1e-9);
    EXPECT_NE(bench.report().find("superseded requests: 12"), std::string::npos);
}

TEST(LabBenchmark, FailedRequestStopsWithItsError) {
    AppState state = with_gpu();
    LabBenchmark bench(3, {2048});
    bench.on_frame(state.lab, state, 0.0);
    const Sent sent = submit(state.lab);
    for (std::size_t i = 0; i < sent.size(); ++i) arrive(state.lab, sent[i], i != 2);
    bench.on_frame(state.lab, state, 0.1);
    ASSERT_TRUE(bench.failure());
    EXPECT_NE(bench.failure()->find("1 of 12 requests failed"), std::string::npos) << *bench.failure();
    EXPECT_NE(bench.failure()->find("launch failed"), std::string::npos) << *bench.failure();
    EXPECT_FALSE(bench.finished());
}

TEST(LabBenchmark, NoResultInTimeStops) {
    AppState state = with_gpu();
    LabBenchmark bench(1, {1024}, 5.0);
    bench.on_frame(state.lab, state, 0.0);
    submit(state.lab);
    bench.on_frame(state.lab, state, 4.0);
    EXPECT_FALSE(bench.failure());
    bench.on_frame(state.lab, state, 5.5);
    ASSERT_TRUE(bench.failure());
    EXPECT_NE(bench.failure()->find("not every result was back after 5 s"), std::string::npos) << *bench.failure();
}

TEST(LabBenchmark, NoGpuStopsAtOnceWithTheReason) {
    AppState state;
    LabBenchmark bench(5, {512}, 10.0);
    bench.on_frame(state.lab, state, 0.0);  // still probing
    EXPECT_FALSE(bench.failure());
    state.device = ts::gpu::DeviceInfo{};
    state.device->why_not = "no NVIDIA driver found";
    bench.on_frame(state.lab, state, 0.5);
    ASSERT_TRUE(bench.failure());
    EXPECT_EQ(*bench.failure(), "no usable GPU: no NVIDIA driver found");
    EXPECT_TRUE(state.lab.measured.to_submit.empty());

    AppState probing;
    LabBenchmark silent(5, {512}, 10.0);
    silent.on_frame(probing.lab, probing, 0.0);
    silent.on_frame(probing.lab, probing, 11.0);
    ASSERT_TRUE(silent.failure());
    EXPECT_NE(silent.failure()->find("no answer"), std::string::npos) << *silent.failure();
}

TEST(LabBenchmark, SpreadIsMedianNearestRankP90AndMax) {
    const Spread odd = spread({5, 1, 3, 2, 4});
    EXPECT_EQ(odd.median, 3);
    EXPECT_EQ(odd.p90, 5);
    EXPECT_EQ(odd.max, 5);
    const Spread ten = spread({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
    EXPECT_EQ(ten.median, 5.5);
    EXPECT_EQ(ten.p90, 9);
    EXPECT_EQ(ten.max, 10);
}

}  // namespace
