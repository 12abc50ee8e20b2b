// 20_fp8.cuh — the FP8 kernel, shared by 20_fp8.cu (one scale per tensor) and 21_fp8_blocks.cu
// (DeepSeek's block scales), as 18_persistent.cuh is by 18 and 19.
// Teaches: eight bits double the tensor cores' rate on the same bytes, and scales say where the
// values lie. e4m3 has 4 exponent and 3 fraction bits, largest 448.
// Changed from 18_persistent.cuh:
// - A K step is still 128 bytes of each row, now 128 elements: one m64n256k32 (21: m64n128k32) per
//   consumer and 32 of K (model::kFp8Shape: element_bytes 1).
// - FP8 wgmma reads both operands K-major: B is stored N×K (C = A·Bᵀ, as cuBLASLt and DeepGEMM take
//   it) and arrives as A's tile does; no operand swap.
// - 20: C = (A·Bᵀ)·scale_a·scale_b, a multiply per cell in the epilogue. 21: no one factor fits a
//   sum over K, so each K step's products go into a second set of accumulators, added to the FP32
//   sums times their two scales (promote). The tensor cores keep 13 fraction bits when they add
//   e4m3 products (tilescope-cli experiment accumulator): each promotion starts them afresh.
// - C leaves from the registers, two BF16 a store (store_accumulators): its elements are twice A's.
// - No stream-K. Kept: the persistent grid, clusters of two sharing B by TMA multicast, the tile
//   order for L2, the producer warpgroup and the ring.
// Traffic: half of 18's bytes for the same tiles; 21 adds its scales from L2, two floats of A's a
// thread and K step and one of B's.
// Measurements behind these choices: docs/notes/fp8.md.
#pragma once

#include <cuda_bf16.h>

#include "kernels/common/hopper_common.cuh"
#include "model/fp8_values.hpp"

