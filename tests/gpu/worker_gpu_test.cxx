// The window's GPU worker process on a real GPU: a kernel that faults costs a restart of the
// worker and the next measurement in the same app session succeeds; a worker killed in the
// middle of a sweep loses only the point it was measuring. Skips without a usable device.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <thread>

#include "fault_worker.hpp"
#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "support/gpu_skip.hpp"

namespace {

using namespace ts::gpu;

RunRequest tiled(std::int64_t size, std::uint64_t seed = 1) {
    RunRequest request;
    request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 16};
    request.problem = {size, size, size, 1, ts::model::Dtype::Float32};
    request.seed = seed;
    request.timed_launches = 5;
    return request;
}

TEST(WorkerOnGpu, AFaultingKernelRestartsTheWorkerAndTheNextRequestRuns) {
    SKIP_WITHOUT_GPU();
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend({.worker_command = {FAULT_WORKER_PATH}}, stats));
    ASSERT_TRUE(runner.wait_for_device().usable) << runner.wait_for_device().why_not;
    const RunResult fault = runner.wait(runner.submit(tiled(64, ts::test::kFaultSeed)));
    EXPECT_FALSE(fault.ok);
    EXPECT_NE(fault.error.find("illegal memory access"), std::string::npos) << fault.error;
    EXPECT_NE(fault.error.find("restarted"), std::string::npos) << fault.error;
    const RunResult after = runner.wait(runner.submit(tiled(256)));
    EXPECT_TRUE(after.ok) << after.error;
    EXPECT_TRUE(after.check_passed) << after.check_summary;
    EXPECT_EQ(stats->restarts, 1);
}

TEST(WorkerOnGpu, AWorkerKilledMidSweepLosesOnlyThePointItWasMeasuring) {
    SKIP_WITHOUT_GPU();
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend({.worker_command = {WORKER_PATH, "worker"}}, stats));
    ASSERT_TRUE(runner.wait_for_device().usable) << runner.wait_for_device().why_not;
    std::vector<std::uint64_t> ids;
    // Large enough that each takes a while: the kill lands inside one of them.
    for (std::int64_t size : {256, 512, 2048, 2048, 1024, 512}) {
        RunRequest request = tiled(size);
        request.timed_launches = size >= 2048 ? 200 : 5;
        ids.push_back(runner.submit(request));
    }
    const RunResult first = runner.wait(ids[0]);
    const RunResult second = runner.wait(ids[1]);
    ASSERT_TRUE(first.ok && second.ok) << first.error << second.error;
    // The third is running now (2048³, 200 launches: about a second on an H100 or H200).
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const int pid = stats->worker_pid;
    ASSERT_GT(pid, 0);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int failed = 0;
    for (std::size_t i = 2; i < ids.size(); ++i) {
        const RunResult result = runner.wait(ids[i]);
        if (!result.ok) {
            ++failed;
            EXPECT_NE(result.error.find("killed by signal 9"), std::string::npos) << result.error;
            EXPECT_NE(result.error.find("it was restarted"), std::string::npos) << result.error;
        } else {
            EXPECT_TRUE(result.check_passed) << result.check_summary;
        }
    }
    EXPECT_EQ(failed, 1) << "only the point being measured is lost";
    EXPECT_EQ(stats->restarts, 1);
}

}  // namespace
