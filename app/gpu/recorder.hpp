// recorder.hpp — RequestKind::Record: one launch of the recorded variant of the naive, tiled,
// regtile-2d or warptile kernel (kernels/*_recorded.cu), read back into a model::KernelTrace.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "runner.hpp"

namespace ts::gpu {

// Draws float inputs from request.seed, launches the recorded kernel once on `stream`,
// checks C against the CPU reference and fills result.trace and the check fields. The
// loads are left out (only SMs and clocks kept) when they would exceed
// model::kMaxLoadRecords; result.timing_warning then says so. Throws CudaError.
void record_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result);

}  // namespace ts::gpu
