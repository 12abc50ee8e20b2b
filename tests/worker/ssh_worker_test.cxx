// `--gpu ssh://` tested with the real parts (issue #46): the supervisor runs worker_argv()'s
// exact `ssh …` with the system's OpenSSH client, which logs in to a real sshd on 127.0.0.1
// (tests/worker/sshd_server.hpp) whose ForceCommand is the fake worker: no GPU on either side.
// Where /usr/sbin/sshd is not installed, the tests are skipped with that reason.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <variant>

#include "fake_worker.hpp"
#include "launcher_kills.hpp"
#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "gpu/worker_target.hpp"
#include "sshd_server.hpp"
#include "support/run_command.hpp"

namespace {

using namespace ts::gpu;
using ts::test::FakeSeed;
using ts::testing_support::request_of;
using ts::testing_support::survive_launcher_kills;
using ts::testing_support::SshdServer;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point begun) { return std::chrono::duration<double>(Clock::now() - begun).count(); }

// The supervisor's options for the worker at ssh://127.0.0.1:PORT, as --gpu gives them, with
// shorter limits and reconnection delays for a test.
SupervisorOptions over_ssh(int port) {
    auto target = parse_worker_target("ssh://127.0.0.1:" + std::to_string(port));
    EXPECT_TRUE(std::holds_alternative<WorkerTarget>(target)) << std::get<std::string>(target);
    SupervisorOptions options = supervisor_options(std::get<WorkerTarget>(target));
    options.heartbeat_timeout_s = 2.0;
    options.probe_timeout_s = 20.0;
    options.min_deadline_s = 5.0;
    options.reconnect_delays_s = {0.2};
    return options;
}


// The test's sshd, serving the fake worker; the test is skipped where sshd is not installed.
#define START_SSHD(server, ...)                                                                        \
    if (const auto why = ts::testing_support::why_no_sshd()) GTEST_SKIP() << *why;                     \
    SshdServer server(std::filesystem::absolute(FAKE_WORKER_PATH).string() __VA_OPT__(, ) __VA_ARGS__); \
    ASSERT_TRUE(server.ok()) << server.why()

TEST(SshWorker, ProbesAndRunsThroughARealSshServer) {
    START_SSHD(server);
    const SupervisorOptions options = over_ssh(server.port());
    ASSERT_EQ(options.worker_command.front(), "ssh");  // the wrapper first on PATH: the real client
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend(options, stats));
    const DeviceInfo device = runner.wait_for_device();
    ASSERT_TRUE(device.usable) << device.why_not << "\nsshd:\n" << server.log();
    // The fake worker names itself by its pid: a process other than this one, on the server's side.
    EXPECT_EQ(device.limits.name.rfind("Fake GPU ", 0), 0u) << device.limits.name;
    // The handshake names the server's machine, and results say they ran there.
    EXPECT_TRUE(device.remote);
    EXPECT_FALSE(device.host.empty());
    EXPECT_NE(device.limits.name, "Fake GPU " + std::to_string(getpid()));
    for (std::int64_t m : {80, 96, 112}) {
        const RunResult result = runner.wait(runner.submit(request_of(1, m)));
        EXPECT_TRUE(result.ok) << result.error;
        EXPECT_EQ(result.median_ms, static_cast<double>(m));  // the fake worker's answer, as it is locally
        EXPECT_EQ(result.request.problem.m, m);
        EXPECT_EQ(result.gpu_host, device.host);
    }
    // A failure on the server's side comes back as it does locally.
    const RunResult lost = runner.wait(runner.submit(request_of(static_cast<std::uint64_t>(FakeSeed::ContextLost), 64)));
    EXPECT_FALSE(lost.ok);
    EXPECT_NE(lost.error.find("illegal memory access"), std::string::npos) << lost.error;
    const RunResult after = runner.wait(runner.submit(request_of(1, 128)));
    EXPECT_TRUE(after.ok) << after.error;
    EXPECT_EQ(after.median_ms, 128.0);
    EXPECT_EQ(stats->started, 2);  // the first ssh, and one after the lost context
}

// Issue #22's kill, with ssh between: the process the supervisor started (and kills, and
// restarts) is the ssh client. Killed mid-request ten times, each time that request fails with
// the supervisor's sentence, and the next one runs through a fresh connection.
TEST(SshWorker, TheSshClientKilledMidRequestTenTimesFailsOnlyThoseRequests) {
    START_SSHD(server);
    auto stats = std::make_shared<SupervisorStats>();
    Runner runner(supervised_backend(over_ssh(server.port()), stats));
    ASSERT_TRUE(runner.wait_for_device().usable) << "sshd:\n" << server.log();
    constexpr int kKills = 10;
    const Clock::time_point begun = Clock::now();
    const int survived = survive_launcher_kills(
        runner, *stats, kKills,
        "the connection to 127.0.0.1 was lost during tiled T=1 float 2048³: ssh killed by signal 9 (SIGKILL: Killed)",
        "; reconnecting in 0.2 s", [&] { return "sshd:\n" + server.log(); });
    EXPECT_EQ(survived, kKills);
    const double seconds = seconds_since(begun);
    std::printf("ssh client killed mid-request: %d of %d kills survived, %.1f s in all (%.2f s a round)\n", survived,
                kKills, seconds, seconds / kKills);
    RecordProperty("kills_survived", survived);
}

