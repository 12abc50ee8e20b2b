// runner.hpp — the one bridge from the app and the command-line tools to CUDA.
//
// Asynchronous: submit() returns at once with an id; a worker thread runs the request and
// poll() hands back finished results. The UI thread never waits on the GPU. The CLI may
// block with wait(). Nothing here throws to the caller or calls exit(): CUDA failures come
// back as results whose `error` names the CUDA call, file and line.
//
// Built with CUDA, the backend is runner_cuda.cxx; without, runner_none.cxx reports why and
// every request fails politely, so the app keeps working on the model.
//
// Live requests (submit_live) serve sliders: while the user drags, each frame may submit a
// request under the same key ("latency lab"), and only the newest is worth running. A live
// request replaces a queued, not yet running request of the same key in its place in the
// queue; the replaced one comes back at once with `superseded_by` set and never runs. A
// request of that key already running finishes, and its result also carries
// `superseded_by`: its numbers are real but belong to an earlier slider position. Views
// keep only results with superseded_by == 0; wait() still returns every id.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/accumulator.hpp"
#include "model/counters.hpp"
#include "model/device_limits.hpp"
#include "model/experiment.hpp"
#include "model/kernel_config.hpp"
#include "model/kernel_trace.hpp"
#include "model/problem.hpp"
#include "model/user_kernel/source.hpp"
#include "model/user_kernel/launch.hpp"
#include "model/user_kernel/user_trace.hpp"
#include "model/user_kernel/shared_memory.hpp"

namespace ts::gpu {

struct DeviceInfo {
    bool usable = false;         // false: see why_not
    std::string why_not;         // "no CUDA device: ..." in words a user can act on
    model::DeviceLimits limits;  // real numbers when usable (is_preset == false)
    std::string driver_version;  // "13.0" (empty when no driver)
    std::string runtime_version; // CUDA runtime linked into TileScope
    std::int64_t free_memory_bytes = 0;
    // For traces; 0 where the driver does not say.
    std::int64_t l2_cache_bytes = 0;
    int clock_khz = 0;           // peak SM clock
    int memory_clock_khz = 0;    // peak memory clock
    int memory_bus_bits = 0;
    std::string uuid;            // "GPU-5f3c…": CUDA's id of this very GPU (its lock is named so); empty where unknown
    // Where the worker runs, from its handshake (wire.hpp's Hello): the name its machine gives
    // itself, whether that is another machine (--gpu ssh:// or slurm), and how turns at the GPU
    // are queued there ("/tmp/tilescope-gpu-locks", or "off" and why).
    std::string host;
    bool remote = false;
    std::string gpu_lock;
};

// What the worker does with a request.
enum class RequestKind {
    Measure,    // inputs, launches, timing and the check (the default)
    Occupancy,  // only ask CUDA about the kernel: RunResult::occupancy; nothing is launched
    Roofline,   // the GPU's own peaks: RunResult::roofline; kernel and problem are ignored
    Record,     // one launch of the kernel's recorded variant (naive, tiled, regtile-2d, warptile): RunResult::trace;
                // with RunRequest::user, the learner's kernel built to record itself: RunResult::user_trace
    Memory,     // the device's free and total memory now: RunResult::device_free_bytes (soak test)
    Experiment, // `runs` launches of an experiment's broken variant (model/experiment.hpp): RunResult::experiment, and
                // for the missing-sync experiments RunResult::stale_reads from an instrumented launch
    Counters,   // one launch under CUPTI's range profiler: RunResult::counters (model/counters.hpp)
    // The learner's own kernel (RunRequest::user, gpu/user_kernel_runner.hpp). Measure with `user`
    // set times it and checks it once, as a rung.
    UserCompile,  // compile only, for the GPU's architecture (or UserKernelSource::arch without one): RunResult::compile
    UserCheck,    // compile, then `runs` launches between guard zones, each checked: RunResult::experiment
    // The tensor cores' accumulator measured (model/accumulator.hpp, gpu/accumulator_runner.hpp):
    // RunResult::accumulator; kernel and problem are ignored. sm_90a (H100, H200) only.
    Accumulator,
};

// The learner's kernel as the editor or the command line holds it (model/user_kernel/source.hpp).
struct UserKernelSource {
    std::string name;                  // the file's name, in messages and as "yours: NAME"
    std::string source;
    model::LaunchExpressions launch;   // from the source's "// grid:" lines, or the editor's fields
    double compile_limit_s = 30.0;     // the compiler is stopped after this long
    std::string arch = "sm_90";        // compiled for this when there is no GPU; else for the GPU's own
    bool operator==(const UserKernelSource&) const = default;
};

// What compiling the learner's kernel gave.
struct UserCompileReport {
    bool ok = false;
    std::string why;                              // when not ok, in a sentence
    std::string log;                              // NVRTC's own log, whole
    std::vector<model::Diagnostic> diagnostics;   // the log's messages about the file
    std::string arch;                             // "sm_90"
    std::string nvrtc_version;                    // "13.0"
    double seconds = 0.0;                         // the compiler's time (0 when it was already compiled)
    std::int64_t cubin_bytes = 0;
    bool reused = false;                          // the worker had this very source compiled already
};

// What trace the learner's kernel gave (model/user_kernel/user_trace.hpp): its accesses counted, C
// checked, and why the theatre cannot draw it when RunResult::trace is absent.
struct UserTraceReport {
    model::UserCounts counts;
    std::string counts_text;      // describe_counts
    std::int64_t events = 0;      // accesses noted
    bool c_right = false;         // C of the traced launch within the check's tolerance
    std::string c_summary;
    std::string theatre_note;     // why there is no trace for the theatre, or empty
    model::SharedReport shared;   // shared memory: the arrays, bank conflicts, races
};

struct RunRequest {
    RequestKind kind = RequestKind::Measure;
    model::KernelConfig kernel;
    model::Problem problem;
    int warmup_launches = 2;
    int timed_launches = 10;      // median of these
    std::uint64_t seed = 1;       // random inputs are drawn from this
    bool check = true;            // compare against the CPU reference

