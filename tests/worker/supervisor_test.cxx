// The supervisor of the GPU worker process, driven with a fake worker that crashes, hangs,
// freezes, writes garbage, closes its pipe or loses its CUDA context on request: each time
// the request fails with what happened, the worker is restarted, and the next request runs.
#include <gtest/gtest.h>

#include <signal.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "fake_worker.hpp"
#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "gpu/wire.hpp"

namespace {

using namespace ts::gpu;
using ts::test::FakeSeed;

struct Supervised {
    std::shared_ptr<SupervisorStats> stats = std::make_shared<SupervisorStats>();
    Runner runner;
    Supervised()
        : runner(supervised_backend({.worker_command = {FAKE_WORKER_PATH},
                                     .heartbeat_timeout_s = 1.0,
                                     .probe_timeout_s = 10.0,
                                     .min_deadline_s = 2.0},
                                    stats)) {}
    RunResult run(std::uint64_t seed, std::int64_t m = 64) {
        RunRequest request;
        request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 32};
        request.problem = {m, m, m, 1, ts::model::Dtype::Float32};
        request.seed = seed;
        return runner.wait(runner.submit(request));
    }
};

// After a failure: the next request (of size m) runs in the worker started once more.
void expect_next_request_runs(Supervised& s, std::int64_t m = 96) {
    const RunResult next = s.run(1, m);
    EXPECT_TRUE(next.ok) << next.error;
    EXPECT_EQ(next.median_ms, static_cast<double>(m));
    EXPECT_EQ(s.stats->restarts, 1);
}

// A request that makes the fake worker fail as `seed` says fails with `why`; the next one runs.
void expect_recovers(FakeSeed seed, const std::string& why) {
    Supervised s;
    const RunResult failed = s.run(static_cast<std::uint64_t>(seed));
    EXPECT_FALSE(failed.ok);
    EXPECT_NE(failed.error.find("the GPU worker stopped during tiled T=32 float 64³: "), std::string::npos)
        << failed.error;
    EXPECT_NE(failed.error.find(why), std::string::npos) << failed.error;
    EXPECT_NE(failed.error.find("it was restarted"), std::string::npos) << failed.error;
    expect_next_request_runs(s);
}

TEST(Supervisor, ProbesAndRunsInAnotherProcess) {
    Supervised s;
    const DeviceInfo device = s.runner.wait_for_device();
    EXPECT_TRUE(device.usable) << device.why_not;
    EXPECT_EQ(device.limits.name.rfind("Fake GPU ", 0), 0u);
    EXPECT_NE(device.limits.name, "Fake GPU " + std::to_string(getpid()));
    const RunResult result = s.run(1, 80);
    EXPECT_TRUE(result.ok) << result.error;
    EXPECT_EQ(result.median_ms, 80.0);
    EXPECT_EQ(s.stats->started, 1);
}

TEST(Supervisor, ACrashFailsThatRequestOnly) { expect_recovers(FakeSeed::Crash, "killed by signal 11"); }
TEST(Supervisor, AKernelThatNeverEndsIsStoppedAtItsDeadline) { expect_recovers(FakeSeed::Hang, "took longer than 5 s"); }
TEST(Supervisor, AWorkerWithoutHeartbeatIsStopped) { expect_recovers(FakeSeed::Freeze, "stopped answering for 1.0 s"); }
TEST(Supervisor, GarbageIsNoMessage) { expect_recovers(FakeSeed::Garbage, "sent something that is not a message"); }
// A worker whose output is closed under it stops by itself (its turn at a shared GPU must end).
TEST(Supervisor, AClosedPipeIsAStoppedWorker) {
    expect_recovers(FakeSeed::ClosePipe, "exited with status 4 (tilescope worker: its output was closed");
}

// The worker's last line on stderr comes with how it ended (ssh's "Permission denied" over --gpu ssh://).
TEST(Supervisor, AStoppedWorkersLastStderrLineIsInTheSentence) {
    expect_recovers(FakeSeed::SaysWhyAndExits, std::string("exited with status 3 (") + ts::test::kFakeWorkerLastWords + ")");
}

TEST(Supervisor, ALostCudaContextRestartsTheWorker) {
    Supervised s;
    const RunResult failed = s.run(static_cast<std::uint64_t>(FakeSeed::ContextLost));
    EXPECT_FALSE(failed.ok);
    EXPECT_NE(failed.error.find("illegal memory access"), std::string::npos) << failed.error;
    EXPECT_NE(failed.error.find("was restarted"), std::string::npos) << failed.error;
    expect_next_request_runs(s);
}