// A key the server does not accept: with BatchMode ssh asks no one for a password and exits,
// and the probe fails with a sentence instead of waiting.
TEST(SshWorker, ARefusedKeyEndsWithASentenceNotAHang) {
    START_SSHD(server, SshdServer::ClientKey::Refused);
    const Clock::time_point begun = Clock::now();
    Runner runner(supervised_backend(over_ssh(server.port())));
    const DeviceInfo device = runner.wait_for_device();
    const double seconds = seconds_since(begun);
    EXPECT_FALSE(device.usable);
    // ssh's own status when it cannot log in.
    EXPECT_NE(device.why_not.find("could not connect to 127.0.0.1 for starting CUDA: ssh exited with status 255"),
              std::string::npos)
        << device.why_not;
    EXPECT_TRUE(device.remote);
    // ssh's own reason, from its stderr, and what to do about it.
    EXPECT_NE(device.why_not.find("Permission denied (publickey).); "), std::string::npos) << device.why_not;
    EXPECT_NE(device.why_not.find("set up a key for it: ssh-keygen, then ssh-copy-id -p " + std::to_string(server.port()) +
                                  " 127.0.0.1, then ssh -p " + std::to_string(server.port()) + " 127.0.0.1 once in a terminal"),
              std::string::npos)
        << device.why_not;
    EXPECT_LT(seconds, 10.0);  // the probe's own limit is 20 s: it was ssh that ended it
    std::printf("refused key: \"%s\" after %.2f s\n", device.why_not.c_str(), seconds);
}

// The learner's source travels in a message, is compiled by the server's NVRTC, and its errors
// come back with their lines, for the local editor's gutter.
TEST(SshWorker, ALearnersKernelIsCompiledOnTheServerAndItsErrorsKeepTheirLines) {
    START_SSHD(server);
    Runner runner(supervised_backend(over_ssh(server.port())));
    ASSERT_TRUE(runner.wait_for_device().usable) << "sshd:\n" << server.log();
    RunRequest request;
    request.kind = RequestKind::UserCompile;
    request.user = UserKernelSource{.name = "mine.cu",
                                    .source = "// grid: cdiv(N, 16), cdiv(M, 16)\n// block: 16, 16\n"
                                              "extern \"C\" __global__ void matmul(const float* A, const float* B, float* C,\n"
                                              "                                   int M, int N, int K) {\n"
                                              "    int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
                                              "    C[row] = undeclared_name;\n"
                                              "}\n",
                                    .launch = {}};
    const RunResult result = runner.wait(runner.submit(request));
    if (result.compile && !result.compile->ok && result.compile->why.find("NVRTC") != std::string::npos &&
        result.compile->diagnostics.empty())
        GTEST_SKIP() << "no NVRTC on this machine: " << result.compile->why;
    ASSERT_TRUE(result.compile) << result.error;
    EXPECT_FALSE(result.compile->ok);
    ASSERT_FALSE(result.compile->diagnostics.empty()) << result.compile->log;
    EXPECT_EQ(result.compile->diagnostics.front().line, 6) << result.compile->log;
    EXPECT_NE(result.compile->log.find("undeclared_name"), std::string::npos) << result.compile->log;
}

// `tilescope-cli bench --gpu ssh://…`: a sweep measured on the server, which the report and the
// JSON name, with each point's wait for the GPU.
TEST(SshWorker, BenchMeasuresASweepOnTheServerAndSaysWhere) {
    START_SSHD(server);
    const std::string json = (std::filesystem::temp_directory_path() / ("ssh-bench-" + std::to_string(getpid()) + ".json")).string();
    const auto outcome = ts::testing_support::run_command(
        std::string(TILESCOPE_CLI_PATH) + " bench --gpu ssh://127.0.0.1:" + std::to_string(server.port()) +
        " --kernel tiled,naive --size 64,96 --no-check --e2e-runs 0 --json " + json);
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output << "\nsshd:\n" << server.log();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    EXPECT_NE(outcome.output.find(std::string(" on ") + host + " ("), std::string::npos) << outcome.output;
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find(std::string("\"host\":\"") + host + "\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"gpu_wait_s\""), std::string::npos) << text;
    std::filesystem::remove(json);
}

// `tilescope-cli kernel FILE --gpu ssh://…`: the same, as a person meets it: the error with its
// file, line and column, compiled on the server.
TEST(SshWorker, TheKernelCommandShowsTheServersCompileErrorsWithTheirLines) {
    START_SSHD(server);
    const std::string file = (std::filesystem::temp_directory_path() / ("ssh-kernel-" + std::to_string(getpid()) + ".cu")).string();
    std::ofstream(file) << "// grid: cdiv(N, 16), cdiv(M, 16)\n// block: 16, 16\n"
                           "extern \"C\" __global__ void matmul(const float* A, const float* B, float* C,\n"
                           "                                   int M, int N, int K) {\n"
                           "    int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
                           "    C[row] = undeclared_name;\n"
                           "}\n";
    const auto outcome = ts::testing_support::run_command(std::string(TILESCOPE_CLI_PATH) + " kernel " + file +
                                                          " --gpu ssh://127.0.0.1:" + std::to_string(server.port()));
    std::filesystem::remove(file);
    if (outcome.output.find("NVRTC") != std::string::npos && outcome.output.find(":6:") == std::string::npos)
        GTEST_SKIP() << "no NVRTC on this machine: " << outcome.output;
    EXPECT_NE(outcome.exit_code, 0) << outcome.output;
    EXPECT_NE(outcome.output.find(":6:"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("undeclared_name"), std::string::npos) << outcome.output;
}

}  // namespace