    // Timing (app/gpu/measure.hpp says how). Not adaptive: exactly `timed_launches` samples.
    // Adaptive: at least `timed_launches`, then until the noise is at most `max_noise`, or
    // the samples add up to `min_time_s`, or `budget_s` of wall time is spent, or
    // `max_samples` are taken.
    bool adaptive = false;
    bool hot = false;             // back-to-back launches without flushing L2 in between
    double max_noise = 0.005;     // stdev / mean
    double min_time_s = 0.5;
    double budget_s = 3.0;
    int max_samples = 10000;
    // Untimed launches after the warm-up until this many seconds have passed, so that the clocks
    // are the ones this kernel's own power sets under the power cap, not what the work before it
    // left (0: none).
    double settle_s = 0.0;
    // Host-clock runs of cudaMalloc + copies in + launch + copy out (0: none).
    int end_to_end_runs = 0;
    // Joules per matmul (gpu/energy.hpp): after the samples, launches back to back for at most
    // `energy_max_s` while NVML's energy counter is read.
    bool energy = false;
    double energy_max_s = 15.0;

    // Experiment requests: which one, and how many launches to check. `kernel` and `problem`
    // are the case (model::ExperimentCase): the real kernel the experiment breaks.
    model::Experiment experiment = model::Experiment::MissingFirstSync;
    int runs = model::kDefaultExperimentRuns;

    // Accumulator requests: "fp8", "bf16", "fp16" or "all" (model::accumulator_inputs_named).
    std::string accumulator_input = "all";

