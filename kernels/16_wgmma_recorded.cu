// Teaches: what TMA really writes into shared memory, and when each block's K steps ran. The
// theatre draws the swizzled stage from these bytes and the SMs tab its timeline from these
// clocks; a gpu test checks the bytes against the model (model/tensor_core/stage_record.hpp).
// Changed from 16_wgmma.cu: the same barriers, copies, waits and wgmmas, in BF16 for one matrix,
// plus three records. Once the first K step's stage is whole, block (0, 0) writes it out word by
// word (A's tile, then B's), before anything else touches it; thread 0 stamps each K step from
// the wait for its stage to the end of its wgmmas; each block says which SM it ran on. The
// recorder fills A and B with element numbers rather than values, so that every word of the stage
// says which element it is; C is computed but not checked.
// Traffic: 16's copies, plus the records' stores, so the clocks show order and overlap, not the
// kernel's speed.
#include "kernels/common/hopper_common.cuh"
#include "kernels/common/recording.cuh"
#include "model/tensor_core/stage_record.hpp"

namespace ts::kernels {

namespace {

constexpr model::WgmmaShape kShape = model::kRecordedStageShape;
static_assert(kShape == model::kWgmmaShape, "the trace is of 16's own shape");
constexpr int kThreads = kShape.threads();
constexpr int kSharedBytes = model::wgmma_shared_bytes(kShape) + 1024;

__global__ void __launch_bounds__(kThreads)
    wgmma_recorded_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                          __nv_bfloat16* c, int m, int n, int k, int /*batches: 1*/, TraceBuffers trace) {
    extern __shared__ unsigned char raw_smem[];
    unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw_smem) + 1023) & ~std::uintptr_t{1023});
    auto* full = reinterpret_cast<std::uint64_t*>(smem + model::barriers_offset(kShape));
    const std::uint32_t smem_base = shared_address(smem);

    const int thread = static_cast<int>(threadIdx.x);
    const int consumer = thread / model::kWarpgroupSize, wg_thread = thread % model::kWarpgroupSize;
    const int block_m = static_cast<int>(blockIdx.y), block_n = static_cast<int>(blockIdx.x);
    const int block = model::block_linear(block_n, block_m, static_cast<int>(gridDim.x));
    const int k_steps = model::wgmma_k_steps(kShape, k);
    const bool b_runs = model::b_slab_runs(kShape, n);
    const bool records_stage = block == 0 && trace.stage_words != nullptr;

    if (thread == 0) {
        trace.block_sm[block] = current_sm();
        init_ring_barriers<kShape>(full, nullptr);
    }
    // Every thread waits on barriers that thread 0 just made.
    __syncthreads();
    if (thread == 0)
        for (int step = 0; step < kShape.stages && step < k_steps; ++step)
            issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, 0, step, b_runs);

    const std::uint64_t a_desc0 = model::encode_descriptor(model::a_descriptor(kShape, smem_base, 0, consumer, 0, 0));
    const std::uint64_t b_desc0 = model::encode_descriptor(model::b_descriptor(kShape, smem_base, 0, 0, 0));
    Accumulators<kShape> acc = {};
    for (int step = 0; step < k_steps; ++step) {
        const model::StageStep ring = model::stage_step(kShape, step);
        model::PhaseClock& clock = trace.clocks[model::phase_clock_slot(block, k_steps, step)];
        if (thread == 0) stamp_start(clock);
        // The stage is whole when TMA has delivered every byte thread 0 announced; the completed
        // phase also makes TMA's writes visible to the threads that saw it, for the copy below.
        mbarrier_wait(&full[ring.stage], ring.full_parity);
        if (step == 0 && records_stage) {
            // The stage as TMA left it, before any wgmma reads it: the words in shared-memory order.
            const auto* words = reinterpret_cast<const std::uint16_t*>(smem + model::stage_offset(kShape, 0));
            for (int i = thread; i < model::kRecordedStageWords; i += kThreads) trace.stage_words[i] = words[i];
        }
        wgmma_stage<kShape, __nv_bfloat16>(acc, a_desc0, b_desc0, ring.stage, true);
        // This warpgroup's reads of the stage are over when its wgmmas are.
        wgmma_wait<0>();
        if (thread == 0) stamp_end(clock);
        // Both warpgroups are done with the stage (and block (0, 0) with copying it out) before
        // thread 0 refills it.
        __syncthreads();
        if (thread == 0 && step + kShape.stages < k_steps)
            issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, 0, step + kShape.stages, b_runs);
    }

    store_accumulators<kShape, __nv_bfloat16>(acc, c, m, n, block_m * kShape.bm, block_n * kShape.bn, consumer,
                                              wg_thread);
}

}  // namespace

cudaError_t launch_wgmma_recorded(const model::Problem& problem, Operands<std::uint16_t> operands, TraceBuffers trace,
                                  cudaStream_t stream) {
    if (problem.dtype != model::Dtype::BFloat16 || problem.batch != 1) return cudaErrorInvalidValue;
    return launch_tma_kernel<__nv_bfloat16>(wgmma_recorded_kernel, kShape, kSharedBytes, problem, operands, stream,
                                            [&] { return tile_grid(kShape, problem); }, trace);
}

}  // namespace ts::kernels
