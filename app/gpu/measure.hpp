// measure.hpp — the timing engine behind run_request, modelled on NVIDIA's nvbench.
//
// It knows nothing about matrices: it is handed "enqueue one launch on this stream" and
// times it.
//
// Cold (the default), for every sample:
//   prepare (e.g. poison C) → write an L2-sized buffer (flush) → event → launch → event
// so each sample starts with nothing of A, B or C in L2, and the events time the kernel
// alone: the fill and the flush are outside the pair.
// Hot: the launches run back to back with no flush between them, so inputs a previous
// launch left in L2 are still there; each launch still has its own event pair. Hot numbers
// are the best case and are labelled "hot" wherever they are shown.
//
// Launch overhead is kept out of the samples the way nvbench does it: each batch of up to
// 64 samples is queued behind a host function that holds the stream until the whole batch
// is queued, so the GPU never waits on the CPU between an event and its launch.
//
// Settling (optional): after the warm-up, more untimed launches until a given time has passed.
// Under the power cap a kernel's clock is the one its own power sets, and the driver takes a
// second or so to find it; until then it is what the work before left.
// While sampling, the SM clock, the board's power and why the clock is held back are read once
// per batch, as the batch starts to run (clock_watch.hpp): the times are only half the story when
// the clocks are not locked.
//
// Stopping: at least StopRule::min_samples; then, when adaptive, until the noise (stdev /
// mean) is at most 0.5 %, or the samples add up to 0.5 s, or the wall-time budget (3 s by
// default, warm-up included) is spent, or max_samples is reached. nvbench insists on both
// the noise and the time (and watches whether the noise has settled); the OR here keeps
// sweeps short, and the stop reason is recorded with every measurement.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "runner.hpp"
#include "sample_stats.hpp"

namespace ts::gpu {

struct MeasureSettings {
    int warmup_launches = 2;  // untimed, each prepared and flushed like a cold sample
    double settle_s = 0.0;    // then untimed launches, the same way, until this many seconds passed
    bool hot = false;         // back to back, no flush (see above)
    StopRule stop;
    // After the samples: launches back to back while NVML's energy counter is read (gpu/energy.hpp),
    // for at most `energy_max_s`.
    bool energy = false;
    double energy_max_s = 15.0;
};

struct Measurement {
    std::vector<double> samples_ms;   // one per launch, in the order they ran
    SampleStats stats;                // of samples_ms
    StopReason stop = StopReason::NotYet;
    std::int64_t l2_flush_bytes = 0;  // written before each cold sample; 0 when hot
    double wall_s = 0.0;              // warm-up, settling and sampling, on the host clock
    ClockSummary clocks;              // the SM clock and power while the samples ran (clock_watch.hpp)
    EnergySummary energy;             // with MeasureSettings::energy
    std::string warning;              // empty, or why some samples may hold launch gaps
};

// Enqueues work on `stream`; throws CudaError when CUDA refuses it.
using StreamWork = std::function<void(cudaStream_t)>;

// Warms up, then times `launch_once` until the stop rule is met. `prepare`, if given, runs
// before every cold launch (before the flush), and once before the warm-up when hot.
// Throws CudaError; a kernel that faults is reported at the next synchronisation.
Measurement measure(const MeasureSettings& settings, cudaStream_t stream, const StreamWork& launch_once,
                    const StreamWork& prepare = {});

// The engine's settings from a request's timing fields.
MeasureSettings settings_for(const RunRequest& request);

// Copies a measurement into `result`: samples, statistics, GFLOP/s (2·M·N·K·batch over the
// median) and the model's traffic over the median.
void store_timing(const Measurement& measured, RunResult& result);

// ---- End to end: what a first CUDA program measures -------------------------------------

// The operands on the host, as bytes; C receives the result.
struct HostOperands {
    std::span<const std::byte> a;
    std::span<const std::byte> b;
    std::span<std::byte> c;
};

// Enqueues one launch on `stream` reading the device copies of A and B and writing C.
using LaunchOn = std::function<void(const void* a, const void* b, void* c, cudaStream_t stream)>;

// Times, on the host clock, `runs` times: cudaMalloc of A, B and C; copying A and B to the
// device; the launch; waiting for it; copying C back. Freeing is not timed. This is the
// number a program that computes one product pays; it is never mixed with the kernel
// times above. Its launch finds A and B in L2, where the copies left them, so for a kernel
// slowed mostly by L2 misses it can be shorter than a cold sample. Returns one time in ms per
// run. Throws CudaError.
std::vector<double> time_end_to_end(int runs, const HostOperands& host, cudaStream_t stream,
                                    const LaunchOn& launch);

}  // namespace ts::gpu