    // The learner's own kernel: set for UserCompile and UserCheck, and for a Measure that times it
    // instead of `kernel` (the problem must then be float, batch 1).
    std::optional<UserKernelSource> user;
};

// The kernel a request launches, as compiled for this GPU (cudaFuncGetAttributes), and how
// many of its blocks CUDA says fit on one SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor
// with the block plan_launch gives). ts::model::kernel_occupancy with registers_per_thread
// gives the same blocks_per_sm and says why.
struct KernelOccupancy {
    int registers_per_thread = 0;
    int static_shared_bytes = 0;
    int local_bytes_per_thread = 0;   // spilled registers and local arrays
    int max_threads_per_block = 0;    // the largest block this kernel can be launched with
    int blocks_per_sm = 0;
};

// The GPU's ceilings for the roofline, measured by TileScope itself with the timing engine
// (back to back: a peak is the best the GPU sustains). Each number comes with a label that
// says how it was obtained, for the plot's legend.
struct RooflinePeaks {
    double bandwidth_gbs = 0.0;       // GB/s = 1e9 bytes/s, bytes read + bytes written
    std::int64_t copy_bytes = 0;      // one device-to-device cudaMemcpyAsync of this many bytes
    double copy_median_ms = 0.0;
    std::string bandwidth_label;      // "device-to-device copy of 1.0 GiB, read + write, median of 40"
    double fp32_gflops = 0.0;         // 0 when cuBLAS is unavailable: see fp32_unavailable
    std::int64_t sgemm_size = 0;      // M = N = K of the fastest SGEMM
    double sgemm_median_ms = 0.0;
    std::string fp32_label;           // "cuBLAS SGEMM 8192³, FP32 (no TF32), best of 2048³, 4096³, 8192³"
    std::string fp32_unavailable;     // why there is no FP32 rate, or empty
    double bf16_gflops = 0.0;         // the tensor cores' roof: cuBLAS BF16; 0: see bf16_unavailable
    std::int64_t bf16_size = 0;       // M = N = K of the fastest BF16 GEMM
    std::string bf16_label;           // "cuBLAS BF16 GEMM 8192³ on the tensor cores (FP32 sums), the fastest of …"
    std::string bf16_unavailable;     // why there is no BF16 rate, or empty
};

// The SM clock and board power while the timed samples ran (gpu/clock_watch.hpp), one reading per
// batch of samples, weighted by the samples it stands for.
struct ClockSummary {
    int readings = 0;             // 0: nothing was read, `unavailable` says why
    int mean_sm_mhz = 0;
    int min_sm_mhz = 0;
    int max_sm_mhz = 0;
    double mean_power_w = 0.0;    // 0 where the board does not report its power
    std::uint64_t limits = 0;     // every clock event reason seen (clock_watch.hpp's kClockLimit*)
    std::string unavailable;
};

// The board's energy while the kernel ran back to back after its timed samples (RunRequest::energy),
// from NVML's energy counter (gpu/energy.hpp says how, and derives joules per matmul from it).
struct EnergySummary {
    bool measured = false;
    std::string unavailable;      // why there is no figure, when asked for and not measured
    int launches = 0;
    double joules = 0.0;          // the counter's move over the launches
    double gpu_seconds = 0.0;     // CUDA-event time from the first launch's start to the last's end
    double step_joules = 0.0;     // the largest move of the counter between two reads
    bool short_of_steps = false;  // stopped at RunRequest::energy_max_s with fewer than kEnergyStepsNeeded steps
    int mean_sm_mhz = 0;          // while they ran (0: not read)
    std::uint64_t limits = 0;     // clock event reasons seen while they ran
};

struct RunResult {
    std::uint64_t id = 0;
    RunRequest request;
    bool ok = false;              // false: `error` says why; nothing below is meaningful
    std::string error;            // e.g. "... CUDA reports: launching naive 64×32 ...: invalid argument (cudaErrorInvalidValue at app/gpu/runner_cuda.cxx:261)"
    // With `error`: the request cannot run here through no fault of a kernel (cuBLAS is not
    // installed, or cuBLAS was asked for int32). `tilescope check` counts these as skipped.
    bool unsupported = false;
    // The tuned rung asked for the tuner's choice (variant −1): the candidate that ran, and
    // where the choice came from (gpu/tuned_shapes.hpp). −1 otherwise.
    int tuned_variant = -1;
    std::string tuned_source;
    std::vector<double> samples_ms;  // one CUDA-event time per timed launch
    double median_ms = 0.0;
    double gflops = 0.0;          // 2·M·N·K·batch / median time
    bool checked = false;         // a CPU reference check was run
    bool check_passed = false;    // every element within tolerance, and no NaN
    double max_rel_error = 0.0;   // max |gpu − ref| / max(|ref|, 1) over C
    std::int64_t mismatches = 0;  // elements out of tolerance (NaN counts)
    std::string check_summary;    // "max rel. error 3.1e-07 (tolerance 1.2e-05): pass"
    // FP8 requests: the GPU's time to quantise A and B from FP32 to e4m3 with their scales
    // (kernels/common/quantize_fp8.cu), CUDA events, median of a few runs; apart from median_ms.
    double quantize_ms = 0.0;
    // FP32, BF16, FP16 and FP8 requests, checked (has_error_vs_fp64): C against the exact product in
    // FP64 of the FP32 values every floating type's inputs start as (model/input_values.hpp), before
    // any rounding to 16 or 8 bits, so the error of the whole pipeline (for FP8 the quantisation, for
    // BF16 and FP16 the inputs' rounding, then the GEMM and C's store): the largest
    // |c − exact| / max(|exact|, 1), and ‖C − exact‖ / ‖exact‖ (Frobenius norms), over the finite
    // cells. Both 0 when not measured.
    double error_vs_fp64_max = 0.0;
    double error_vs_fp64_rms = 0.0;

