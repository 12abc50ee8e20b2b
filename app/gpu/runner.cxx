// runner.cxx — the asynchronous half of the runner: one worker thread, a request queue and
// a result queue. The synchronous backend (probe_device, run_request) lives in
// runner_cuda.cxx or runner_none.cxx.
#include "runner.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "model/format.hpp"

namespace ts::gpu {

std::string describe_point(const RunRequest& request) {
    const model::Problem& p = request.problem;
    const std::string kernel =
        request.user ? model::format_text("yours: {}", request.user->name) : model::describe(request.kernel);
    if (request.kind == RequestKind::UserCompile) return model::format_text("compiling {}", kernel);
    std::string what = model::format_text("{} {} ", kernel, model::dtype_name(p.dtype));
    if (model::is_fp8(p.dtype)) what += model::format_text("({} scales) ", model::fp8_scaling_name(p.fp8_scaling));
    what += p.m == p.n && p.n == p.k ? model::format_text("{}³", p.m) : model::format_text("{}×{}×{}", p.m, p.n, p.k);
    if (p.batch > 1) what += model::format_text(" (batch {})", p.batch);
    return what;
}

struct Runner::State {
    explicit State(RunnerBackend b) : backend(std::move(b)) {}

    RunnerBackend backend;
    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    std::optional<DeviceInfo> device;
    std::deque<RunResult> requests;   // queued, result fields still empty
    std::deque<RunResult> finished;
    std::map<std::string, std::uint64_t> latest_live;  // key → id of its newest live request
    std::uint64_t next_id = 1;
    int running = 0;
    bool stopping = false;
    std::thread worker;

    void work() {
        DeviceInfo probed = backend.probe();
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
                if (stopping) {
                    lock.unlock();
                    if (backend.finish) backend.finish();
                    return;
                }
                job = std::move(requests.front());
                requests.pop_front();
                ++running;
            }
            RunResult result = backend.run(job.request);
            result.id = job.id;
            result.request = job.request;
            result.live_key = job.live_key;
            {
                std::lock_guard lock(mutex);
                --running;
                // A newer live request of the same key came while this one ran.
                if (!job.live_key.empty() && latest_live[job.live_key] != job.id)
                    result.superseded_by = latest_live[job.live_key];
                finished.push_back(std::move(result));
            }
            changed.notify_all();
        }
    }
};

Runner::Runner() : Runner(RunnerBackend{probe_device, run_request, release_gpu_resources}) {}

Runner::Runner(RunnerBackend backend) : m_state(std::make_unique<State>(std::move(backend))) {
    m_state->worker = std::thread([state = m_state.get()] { state->work(); });
}

namespace {

// Stops the worker thread of `state`: it finishes the request it is running (a GPU launch cannot
// be abandoned half-way), unless that one is still waiting for a connection or its turn at a shared
// GPU (RunnerBackend::cancel_waiting), then stops.
void stop_worker(Runner::State& state);

}  // namespace

Runner::~Runner() { stop_worker(*m_state); }

bool Runner::switch_backend(RunnerBackend backend) {
    if (pending() > 0) return false;
    auto fresh = std::make_unique<State>(std::move(backend));
    {
        std::lock_guard lock(m_state->mutex);
        fresh->next_id = m_state->next_id;
    }
    std::unique_ptr<State> old = std::exchange(m_state, std::move(fresh));
    m_state->worker = std::thread([state = m_state.get()] { state->work(); });
    std::thread([old = std::move(old)] { stop_worker(*old); }).detach();
    return true;
}

namespace {

void stop_worker(Runner::State& state) {
    {
        std::lock_guard lock(state.mutex);
        state.stopping = true;
    }
    state.changed.notify_all();
    if (state.backend.cancel_waiting) state.backend.cancel_waiting();
    state.worker.join();
}

}  // namespace

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

std::uint64_t Runner::submit_live(const std::string& key, const RunRequest& request) {
    std::uint64_t id = 0;
    {
        std::lock_guard lock(m_state->mutex);
        id = m_state->next_id++;
        m_state->latest_live[key] = id;
        RunResult job;
        job.id = id;
        job.request = request;
        job.live_key = key;
        auto& queue = m_state->requests;
        const auto queued = std::find_if(queue.begin(), queue.end(), [&](const RunResult& r) { return r.live_key == key; });
        if (queued == queue.end()) {
            queue.push_back(std::move(job));
        } else {
            // The new request takes the old one's place, so dragging a slider does not keep
            // pushing it behind other work; the old one is answered without running.
            RunResult replaced = std::move(*queued);
            replaced.superseded_by = id;
            replaced.error = model::format_text("not run: request {} for \"{}\" replaced it while it waited", id, key);
            *queued = std::move(job);
            m_state->finished.push_back(std::move(replaced));
        }
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

WorkerStatus Runner::worker_status() const {
    return m_state->backend.status ? m_state->backend.status() : WorkerStatus{};
}

int Runner::pending() const {
    std::lock_guard lock(m_state->mutex);
    return static_cast<int>(m_state->requests.size()) + m_state->running;
}

}  // namespace ts::gpu
