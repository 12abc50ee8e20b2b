// Issue #22 on a real GPU: SIGKILL sent to the window's GPU worker in the middle of a
// measurement (as a person did on an H200, 4 s into `tilescope --view tuning --run`). The
// failed result's sentence names the request (kernel, dtype, size) and the signal and says the
// worker was restarted; the restarted worker measures the next request. Skips without a
// usable device.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <thread>

#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "support/gpu_skip.hpp"

namespace {

using namespace ts::gpu;

TEST(WorkerOnGpu, AWorkerKilledMidRequestNamesTheRequestAndTheSignal) {
    SKIP_WITHOUT_GPU();
    auto stats = std::make_shared<SupervisorStats>();
    // A deadline far above the request's few seconds: only the kill may end it.
    Runner runner(supervised_backend({.worker_command = {WORKER_PATH, "worker"}, .min_deadline_s = 120.0}, stats));
    ASSERT_TRUE(runner.wait_for_device().usable) << runner.wait_for_device().why_not;

    RunRequest warm;
    warm.kernel = {ts::model::KernelKind::Tiled, 16, 16, 16};
    warm.problem = {256, 256, 256, 1, ts::model::Dtype::Float32};
    warm.timed_launches = 5;
    const RunResult first = runner.wait(runner.submit(warm));
    ASSERT_TRUE(first.ok) << first.error;  // CUDA is up in the worker: the next request starts at once

    // Tiled T=16 at 4096³, 400 launches with L2 flushed before each: several seconds on an
    // H100 or H200 (about 20 ms a launch), unchecked (the CPU reference would take minutes).
    RunRequest slow = warm;
    slow.problem = {4096, 4096, 4096, 1, ts::model::Dtype::Float32};
    slow.timed_launches = 400;
    slow.check = false;
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t id = runner.submit(slow);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const int pid = stats->worker_pid;
    ASSERT_GT(pid, 0);
    ASSERT_EQ(runner.pending(), 1) << "the slow request should still be running";
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    const RunResult killed = runner.wait(id);
    const double waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_FALSE(killed.ok) << "it finished before the kill (" << killed.median_ms << " ms a launch): make it longer";
    EXPECT_EQ(killed.error,
              "the GPU worker stopped during tiled T=16 float 4096³: killed by signal 9 (SIGKILL: Killed); it was restarted");
    EXPECT_LT(waited_s, 10.0) << "the supervisor noticed the kill late";
    EXPECT_EQ(stats->restarts, 1);

    const RunResult after = runner.wait(runner.submit(warm));
    EXPECT_TRUE(after.ok) << after.error;
    EXPECT_TRUE(after.check_passed) << after.check_summary;
    EXPECT_EQ(stats->restarts, 1);
    EXPECT_NE(stats->worker_pid, pid);
}

}  // namespace