TEST(Supervisor, ASlowRequestThatBeatsIsWaitedFor) {
    Supervised s;
    const RunResult slow = s.run(static_cast<std::uint64_t>(FakeSeed::Slow));
    EXPECT_TRUE(slow.ok) << slow.error;  // 1.5 s with a 1 s heartbeat timeout: the beats count
    EXPECT_EQ(s.stats->restarts, 0);
}

TEST(Supervisor, QueuedRequestsRunAfterACrash) {
    Supervised s;
    RunRequest request;
    request.problem = {64, 64, 64, 1, ts::model::Dtype::Float32};
    request.seed = static_cast<std::uint64_t>(FakeSeed::Crash);
    const auto crash = s.runner.submit(request);
    std::vector<std::uint64_t> after;
    for (std::int64_t m : {10, 20, 30}) {
        request.seed = 1;
        request.problem.m = m;
        after.push_back(s.runner.submit(request));
    }
    EXPECT_FALSE(s.runner.wait(crash).ok);
    for (std::size_t i = 0; i < after.size(); ++i) {
        const RunResult result = s.runner.wait(after[i]);
        EXPECT_TRUE(result.ok) << result.error;
        EXPECT_EQ(result.median_ms, 10.0 * static_cast<double>(i + 1));
    }
}

// Issue #22: SIGKILL sent to the worker from outside while it measures (a person did it on an
// H200). The failed result names what was running (kernel, dtype, size) and the signal, says
// the worker was restarted, and the next request succeeds.
TEST(Supervisor, AWorkerKilledMidRequestSaysWhatRanAndWhatHappened) {
    Supervised s;
    RunRequest request;
    request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 1};
    request.problem = {2048, 2048, 2048, 1, ts::model::Dtype::Float32};
    request.seed = static_cast<std::uint64_t>(FakeSeed::Slow);  // 1.5 s, beating all along
    const auto id = s.runner.submit(request);
    // Once the worker has it: it was started to probe, and the request follows at once.
    ASSERT_TRUE(s.runner.wait_for_device().usable);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    const int pid = s.stats->worker_pid;
    ASSERT_GT(pid, 0);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    const RunResult killed = s.runner.wait(id);
    EXPECT_FALSE(killed.ok);
    EXPECT_EQ(killed.error,
              "the GPU worker stopped during tiled T=1 float 2048³: killed by signal 9 (SIGKILL: Killed); it was restarted");
    EXPECT_EQ(s.stats->last_stop, killed.error);
    expect_next_request_runs(s, 128);
}

// What the sentences call a request: its point (kernel, dtype, size and batch).
TEST(Supervisor, RequestsAreNamedByKernelDtypeAndSize) {
    RunRequest request;
    request.kernel = {ts::model::KernelKind::Naive, 32, 8, 16};
    request.problem = {512, 256, 128, 4, ts::model::Dtype::Float64};
    EXPECT_EQ(describe_point(request), "naive 32×8 double 512×256×128 (batch 4)");
    request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 32};
    request.problem = {4096, 4096, 4096, 1, ts::model::Dtype::Int32};
    EXPECT_EQ(describe_point(request), "tiled T=32 int32 4096³");
    request.kernel = {ts::model::KernelKind::Cublas};
    request.problem = {4096, 4096, 4096, 1, ts::model::Dtype::Fp8E4M3, ts::model::Fp8Scaling::Block};
    EXPECT_EQ(describe_point(request), "cublas fp8 (block scales) 4096³") << "fp8 names its scaling";
    request.user.emplace().name = "mine.cu";
    request.problem = {127, 129, 65, 1, ts::model::Dtype::Float32};
    EXPECT_EQ(describe_point(request), "yours: mine.cu float 127×129×65");
    request.kind = RequestKind::UserCompile;
    EXPECT_EQ(describe_point(request), "compiling yours: mine.cu");
}

TEST(Supervisor, AMissingWorkerProgramIsReported) {
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend({.worker_command = {"/nonexistent/tilescope"}, .probe_timeout_s = 5.0}, stats));
    const DeviceInfo device = runner.wait_for_device();
    EXPECT_FALSE(device.usable);
    EXPECT_NE(device.why_not.find("the GPU worker stopped during starting CUDA: exited with status 127"),
              std::string::npos)
        << device.why_not;
}