namespace ts::kernels {

namespace fp8 {

// What a thread of each role may keep (setmaxnreg), as 18's.
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;

template <model::WgmmaShape Shape>
constexpr int shared_bytes() {
    return model::wgmma_shared_bytes(Shape) + 1024;  // + room to align to 1024
}

// The scales on the GPU (model/fp8_values.hpp lays them out): per tensor one float each; per block,
// A's at a_block_scale_index, B's at b_block_scale_index with rows of `b_stride` floats.
struct Scales {
    const float* a = nullptr;
    const float* b = nullptr;
    int b_stride = 0;
};

// 21's promotion of one K step: sums += step · scale_a(row) · scale_b. A thread's accumulators lie
// on two rows of its consumer's 64 (model::wgmma_accumulator_cell: registers 4j, 4j + 1 on the
// first, 4j + 2, 4j + 3 eight rows below), so it needs two of A's scales; B's block is the tile's.
// `first` writes the sums instead of adding to them (a new tile).
template <model::WgmmaShape Shape>
__device__ __forceinline__ void promote(Accumulators<Shape>& sums, const Accumulators<Shape>& step, float upper_scale,
                                        float lower_scale, bool first) {
#pragma unroll
    for (int r = 0; r < Shape.wgmma_n / 2; ++r) {
        const float scale = (r & 2) ? lower_scale : upper_scale;
        sums[0][r] = first ? step[0][r] * scale : fmaf(step[0][r], scale, sums[0][r]);
    }
}

// The kernel for the shape ShapeType::value (a type: nvcc's host stubs cannot name a __global__
// template instantiated on a class-type value), with the scaling `Scaling`. C is BF16.
template <typename ShapeType, model::Fp8Scaling Scaling>
__global__ void __cluster_dims__(ShapeType::value.cluster_m, 1, 1) __launch_bounds__(ShapeType::value.threads(), 1)
    fp8_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, __nv_bfloat16* c,
               int m, int n, int k, int batches, Scales scales) {
    constexpr model::WgmmaShape kShape = ShapeType::value;
    constexpr int kClusterSize = kShape.cluster_m;
    constexpr bool kBlocks = Scaling == model::Fp8Scaling::Block;
    static_assert(kShape.valid() && kShape.element_bytes == 1 && kShape.m_slices() == 1 && kShape.n_slices() == 1);
    static_assert(model::setmaxnreg_fits(kShape, kProducerRegisters, kConsumerRegisters));
    // A K step is one block of the scales along K, and a tile's columns one block of B's.
    static_assert(!kBlocks || (kShape.bk == model::kFp8ScaleBlock && kShape.bn == model::kFp8ScaleBlock));
    extern __shared__ unsigned char raw_smem[];
    unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw_smem) + 1023) & ~std::uintptr_t{1023});
    auto* full = reinterpret_cast<std::uint64_t*>(smem + model::barriers_offset(kShape));
    std::uint64_t* empty = full + kShape.stages;
    const std::uint32_t smem_base = shared_address(smem);

    const int thread = static_cast<int>(threadIdx.x);
    const int warpgroup = warpgroup_index(), wg_thread = thread % model::kWarpgroupSize;
    const int rank = cluster_cta_rank();
    const int cluster = static_cast<int>(blockIdx.x) / kClusterSize, clusters = static_cast<int>(gridDim.x) / kClusterSize;
    const int cluster_rows = model::cluster_rows_of(kShape, m), cols = model::block_cols_of(kShape, n);
    const int tiles = cluster_rows * cols * batches;
    const int k_steps = model::wgmma_k_steps(kShape, k);
    const auto tile_of = [&](int index) {
        return model::persistent_tile(index, cluster_rows, cols, model::kPersistentGroupRows);
    };

    if (thread == 0) {
        prefetch_tensor_map(&a_map);
        prefetch_tensor_map(&b_map);
        init_ring_barriers<kShape>(full, empty);
    }
    // The cluster meets in two halves, as in 18: each role waits just before it first multicasts
    // into the other CTA or arrives on its barriers.
    cluster_arrive_relaxed();

    if (model::warpgroup_role(kShape, warpgroup) == model::TcRole::Producer) {
        setmaxnreg_dec<kProducerRegisters>();
        // Both CTAs' barriers exist before either multicasts into the other.
        cluster_wait();
        if (wg_thread == 0) {
            int step = 0;  // K steps over every tile this cluster takes: the ring runs on
            for (int tile = cluster; tile < tiles; tile += clusters) {
                const model::ClusterTile t = tile_of(tile);
                const int block_m = t.cluster_row * kClusterSize + rank;
                for (int kk = 0; kk < k_steps; ++kk, ++step) {
                    const model::StageStep ring = model::stage_step(kShape, step);
                    // Refill only once the consumers of both CTAs released the stage.
                    if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);
                    issue_cluster_stage<kShape>(smem, full, &a_map, &b_map, block_m, t.col, t.batch, kk, ring.stage,
                                                rank, false);
                }
            }
            // The tail, as 18's: wait until both CTAs' consumers released every stage for the last
            // time, so that no arrival from the other CTA is still on its way when the block ends.
            for (int tail = 0; tail < kShape.stages; ++tail, ++step) {
                const model::StageStep ring = model::stage_step(kShape, step);
                if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);
            }
        }
    } else {
        setmaxnreg_inc<kConsumerRegisters>();
        const int consumer = model::consumer_of_warpgroup(kShape, warpgroup);
        const std::uint64_t a_desc0 =
            model::encode_descriptor(model::wgmma_a_descriptor(kShape, smem_base, 0, consumer, 0, 0));
        const std::uint64_t b_desc0 = model::encode_descriptor(model::wgmma_b_descriptor(kShape, smem_base, 0, 0, 0));
        constexpr std::uint64_t kAStageStep = model::a_descriptor_step(kShape, 1, 0);
        constexpr std::uint64_t kBStageStep = model::b_descriptor_step(kShape, 1, 0);
        static_assert(model::a_descriptor_step(kShape, kShape.stages - 1, 0) == (kShape.stages - 1) * kAStageStep &&
                          model::b_descriptor_step(kShape, kShape.stages - 1, 0) == (kShape.stages - 1) * kBStageStep,
                      "the stages lie evenly spaced");
        model::RingCursor ring;
        std::uint64_t a_stage = a_desc0, b_stage = b_desc0;
        // The rows of C this thread's accumulators lie on, within the consumer's 64 (and 8 below).
        const int upper_row = model::wgmma_accumulator_cell(wg_thread, 0).row;
        // Per tensor: one factor for every cell, read once.
        const float tensor_scale = kBlocks ? 1.0f : scales.a[0] * scales.b[0];
        // Both CTAs' barriers exist before this warpgroup arrives on the other's.
        cluster_wait();
        for (int tile = cluster; tile < tiles; tile += clusters) {
            const model::ClusterTile t = tile_of(tile);
            const int block_m = t.cluster_row * kClusterSize + rank;
            const int row0 = block_m * kShape.bm + consumer * kShape.consumer_rows() + upper_row;
            Accumulators<kShape> acc;
            [[maybe_unused]] Accumulators<kShape> sums;
            for (int kk = 0; kk < k_steps; ++kk) {
                // Block scales: this step's, asked for before the wait so that their loads from L2
                // run under it. Rows past M have none (their products are zeros anyway).
                float upper_scale = 0.0f, lower_scale = 0.0f;
                if constexpr (kBlocks) {
                    const float b_scale = __ldg(&scales.b[model::b_block_scale_index(t.col, kk, scales.b_stride)]);
                    if (row0 < m) upper_scale = __ldg(&scales.a[model::a_block_scale_index(row0, kk, m)]) * b_scale;
                    if (row0 + 8 < m) lower_scale = __ldg(&scales.a[model::a_block_scale_index(row0 + 8, kk, m)]) * b_scale;
                }
                // The stage is whole when TMA has delivered every byte, from both CTAs' copies.
                mbarrier_wait(&full[ring.stage], ring.full_parity);
                // Per tensor the sums run on over all of K; per block each step starts afresh.
                wgmma_stage_from<kShape, __nv_bfloat16>(acc, a_stage, b_stage, !kBlocks && kk > 0);
                // This warpgroup's reads of the stage are over when its wgmmas are (and 21 reads
                // their products next).
                wgmma_wait<0>();
                // Release the stage in every CTA of the cluster: thread r arrives on CTA r's barrier.
                if (wg_thread < kClusterSize) mbarrier_arrive_cluster(&empty[ring.stage], wg_thread);
                ring.advance(kShape);
                a_stage = ring.stage == 0 ? a_desc0 : a_stage + kAStageStep;
                b_stage = ring.stage == 0 ? b_desc0 : b_stage + kBStageStep;
                if constexpr (kBlocks) promote<kShape>(sums, acc, upper_scale, lower_scale, kk == 0);
            }
            __nv_bfloat16* c_batch = c + static_cast<std::int64_t>(t.batch) * m * n;
            if constexpr (kBlocks)
                store_accumulators<kShape, __nv_bfloat16>(sums, c_batch, m, n, block_m * kShape.bm, t.col * kShape.bn,
                                                          consumer, wg_thread);
            else
                store_accumulators<kShape, __nv_bfloat16>(acc, c_batch, m, n, block_m * kShape.bm, t.col * kShape.bn,
                                                          consumer, wg_thread, tensor_scale);
        }
    }
}

