// runner.hpp — the one bridge from the app and the command-line tools to CUDA.
//
// Asynchronous: submit() returns at once with an id; a worker thread runs the request and
// poll() hands back finished results. The UI thread never waits on the GPU. The CLI may
// block with wait(). Nothing here throws to the caller or calls exit(): CUDA failures come
// back as results whose `error` names the CUDA call, file and line.
//
// Built with CUDA, the backend is runner_cuda.cxx; without, runner_none.cxx reports why and
// every request fails politely, so the app keeps working on the model.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/device_limits.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"

namespace ts::gpu {

struct DeviceInfo {
    bool usable = false;         // false: see why_not
    std::string why_not;         // "no CUDA device: ..." in words a user can act on
    model::DeviceLimits limits;  // real numbers when usable (is_preset == false)
    std::string driver_version;  // "13.0" (empty when no driver)
    std::string runtime_version; // CUDA runtime linked into TileScope
    std::int64_t free_memory_bytes = 0;
};

struct RunRequest {
    model::KernelConfig kernel;
    model::Problem problem;
    int warmup_launches = 2;
    int timed_launches = 10;      // median of these
    std::uint64_t seed = 1;       // random inputs are drawn from this
    bool check = true;            // compare against the CPU reference
};

struct RunResult {
    std::uint64_t id = 0;
    RunRequest request;
    bool ok = false;              // false: `error` says why; nothing below is meaningful
    std::string error;            // e.g. "... CUDA reports: launching naive 64×32 ...: invalid argument (cudaErrorInvalidValue at app/gpu/runner_cuda.cxx:261)"
    std::vector<double> samples_ms;  // one CUDA-event time per timed launch
    double median_ms = 0.0;
    double gflops = 0.0;          // 2·M·N·K·batch / median time
    bool checked = false;         // a CPU reference check was run
    bool check_passed = false;    // every element within tolerance, and no NaN
    double max_rel_error = 0.0;   // max |gpu − ref| / max(|ref|, 1) over C
    std::int64_t mismatches = 0;  // elements out of tolerance (NaN counts)
    std::string check_summary;    // "max rel. error 3.1e-07 (tolerance 1.2e-05): pass"
};

class Runner {
public:
    Runner();
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // The device, once probing has finished; nullopt while the worker is still probing
    // (CUDA's first call can take a second). wait_for_device() blocks until it is known.
    std::optional<DeviceInfo> device() const;
    DeviceInfo wait_for_device() const;

    // Queue a request; returns its id (ids start at 1 and increase).
    std::uint64_t submit(const RunRequest& request);
    // A finished result, if any, oldest first; never blocks.
    std::optional<RunResult> poll();
    // Block until result `id` is finished (for the command-line tools).
    RunResult wait(std::uint64_t id);
    // Requests queued or running.
    int pending() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// ---- The backend behind Runner: synchronous, called on the worker thread only ----------

// Probes the CUDA driver and device 0. Never throws.
DeviceInfo probe_device();
// Runs one request synchronously (inputs, launches, timing, check). Never throws: errors
// become a result with ok == false.
RunResult run_request(const RunRequest& request);

}  // namespace ts::gpu