// A launcher named without a path ("ssh", "srun" of --gpu) is looked up in $PATH before
// anything is started, and one that is not there says so.
TEST(Supervisor, ALauncherNotOnPathIsReported) {
    Runner runner(supervised_backend({.worker_command = {"tilescope-no-such-launcher", "worker"}, .probe_timeout_s = 5.0}));
    const DeviceInfo device = runner.wait_for_device();
    EXPECT_FALSE(device.usable);
    EXPECT_NE(device.why_not.find("cannot start the GPU worker: tilescope-no-such-launcher is not on PATH"),
              std::string::npos)
        << device.why_not;
    // One that is there ("true", which exits at once) was found and ran: not exec's 127.
    Runner on_path(supervised_backend({.worker_command = {"true"}, .probe_timeout_s = 5.0}));
    const std::string why_not = on_path.wait_for_device().why_not;
    EXPECT_NE(why_not.find("the GPU worker stopped during starting CUDA: "), std::string::npos) << why_not;
    EXPECT_EQ(why_not.find("127"), std::string::npos) << why_not;
}

// ---- The handshake -------------------------------------------------------------------------

// The worker says who it is before anything else: the device the Runner gets carries its host and
// how the GPU is queued there.
TEST(Handshake, TheWorkersHelloGivesHostAndQueue) {
    Supervised s;
    const DeviceInfo device = s.runner.wait_for_device();
    ASSERT_TRUE(device.usable) << device.why_not;
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    EXPECT_EQ(device.host, host);
    EXPECT_FALSE(device.remote);
    EXPECT_FALSE(device.gpu_lock.empty());
}

// A worker of another protocol is stopped with one sentence that names both versions and what to
// install where, and no other is started for it.
TEST(Handshake, AnotherProtocolEndsTheConnectionWithOneSentence) {
    setenv("FAKE_WORKER_PROTOCOL", "3", 1);
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend({.worker_command = {FAKE_WORKER_PATH}, .probe_timeout_s = 10.0, .server = "gpu1"}, stats));
    const DeviceInfo device = runner.wait_for_device();
    unsetenv("FAKE_WORKER_PROTOCOL");
    EXPECT_FALSE(device.usable);
    const std::string expected = std::string("the GPU worker on gpu1 is TileScope 9.9.9 (protocol 3) and this is TileScope ") +
                                 wire::tilescope_version() + " (protocol 2): install TileScope 9.9.9 on this machine, or TileScope " +
                                 wire::tilescope_version() + " on gpu1";
    EXPECT_EQ(device.why_not, expected);
    RunRequest request;
    const RunResult refused = runner.wait(runner.submit(request));
    EXPECT_EQ(refused.error, expected);
    EXPECT_EQ(stats->started, 1);
    EXPECT_EQ(runner.worker_status().phase, WorkerStatus::Phase::Failed);
}

// A worker from before the handshake answers the probe straight away; it is told to be replaced.
TEST(Handshake, AWorkerWithoutOneIsAnOlderTileScope) {
    setenv("FAKE_WORKER_PROTOCOL", "1", 1);
    Runner runner(supervised_backend({.worker_command = {FAKE_WORKER_PATH}, .probe_timeout_s = 10.0}));
    const DeviceInfo device = runner.wait_for_device();
    unsetenv("FAKE_WORKER_PROTOCOL");
    EXPECT_FALSE(device.usable);
    EXPECT_NE(device.why_not.find("(protocol 1) and this is TileScope"), std::string::npos) << device.why_not;
    EXPECT_NE(device.why_not.find(std::string("install TileScope ") + wire::tilescope_version() + " on this machine"),
              std::string::npos)
        << device.why_not;
}

TEST(Handshake, HelloRoundTripsAndMatchingVersionsAreCompatible) {
    wire::Hello hello{.protocol = wire::kProtocolVersion, .tilescope_version = wire::tilescope_version()};
    hello.device.limits.name = "NVIDIA H100 80GB HBM3";
    hello.device.host = "gpu1";
    hello.device.uuid = "GPU-5f3c";
    hello.device.gpu_lock = "/tmp/tilescope-gpu-locks/GPU-5f3c.lock";
    const auto decoded = wire::decode_message(wire::encode_message({.type = "hello", .hello = hello}));
    ASSERT_TRUE(std::holds_alternative<wire::Message>(decoded)) << std::get<std::string>(decoded);
    const auto& back = std::get<wire::Message>(decoded).hello;
    ASSERT_TRUE(back);
    EXPECT_EQ(back->protocol, wire::kProtocolVersion);
    EXPECT_EQ(back->device.host, "gpu1");
    EXPECT_EQ(back->device.uuid, "GPU-5f3c");
    EXPECT_EQ(back->device.gpu_lock, hello.device.gpu_lock);
    EXPECT_FALSE(wire::incompatibility(*back, "gpu1"));
    // A hello whose protocol is not a whole number is no message.
    EXPECT_TRUE(std::holds_alternative<std::string>(wire::decode_message(R"({"type":"hello","hello":{"protocol":1e99,"device":{}}})")));
}

