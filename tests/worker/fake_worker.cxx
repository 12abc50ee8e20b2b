// A stand-in for `tilescope worker` that misbehaves on request: it serves requests like the
// real worker (gpu/worker.cxx's loop), with a backend that answers at once, except that a
// request's seed chooses how it fails. The supervisor tests need no GPU. A learner's kernel is
// compiled for real (NVRTC needs no GPU), so its diagnostics travel as a server's would.
//
// The window runs it as its worker when $TILESCOPE_WORKER names it (the GUI tests); there
// every request has seed 1, so $FAKE_WORKER_KILL names the kernel (model::describe, e.g.
// "tiled T=1") whose requests kill the worker with SIGKILL, as a person did on an H200.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "fake_worker.hpp"
#include "gpu/user_kernel_compile.hpp"
#include "gpu/wire.hpp"
#include "gpu/worker.hpp"

namespace {

using namespace ts::gpu;
using ts::test::FakeSeed;

bool g_context_lost = false;

RunResult run(const RunRequest& request) {
    RunResult result;
    result.request = request;
    // Compiling needs no GPU: the learner's source is compiled for real, by this side's NVRTC, as
    // on a server.
    if (request.kind == RequestKind::UserCompile && request.user) {
        result.compile = compile_user_source(*request.user, request.user->arch, nullptr);
        result.ok = result.compile->ok;
        if (!result.ok) result.error = result.compile->why;
        return result;
    }
    if (const char* victim = std::getenv("FAKE_WORKER_KILL"); victim && ts::model::describe(request.kernel) == victim)
        raise(SIGKILL);
    switch (static_cast<FakeSeed>(request.seed)) {
        case FakeSeed::Crash:
            signal(SIGSEGV, SIG_DFL);  // a real crash, even under AddressSanitizer's handler
            raise(SIGSEGV);
            break;
        case FakeSeed::Hang: std::this_thread::sleep_for(std::chrono::hours(1)); break;
        case FakeSeed::Freeze: raise(SIGSTOP); break;  // no heartbeat either
        case FakeSeed::Garbage: {
            const char junk[] = "\x10\x00\x00\x00not json at all!";
            [[maybe_unused]] const auto written = write(STDOUT_FILENO, junk, sizeof junk - 1);
            std::this_thread::sleep_for(std::chrono::hours(1));
            break;
        }
        case FakeSeed::ClosePipe:
            close(STDOUT_FILENO);
            std::this_thread::sleep_for(std::chrono::hours(1));
            break;
        case FakeSeed::ContextLost:
            g_context_lost = true;
            result.error = "an illegal memory access was encountered (cudaErrorIllegalAddress)";
            return result;
        case FakeSeed::SaysWhyAndExits:
            std::fprintf(stderr, "a line before\n%s\n\n", ts::test::kFakeWorkerLastWords);
            std::fflush(stderr);
            std::_Exit(3);
        case FakeSeed::Slow: std::this_thread::sleep_for(std::chrono::milliseconds(1500)); break;
        default: break;
    }
    result.ok = true;
    result.median_ms = static_cast<double>(request.problem.m);  // so a test can tell results apart
    result.samples_ms = {result.median_ms};
    const ts::model::Problem& p = request.problem;
    result.gflops = 2.0 * double(p.m) * double(p.n) * double(p.k) * double(p.batch) / (result.median_ms * 1e6);
    return result;
}

DeviceInfo probe() {
    DeviceInfo device;
    device.usable = true;
    device.limits.name = "Fake GPU " + std::to_string(getpid());
    device.limits.is_preset = false;
    // Its own GPU, so that each fake worker has a queue to itself, unless a test makes several
    // share one to see them take turns.
    const char* shared = std::getenv("FAKE_WORKER_GPU_UUID");
    device.uuid = shared && *shared ? std::string(shared) : "fake-" + std::to_string(getpid());
    return device;
}

}  // namespace

// $FAKE_WORKER_PROTOCOL: a worker of another version. 1: one from before the handshake, which
// answers a probe with its device and says no hello; any other number: a hello of that protocol
// (TileScope 9.9.9), then nothing but reading until its input closes.
int other_version(int protocol) {
    using namespace ts::gpu::wire;
    if (protocol != 1) {
        Hello hello{.protocol = protocol, .tilescope_version = "9.9.9", .device = probe()};
        write_frame(STDOUT_FILENO, encode_message({.type = "hello", .hello = hello}));
    }
    for (;;) {
        auto frame = read_frame(STDIN_FILENO);
        const auto* payload = std::get_if<std::optional<std::string>>(&frame);
        if (!payload || !*payload) return 0;
        if (protocol == 1) write_frame(STDOUT_FILENO, encode_message({.type = "device", .device = probe()}));
    }
}

int main() {
    if (const char* protocol = std::getenv("FAKE_WORKER_PROTOCOL"); protocol && *protocol) return other_version(std::atoi(protocol));
    return run_worker(STDIN_FILENO, STDOUT_FILENO, RunnerBackend{probe, run}, [] { return g_context_lost; });
}
