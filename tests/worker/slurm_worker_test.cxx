// `--gpu slurm` tested with the real parts (issue #46): the supervisor runs worker_argv()'s
// exact `srun --gres=gpu:1 … tilescope worker` with the system's srun, which asks a real
// one-node cluster of the test's own (tests/worker/slurm_cluster.hpp) for its GPU; the node runs
// the fake worker as `tilescope`: no GPU anywhere. Where Slurm or MUNGE is not installed, the
// tests are skipped with that reason.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <variant>

#include "fake_worker.hpp"
#include "launcher_kills.hpp"
#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "gpu/worker_target.hpp"
#include "slurm_cluster.hpp"

namespace {

using namespace ts::gpu;
using ts::test::FakeSeed;
using ts::testing_support::request_of;
using ts::testing_support::survive_launcher_kills;
using ts::testing_support::ScopedEnvironment;
using ts::testing_support::SlurmCluster;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point begun) { return std::chrono::duration<double>(Clock::now() - begun).count(); }

// The supervisor's options for `--gpu SPEC` (slurm or slurm:PARTITION), as the app builds them,
// with a shorter probe limit and reconnection delay; the heartbeat is the app's own.
SupervisorOptions through_srun(const std::string& spec) {
    auto target = parse_worker_target(spec);
    EXPECT_TRUE(std::holds_alternative<WorkerTarget>(target)) << std::get<std::string>(target);
    SupervisorOptions options = supervisor_options(std::get<WorkerTarget>(target));
    options.probe_timeout_s = 20.0;
    options.min_deadline_s = 5.0;
    options.reconnect_delays_s = {0.2};
    return options;
}


// The test's cluster, whose node runs the fake worker, and this process's SLURM_CONF and PATH
// set for it until the test ends (after the Runner, declared later, is gone); the test is
// skipped where Slurm or MUNGE is not installed.
#define START_CLUSTER(cluster)                                                              \
    if (const auto why = ts::testing_support::why_no_slurm()) GTEST_SKIP() << *why;         \
    SlurmCluster cluster(std::filesystem::absolute(FAKE_WORKER_PATH).string());            \
    ASSERT_TRUE(cluster.ok()) << cluster.why();                                             \
    ScopedEnvironment cluster##_client(cluster.env())

TEST(SlurmWorker, ProbesAndRunsThroughSrun) {
    START_CLUSTER(cluster);
    const SupervisorOptions options = through_srun("slurm");
    ASSERT_EQ(options.worker_command.front(), "srun");  // the system's srun, found on PATH
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend(options, stats));
    const DeviceInfo device = runner.wait_for_device();
    ASSERT_TRUE(device.usable) << device.why_not << "\n" << cluster.log();
    // The fake worker names itself by its pid: a process other than this one, started by slurmd.
    EXPECT_EQ(device.limits.name.rfind("Fake GPU ", 0), 0u) << device.limits.name;
    EXPECT_NE(device.limits.name, "Fake GPU " + std::to_string(getpid()));
    // The worker is a job of the cluster's default partition, holding its GPU ("gres:gpu:1";
    // Slurm 23.02 and later write "gres/gpu:1").
    const std::string job = cluster.queue("%P %b");
    EXPECT_EQ(job.rfind(std::string(SlurmCluster::kPartition) + " gres", 0), 0u) << job;
    EXPECT_TRUE(job.ends_with("gpu:1\n")) << job;
    for (std::int64_t m : {80, 96, 112}) {
        const RunResult result = runner.wait(runner.submit(request_of(1, m)));
        EXPECT_TRUE(result.ok) << result.error;
        EXPECT_EQ(result.median_ms, static_cast<double>(m));  // the fake worker's answer, as it is locally
        EXPECT_EQ(result.request.problem.m, m);
    }
    // A failure on the node comes back as it does locally.
    const RunResult lost = runner.wait(runner.submit(request_of(static_cast<std::uint64_t>(FakeSeed::ContextLost), 64)));
    EXPECT_FALSE(lost.ok);
    EXPECT_NE(lost.error.find("illegal memory access"), std::string::npos) << lost.error;
    const RunResult after = runner.wait(runner.submit(request_of(1, 128)));
    EXPECT_TRUE(after.ok) << after.error << "\n" << cluster.log();
    EXPECT_EQ(after.median_ms, 128.0);
    EXPECT_EQ(stats->started, 2);  // the first srun, and one after the lost context
}