// ---- One GPU, several clients ----------------------------------------------------------------

// Two supervised fake workers that share one GPU queue, as two students' do on a server.
struct SharedGpu {
    std::string dir;
    SharedGpu() {
        std::string pattern = "/tmp/tilescope-shared-gpu-XXXXXX";
        dir = mkdtemp(pattern.data());
        setenv("TILESCOPE_GPU_LOCK", dir.c_str(), 1);
        setenv("FAKE_WORKER_GPU_UUID", "GPU-shared-by-two", 1);
    }
    ~SharedGpu() {
        unsetenv("TILESCOPE_GPU_LOCK");
        unsetenv("FAKE_WORKER_GPU_UUID");
        std::filesystem::remove_all(dir);
    }
};

RunRequest request_with(FakeSeed seed, std::int64_t m = 64) {
    RunRequest request;
    request.kernel = {ts::model::KernelKind::Tiled, 16, 16, 32};
    request.problem = {m, m, m, 1, ts::model::Dtype::Float32};
    request.seed = static_cast<std::uint64_t>(seed);
    return request;
}

// While one client's slow request holds the GPU, the other's waits: its status says so, and its
// result says how long it waited and behind how many.
TEST(SharedGpu, ASecondClientWaitsItsTurnAndIsToldSo) {
    SharedGpu shared;
    Supervised first, second;
    ASSERT_TRUE(first.runner.wait_for_device().usable);
    ASSERT_TRUE(second.runner.wait_for_device().usable);
    EXPECT_EQ(first.runner.wait_for_device().gpu_lock, shared.dir + "/GPU-shared-by-two.lock");
    const auto slow = first.runner.submit(request_with(FakeSeed::Slow));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto quick = second.runner.submit(request_with(FakeSeed{1}, 80));
    bool told_waiting = false;
    for (int i = 0; i < 100 && !told_waiting; ++i) {
        const WorkerStatus status = second.runner.worker_status();
        told_waiting = status.phase == WorkerStatus::Phase::Waiting && status.ahead == 1;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(told_waiting);
    const RunResult waited = second.runner.wait(quick);
    EXPECT_TRUE(waited.ok) << waited.error;
    EXPECT_EQ(waited.gpu_queue_ahead, 1);
    EXPECT_GT(waited.gpu_wait_s, 0.8);  // the slow one's 1.5 s, less the 0.3 s it had already run
    EXPECT_EQ(second.runner.worker_status().phase, WorkerStatus::Phase::Ready);
    const RunResult first_result = first.runner.wait(slow);
    EXPECT_TRUE(first_result.ok) << first_result.error;
    EXPECT_EQ(first_result.gpu_queue_ahead, 0);
}

// With the queue off, nobody waits (and nothing keeps two timings apart).
TEST(SharedGpu, WithTheLockOffNobodyWaits) {
    SharedGpu shared;
    setenv("TILESCOPE_GPU_LOCK", "off", 1);
    Supervised first, second;
    EXPECT_EQ(first.runner.wait_for_device().gpu_lock, "off (TILESCOPE_GPU_LOCK=off)");
    const auto slow = first.runner.submit(request_with(FakeSeed::Slow));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const RunResult quick = second.runner.wait(second.runner.submit(request_with(FakeSeed{1}, 80)));
    EXPECT_TRUE(quick.ok) << quick.error;
    EXPECT_EQ(quick.gpu_wait_s, 0.0);
    EXPECT_TRUE(first.runner.wait(slow).ok);
}

// One client's kernel that never ends costs the other at most that request's deadline: the
// supervisor stops the hung worker, and its turn ends with the process.
TEST(SharedGpu, AHungKernelHoldsTheOthersBackOneDeadlineAtMost) {
    SharedGpu shared;
    Supervised hung, other;
    ASSERT_TRUE(hung.runner.wait_for_device().usable);
    ASSERT_TRUE(other.runner.wait_for_device().usable);
    const auto never = hung.runner.submit(request_with(FakeSeed::Hang));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto asked = std::chrono::steady_clock::now();
    const RunResult result = other.runner.wait(other.runner.submit(request_with(FakeSeed{1}, 80)));
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
    EXPECT_TRUE(result.ok) << result.error;
    EXPECT_LT(waited, 5.0 + 1.0);  // the hung request's deadline (5 s), less what it had run
    EXPECT_GT(result.gpu_wait_s, 3.0);
    const RunResult stopped = hung.runner.wait(never);
    EXPECT_NE(stopped.error.find("took longer than 5 s"), std::string::npos) << stopped.error;
}

// Closing the app while a request waits for its turn does not wait for the GPU: the waiting
// request gives up, and the Runner stops at once.
TEST(SharedGpu, ARunnerStopsAtOnceWhileItsRequestWaitsItsTurn) {
    SharedGpu shared;
    const int held = open((shared.dir + "/GPU-shared-by-two.lock").c_str(), O_RDWR | O_CREAT, 0666);
    ASSERT_EQ(flock(held, LOCK_EX), 0);  // the GPU is taken, by someone outside any queue
    std::optional<Supervised> s;
    s.emplace();
    ASSERT_TRUE(s->runner.wait_for_device().usable);
    s->runner.submit(request_with(FakeSeed{1}));
    for (int i = 0; i < 200 && s->runner.worker_status().phase != WorkerStatus::Phase::Waiting; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(s->runner.worker_status().phase, WorkerStatus::Phase::Waiting);
    EXPECT_EQ(s->runner.worker_status().ahead, 1);
    const auto stopping = std::chrono::steady_clock::now();
    s.reset();
    const double stopped_in = std::chrono::duration<double>(std::chrono::steady_clock::now() - stopping).count();
    close(held);
    EXPECT_LT(stopped_in, 1.5);
}

// The worker ends itself when its request overruns the deadline the run message gave, even when
// nobody stops it (a supervisor across a dropped link), so its turn at the GPU ends.
TEST(SharedGpu, AWorkerPastItsDeadlineStopsItself) {
    SharedGpu shared;
    int to_worker[2], from_worker[2];
    ASSERT_EQ(pipe(to_worker), 0);
    ASSERT_EQ(pipe(from_worker), 0);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(to_worker[0], STDIN_FILENO);
        dup2(from_worker[1], STDOUT_FILENO);
        close(to_worker[1]);
        close(from_worker[0]);
        execl(FAKE_WORKER_PATH, FAKE_WORKER_PATH, nullptr);
        _exit(127);
    }
    close(to_worker[0]);
    close(from_worker[1]);
    ASSERT_TRUE(wire::write_frame(to_worker[1], wire::encode_message({.type = "run", .request = request_with(FakeSeed::Hang),
                                                                      .deadline_s = 1.0})));
    const auto sent = std::chrono::steady_clock::now();
    int status = 0;
    // Its output is read (and thrown away) meanwhile, as a live supervisor's would be.
    std::thread drain([fd = from_worker[0]] {
        char buffer[4096];
        while (read(fd, buffer, sizeof buffer) > 0) {
        }
    });
    waitpid(pid, &status, 0);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    close(to_worker[1]);
    drain.join();
    close(from_worker[0]);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 5);
    EXPECT_LT(took, 1.0 + 2.0 + 1.0);  // the deadline, the worker's grace, and a beat
}

