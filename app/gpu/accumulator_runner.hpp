// accumulator_runner.hpp — RequestKind::Accumulator: the tensor cores' accumulator measured
// (model/accumulator.hpp says how), for each input type the request names.
#pragma once

#include <cuda_runtime_api.h>

#include "runner.hpp"

namespace ts::gpu {

// Why the accumulator experiment cannot run on this GPU ("needs an H100/H200: wgmma is sm_90a"),
// or null when it can.
const char* accumulator_unavailable();

// Fills result.accumulator: for each type of request.accumulator_input ("fp8", "bf16", "fp16" or
// "all"), the identity probes (with the documented descriptor, then with LBO and SBO traded if the
// documented one fails), the probe inside one wgmma, the probe across k-steps, and the error of a
// K = 16384 chain never promoted and promoted every 128 (inputs from request.seed). Throws
// CudaError, std::invalid_argument for an unknown type.
void run_accumulator(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result);

}  // namespace ts::gpu
