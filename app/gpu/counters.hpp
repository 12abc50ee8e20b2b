// counters.hpp — RequestKind::Counters: one launch of a kernel under CUPTI's range profiler
// (CUDA 13: cupti_range_profiler.h), replayed until every metric of model/counters.hpp is
// collected, read back beside the model's predictions.
#pragma once

#include <cuda_runtime_api.h>

#include "runner.hpp"

namespace ts::gpu {

// Fills result.counters, or throws std::runtime_error with the reason counters cannot be
// read: without the profiling permission the message is model::counters_permission_help().
void read_counters(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result);

}  // namespace ts::gpu