// slurm:PARTITION reaches srun as --partition: the cluster's own partition runs the worker, and
// a partition the cluster does not have ends the probe with srun's own sentence, at once.
TEST(SlurmWorker, ANamedPartitionRunsAndAnUnknownOneFailsWithSrunsSentence) {
    START_CLUSTER(cluster);
    {
        Runner runner(supervised_backend(through_srun(std::string("slurm:") + SlurmCluster::kPartition)));
        const DeviceInfo device = runner.wait_for_device();
        ASSERT_TRUE(device.usable) << device.why_not << "\n" << cluster.log();
        EXPECT_EQ(cluster.queue("%P"), std::string(SlurmCluster::kPartition) + "\n");
        const RunResult result = runner.wait(runner.submit(request_of(1, 72)));
        EXPECT_TRUE(result.ok) << result.error;
        EXPECT_EQ(result.median_ms, 72.0);
    }
    const Clock::time_point begun = Clock::now();
    Runner runner(supervised_backend(through_srun("slurm:nosuch")));
    const DeviceInfo device = runner.wait_for_device();
    const double seconds = seconds_since(begun);
    EXPECT_FALSE(device.usable);
    EXPECT_NE(device.why_not.find("could not connect to a Slurm node of nosuch for starting CUDA: srun exited with status 1"),
              std::string::npos)
        << device.why_not;
    // srun's last line on stderr: "srun: error: Unable to allocate resources: Invalid partition name specified".
    EXPECT_NE(device.why_not.find("Invalid partition name specified)"), std::string::npos) << device.why_not;
    EXPECT_LT(seconds, 10.0);  // the probe's own limit is 20 s: it was srun that ended it
    std::printf("unknown partition: \"%s\" after %.2f s\n", device.why_not.c_str(), seconds);
}

// Issue #22's kill, with Slurm between: the process the supervisor started (and kills, and
// restarts) is srun. SIGKILL leaves srun no moment to cancel its job; the child srun forks to
// watch over it does, and the restarted srun gets the node's one GPU at the scheduler's next
// pass (about 3 s here), within the heartbeat's 5 s. Each killed request fails with the
// supervisor's sentence, and the next one runs in a new job.
TEST(SlurmWorker, SrunKilledMidRequestFailsOnlyThatRequest) {
    START_CLUSTER(cluster);
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend(through_srun("slurm"), stats));
    ASSERT_TRUE(runner.wait_for_device().usable) << cluster.log();
    constexpr int kKills = 3;
    const Clock::time_point begun = Clock::now();
    // srun's last line on stderr ("srun: job 7 has been allocated resources", once it had to wait)
    // may stand between the two.
    const int survived = survive_launcher_kills(
        runner, *stats, kKills,
        "the connection to a Slurm node was lost during tiled T=1 float 2048³: srun killed by signal 9 (SIGKILL: Killed)",
        "; reconnecting in 0.2 s", [&] { return cluster.log(); });
    EXPECT_EQ(survived, kKills);
    const double seconds = seconds_since(begun);
    std::printf("srun killed mid-request: %d of %d kills survived, %.1f s in all (%.2f s a round)\n", survived, kKills,
                seconds, seconds / kKills);
    RecordProperty("kills_survived", survived);
}

// A GPU busy with another job: srun waits in the queue, silent, and the worker starts once that
// job ends: until its handshake a new worker is held to the probe's limit, not the heartbeat's.
TEST(SlurmWorker, AWorkerQueuedBehindAnotherJobStartsWhenTheGpuIsFree) {
    START_CLUSTER(cluster);
    constexpr int kOccupiedS = 8;
    ASSERT_TRUE(cluster.occupy_gpu(kOccupiedS)) << cluster.why() << "\n" << cluster.log();
    const Clock::time_point begun = Clock::now();
    Runner runner(supervised_backend(through_srun("slurm")));
    const DeviceInfo device = runner.wait_for_device();
    const double seconds = seconds_since(begun);
    EXPECT_TRUE(device.usable) << device.why_not << "\n" << cluster.log();
    EXPECT_GT(seconds, kOccupiedS - 2.0);
    std::printf("queued behind another job: \"%s\" after %.2f s\n", device.usable ? "usable" : device.why_not.c_str(), seconds);
}

// A worker the supervisor stops itself (here: it sent something that is not a message) leaves
// no job holding the GPU, and the next request runs on a new worker. The supervisor kills srun
// alone, with SIGKILL, and the child srun forks to watch over it cancels its job; were that
// child killed too (the process group, say), the old worker would keep the GPU until an
// administrator's scancel, or the cluster's InactiveLimit where one is set.
TEST(SlurmWorker, AWorkerTheSupervisorStopsLeavesNoJobHoldingTheGpu) {
    START_CLUSTER(cluster);
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend(through_srun("slurm"), stats));
    ASSERT_TRUE(runner.wait_for_device().usable) << cluster.log();
    const RunResult garbled = runner.wait(runner.submit(request_of(static_cast<std::uint64_t>(FakeSeed::Garbage), 64)));
    EXPECT_FALSE(garbled.ok);
    EXPECT_NE(garbled.error.find("it sent something that is not a message"), std::string::npos) << garbled.error;
    const RunResult next = runner.wait(runner.submit(request_of(1, 90)));
    EXPECT_TRUE(next.ok) << next.error << "\nsqueue: " << cluster.queue("%i %T %R");
    EXPECT_EQ(next.median_ms, 90.0);
}

}  // namespace
