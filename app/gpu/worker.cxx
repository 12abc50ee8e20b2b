#include "worker.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "clock_watch.hpp"
#include "wire.hpp"

namespace ts::gpu {

namespace {

using Clock = std::chrono::steady_clock;

// How often the worker says it is alive while a request runs: a kernel that never ends
// still leaves this thread beating, so the supervisor tells a stuck kernel (its deadline)
// from a stopped process (no heartbeat).
constexpr auto kHeartbeat = std::chrono::milliseconds(250);
// The worker's own deadline is the supervisor's plus this: normally the supervisor stops it first.
constexpr double kDeadlineGraceS = 2.0;

// Beats while a request runs, and ends the process when nobody can hear it any more (its output
// closed: the supervisor or the ssh link is gone) or when the request overruns its deadline. In
// both cases the request's turn at the GPU must end now, and only the process's end ends a kernel
// that never returns.
class Heartbeat {
public:
    Heartbeat(int out, std::mutex& out_mutex) : m_out(out), m_out_mutex(out_mutex), m_thread([this] { beat(); }) {}
    ~Heartbeat() {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    // deadline_s ≤ 0: none.
    void set_running(bool running, double deadline_s = 0.0) {
        std::lock_guard lock(m_mutex);
        m_running = running;
        m_deadline = running && deadline_s > 0.0 && std::isfinite(deadline_s)
                         ? std::optional(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                            std::chrono::duration<double>(deadline_s + kDeadlineGraceS)))
                         : std::nullopt;
        m_deadline_s = deadline_s;
        m_changed.notify_all();
    }

private:
    void beat() {
        const std::string alive = wire::encode_message({.type = "alive"});
        std::unique_lock lock(m_mutex);
        while (!m_stopping) {
            m_changed.wait_for(lock, kHeartbeat);
            if (m_stopping || !m_running) continue;
            if (m_deadline && Clock::now() > *m_deadline) {
                std::fprintf(stderr, "tilescope worker: a request ran past its deadline of %.0f s; the worker stops so "
                                     "that the GPU is free for the next one\n", m_deadline_s);
                std::_Exit(5);
            }
            std::lock_guard out_lock(m_out_mutex);
            if (!wire::write_frame(m_out, alive)) {
                std::fprintf(stderr, "tilescope worker: its output was closed (the app or the link is gone); it stops\n");
                std::_Exit(4);
            }
        }
    }

    int m_out;
    std::mutex& m_out_mutex;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_running = false;
    bool m_stopping = false;
    std::optional<Clock::time_point> m_deadline;
    double m_deadline_s = 0.0;
    std::thread m_thread;
};

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0 || !name[0]) return "this machine";
    return name;
}

}  // namespace

bool uses_gpu(RequestKind kind) {
    return kind != RequestKind::UserCompile && kind != RequestKind::Occupancy && kind != RequestKind::Memory;
}

int run_worker(int in, int out, const RunnerBackend& backend, const std::function<bool()>& context_lost,
               const WorkerOptions& options) {
    std::mutex out_mutex;
    Heartbeat heartbeat(out, out_mutex);
    const auto send = [&](const wire::Message& message) {
        const std::string text = wire::encode_message(message);
        std::lock_guard lock(out_mutex);
        return wire::write_frame(out, text, /*compress_large=*/true);
    };

    // The handshake: who this is, and the GPU, probed once (CUDA's first call can take seconds).
    heartbeat.set_running(true);
    wire::Hello hello{.protocol = wire::kProtocolVersion, .tilescope_version = wire::tilescope_version()};
    try {
        hello.device = backend.probe();
    } catch (const std::exception& e) {
        hello.device.why_not = std::string("the GPU worker could not probe the GPU: ") + e.what();
    }
    hello.device.host = host_name();
    std::optional<GpuQueue> queue;
    if (options.queue.off) {
        hello.device.gpu_lock = options.queue.describe();
    } else if (hello.device.usable) {
        auto opened = GpuQueue::open(options.queue.dir, hello.device.uuid);
        if (auto* why = std::get_if<std::string>(&opened)) {
            hello.device.gpu_lock = "off: " + *why;
            std::fprintf(stderr, "tilescope worker: requests are not queued for the GPU: %s\n", why->c_str());
        } else {
            queue = std::move(std::get<GpuQueue>(opened));
            hello.device.gpu_lock = queue->lock_path().string();
        }
    }
    heartbeat.set_running(false);
    if (!send({.type = "hello", .hello = hello})) return 0;

    for (;;) {
        auto frame = wire::read_frame(in);
        if (std::holds_alternative<std::string>(frame)) return 2;  // the supervisor sent garbage
        const auto& payload = std::get<std::optional<std::string>>(frame);
        if (!payload) return 0;  // the supervisor closed the pipe: the app is done with us
        auto decoded = wire::decode_message(*payload);
        if (std::holds_alternative<std::string>(decoded)) return 2;
        const wire::Message& message = std::get<wire::Message>(decoded);
        wire::Message answer;
        if (message.type == "probe") {
            answer.type = "device";
            answer.device = hello.device;
        } else if (message.type == "run" && message.request) {
            const RunRequest& request = *message.request;
            answer.type = "result";
            heartbeat.set_running(true);
            try {
                // The turn lasts this one request: the next one queues again behind whoever came since.
                GpuTurn turn;
                if (queue && uses_gpu(request.kind)) {
                    turn = queue->take_turn([&](int ahead) { send({.type = "waiting", .ahead = ahead}); });
                    send({.type = "turn"});
                }
                // The deadline starts once the request has the GPU: waiting for others is not its time.
                heartbeat.set_running(true, message.deadline_s);
                const auto began = std::chrono::system_clock::now();
                answer.result = backend.run(request);
                answer.result->gpu_queued = queue && uses_gpu(request.kind);
                answer.result->gpu_wait_s = turn.waited_s;
                answer.result->gpu_queue_ahead = turn.ahead_at_arrival;
                if (options.others_on_gpu && uses_gpu(request.kind)) {
                    if (const auto others = options.others_on_gpu(began)) {
                        answer.result->gpu_sharing_watched = true;
                        answer.result->gpu_shared = !others->empty();
                        answer.result->gpu_shared_note = *others;
                    }
                }
                answer.context_lost = !answer.result->ok && context_lost && context_lost();
            } catch (const std::exception& e) {
                // The backends never throw; if one does, the request fails and the worker lives.
                answer.result = RunResult{};
                answer.result->request = request;
                answer.result->error = std::string("the GPU worker failed: ") + e.what();
            }
            heartbeat.set_running(false);
        } else {
            continue;  // nothing this worker knows: ignored
        }
        if (!send(answer)) return 0;
        if (answer.context_lost) return 3;
    }
}

int run_cuda_worker(int in, int out) {
    WorkerOptions options;
    options.others_on_gpu = [](std::chrono::system_clock::time_point since) {
        return ClockWatch::current_device().others_since(since);
    };
    const int code = run_worker(in, out, RunnerBackend{probe_device, run_request}, cuda_context_lost, options);
    if (code == 0) release_gpu_resources();  // after a lost context there is nothing to give back
    return code;
}

}  // namespace ts::gpu