    // Timing details: statistics of samples_ms, and how the measurement ended.
    bool hot = false;                 // as requested: samples taken back to back, L2 warm
    std::int64_t l2_flush_bytes = 0;  // written before each sample (0 when hot)
    double p20_ms = 0.0;              // 20th and 80th percentile of the samples
    double p80_ms = 0.0;
    double mean_ms = 0.0;
    double min_ms = 0.0;
    double max_ms = 0.0;
    double noise = 0.0;               // stdev / mean of the samples (0.005 = 0.5 %)
    std::string stop_reason;          // "count", "noise", "min-time", "budget", "max-samples"
    std::string timing_warning;       // empty, or why some samples may be off
    double measure_wall_s = 0.0;      // host time spent warming up, settling and sampling
    ClockSummary clocks;              // while sampling
    EnergySummary energy;             // with RunRequest::energy
    // Global-memory bytes the model says the kernel asks for (before caches), and that over
    // the median time. Both 0 when the kernel is not modelled (cuBLAS).
    std::int64_t model_traffic_bytes = 0;
    double model_bandwidth_gbs = 0.0; // GB/s = 1e9 bytes/s
    // Host-clock times of whole programs (RunRequest::end_to_end_runs); never kernel time.
    std::vector<double> end_to_end_ms;
    double end_to_end_median_ms = 0.0;

    // Measure and Occupancy requests of TileScope's kernels (not cuBLAS) that CUDA accepts.
    std::optional<KernelOccupancy> occupancy;
    // Roofline requests.
    std::optional<RooflinePeaks> roofline;
    // Record requests: what each thread loaded, and which SM ran each block and when. The
    // check fields above say whether C of that launch was right.
    std::optional<model::KernelTrace> trace;

    // Experiment requests: what the runs found; for the missing-sync experiments, what an
    // instrumented launch saw in shared memory (absent when the size is too large to watch).
    std::optional<model::ExperimentRun> experiment;
    std::optional<model::StaleReadReport> stale_reads;
    // Counters requests: the hardware's counters for one launch, beside the model's.
    std::optional<model::CounterReport> counters;
    // Requests with RunRequest::user: what compiling it gave, and the launch shape it ran with (UserCheck
    // fills `experiment` with its runs, the case's problem the request's).
    std::optional<UserCompileReport> compile;
    std::optional<model::UserLaunchShape> user_launch;
    std::optional<UserTraceReport> user_trace;
    // Accumulator requests: the bits kept, per input type, and the error growth with K.
    std::optional<model::AccumulatorReport> accumulator;

    // Memory requests: cudaMemGetInfo in the process that runs the kernels.
    std::int64_t device_free_bytes = 0;
    std::int64_t device_total_bytes = 0;

    // On a GPU shared through the lock (gpu/gpu_queue.hpp): the seconds this request waited for
    // its turn, and how many requests were ahead when it arrived. Whether another process used
    // the GPU while it ran (NVML's process list and utilisation), and which, in words: such a
    // point is marked "GPU shared".
    bool gpu_queued = false;      // it took a turn in the GPU's queue (the two below apply)
    double gpu_wait_s = 0.0;
    int gpu_queue_ahead = 0;
    bool gpu_sharing_watched = false;  // NVML could tell (the two below apply)
    bool gpu_shared = false;
    std::string gpu_shared_note;  // "1 other process used this GPU while it ran: pid 5120 (…)"
    std::string gpu_host;         // the server it ran on, when not this machine (the handshake's host)