// A request that settles its clocks first is given that time on top of its deadline: bench
// allows up to 600 s of it, far past the deadline of a point without.
TEST(Supervisor, SettlingIsAddedToTheDeadline) {
    RunRequest request;
    request.adaptive = true;
    request.budget_s = 3.0;
    const double plain = kernel_deadline_s(request, 0.001);
    request.settle_s = 600.0;
    EXPECT_DOUBLE_EQ(kernel_deadline_s(request, 0.001), plain + 600.0);
}

// Every field of a result survives the pipe, the recorded trace included.
TEST(Wire, ResultsRoundTrip) {
    RunResult result;
    result.id = 7;
    result.request.kind = RequestKind::Measure;
    result.request.kernel = {ts::model::KernelKind::Naive, 32, 8, 16};
    result.request.problem = {40, 28, 36, 2, ts::model::Dtype::Float64};
    result.ok = true;
    result.samples_ms = {1.5, 1.25};
    result.median_ms = 1.375;
    result.check_summary = "max rel. error 1e-16: pass, “quoted” ✓";
    result.occupancy = KernelOccupancy{32, 0, 0, 1024, 2};
    result.live_key = "latency";
    result.superseded_by = 9;
    result.request.settle_s = 1.5;
    result.clocks.readings = 3;
    result.clocks.mean_sm_mhz = 1690;
    result.clocks.limits = 0x4;
    result.request.energy = true;
    result.request.energy_max_s = 4.5;
    result.energy = {.measured = true, .unavailable = {}, .launches = 812, .joules = 498.25, .gpu_seconds = 0.8125, .step_joules = 0.5,
                     .short_of_steps = true, .mean_sm_mhz = 1755, .limits = 0x4};
    wire::Message message{.type = "result", .result = result};
    auto back = wire::decode_message(wire::encode_message(message));
    ASSERT_TRUE(std::holds_alternative<wire::Message>(back)) << std::get<std::string>(back);
    const RunResult& got = *std::get<wire::Message>(back).result;
    EXPECT_EQ(wire::encode_result(got), wire::encode_result(result));
    EXPECT_EQ(got.request.problem.dtype, ts::model::Dtype::Float64);
    EXPECT_EQ(got.occupancy->blocks_per_sm, 2);
    EXPECT_EQ(got.request.settle_s, 1.5);
    EXPECT_EQ(got.clocks.mean_sm_mhz, 1690);
    EXPECT_EQ(got.clocks.limits, 0x4u);
    EXPECT_TRUE(got.request.energy);
    EXPECT_EQ(got.request.energy_max_s, 4.5);
    EXPECT_TRUE(got.energy.measured);
    EXPECT_EQ(got.energy.launches, 812);
    EXPECT_EQ(got.energy.joules, 498.25);
    EXPECT_EQ(got.energy.gpu_seconds, 0.8125);
    EXPECT_TRUE(got.energy.short_of_steps);
    EXPECT_EQ(got.energy.mean_sm_mhz, 1755);
}

