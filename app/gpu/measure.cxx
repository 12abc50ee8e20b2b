#include "measure.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>
#include <utility>

#include "clock_watch.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "energy.hpp"
#include "model/traffic.hpp"
#include "steady_clock.hpp"

namespace ts::gpu {

namespace {

using Clock = std::chrono::steady_clock;

// Up to this many samples are queued behind one gate. Each sample is about five entries
// in the stream's queue (fill, flush, event, launch, event); the driver stops accepting
// work at around a thousand pending entries, and a full queue while the gate is closed
// would stall until the gate gives up.
constexpr int kMaxBatch = 64;
// How long the gate holds the stream at most. Queuing 64 samples takes well under a
// millisecond; this only matters if the queue ever fills first.
constexpr auto kGateTimeout = std::chrono::seconds(1);

// Bytes of no one type: the L2 flush, and the inputs and output of one end-to-end run.
using DeviceMemory = DeviceBuffer<std::byte>;

class Events {
public:
    explicit Events(int count) : m_events(static_cast<std::size_t>(count), nullptr) {
        for (cudaEvent_t& event : m_events) TS_CUDA_CHECK(cudaEventCreate(&event));
    }
    ~Events() {
        for (cudaEvent_t event : m_events)
            if (event) cudaEventDestroy(event);
    }
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;
    cudaEvent_t operator[](int i) const { return m_events[static_cast<std::size_t>(i)]; }

private:
    std::vector<cudaEvent_t> m_events;
};

// The stream waits in a host function until the CPU has queued a whole batch and opens
// the gate (nvbench does the same with a spinning "blocking kernel").
struct Gate {
    std::atomic<bool> open{false};
    std::atomic<bool> gave_up{false};
};

void CUDART_CB hold_stream(void* data) {
    auto* gate = static_cast<Gate*>(data);
    const auto give_up = Clock::now() + kGateTimeout;
    while (!gate->open.load(std::memory_order_acquire)) {
        if (Clock::now() > give_up) {
            gate->gave_up = true;
            return;
        }
        std::this_thread::yield();
    }
}

// Closes a gate on `stream` and, on every way out, opens it and waits for the stream, so
// the host function never reads a Gate that is gone.
class GateGuard {
public:
    explicit GateGuard(cudaStream_t stream) : m_stream(stream) {
        TS_CUDA_CHECK(cudaLaunchHostFunc(stream, hold_stream, &m_gate));
    }
    ~GateGuard() {
        m_gate.open = true;
        cudaStreamSynchronize(m_stream);
    }
    GateGuard(const GateGuard&) = delete;
    GateGuard& operator=(const GateGuard&) = delete;
    void open() { m_gate.open.store(true, std::memory_order_release); }
    bool gave_up() const { return m_gate.gave_up; }

private:
    cudaStream_t m_stream;
    Gate m_gate;
};

// Event times are floats with about 0.5 µs resolution. Store the double nearest to the
// float's shortest decimal form, so a measurement says 1.9302 and not 1.930199980735779.
double from_event(float ms) {
    char text[32];
    const auto printed = std::to_chars(text, text + sizeof text, ms);
    double value = ms;
    std::from_chars(text, printed.ptr, value);
    return value;
}

std::size_t l2_cache_bytes() {
    int device = 0;
    int bytes = 0;
    TS_CUDA_CHECK(cudaGetDevice(&device));
    TS_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device));
    return static_cast<std::size_t>(std::max(bytes, 1));
}

// How many samples to queue next: the rest of the minimum first; then as many as the
// time target still needs and the budget still allows, judged by the samples so far.
int next_batch(const StopRule& rule, const SampleStats& stats, double wall_s, double wall_per_sample_s) {
    if (stats.count < rule.min_samples) return std::min(rule.min_samples - stats.count, kMaxBatch);
    const double for_time = (rule.min_time_s * 1e3 - stats.sum) / std::max(stats.mean, 1e-6);
    const double for_budget = (rule.budget_s - wall_s) / std::max(wall_per_sample_s, 1e-9);
    const double wanted = std::min({for_time, for_budget, static_cast<double>(rule.max_samples - stats.count)});
    return static_cast<int>(std::clamp(std::ceil(wanted), 1.0, static_cast<double>(kMaxBatch)));
}

