// Teaches: Hopper's tensor cores are fed by a warpgroup and by a copy engine. wgmma.mma_async lets
// four warps (a warpgroup, 128 threads) multiply a 64×128 tile of C over 16 of K in one instruction,
// reading A and B straight from shared memory through 64-bit descriptors (model::SmemDescriptor):
// no ldmatrix, no fragments of A or B in registers. And TMA brings each K step's tiles into shared
// memory from one instruction of one thread, already swizzled the way wgmma reads them (128-byte
// swizzle), counting its bytes into an mbarrier that the warpgroups wait on.
// Changed from 14_mma.cu: the copies are TMA boxes (model::tma_box) into a ring of 4 stages, issued
// ahead by thread 0; the math is wgmma from 128-byte-swizzled tiles; two warpgroups each own 64
// rows of a 128×128 block tile. A descriptor is computed once (stage 0, first K slice) and the
// others are that plus a constant (model::a_descriptor_step): the whole arithmetic between the
// wgmmas cost 18 a tenth of its speed. TMA is paced by its copies as much as by their bytes, so
// where N is a multiple of 64 B's slabs come in one copy through a 4-D tensor map
// (model::b_slab_run; 17 and 18 too). Built for sm_90a alone.
// What it leaves on the table: thread 0 copies between its own wgmmas, and the whole block waits at
// a barrier every K step before a stage is refilled; 17 gives the copies a warpgroup of their own.
#include "kernels/common/hopper_common.cuh"

namespace ts::kernels {

namespace {

constexpr model::WgmmaShape kShape = model::kWgmmaShape;
constexpr int kThreads = kShape.threads();
// Dynamic shared memory: the stages and barriers, plus room to round the start up to 1024 bytes
// (the 128-byte swizzle repeats every 1024, and the descriptors assume tiles start on it).
constexpr int kSharedBytes = model::wgmma_shared_bytes(kShape) + 1024;

template <typename T>
__global__ void __launch_bounds__(kThreads) wgmma_kernel(const __grid_constant__ CUtensorMap a_map,
                                                         const __grid_constant__ CUtensorMap b_map, T* c, int m, int n,
                                                         int k, int /*batches: gridDim.z*/) {
    extern __shared__ unsigned char raw_smem[];
    unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw_smem) + 1023) & ~std::uintptr_t{1023});
    auto* full = reinterpret_cast<std::uint64_t*>(smem + model::barriers_offset(kShape));
    const std::uint32_t smem_base = shared_address(smem);

    const int thread = static_cast<int>(threadIdx.x);
    const int consumer = thread / model::kWarpgroupSize, wg_thread = thread % model::kWarpgroupSize;
    const int block_m = static_cast<int>(blockIdx.y), block_n = static_cast<int>(blockIdx.x);
    const int batch = static_cast<int>(blockIdx.z);
    const int k_steps = model::wgmma_k_steps(kShape, k);
    // B's slabs in one copy where N allows (the launch made B's map to match: make_tensor_maps).
    const bool b_runs = model::b_slab_runs(kShape, n);

    if (thread == 0) init_ring_barriers<kShape>(full, nullptr);
    // Every thread waits on barriers that thread 0 just made.
    __syncthreads();
    if (thread == 0)
        for (int step = 0; step < kShape.stages && step < k_steps; ++step)
            issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, batch, step, b_runs);

    // The descriptors of stage 0, K slice 0 (model::a_descriptor, b_descriptor); wgmma_stage adds the rest.
    const std::uint64_t a_desc0 = model::encode_descriptor(model::a_descriptor(kShape, smem_base, 0, consumer, 0, 0));
    const std::uint64_t b_desc0 = model::encode_descriptor(model::b_descriptor(kShape, smem_base, 0, 0, 0));
    Accumulators<kShape> acc = {};
    for (int step = 0; step < k_steps; ++step) {
        const model::StageStep ring = model::stage_step(kShape, step);
        // The stage is whole when TMA has delivered every byte thread 0 announced.
        mbarrier_wait(&full[ring.stage], ring.full_parity);
        wgmma_stage<kShape, T>(acc, a_desc0, b_desc0, ring.stage, true);
        // This warpgroup's reads of the stage are over when its wgmmas are.
        wgmma_wait<0>();
        // Both warpgroups are done with the stage before thread 0 refills it.
        __syncthreads();
        if (thread == 0 && step + kShape.stages < k_steps)
            issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, batch, step + kShape.stages, b_runs);
    }

    T* c_batch = c + static_cast<std::int64_t>(batch) * m * n;
    store_accumulators<kShape, T>(acc, c_batch, m, n, block_m * kShape.bm, block_n * kShape.bn, consumer,
                                  wg_thread);
}

template <typename T>
struct Kernel {
    static constexpr TmaKernel<T> kernel = wgmma_kernel<T>;
};
template <typename T>
using Rung = TileGridRung<kShape, kSharedBytes, Kernel>::Of<T>;

}  // namespace

cudaError_t launch_wgmma(const model::KernelConfig& config, const model::Problem& problem,
                         Operands<std::uint16_t> operands, cudaStream_t stream) {
    return launch_by_half_type<Rung>(config, problem, operands, stream);
}

TcKernelHandle wgmma_handle(const model::Problem& problem) { return handle_by_half_type<Rung>(problem); }

}  // namespace ts::kernels
