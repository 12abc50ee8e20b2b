// accumulator_probe.hpp — host functions that launch the accumulator experiment's kernels
// (accumulator_probe.cu, sm_90a only), for gpu/accumulator_runner.cxx and its test.
//
// Both run one warpgroup (128 threads, one block) of m64n8 wgmma on operand images that the model
// placed (model/accumulator.hpp: operand_image, growth_a_images, growth_b_images): K-major, no
// swizzle, one image per wgmma, A's 64·32 bytes and B's 8·32 bytes. The descriptors' LBO and SBO
// come from the host (model::operand_descriptor); the kernels add only the shared address. Every
// output is a 64 × 8 row-major FP32 tile, each d register written to the cell the model says
// (model::wgmma_accumulator_cell). They take device pointers and return cudaGetLastError().
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "model/accumulator.hpp"

namespace ts::kernels {

// Why this GPU cannot run the probe (wgmma is sm_90a), or null.
const char* accumulator_probe_unavailable();

// The byte offsets the kernels put into the descriptors (model::SmemDescriptor's LBO and SBO).
struct ProbeOffsets {
    std::uint32_t a_lbo = 0, a_sbo = 0, b_lbo = 0, b_sbo = 0;
};

// One wgmma: d = c_start (64 × 8, read when `accumulate`), then d = A·B + (accumulate ? d : 0);
// `out` gets d. a_image: 2048 bytes; b_image: 256.
cudaError_t launch_accumulator_probe(model::AccumulatorInput input, const void* a_image, const void* b_image,
                                     ProbeOffsets offsets, const float* c_start, bool accumulate, float* out,
                                     cudaStream_t stream);

// A chain of k / wgmma_k_of(input) wgmmas over the step images (k a multiple of 128), two ways at once:
// "never promoted", one accumulator over all of K; "promoted", each 128-K block's wgmmas started
// from zero and their sum added into FP32 registers. After every block whose count is a power of
// two (K = 128, 256, ...), `out` gets the never-promoted tile, then the promoted one: out holds
// 2 · 512 floats per power of two up to k.
cudaError_t launch_accumulator_growth(model::AccumulatorInput input, const void* a_images, const void* b_images,
                                      ProbeOffsets offsets, int k, float* out, cudaStream_t stream);

}  // namespace ts::kernels
