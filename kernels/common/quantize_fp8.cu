// Not a rung of the ladder: quantises an FP8 request's FP32 operands to e4m3 with their scales
// (model/fp8_values.hpp), per tensor or per block, before the matmul. The runner times it apart.
#include <algorithm>
#include <cstdint>

#include "kernels/common/quantize_fp8.hpp"
#include "model/fp8_values.hpp"

namespace ts::kernels {

namespace {

using model::kFp8ScaleBlock;

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

unsigned grid_for(std::int64_t count) {
    return static_cast<unsigned>(std::clamp<std::int64_t>((count + kThreads - 1) / kThreads, 1, 4096));
}

__device__ float warp_max(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

// The largest value of the block's threads, in every thread. `shared` holds one float per warp.
__device__ float block_max(float v, float* shared) {
    v = warp_max(v);
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (lane == 0) shared[warp] = v;
    // Every warp's maximum must be in shared memory before warp 0 reads them all.
    __syncthreads();
    v = lane < kWarps ? shared[lane] : 0.0f;
    v = warp_max(v);
    // Every warp has read shared[] before the caller may write it again (the next call).
    __syncthreads();
    return v;
}

// ---- Per tensor: amax over everything, then every code with one scale ----------------------

__global__ void amax_kernel(const float* values, std::int64_t count, unsigned* amax) {
    __shared__ float warp_maxima[kWarps];
    float local = 0.0f;
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
         i += std::int64_t{gridDim.x} * blockDim.x)
        local = fmaxf(local, fabsf(values[i]));
    local = block_max(local, warp_maxima);
    // |x| ≥ 0: the float's bits order as unsigned integers do, so atomicMax on them is the float maximum.
    if (threadIdx.x == 0) atomicMax(amax, __float_as_uint(local));
}

__global__ void quantize_tensor_kernel(const float* values, std::int64_t count, std::uint8_t* codes, float* scale_out,
                                       const unsigned* amax) {
    const float scale = model::fp8_scale_of(__uint_as_float(*amax));
    if (blockIdx.x == 0 && threadIdx.x == 0) *scale_out = scale;
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
         i += std::int64_t{gridDim.x} * blockDim.x)
        codes[i] = model::quantize_e4m3(values[i], scale);
}

// ---- A: one warp per (row, 128 of K) --------------------------------------------------------

__global__ void quantize_rows_kernel(const float* values, std::int64_t rows, std::int64_t k, std::uint8_t* codes,
                                     float* scales) {
    const std::int64_t k_blocks = (k + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
    const std::int64_t warp_id = (blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (warp_id >= rows * k_blocks) return;  // the whole warp leaves together: no shuffle is left half-done
    const std::int64_t row = warp_id / k_blocks;
    const std::int64_t k_block = warp_id % k_blocks;
    const std::int64_t k0 = k_block * kFp8ScaleBlock;
    const std::int64_t k1 = k0 + kFp8ScaleBlock < k ? k0 + kFp8ScaleBlock : k;  // the last block may be partial
    const float* in = values + row * k;
    float amax = 0.0f;
    for (std::int64_t c = k0 + lane; c < k1; c += 32) amax = fmaxf(amax, fabsf(in[c]));
    const float scale = model::fp8_scale_of(warp_max(amax));
    for (std::int64_t c = k0 + lane; c < k1; c += 32) codes[row * k + c] = model::quantize_e4m3(in[c], scale);
    if (lane == 0) scales[model::a_block_scale_index(row, k_block, rows)] = scale;
}

// ---- B: one block of threads per 128×128 block ------------------------------------------------

__global__ void quantize_blocks_kernel(const float* values, std::int64_t rows, std::int64_t k, std::uint8_t* codes,
                                       float* scales) {
    __shared__ float warp_maxima[kWarps];
    const std::int64_t k_blocks = (k + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
    const std::int64_t stride = (k_blocks + 3) / 4 * 4;  // Problem::b_scale_stride
    const std::int64_t row_block = blockIdx.x / k_blocks;
    const std::int64_t k_block = blockIdx.x % k_blocks;
    const std::int64_t r0 = row_block * kFp8ScaleBlock;
    const std::int64_t c0 = k_block * kFp8ScaleBlock;
    // Partial blocks at the edges: fewer rows below N, fewer columns past K.
    const int height = static_cast<int>(rows - r0 < kFp8ScaleBlock ? rows - r0 : kFp8ScaleBlock);
    const int width = static_cast<int>(k - c0 < kFp8ScaleBlock ? k - c0 : kFp8ScaleBlock);
    float amax = 0.0f;
    for (int i = threadIdx.x; i < height * width; i += blockDim.x)
        amax = fmaxf(amax, fabsf(values[(r0 + i / width) * k + c0 + i % width]));
    const float scale = model::fp8_scale_of(block_max(amax, warp_maxima));
    for (int i = threadIdx.x; i < height * width; i += blockDim.x) {
        const std::int64_t at = (r0 + i / width) * k + c0 + i % width;
        codes[at] = model::quantize_e4m3(values[at], scale);
    }
    if (threadIdx.x == 0) scales[model::b_block_scale_index(row_block, k_block, stride)] = scale;
}

}  // namespace

cudaError_t quantize_fp8_per_tensor(const float* values, std::int64_t count, std::uint8_t* codes, float* scale,
                                    unsigned* amax_scratch, cudaStream_t stream) {
    if (count <= 0) return cudaSuccess;
    if (const cudaError_t e = cudaMemsetAsync(amax_scratch, 0, sizeof(unsigned), stream); e != cudaSuccess) return e;
    amax_kernel<<<grid_for(count), kThreads, 0, stream>>>(values, count, amax_scratch);
    // Stream order: the quantising kernel starts after every block of amax_kernel has added its maximum.
    quantize_tensor_kernel<<<grid_for(count), kThreads, 0, stream>>>(values, count, codes, scale, amax_scratch);
    return cudaGetLastError();
}

cudaError_t quantize_fp8_rows(const float* values, std::int64_t rows, std::int64_t k, std::uint8_t* codes,
                              float* scales, cudaStream_t stream) {
    if (rows <= 0 || k <= 0) return cudaSuccess;
    const std::int64_t warps = rows * ((k + kFp8ScaleBlock - 1) / kFp8ScaleBlock);
    const auto blocks = static_cast<unsigned>((warps + kWarps - 1) / kWarps);
    quantize_rows_kernel<<<blocks, kThreads, 0, stream>>>(values, rows, k, codes, scales);
    return cudaGetLastError();
}

cudaError_t quantize_fp8_blocks(const float* values, std::int64_t rows, std::int64_t k, std::uint8_t* codes,
                                float* scales, cudaStream_t stream) {
    if (rows <= 0 || k <= 0) return cudaSuccess;
    const std::int64_t row_blocks = (rows + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
    const std::int64_t k_blocks = (k + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
    // Each row of scales is padded to a multiple of 4 floats; the padding is zeros.
    const std::size_t scale_bytes = static_cast<std::size_t>(row_blocks * ((k_blocks + 3) / 4 * 4)) * sizeof(float);
    if (const cudaError_t e = cudaMemsetAsync(scales, 0, scale_bytes, stream); e != cudaSuccess) return e;
    const std::int64_t tiles = row_blocks * k_blocks;
    quantize_blocks_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(values, rows, k, codes, scales);
    return cudaGetLastError();
}

}  // namespace ts::kernels
