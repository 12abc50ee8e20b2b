// The runner on a machine where no CUDA device is usable (CI, or a build without CUDA):
// it must explain why, answer every request with that reason, and never block the caller
// of poll(). On a machine with a usable GPU these tests skip; gpu_tests cover it there.
#include <gtest/gtest.h>

#include <chrono>

#include "gpu/runner.hpp"

using namespace ts::gpu;

namespace {

class RunnerWithoutGpu : public ::testing::Test {
protected:
    void SetUp() override {
        m_probed = probe_device();
        if (m_probed.usable)
            GTEST_SKIP() << "a CUDA device is usable here (" << m_probed.limits.name
                         << "); these tests cover machines without one";
    }
    DeviceInfo m_probed;
};

RunRequest small_request() {
    RunRequest request;
    request.problem.m = 8;
    request.problem.n = 8;
    request.problem.k = 8;
    return request;
}


TEST_F(RunnerWithoutGpu, ProbeSaysWhy) {
    EXPECT_FALSE(m_probed.why_not.empty());
    // The same words every time: the app shows them and the runner returns them.
    EXPECT_EQ(probe_device().why_not, m_probed.why_not);
}

TEST_F(RunnerWithoutGpu, RunRequestFailsWithTheReason) {
    const RunRequest request = small_request();
    const RunResult result = run_request(request);
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.error, m_probed.why_not);
    EXPECT_EQ(result.request.problem.m, request.problem.m);
    EXPECT_TRUE(result.samples_ms.empty());
    EXPECT_FALSE(result.checked);
}

TEST_F(RunnerWithoutGpu, DeviceEventuallyReportsUnusable) {
    Runner runner;
    const DeviceInfo device = runner.wait_for_device();
    EXPECT_FALSE(device.usable);
    EXPECT_EQ(device.why_not, m_probed.why_not);
    ASSERT_TRUE(runner.device().has_value());
    EXPECT_EQ(runner.device()->why_not, m_probed.why_not);
}

TEST_F(RunnerWithoutGpu, SubmitReturnsIncreasingIdsAndWaitReturnsFailures) {
    Runner runner;
    // Nothing submitted yet: poll answers at once, without waiting for the probe.
    EXPECT_FALSE(runner.poll().has_value());

    const std::uint64_t first = runner.submit(small_request());
    const std::uint64_t second = runner.submit(small_request());
    const std::uint64_t third = runner.submit(small_request());
    EXPECT_EQ(first, 1u);
    EXPECT_EQ(second, 2u);
    EXPECT_EQ(third, 3u);

    // Out of order on purpose: wait finds its id among the finished results.
    for (std::uint64_t id : {second, third, first}) {
        const RunResult result = runner.wait(id);
        EXPECT_EQ(result.id, id);
        EXPECT_FALSE(result.ok);
        EXPECT_EQ(result.error, m_probed.why_not);
    }
    EXPECT_EQ(runner.pending(), 0);
    EXPECT_FALSE(runner.poll().has_value());  // wait took them all
}

TEST_F(RunnerWithoutGpu, PollNeverBlocks) {
    Runner runner;
    constexpr int kRequests = 20;
    for (int i = 0; i < kRequests; ++i) runner.submit(small_request());

    // Collect every result by polling, as the UI does once per frame; no single poll may
    // take long even while the worker is probing or running requests.
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    Clock::duration slowest{};
    int received = 0;
    while (received < kRequests && Clock::now() < deadline) {
        const auto before = Clock::now();
        std::optional<RunResult> result = runner.poll();
        slowest = std::max(slowest, Clock::now() - before);
        if (result) {
            EXPECT_FALSE(result->ok);
            ++received;
        }
    }
    EXPECT_EQ(received, kRequests);
    EXPECT_LT(slowest, std::chrono::milliseconds(50));
}

}  // namespace