// The energy phase (energy.hpp): batches of about kEnergyBatchSeconds, the next one queued before
// the host waits for the one before, so the GPU never idles between them while the host reads the
// counter.
EnergySummary measure_energy(double max_s, double launch_ms, cudaStream_t stream, const StreamWork& launch_once) {
    const ClockWatch& watch = ClockWatch::current_device();
    const auto first = watch.energy_mj();
    if (!first) {
        EnergySummary energy;
        energy.unavailable = watch.energy_why_not();
        return energy;
    }
    // At most 512 launches a batch: two batches then stay within the driver's queue of pending work.
    const int batch = static_cast<int>(std::clamp(std::ceil(kEnergyBatchSeconds * 1e3 / std::max(launch_ms, 1e-4)), 1.0, 512.0));
    const Events ends(2);
    const Events start(1);
    EnergyCounterTally tally(*first);
    ClockTally clocks;
    const Clock::time_point began = Clock::now();
    int queued = 0;
    auto queue_batch = [&](int slot) {
        for (int i = 0; i < batch; ++i) launch_once(stream);
        TS_CUDA_CHECK(cudaEventRecord(ends[slot], stream));
        queued += batch;
    };
    TS_CUDA_CHECK(cudaEventRecord(start[0], stream));
    queue_batch(0);
    for (int slot = 0;; slot ^= 1) {
        const bool last = (tally.enough() && seconds_since(began) >= kEnergyMinSeconds) || seconds_since(began) >= max_s;
        if (!last) queue_batch(slot ^ 1);
        // Read the counter until this batch is done; the read takes microseconds, the batch milliseconds.
        for (;;) {
            const cudaError_t state = cudaEventQuery(ends[slot]);
            if (state == cudaSuccess) break;
            if (state != cudaErrorNotReady) TS_CUDA_CHECK(state);
            if (const auto now = watch.energy_mj()) tally.add(*now);
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        if (const auto now = watch.energy_mj()) tally.add(*now);
        if (const auto reading = watch.read()) clocks.add(*reading, batch);
        if (last) {
            float ms = 0.0f;
            TS_CUDA_CHECK(cudaEventElapsedTime(&ms, start[0], ends[slot]));
            return summarize_energy(tally, queued, ms * 1e-3, clocks.summary(watch.why_not()));
        }
    }
}

}  // namespace

Measurement measure(const MeasureSettings& settings, cudaStream_t stream, const StreamWork& launch_once,
                    const StreamWork& prepare) {
    const Clock::time_point began = Clock::now();
    Measurement result;

    std::unique_ptr<DeviceMemory> flush_buffer;
    if (!settings.hot) {
        flush_buffer = std::make_unique<DeviceMemory>(static_cast<std::int64_t>(l2_cache_bytes()));
        result.l2_flush_bytes = static_cast<std::int64_t>(flush_buffer->bytes());
    }
    // A cold launch sees C as prepare() left it and an L2 holding only the flush buffer.
    auto ready_cold = [&] {
        if (settings.hot) return;
        if (prepare) prepare(stream);
        TS_CUDA_CHECK(cudaMemsetAsync(flush_buffer->get(), 0, flush_buffer->bytes(), stream));
    };

    // Warm-up: the first launch pays for loading the module; later ones settle the clocks.
    if (settings.hot && prepare) prepare(stream);
    for (int i = 0; i < settings.warmup_launches; ++i) {
        ready_cold();
        launch_once(stream);
    }
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    // Settling: a batch at a time (each waited for, so the host never queues far past the time).
    // The time it takes comes on top of the budget, which is for the warm-up and the samples.
    double settled_s = 0.0;
    if (settings.settle_s > 0.0) {
        const Clock::time_point settle_began = Clock::now();
        int batch = 1;
        while (seconds_since(settle_began) < settings.settle_s) {
            for (int i = 0; i < batch; ++i) {
                ready_cold();
                launch_once(stream);
            }
            TS_CUDA_CHECK(cudaStreamSynchronize(stream));
            batch = std::min(batch * 2, kMaxBatch);
        }
        settled_s = seconds_since(settle_began);
    }
    const auto budget_spent_s = [&] { return seconds_since(began) - settled_s; };

    const ClockWatch& clock = ClockWatch::current_device();
    ClockTally clocks;

    const Events starts(kMaxBatch);
    const Events stops(kMaxBatch);
    double wall_per_sample_s = 0.0;
    for (;;) {
        const int batch = next_batch(settings.stop, result.stats, budget_spent_s(), wall_per_sample_s);
        const Clock::time_point batch_began = Clock::now();
        {
            GateGuard gate(stream);
            for (int i = 0; i < batch; ++i) {
                ready_cold();
                TS_CUDA_CHECK(cudaEventRecord(starts[i], stream));
                launch_once(stream);
                TS_CUDA_CHECK(cudaEventRecord(stops[i], stream));
            }
            gate.open();
            // The batch is running now: its clock, while the host would only wait.
            if (const auto reading = clock.read()) clocks.add(*reading, batch);
            // A kernel that faults reports it here, not at its launch.
            TS_CUDA_CHECK(cudaStreamSynchronize(stream));
            if (gate.gave_up())
                result.warning = "the launch queue filled before a batch was released, so some samples may "
                                 "include the CPU's launch time";
        }
        wall_per_sample_s = seconds_since(batch_began) / batch;
        for (int i = 0; i < batch; ++i) {
            float ms = 0.0f;
            TS_CUDA_CHECK(cudaEventElapsedTime(&ms, starts[i], stops[i]));
            result.samples_ms.push_back(from_event(ms));
        }
        result.stats = summarize(result.samples_ms);
        result.stop = should_stop(settings.stop, result.stats, budget_spent_s());
        if (result.stop != StopReason::NotYet) break;
    }
    result.clocks = clocks.summary(clock.why_not());
    if (settings.energy) result.energy = measure_energy(settings.energy_max_s, result.stats.median, stream, launch_once);
    result.wall_s = seconds_since(began);
    return result;
}

