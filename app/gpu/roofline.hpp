// roofline.hpp — the GPU's own ceilings for the roofline plot, measured with the timing
// engine (measure.hpp) rather than read from a data sheet: what this GPU, driver and clock
// state actually sustain.
//
// Bandwidth: one cudaMemcpyAsync, device to device, of a buffer far larger than L2 (1 GiB,
// less when memory is short), timed back to back; every byte is read once and written
// once, so the rate counts both. A copy is what STREAM's "copy" and CUDA's bandwidthTest
// measure; a tuned kernel may beat it by a few percent.
// FP32: cuBLAS SGEMM at 2048³, 4096³ and 8192³ (those that fit in memory), in pedantic
// FP32 (no TF32 tensor cores, like TileScope's kernels); the fastest counts. Without
// cuBLAS there is no FP32 rate, and fp32_unavailable says why.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "runner.hpp"

namespace ts::gpu {

// `free_bytes`: device memory free now; the buffers stay within a quarter of it (the
// bandwidth buffers) and half of it (the SGEMM operands). Throws CudaError, or
// std::runtime_error when cuBLAS refuses a call.
RooflinePeaks measure_roofline(std::int64_t free_bytes, cudaStream_t stream);

}  // namespace ts::gpu