// The accumulator experiment's request and report travel whole; a NaN output (a cell the kernel
// never wrote) survives as its bits, which JSON's numbers could not carry.
TEST(Wire, AnAccumulatorReportRoundTrips) {
    RunResult result;
    result.id = 11;
    result.request.kind = RequestKind::Accumulator;
    result.request.accumulator_input = "bf16";
    result.ok = true;
    ts::model::AccumulatorReport report;
    report.device = "NVIDIA H100";
    ts::model::AccumulatorTypeReport& t = report.types.emplace_back();
    t.input = ts::model::AccumulatorInput::Bf16;
    t.identity_passed = true;
    t.layout_swapped = true;
    t.inside.ran = t.inside.explained = true;
    t.inside.fraction_bits = 22;
    t.inside.fraction_bits_max = 23;
    t.inside.rounding = ts::model::AccumulatorRounding::Down;
    t.inside.outputs = {65536.0f, std::numeric_limits<float>::quiet_NaN(), -0.0f, 1.5f};
    t.across.note = "13 fraction bits";
    t.growth.push_back({128, 1e-3, 2e-4, 5e-5, 1e-6, 2});
    result.accumulator = report;
    auto back = wire::decode_message(wire::encode_message({.type = "result", .result = result}));
    ASSERT_TRUE(std::holds_alternative<wire::Message>(back)) << std::get<std::string>(back);
    const RunResult& got = *std::get<wire::Message>(back).result;
    EXPECT_EQ(wire::encode_result(got), wire::encode_result(result));
    EXPECT_EQ(got.request.kind, RequestKind::Accumulator);
    EXPECT_EQ(got.request.accumulator_input, "bf16");
    ASSERT_TRUE(got.accumulator);
    ASSERT_EQ(got.accumulator->types.size(), 1u);
    const ts::model::AccumulatorTypeReport& g = got.accumulator->types[0];
    EXPECT_EQ(g.input, ts::model::AccumulatorInput::Bf16);
    EXPECT_TRUE(g.layout_swapped);
    EXPECT_EQ(g.inside.fraction_bits_max, 23);
    EXPECT_EQ(g.inside.rounding, ts::model::AccumulatorRounding::Down);
    ASSERT_EQ(g.inside.outputs.size(), 4u);
    EXPECT_TRUE(std::isnan(g.inside.outputs[1]));
    EXPECT_TRUE(std::signbit(g.inside.outputs[2]));
    EXPECT_EQ(g.across.note, "13 fraction bits");
    ASSERT_EQ(g.growth.size(), 1u);
    EXPECT_EQ(g.growth[0].nan_cells, 2);
    EXPECT_EQ(g.growth[0].promoted_max, 5e-5);
}

