// worker.hpp — the GPU worker process: the window's CUDA work runs here, in a child process
// (`tilescope worker`), so that a kernel that faults or never ends costs a restart of the
// worker, not the app. It answers the supervisor (supervisor.hpp) over two pipes with the
// messages of wire.hpp, and beats a heartbeat while a request runs.
#pragma once

#include <functional>

#include "runner.hpp"

namespace ts::gpu {

// Serves requests read from `in` with `backend`, answering on `out`, until `in` closes (exit
// code 0) or a request leaves the CUDA context unusable (`context_lost` says so after a
// failed request; exit code 3, after the result is sent). Never throws.
int run_worker(int in, int out, const RunnerBackend& backend, const std::function<bool()>& context_lost);

// The real worker: the CUDA backend of runner.hpp.
int run_cuda_worker(int in, int out);

}  // namespace ts::gpu