// As many clusters as finish the tiles in as many rounds as all that fit would (18's rule).
template <typename ShapeType, model::Fp8Scaling Scaling>
int clusters_that_fit(const model::Problem& p) {
    constexpr model::WgmmaShape kShape = ShapeType::value;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kShape.cluster_m, 1, 1);
    config.blockDim = dim3(kShape.threads(), 1, 1);
    config.dynamicSmemBytes = shared_bytes<kShape>();
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, fp8_kernel<ShapeType, Scaling>, &config) != cudaSuccess) return 0;
    const std::int64_t tiles = static_cast<std::int64_t>(model::cluster_rows_of(kShape, static_cast<int>(p.m))) *
                               model::block_cols_of(kShape, static_cast<int>(p.n)) * p.batch;
    return model::balanced_clusters(tiles, clusters);
}

// The launch: refuse off Hopper and for the other scaling, pad K where TMA needs it, make the maps,
// allow the shared memory, launch the persistent grid, free the padding when the stream gets there.
template <typename ShapeType, model::Fp8Scaling Scaling>
cudaError_t launch(const model::Problem& p, ScaledFp8Operands operands, cudaStream_t stream) {
    constexpr model::WgmmaShape kShape = ShapeType::value;
    if (sm90a_unavailable()) return cudaErrorNoKernelImageForDevice;
    if (p.dtype != model::Dtype::Fp8E4M3 || p.fp8_scaling != Scaling) return cudaErrorInvalidValue;
    TmaOperands tma;
    if (const cudaError_t e = prepare_fp8_tma_operands(p, operands.a, operands.b, tma, stream); e != cudaSuccess)
        return e;
    CUtensorMap a_map, b_map;
    const char* why = nullptr;
    cudaError_t launched = cudaErrorInvalidValue;
    if (make_tensor_maps(kShape, p, tma, a_map, b_map, why)) {
        const auto kernel = fp8_kernel<ShapeType, Scaling>;
        launched = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes<kShape>());
        const int clusters = launched == cudaSuccess ? clusters_that_fit<ShapeType, Scaling>(p) : 0;
        if (launched == cudaSuccess && clusters == 0) launched = cudaErrorInvalidConfiguration;
        if (launched == cudaSuccess) {
            const Scales scales{operands.a_scales, operands.b_scales, static_cast<int>(p.b_scale_stride())};
            kernel<<<static_cast<unsigned>(clusters * kShape.cluster_m), kShape.threads(), shared_bytes<kShape>(),
                     stream>>>(a_map, b_map, reinterpret_cast<__nv_bfloat16*>(operands.c), static_cast<int>(p.m),
                               static_cast<int>(p.n), static_cast<int>(p.k), static_cast<int>(p.batch), scales);
            launched = cudaGetLastError();
        }
    }
    const cudaError_t released = release_tma_operands(tma, stream);
    return launched != cudaSuccess ? launched : released;
}

template <typename ShapeType, model::Fp8Scaling Scaling>
TcKernelHandle handle() {
    return {reinterpret_cast<const void*>(fp8_kernel<ShapeType, Scaling>), ShapeType::value.threads(),
            shared_bytes<ShapeType::value>()};
}

}  // namespace fp8

}  // namespace ts::kernels