    // Live requests (see the top of this file): the key, empty for submit(); and the id of
    // a newer live request of the same key that arrived before this one finished (0: none).
    std::string live_key;
    std::uint64_t superseded_by = 0;
};

// Whether `result` carries error_vs_fp64_max and _rms: a checked FP32, BF16, FP16 or FP8 run.
inline bool has_error_vs_fp64(const RunResult& result) {
    const model::Dtype dtype = result.request.problem.dtype;
    return result.ok && result.checked &&
           (dtype == model::Dtype::Float32 || model::is_half_precision(dtype) || model::is_fp8(dtype));
}

// Where the GPU worker is and what it is doing now, for the status bar: a supervised backend
// (supervisor.hpp) keeps it; a Runner without one is always Ready here.
struct WorkerStatus {
    enum class Phase {
        Connecting,    // starting the worker (through ssh or srun): waiting for its handshake
        Ready,         // idle, or running a request
        Waiting,       // its request waits in the GPU's queue behind `ahead` others
        Reconnecting,  // the connection was lost: the next try is at `retry_in_s`
        Failed,        // it cannot be used: `problem` says why (a version mismatch)
    };
    Phase phase = Phase::Ready;
    std::string server{};     // the server's name ("gpu1"); empty for this machine
    int ahead = 0;            // Waiting: requests ahead of this one, the one running included
    double retry_in_s = 0.0;  // Reconnecting: seconds until the next try
    std::string problem{};    // the last failure's sentence, for Reconnecting and Failed
};

// The synchronous functions the worker thread calls. The defaults are the real backend
// (probe_device and run_request below); tests put in their own to drive the queue.
struct RunnerBackend {
    std::function<DeviceInfo()> probe;
    std::function<RunResult(const RunRequest&)> run;
    // Called on the worker thread as the Runner stops (may be empty).
    std::function<void()> finish{};
    // Called from any thread (may be empty: always Ready).
    std::function<WorkerStatus()> status{};
    // Called from the Runner's owner as it stops (may be empty): a request still waiting for a
    // connection or its turn at a shared GPU gives up at once instead of holding the app's exit.
    std::function<void()> cancel_waiting{};
};

// The point a request measures, as people and the failed result's sentence name it: its
// kernel, dtype and size: "tiled T=1 float 2048³", "naive 32×8 double 512×256×128 (batch 4)".
std::string describe_point(const RunRequest& request);

class Runner {
public:
    Runner();
    explicit Runner(RunnerBackend backend);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // The device, once probing has finished; nullopt while the worker is still probing
    // (CUDA's first call can take a second). wait_for_device() blocks until it is known.
    std::optional<DeviceInfo> device() const;
    DeviceInfo wait_for_device() const;

    // Queue a request; returns its id (ids start at 1 and increase).
    std::uint64_t submit(const RunRequest& request);
    // Queue a request under `key`, latest wins: see the top of this file.
    std::uint64_t submit_live(const std::string& key, const RunRequest& request);
    // A finished result, if any, oldest first; never blocks.
    std::optional<RunResult> poll();
    // Block until result `id` is finished (for the command-line tools).
    RunResult wait(std::uint64_t id);
    // Requests queued or running.
    int pending() const;
    // Where the worker is and what it does now (RunnerBackend::status); never blocks on it.
    WorkerStatus worker_status() const;
    // Goes on with another backend (the window's GPU choice: this machine or a server), probing
    // anew: device() is nullopt until the new one answers. Only while nothing is pending (false
    // otherwise, and nothing changes). The old backend is stopped on a thread of its own, so a
    // connection still being made never holds up the caller. Ids go on from where they were.
    bool switch_backend(RunnerBackend backend);

    struct State;  // opaque: runner.cxx's

private:
    std::unique_ptr<State> m_state;
};

// ---- The backend behind Runner: synchronous, called on the worker thread only ----------

// Probes the CUDA driver and device 0. Never throws.
DeviceInfo probe_device();
// Runs one request synchronously (inputs, launches, timing, check). Never throws: errors
// become a result with ok == false.
RunResult run_request(const RunRequest& request);
// After a failed request: whether CUDA's context is gone for good in this process (an
// illegal address, a kernel that trapped): every later CUDA call would fail the same way.
bool cuda_context_lost();
// Gives back what the backend keeps between requests (the cuBLAS handle and its workspace),
// while CUDA is still fully up: called as the Runner or the worker process stops.
void release_gpu_resources();

}  // namespace ts::gpu
