// runner.cxx — the asynchronous half of the runner: one worker thread, a request queue and
// a result queue. The synchronous backend (probe_device, run_request) lives in
// runner_cuda.cxx or runner_none.cxx.
#include "runner.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace ts::gpu {

struct Runner::State {
    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    std::optional<DeviceInfo> device;
    std::deque<RunResult> requests;   // queued, result fields still empty
    std::deque<RunResult> finished;
    std::uint64_t next_id = 1;
    int running = 0;
    bool stopping = false;
    std::thread worker;

    void work() {
        DeviceInfo probed = probe_device();
        {
            std::lock_guard lock(mutex);
            device = std::move(probed);
        }
        changed.notify_all();
        for (;;) {
            RunResult job;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return stopping || !requests.empty(); });
                if (stopping) return;
                job = std::move(requests.front());
                requests.pop_front();
                ++running;
            }
            RunResult result = run_request(job.request);
            result.id = job.id;
            result.request = job.request;
            {
                std::lock_guard lock(mutex);
                --running;
                finished.push_back(std::move(result));
            }
            changed.notify_all();
        }
    }
};

Runner::Runner() : m_state(std::make_unique<State>()) {
    m_state->worker = std::thread([state = m_state.get()] { state->work(); });
}

Runner::~Runner() {
    {
        std::lock_guard lock(m_state->mutex);
        m_state->stopping = true;
    }
    m_state->changed.notify_all();
    // The worker finishes the request it is running (a GPU launch cannot be abandoned
    // half-way), then stops.
    m_state->worker.join();
}

std::optional<DeviceInfo> Runner::device() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->device;
}

DeviceInfo Runner::wait_for_device() const {
    std::unique_lock lock(m_state->mutex);
    m_state->changed.wait(lock, [&] { return m_state->device.has_value(); });
    return *m_state->device;
}

std::uint64_t Runner::submit(const RunRequest& request) {
    std::uint64_t id = 0;
    {
        std::lock_guard lock(m_state->mutex);
        id = m_state->next_id++;
        RunResult job;
        job.id = id;
        job.request = request;
        m_state->requests.push_back(std::move(job));
    }
    m_state->changed.notify_all();
    return id;
}

std::optional<RunResult> Runner::poll() {
    std::lock_guard lock(m_state->mutex);
    if (m_state->finished.empty()) return std::nullopt;
    RunResult result = std::move(m_state->finished.front());
    m_state->finished.pop_front();
    return result;
}

RunResult Runner::wait(std::uint64_t id) {
    std::unique_lock lock(m_state->mutex);
    for (;;) {
        for (auto it = m_state->finished.begin(); it != m_state->finished.end(); ++it) {
            if (it->id == id) {
                RunResult result = std::move(*it);
                m_state->finished.erase(it);
                return result;
            }
        }
        m_state->changed.wait(lock);
    }
}

int Runner::pending() const {
    std::lock_guard lock(m_state->mutex);
    return static_cast<int>(m_state->requests.size()) + m_state->running;
}

}  // namespace ts::gpu