// The learner's kernel travels whole, its source, launch and compiler's report with it.
TEST(Wire, Fp8ScalingQuantiseTimeAndPipelineErrorRoundTrip) {
    RunResult result;
    result.request.kernel.kind = ts::model::KernelKind::Cublas;
    result.request.problem = {257, 255, 300, 1, ts::model::Dtype::Fp8E4M3, ts::model::Fp8Scaling::Block};
    result.ok = true;
    result.quantize_ms = 0.0625;
    result.error_vs_fp64_max = 0.03125;
    result.error_vs_fp64_rms = 0.0078125;
    auto back = wire::decode_message(wire::encode_message({.type = "result", .result = result}));
    ASSERT_TRUE(std::holds_alternative<wire::Message>(back)) << std::get<std::string>(back);
    const RunResult& got = *std::get<wire::Message>(back).result;
    EXPECT_EQ(got.request.problem.dtype, ts::model::Dtype::Fp8E4M3);
    EXPECT_EQ(got.request.problem.fp8_scaling, ts::model::Fp8Scaling::Block);
    EXPECT_EQ(got.quantize_ms, 0.0625);
    EXPECT_EQ(got.error_vs_fp64_max, 0.03125);
    EXPECT_EQ(got.error_vs_fp64_rms, 0.0078125);
    EXPECT_EQ(wire::encode_result(got), wire::encode_result(result));
}

TEST(Wire, ALearnersKernelRoundTrips) {
    RunResult result;
    result.request.kind = RequestKind::UserCheck;
    result.request.user = UserKernelSource{.name = "mine.cu",
                                           .source = "// grid: 1, 2\nextern \"C\" … “✓”\n",
                                           .launch = {.grid_x = "cdiv(N, 32)", .shared = "2 * 4096"},
                                           .compile_limit_s = 12.5,
                                           .arch = "sm_80"};
    result.compile = UserCompileReport{.ok = false,
                                       .why = "the kernel does not compile",
                                       .log = "mine.cu(2): error: x\n",
                                       .diagnostics = {{2, 5, ts::model::Severity::Warning, "unused"}},
                                       .arch = "sm_90",
                                       .nvrtc_version = "13.0",
                                       .seconds = 0.25,
                                       .cubin_bytes = 0,
                                       .reused = true};
    result.user_launch = ts::model::UserLaunchShape{4, 3, 32, 8, 8192};
    auto back = wire::decode_message(wire::encode_message({.type = "result", .result = result}));
    ASSERT_TRUE(std::holds_alternative<wire::Message>(back)) << std::get<std::string>(back);
    const RunResult& got = *std::get<wire::Message>(back).result;
    ASSERT_TRUE(got.request.user);
    EXPECT_EQ(*got.request.user, *result.request.user);
    ASSERT_TRUE(got.compile);
    EXPECT_EQ(got.compile->diagnostics, result.compile->diagnostics);
    EXPECT_EQ(got.compile->why, result.compile->why);
    EXPECT_TRUE(got.compile->reused);
    EXPECT_EQ(got.user_launch, result.user_launch);
    EXPECT_EQ(wire::encode_result(got), wire::encode_result(result));
}

