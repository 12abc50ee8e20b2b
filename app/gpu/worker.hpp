// worker.hpp — the GPU worker process: the window's CUDA work runs here, in a child process
// (`tilescope worker`, here or on a server), so that a kernel that faults or never ends costs a
// restart of the worker, not the app. It answers the supervisor (supervisor.hpp) over two pipes
// with the messages of wire.hpp: a handshake first, then one answer per request, with a heartbeat
// while a request runs.
//
// On a GPU that several people share, each request that runs on the GPU first takes its turn in
// the GPU's queue (gpu_queue.hpp), saying meanwhile how many are ahead, and holds the GPU for that
// one request only. A request that overruns its deadline ends the worker from inside, so its turn
// ends even where the supervisor's kill cannot reach (a dropped ssh link).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "gpu_queue.hpp"
#include "runner.hpp"

namespace ts::gpu {

struct WorkerOptions {
    GpuQueueSetting queue = gpu_queue_setting_from_environment();
    // Other processes' use of the GPU since `since`: a sentence naming them when any used it, an
    // empty one when none did; nullopt when it cannot be told. Null: not watched.
    std::function<std::optional<std::string>(std::chrono::system_clock::time_point since)> others_on_gpu{};
};

// Serves requests read from `in` with `backend`, answering on `out`, until `in` closes (exit
// code 0) or a request leaves the CUDA context unusable (`context_lost` says so after a
// failed request; exit code 3, after the result is sent). Never throws. It exits the process
// (status 4) when `out` is closed under it, and (status 5) when a request overruns the deadline
// its "run" message gave.
int run_worker(int in, int out, const RunnerBackend& backend, const std::function<bool()>& context_lost,
               const WorkerOptions& options = {});

// The real worker: the CUDA backend of runner.hpp, with NVML watching for others on the GPU.
int run_cuda_worker(int in, int out);

// Whether a request of this kind runs on the GPU, and so takes a turn in its queue: everything
// but compiling, asking CUDA about a kernel, and reading the free memory.
bool uses_gpu(RequestKind kind);

}  // namespace ts::gpu
