// Teaches: give each job its own warps. One warpgroup does nothing but copy (the producer): it waits
// until a stage of the ring is empty, arms its full barrier and issues the stage's TMA boxes. Two
// warpgroups do nothing but multiply (the consumers): each waits until a stage is full, runs its
// wgmmas on it and marks it empty again. Nobody waits at a block-wide barrier; the stage ring's two
// mbarriers per stage (model::stage_step says who waits for which phase) are the only handshake.
// The producer needs few registers and the consumers many, so setmaxnreg moves them: the producer
// drops to 40 a thread and each consumer thread rises to 232, for 128 FP32 accumulators of a
// 64×256 tile (one m64n256k16 per 16 of K).
// Changed from 16_wgmma.cu: a third warpgroup, the producer; empty barriers beside the full ones; no
// __syncthreads in the loop; block tiles of 128×256 (4 stages of 48 KiB). Built for sm_90a alone.
// And the blocks take their tiles in an order L2 likes (model::persistent_tile, one tile a block):
// down a group of 8 block rows, then one column right, so the blocks that run at once share rows
// of A and columns of B. In the grid's own order a wave of 132 blocks at 8192³ covers 4 rows of
// tiles and every column and reads all 128 MiB of B from DRAM: slower than 16 with its smaller
// tiles (docs/notes/17_warp_specialized.md).
// What it leaves on the table: every block starts cold (its ring empty) and ends with its SM idle
// while the next block starts.
#include "kernels/common/hopper_common.cuh"

namespace ts::kernels {

namespace {

constexpr model::WgmmaShape kShape = model::kWarpSpecializedShape;
constexpr int kThreads = kShape.threads();
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
static_assert(model::setmaxnreg_fits(kShape, kProducerRegisters, kConsumerRegisters));
constexpr int kSharedBytes = model::wgmma_shared_bytes(kShape) + 1024;  // + room to align to 1024

template <typename T>
__global__ void __launch_bounds__(kThreads, 1) warp_specialized_kernel(const __grid_constant__ CUtensorMap a_map,
                                                                       const __grid_constant__ CUtensorMap b_map, T* c,
                                                                       int m, int n, int k, int /*batches: gridDim.z*/) {
    extern __shared__ unsigned char raw_smem[];
    unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw_smem) + 1023) & ~std::uintptr_t{1023});
    auto* full = reinterpret_cast<std::uint64_t*>(smem + model::barriers_offset(kShape));
    std::uint64_t* empty = full + kShape.stages;
    const std::uint32_t smem_base = shared_address(smem);

    const int thread = static_cast<int>(threadIdx.x);
    const int warpgroup = thread / model::kWarpgroupSize, wg_thread = thread % model::kWarpgroupSize;
    const model::ClusterTile tile =
        model::persistent_tile(static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x), static_cast<int>(gridDim.y),
                               static_cast<int>(gridDim.x), model::kPersistentGroupRows);
    const int block_m = tile.cluster_row, block_n = tile.col;
    const int batch = static_cast<int>(blockIdx.z);
    const int k_steps = model::wgmma_k_steps(kShape, k);
    // B's slabs in one copy where N allows (the launch made B's map to match: make_tensor_maps).
    const bool b_runs = model::b_slab_runs(kShape, n);

    if (thread == 0) init_ring_barriers<kShape>(full, empty);
    // Every warpgroup waits on barriers that thread 0 just made; the last block-wide barrier.
    __syncthreads();

    // One branch per role, an if and its else: that is how setmaxnreg takes effect.
    if (model::warpgroup_role(kShape, warpgroup) == model::TcRole::Producer) {
        setmaxnreg_dec<kProducerRegisters>();
        if (wg_thread == 0) {
            for (int step = 0; step < k_steps; ++step) {
                const model::StageStep ring = model::stage_step(kShape, step);
                // The stage's previous K step (step − stages) must be released by both consumers;
                // in the first round the stages start empty and there is nothing to wait for.
                if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);
                issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, batch, step, b_runs);
            }
        }
    } else {
        setmaxnreg_inc<kConsumerRegisters>();
        const int consumer = model::consumer_of_warpgroup(kShape, warpgroup);
        const std::uint64_t a_desc0 = model::encode_descriptor(model::a_descriptor(kShape, smem_base, 0, consumer, 0, 0));
        const std::uint64_t b_desc0 = model::encode_descriptor(model::b_descriptor(kShape, smem_base, 0, 0, 0));
        Accumulators<kShape> acc = {};
        for (int step = 0; step < k_steps; ++step) {
            const model::StageStep ring = model::stage_step(kShape, step);
            // The stage is whole when TMA has delivered every byte the producer announced.
            mbarrier_wait(&full[ring.stage], ring.full_parity);
            wgmma_stage<kShape, T>(acc, a_desc0, b_desc0, ring.stage, true);
            // This warpgroup's reads of the stage are over when its wgmmas are.
            wgmma_wait<0>();
            // One arrival per consumer warpgroup tells the producer the stage may be refilled.
            if (wg_thread == 0) mbarrier_arrive(&empty[ring.stage]);
        }

        T* c_batch = c + static_cast<std::int64_t>(batch) * m * n;
        store_accumulators<kShape, T>(acc, c_batch, m, n, block_m * kShape.bm, block_n * kShape.bn, consumer,
                                      wg_thread);
    }
}

template <typename T>
struct Kernel {
    static constexpr TmaKernel<T> kernel = warp_specialized_kernel<T>;
};
template <typename T>
using Rung = TileGridRung<kShape, kSharedBytes, Kernel>::Of<T>;

}  // namespace

cudaError_t launch_warp_specialized(const model::KernelConfig& config, const model::Problem& problem,
                                    Operands<std::uint16_t> operands, cudaStream_t stream) {
    return launch_by_half_type<Rung>(config, problem, operands, stream);
}

TcKernelHandle warp_specialized_handle(const model::Problem& problem) { return handle_by_half_type<Rung>(problem); }

}  // namespace ts::kernels