// A number its field cannot hold (an int past its range or with a fraction, a float past FLT_MAX)
// makes the message broken, with the field named; converting it would be undefined (the fuzzer
// found 1.3·10^34 as a block's height).
TEST(Wire, NumbersTheirFieldCannotHoldAreRefused) {
    RunResult result;
    result.request.kernel.block_y = 16;
    const std::string good = wire::encode_message({.type = "result", .result = result});
    ASSERT_NE(good.find("\"block_y\":16"), std::string::npos) << good;
    for (const std::string bad : {"1.3375e34", "2147483648", "-2147483649", "16.5", "18446744073709551615"}) {
        std::string text = good;
        text.replace(text.find("\"block_y\":16"), 12, "\"block_y\":" + bad);
        const auto back = wire::decode_message(text);
        ASSERT_TRUE(std::holds_alternative<std::string>(back)) << bad;
        EXPECT_NE(std::get<std::string>(back).find("block_y"), std::string::npos) << std::get<std::string>(back);
    }
    // A float field past a float's range, as in a stale read's value.
    RunResult stale;
    stale.stale_reads = ts::model::StaleReadReport{};
    stale.stale_reads->reads.push_back(ts::model::StaleRead{.got = 2.0f});
    std::string far = wire::encode_message({.type = "result", .result = stale});
    ASSERT_NE(far.find("\"got\":2.0"), std::string::npos) << far;
    far.replace(far.find("\"got\":2.0"), 9, "\"got\":1e300");
    const auto refused = wire::decode_message(far);
    ASSERT_TRUE(std::holds_alternative<std::string>(refused));
    EXPECT_NE(std::get<std::string>(refused).find("got"), std::string::npos) << std::get<std::string>(refused);

    std::string text = good;
    text.replace(text.find("\"block_y\":16"), 12, "\"block_y\":-7");
    const auto back = wire::decode_message(text);
    ASSERT_TRUE(std::holds_alternative<wire::Message>(back));
    EXPECT_EQ(std::get<wire::Message>(back).result->request.kernel.block_y, -7);
}

TEST(Wire, FramesArriveInPieces) {
    wire::FrameReader reader;
    const std::string text = "{\"type\":\"alive\"}";
    const char header[4] = {static_cast<char>(text.size()), 0, 0, 0};
    reader.feed(header, 2);
    EXPECT_FALSE(std::get<std::optional<std::string>>(reader.next()));
    reader.feed(header + 2, 2);
    reader.feed(text.data(), 5);
    EXPECT_FALSE(std::get<std::optional<std::string>>(reader.next()));
    reader.feed(text.data() + 5, text.size() - 5);
    EXPECT_EQ(std::get<std::optional<std::string>>(reader.next()), text);
    const char huge[4] = {0, 0, 0, 0x7f};
    reader.feed(huge, 4);
    EXPECT_TRUE(std::holds_alternative<std::string>(reader.next()));
}

// A large message travels compressed and arrives whole; a compressed frame that lies about its
// size, or does not decompress, is no message.
TEST(Wire, LargeMessagesTravelCompressed) {
    RunResult result;
    result.samples_ms.assign(20000, 1.25);  // about 100 KB of JSON
    result.ok = true;
    const std::string text = wire::encode_message({.type = "result", .result = result});
    ASSERT_GT(text.size(), wire::kCompressAboveBytes);
    const std::string frame = wire::frame_bytes(text, true);
    EXPECT_LT(frame.size(), text.size() / 10);  // 20 000 equal samples: far less than a tenth
    wire::FrameReader reader;
    reader.feed(frame.data(), frame.size());
    auto got = reader.next();
    ASSERT_TRUE(std::holds_alternative<std::optional<std::string>>(got)) << std::get<std::string>(got);
    ASSERT_TRUE(std::get<std::optional<std::string>>(got));
    EXPECT_EQ(*std::get<std::optional<std::string>>(got), text);
    // Small ones, and any when not asked, go as they are.
    EXPECT_EQ(wire::frame_bytes("{}", true).size(), 6u);
    EXPECT_EQ(wire::frame_bytes(text, false).size(), text.size() + 4);
    // A compressed frame whose stated size is wrong, or whose bytes are not zlib's.
    std::string lying = frame;
    lying[4] = static_cast<char>(lying[4] + 1);
    wire::FrameReader liar;
    liar.feed(lying.data(), lying.size());
    EXPECT_TRUE(std::holds_alternative<std::string>(liar.next()));
    std::string garbage = frame;
    for (std::size_t i = 8; i < garbage.size(); ++i) garbage[i] = 'x';
    wire::FrameReader broken;
    broken.feed(garbage.data(), garbage.size());
    EXPECT_TRUE(std::holds_alternative<std::string>(broken.next()));
    // One that claims more than any message may hold is refused before anything is allocated.
    std::string bomb = frame;
    bomb[4] = bomb[5] = bomb[6] = static_cast<char>(0xff);
    bomb[7] = 0x7f;
    wire::FrameReader bomber;
    bomber.feed(bomb.data(), bomb.size());
    const auto refused = bomber.next();
    ASSERT_TRUE(std::holds_alternative<std::string>(refused));
    EXPECT_NE(std::get<std::string>(refused).find("more than any message holds"), std::string::npos);
}

}  // namespace
