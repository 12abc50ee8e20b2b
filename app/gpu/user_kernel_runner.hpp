// user_kernel_runner.hpp — the learner's own kernel in the worker: compiled with NVRTC
// (nvrtc_compiler.hpp), loaded with the CUDA runtime's library calls (cudaLibraryLoadData,
// cudaLibraryGetKernel), launched with the shape its file gives (model/user_kernel/launch.hpp), checked
// between guard zones (guarded_runs.hpp) and timed with the rungs' method (measure.hpp).
//
// The worker keeps the last module it loaded, so Compile, then Check, then Measure of one source
// compile it once. A kernel that faults loses the worker's CUDA context; the supervisor restarts
// the worker and says where it happened. One that never returns is stopped at the request's
// deadline the same way.
#pragma once

#include <cuda_runtime_api.h>

#include "runner.hpp"

namespace ts::gpu {

// UserCompile: fills result.compile (for the GPU's architecture when `device` is usable, else
// for request.user->arch), and result.occupancy when the module loads on the GPU. `ok` when it
// compiled.
void compile_user_request(const RunRequest& request, const DeviceInfo& device, RunResult& result);

// UserCheck: request.runs launches on request.problem, each checked cell by cell:
// result.experiment (its case's problem the request's), result.compile, result.user_launch,
// result.occupancy. Throws CudaError (a refused launch, a fault) and std::invalid_argument (a
// launch shape with no value, one the GPU's limits refuse, a kernel that does not compile).
void check_user_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result);

// Measure with request.user: inputs, timing as for a rung (warm-up, cold or hot samples), then
// the check of one launch. Throws as check_user_kernel.
void measure_user_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result);

// Record with request.user: the kernel built to record itself (user_kernel_tracing.hpp), launched
// once on request.problem between guard zones: result.user_trace, and result.trace when the
// kernel is shaped like the tiled rung (model::tiled_trace_of), for the theatre. Throws as
// check_user_kernel.
void record_user_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result);

// Unloads the kept module (the worker stops).
void release_user_kernel();

}  // namespace ts::gpu