MeasureSettings settings_for(const RunRequest& request) {
    MeasureSettings settings;
    settings.warmup_launches = request.warmup_launches;
    settings.settle_s = request.settle_s;
    settings.hot = request.hot;
    settings.stop.min_samples = request.timed_launches;
    settings.stop.adaptive = request.adaptive;
    settings.stop.max_noise = request.max_noise;
    settings.stop.min_time_s = request.min_time_s;
    settings.stop.budget_s = request.budget_s;
    settings.stop.max_samples = request.max_samples;
    settings.energy = request.energy;
    settings.energy_max_s = request.energy_max_s;
    return settings;
}

void store_timing(const Measurement& measured, RunResult& result) {
    const model::Problem& p = result.request.problem;
    result.samples_ms = measured.samples_ms;
    result.median_ms = measured.stats.median;
    result.p20_ms = measured.stats.p20;
    result.p80_ms = measured.stats.p80;
    result.mean_ms = measured.stats.mean;
    result.min_ms = measured.stats.min;
    result.max_ms = measured.stats.max;
    result.noise = measured.stats.noise;
    result.hot = result.request.hot;
    result.l2_flush_bytes = measured.l2_flush_bytes;
    result.stop_reason = stop_reason_name(measured.stop);
    result.timing_warning = measured.warning;
    result.measure_wall_s = measured.wall_s;
    result.clocks = measured.clocks;
    result.energy = measured.energy;
    if (result.median_ms <= 0.0) return;
    const double seconds = result.median_ms * 1e-3;
    result.gflops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) *
                    static_cast<double>(p.batch) / seconds * 1e-9;
    const model::Traffic traffic = model::count_traffic(result.request.kernel, p);
    if (traffic.modelled) {
        result.model_traffic_bytes = traffic.global_bytes(model::dtype_size(p.dtype));
        result.model_bandwidth_gbs = static_cast<double>(result.model_traffic_bytes) / seconds * 1e-9;
    }
}

std::vector<double> time_end_to_end(int runs, const HostOperands& host, cudaStream_t stream,
                                    const LaunchOn& launch) {
    std::vector<double> times_ms;
    for (int run = 0; run < runs; ++run) {
        const Clock::time_point began = Clock::now();
        {
            const DeviceMemory a(static_cast<std::int64_t>(host.a.size()));
            const DeviceMemory b(static_cast<std::int64_t>(host.b.size()));
            const DeviceMemory c(static_cast<std::int64_t>(host.c.size()));
            // Ordered on one stream, so the launch cannot start before its inputs arrive.
            TS_CUDA_CHECK(cudaMemcpyAsync(a.get(), host.a.data(), a.bytes(), cudaMemcpyHostToDevice, stream));
            TS_CUDA_CHECK(cudaMemcpyAsync(b.get(), host.b.data(), b.bytes(), cudaMemcpyHostToDevice, stream));
            launch(a.get(), b.get(), c.get(), stream);
            TS_CUDA_CHECK(cudaStreamSynchronize(stream));
            TS_CUDA_CHECK(cudaMemcpyAsync(host.c.data(), c.get(), c.bytes(), cudaMemcpyDeviceToHost, stream));
            TS_CUDA_CHECK(cudaStreamSynchronize(stream));
            times_ms.push_back(seconds_since(began) * 1e3);
        }  // cudaFree here, after the clock stopped
    }
    return times_ms;
}

}  // namespace ts::gpu
