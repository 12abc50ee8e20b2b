#include "worker.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "wire.hpp"

namespace ts::gpu {

namespace {

// How often the worker says it is alive while a request runs: a kernel that never ends
// still leaves this thread beating, so the supervisor tells a stuck kernel (its deadline)
// from a stopped process (no heartbeat).
constexpr auto kHeartbeat = std::chrono::milliseconds(250);

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
    void set_running(bool running) {
        std::lock_guard lock(m_mutex);
        m_running = running;
        m_changed.notify_all();
    }

private:
    void beat() {
        const std::string alive = wire::encode_message({.type = "alive"});
        std::unique_lock lock(m_mutex);
        while (!m_stopping) {
            m_changed.wait_for(lock, kHeartbeat);
            if (m_stopping || !m_running) continue;
            std::lock_guard out_lock(m_out_mutex);
            wire::write_frame(m_out, alive);
        }
    }

    int m_out;
    std::mutex& m_out_mutex;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_running = false;
    bool m_stopping = false;
    std::thread m_thread;
};

}  // namespace

int run_worker(int in, int out, const RunnerBackend& backend, const std::function<bool()>& context_lost) {
    std::mutex out_mutex;
    Heartbeat heartbeat(out, out_mutex);
    const auto send = [&](const wire::Message& message) {
        const std::string text = wire::encode_message(message);
        std::lock_guard lock(out_mutex);
        return wire::write_frame(out, text);
    };
    for (;;) {
        auto frame = wire::read_frame(in);
        if (std::holds_alternative<std::string>(frame)) return 2;  // the supervisor sent garbage
        const auto& payload = std::get<std::optional<std::string>>(frame);
        if (!payload) return 0;  // the supervisor closed the pipe: the app is done with us
        auto decoded = wire::decode_message(*payload);
        if (std::holds_alternative<std::string>(decoded)) return 2;
        const wire::Message& message = std::get<wire::Message>(decoded);
        wire::Message answer;
        heartbeat.set_running(true);
        try {
            if (message.type == "probe") {
                answer.type = "device";
                answer.device = backend.probe();
            } else if (message.type == "run" && message.request) {
                answer.type = "result";
                answer.result = backend.run(*message.request);
                answer.context_lost = !answer.result->ok && context_lost && context_lost();
            } else {
                heartbeat.set_running(false);
                continue;  // nothing this worker knows: ignored
            }
        } catch (const std::exception& e) {
            // The backends never throw; if one does, the request fails and the worker lives.
            answer.type = "result";
            answer.result = RunResult{};
            answer.result->request = message.request.value_or(RunRequest{});
            answer.result->error = std::string("the GPU worker failed: ") + e.what();
        }
        heartbeat.set_running(false);
        if (!send(answer)) return 0;
        if (answer.context_lost) return 3;
    }
}

int run_cuda_worker(int in, int out) {
    const int code = run_worker(in, out, RunnerBackend{probe_device, run_request}, cuda_context_lost);
    if (code == 0) release_gpu_resources();  // after a lost context there is nothing to give back
    return code;
}

}  // namespace ts::gpu
