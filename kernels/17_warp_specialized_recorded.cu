// Teaches: when each role of the warp-specialized kernel waited and worked, read from the SM's own
// cycle counter. The theatre's Stages tab draws a block's K steps from these clocks beside the
// model's order, and compare_with_model checks them against the ring's protocol: no consumer saw
// a stage full before the producer armed it, no stage was refilled before both consumers were
// done with it (model::stage_step).
// Changed from 17_warp_specialized.cu: the same roles, barriers, copies and wgmmas, in BF16 for one
// matrix, plus records. Before and after its wait on each K step's barrier and once its work on the
// stage is done, lane 0 of the producer's issuing thread and thread 0 of each consumer read
// clock64 (model::RoleClock: one counter for every warp of an SM, so the three roles compare);
// consumer 0 also stamps each K step on the global timer for the SMs tab, and thread 0 the
// block's SM. A consumer stamps "done" before it arrives on empty, so the producer's wait cannot
// end before that stamp.
// Traffic: 17's copies, plus the records' stores: the clocks show order and overlap, not speed.
#include "kernels/common/hopper_common.cuh"
#include "kernels/common/recording.cuh"

namespace ts::kernels {

namespace {

constexpr model::WgmmaShape kShape = model::kWarpSpecializedShape;
constexpr int kThreads = kShape.threads();
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
static_assert(model::setmaxnreg_fits(kShape, kProducerRegisters, kConsumerRegisters));
constexpr int kSharedBytes = model::wgmma_shared_bytes(kShape) + 1024;

__device__ __forceinline__ std::uint64_t cycles() { return static_cast<std::uint64_t>(clock64()); }

__global__ void __launch_bounds__(kThreads, 1)
    warp_specialized_recorded_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                                     __nv_bfloat16* c, int m, int n, int k, int /*batches: 1*/, TraceBuffers trace) {
    extern __shared__ unsigned char raw_smem[];
    unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw_smem) + 1023) & ~std::uintptr_t{1023});
    auto* full = reinterpret_cast<std::uint64_t*>(smem + model::barriers_offset(kShape));
    std::uint64_t* empty = full + kShape.stages;
    const std::uint32_t smem_base = shared_address(smem);

    const int thread = static_cast<int>(threadIdx.x);
    const int warpgroup = thread / model::kWarpgroupSize, wg_thread = thread % model::kWarpgroupSize;
    const int block = model::block_linear(static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y),
                                          static_cast<int>(gridDim.x));
    const model::ClusterTile tile = model::persistent_tile(block, static_cast<int>(gridDim.y),
                                                           static_cast<int>(gridDim.x), model::kPersistentGroupRows);
    const int block_m = tile.cluster_row, block_n = tile.col;
    const int k_steps = model::wgmma_k_steps(kShape, k);
    const bool b_runs = model::b_slab_runs(kShape, n);

    if (thread == 0) {
        trace.block_sm[block] = current_sm();
        init_ring_barriers<kShape>(full, empty);
    }
    // Every warpgroup waits on barriers that thread 0 just made; the last block-wide barrier.
    __syncthreads();

    if (model::warpgroup_role(kShape, warpgroup) == model::TcRole::Producer) {
        setmaxnreg_dec<kProducerRegisters>();
        if (wg_thread == 0) {
            for (int step = 0; step < k_steps; ++step) {
                const model::StageStep ring = model::stage_step(kShape, step);
                model::RoleClock& clock = trace.role_clocks[model::role_clock_slot(block, k_steps, 0, step)];
                clock.wait_start = cycles();
                // The stage's previous K step must be released by both consumers first.
                if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);
                clock.ready = cycles();
                issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, 0, step, b_runs);
                clock.done = cycles();
            }
        }
    } else {
        setmaxnreg_inc<kConsumerRegisters>();
        const int consumer = model::consumer_of_warpgroup(kShape, warpgroup);
        const std::uint64_t a_desc0 = model::encode_descriptor(model::a_descriptor(kShape, smem_base, 0, consumer, 0, 0));
        const std::uint64_t b_desc0 = model::encode_descriptor(model::b_descriptor(kShape, smem_base, 0, 0, 0));
        Accumulators<kShape> acc = {};
        const bool stamps = wg_thread == 0;
        for (int step = 0; step < k_steps; ++step) {
            const model::StageStep ring = model::stage_step(kShape, step);
            model::RoleClock& clock = trace.role_clocks[model::role_clock_slot(block, k_steps, 1 + consumer, step)];
            model::PhaseClock& phase = trace.clocks[model::phase_clock_slot(block, k_steps, step)];
            if (stamps) {
                clock.wait_start = cycles();
                if (consumer == 0) stamp_start(phase);
            }
            // The stage is whole when TMA has delivered every byte the producer announced.
            mbarrier_wait(&full[ring.stage], ring.full_parity);
            if (stamps) clock.ready = cycles();
            wgmma_stage<kShape, __nv_bfloat16>(acc, a_desc0, b_desc0, ring.stage, true);
            // This warpgroup's reads of the stage are over when its wgmmas are.
            wgmma_wait<0>();
            if (stamps) {
                // Stamped before the arrival, so the producer's wait ends after it.
                clock.done = cycles();
                if (consumer == 0) stamp_end(phase);
                mbarrier_arrive(&empty[ring.stage]);
            }
        }
        store_accumulators<kShape, __nv_bfloat16>(acc, c, m, n, block_m * kShape.bm, block_n * kShape.bn, consumer,
                                                  wg_thread);
    }
}

}  // namespace

cudaError_t launch_warp_specialized_recorded(const model::Problem& problem, Operands<std::uint16_t> operands,
                                             TraceBuffers trace, cudaStream_t stream) {
    if (problem.dtype != model::Dtype::BFloat16 || problem.batch != 1) return cudaErrorInvalidValue;
    return launch_tma_kernel<__nv_bfloat16>(warp_specialized_recorded_kernel, kShape, kSharedBytes, problem, operands,
                                            stream, [&] { return tile_grid(kShape, problem); }, trace);
}

}  // namespace ts::kernels
