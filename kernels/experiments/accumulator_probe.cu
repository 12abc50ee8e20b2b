// Teaches: what the tensor cores' accumulator keeps. One warpgroup issues m64n8 wgmma on operands
// the host designed (model/accumulator.hpp) so that every FP32 output says which small products
// survived; a second kernel chains wgmma over K = 16384, never promoted and promoted every 128 of K.
// Changed from 16_wgmma.cu: no TMA and no swizzle; the host lays each wgmma's A and B out as K-major
// core matrices (model::operand_image) and the kernel only copies them into shared memory.
// Predicted by: model::simulate_probe and model::simulate_growth for an accumulator of f bits.
// Built for sm_90a alone (kernels/CMakeLists.txt's sm_90a library).
#include "kernels/common/hopper_common.cuh"
#include "kernels/experiments/accumulator_probe.hpp"
#include "model/tensor_core/descriptor.hpp"
#include "model/tensor_core/fragments.hpp"

namespace ts::kernels {

namespace {

using model::AccumulatorInput;

constexpr int kThreads = model::kWarpgroupSize;                        // one warpgroup
constexpr int kAImageBytes = model::kProbeRows * model::kWgmmaKBytes;  // 2048: 64 rows × 32 bytes of K
constexpr int kBImageBytes = model::kProbeCols * model::kWgmmaKBytes;  // 256: 8 columns × 32 bytes of K
constexpr int kRegisters = model::kProbeCols / 2;                      // n8: four FP32 accumulators a thread
constexpr int kTileCells = model::kProbeRows * model::kProbeCols;

// m64n8 wgmma, A and B K-major from shared memory (FP8 has no transpose; the 16-bit forms are given
// imm-trans-a = imm-trans-b = 0), scale-a = scale-b = 1; `accumulate` is scale-d.
template <AccumulatorInput Input>
__device__ __forceinline__ void wgmma_m64n8(float (&d)[kRegisters], std::uint64_t desc_a, std::uint64_t desc_b,
                                            int accumulate) {
    if constexpr (Input == AccumulatorInput::Fp8E4m3)
        asm volatile(
            "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %6, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, %4, %5, accumulate, 1, 1;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "l"(desc_a), "l"(desc_b), "r"(accumulate));
    else if constexpr (Input == AccumulatorInput::Bf16)
        asm volatile(
            "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %6, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, accumulate, 1, 1, 0, 0;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "l"(desc_a), "l"(desc_b), "r"(accumulate));
    else
        asm volatile(
            "{\n.reg .pred accumulate;\nsetp.ne.b32 accumulate, %6, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, accumulate, 1, 1, 0, 0;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

__device__ __forceinline__ std::uint64_t descriptor(std::uint32_t address, std::uint32_t lbo, std::uint32_t sbo) {
    return model::encode_descriptor(model::SmemDescriptor{address, lbo, sbo, 0, model::TmaSwizzle::None});
}

// The block's threads copy `bytes` (a multiple of 16, both ends 16-byte aligned) 16 at a time.
__device__ __forceinline__ void copy_to_shared(unsigned char* shared, const unsigned char* global, int bytes) {
    for (int at = static_cast<int>(threadIdx.x) * 16; at < bytes; at += kThreads * 16)
        *reinterpret_cast<uint4*>(shared + at) = *reinterpret_cast<const uint4*>(global + at);
}

// To the compiler the wgmma asm writes its d registers when it is issued, so it may move ordinary
// arithmetic on them (promoted += block) above the wgmma_wait that makes them valid, or a write of
// them (the starting values) below the wgmma_fence. This empty asm "writes" them at this point, in
// order with the volatile wait and fence, and so pins what comes after it after them.
__device__ __forceinline__ void pin_accumulators(float (&d)[kRegisters]) {
    for (int reg = 0; reg < kRegisters; ++reg) asm volatile("" : "+f"(d[reg])::"memory");
}

// This thread's accumulators into the 64 × 8 row-major tile.
__device__ __forceinline__ void store_tile(const float (&d)[kRegisters], float* tile) {
    for (int reg = 0; reg < kRegisters; ++reg) {
        const model::Cell cell = model::wgmma_accumulator_cell(static_cast<int>(threadIdx.x), reg);
        tile[cell.row * model::kProbeCols + cell.col] = d[reg];
    }
}

template <AccumulatorInput Input>
__global__ void __launch_bounds__(kThreads) accumulator_probe_kernel(const unsigned char* a_image,
                                                                     const unsigned char* b_image, ProbeOffsets offsets,
                                                                     const float* c_start, int accumulate, float* out) {
    __shared__ __align__(128) unsigned char a_tile[kAImageBytes];
    __shared__ __align__(128) unsigned char b_tile[kBImageBytes];
    copy_to_shared(a_tile, a_image, kAImageBytes);
    copy_to_shared(b_tile, b_image, kBImageBytes);
    // wgmma reads its operands through the async proxy; these were ordinary (generic-proxy) stores,
    // which it might not see without this fence.
    fence_proxy_async_shared();
    // Every thread's share of the images is stored and fenced before any warp's wgmma reads them.
    __syncthreads();

    float d[kRegisters];
    for (int reg = 0; reg < kRegisters; ++reg) {
        const model::Cell cell = model::wgmma_accumulator_cell(static_cast<int>(threadIdx.x), reg);
        d[reg] = accumulate ? c_start[cell.row * model::kProbeCols + cell.col] : 0.0f;
    }
    pin_accumulators(d);
    // The d registers were just written by ordinary instructions: the fence orders those writes
    // before the wgmma reads them.
    wgmma_fence();
    wgmma_m64n8<Input>(d, descriptor(shared_address(a_tile), offsets.a_lbo, offsets.a_sbo),
                       descriptor(shared_address(b_tile), offsets.b_lbo, offsets.b_sbo), accumulate);
    wgmma_commit();
    // The registers hold the wgmma's result only once its group has finished.
    wgmma_wait<0>();
    pin_accumulators(d);
    store_tile(d, out);
}

template <AccumulatorInput Input>
__global__ void __launch_bounds__(kThreads) accumulator_growth_kernel(const unsigned char* a_images,
                                                                      const unsigned char* b_images,
                                                                      ProbeOffsets offsets, int k, float* out) {
    constexpr int kStepK = Input == AccumulatorInput::Fp8E4m3 ? 32 : 16;
    constexpr int kSteps = model::kPromotionK / kStepK;  // wgmmas in one 128-K block: 4 or 8
    __shared__ __align__(128) unsigned char a_tiles[kSteps * kAImageBytes];
    __shared__ __align__(128) unsigned char b_tiles[kSteps * kBImageBytes];
    const std::uint32_t a_base = shared_address(a_tiles), b_base = shared_address(b_tiles);

    float never[kRegisters] = {}, block[kRegisters] = {}, promoted[kRegisters] = {};
    int written = 0;
    for (int b = 0; b < k / model::kPromotionK; ++b) {
        copy_to_shared(a_tiles, a_images + static_cast<std::size_t>(b) * kSteps * kAImageBytes, kSteps * kAImageBytes);
        copy_to_shared(b_tiles, b_images + static_cast<std::size_t>(b) * kSteps * kBImageBytes, kSteps * kBImageBytes);
        // Ordinary stores, read next by wgmma through the async proxy: as in the probe kernel.
        fence_proxy_async_shared();
        // Every thread's share of this block's images is in place before any warp's wgmma reads it.
        __syncthreads();
        // block[] was read by ordinary instructions (promoted += block) since the last wgmma: the
        // fence orders that before the wgmmas below write block[] again.
        pin_accumulators(never);
        pin_accumulators(block);
        wgmma_fence();
#pragma unroll
        for (int s = 0; s < kSteps; ++s)
            wgmma_m64n8<Input>(never, descriptor(a_base + s * kAImageBytes, offsets.a_lbo, offsets.a_sbo),
                               descriptor(b_base + s * kBImageBytes, offsets.b_lbo, offsets.b_sbo), b > 0 || s > 0);
#pragma unroll
        for (int s = 0; s < kSteps; ++s)
            wgmma_m64n8<Input>(block, descriptor(a_base + s * kAImageBytes, offsets.a_lbo, offsets.a_sbo),
                               descriptor(b_base + s * kBImageBytes, offsets.b_lbo, offsets.b_sbo), s > 0);
        wgmma_commit();
        // block[] and never[] are the wgmmas' results only once the group has finished.
        wgmma_wait<0>();
        pin_accumulators(never);
        pin_accumulators(block);
        for (int reg = 0; reg < kRegisters; ++reg) promoted[reg] += block[reg];  // the promotion: FP32 adds
        if (((b + 1) & b) == 0) {  // b + 1 blocks is a power of two: one of model::growth_ks
            store_tile(never, out + static_cast<std::size_t>(written) * 2 * kTileCells);
            store_tile(promoted, out + static_cast<std::size_t>(written) * 2 * kTileCells + kTileCells);
            ++written;
        }
        // Every warp's wgmmas have read this block's tiles (each warp waited for its own) before any
        // thread stores the next block's over them.
        __syncthreads();
    }
}

template <AccumulatorInput Input>
cudaError_t launch_probe(const void* a_image, const void* b_image, ProbeOffsets offsets, const float* c_start,
                         bool accumulate, float* out, cudaStream_t stream) {
    accumulator_probe_kernel<Input><<<1, kThreads, 0, stream>>>(static_cast<const unsigned char*>(a_image),
                                                                static_cast<const unsigned char*>(b_image), offsets,
                                                                c_start, accumulate ? 1 : 0, out);
    return cudaGetLastError();
}

template <AccumulatorInput Input>
cudaError_t launch_growth(const void* a_images, const void* b_images, ProbeOffsets offsets, int k, float* out,
                          cudaStream_t stream) {
    accumulator_growth_kernel<Input><<<1, kThreads, 0, stream>>>(static_cast<const unsigned char*>(a_images),
                                                                 static_cast<const unsigned char*>(b_images), offsets,
                                                                 k, out);
    return cudaGetLastError();
}

}  // namespace

const char* accumulator_probe_unavailable() { return sm90a_unavailable(); }

cudaError_t launch_accumulator_probe(AccumulatorInput input, const void* a_image, const void* b_image,
                                     ProbeOffsets offsets, const float* c_start, bool accumulate, float* out,
                                     cudaStream_t stream) {
    if (sm90a_unavailable()) return cudaErrorNoKernelImageForDevice;
    switch (input) {
        case AccumulatorInput::Fp8E4m3:
            return launch_probe<AccumulatorInput::Fp8E4m3>(a_image, b_image, offsets, c_start, accumulate, out, stream);
        case AccumulatorInput::Bf16:
            return launch_probe<AccumulatorInput::Bf16>(a_image, b_image, offsets, c_start, accumulate, out, stream);
        case AccumulatorInput::Fp16:
            return launch_probe<AccumulatorInput::Fp16>(a_image, b_image, offsets, c_start, accumulate, out, stream);
    }
    return cudaErrorInvalidValue;
}

cudaError_t launch_accumulator_growth(AccumulatorInput input, const void* a_images, const void* b_images,
                                      ProbeOffsets offsets, int k, float* out, cudaStream_t stream) {
    if (sm90a_unavailable()) return cudaErrorNoKernelImageForDevice;
    if (k <= 0 || k % model::kPromotionK != 0) return cudaErrorInvalidValue;
    switch (input) {
        case AccumulatorInput::Fp8E4m3:
            return launch_growth<AccumulatorInput::Fp8E4m3>(a_images, b_images, offsets, k, out, stream);
        case AccumulatorInput::Bf16:
            return launch_growth<AccumulatorInput::Bf16>(a_images, b_images, offsets, k, out, stream);
        case AccumulatorInput::Fp16:
            return launch_growth<AccumulatorInput::Fp16>(a_images, b_images, offsets, k, out, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace ts::kernels
