// 18_persistent.cuh — the persistent kernel, shared by 18_persistent.cu (18's shape) and
// 19_tc_tuned.cu (every candidate shape the tuner measures), as 11_pipelined.cuh is by 11 and 12.
// Teaches: keep the SMs busy and the bytes close. Five changes to 17:
// - A persistent grid: one cluster per pair of SMs the GPU can hold (or as few as finish the tiles in
//   as many rounds: model::balanced_clusters), each walking many tiles of C (model::persistent_tile;
//   stream-K: model::first_unit, next_unit). The ring of stages runs on from one tile to the next:
//   no block start, no cold ring, no idle SM at a tile's end.
// - 17's order of tiles for L2, over cluster tiles: down a group of 8 cluster rows, then one right.
// - Clusters of two CTAs along M: both need the same B tile, so each brings half and TMA multicasts
//   it into both (model::tma_box); a stage is refilled once both CTAs released it (empty_arrivals).
// - C leaves through shared memory: each consumer writes its accumulators, rounded, into a swizzled
//   staging area (model::c_staging_offset) and one thread sends it out by TMA stores, whole lines,
//   that run on while the warpgroup starts its next tile. It costs the ring a stage: 3 of 48 KiB.
// - The wgmmas compute Cᵀ = Bᵀ·Aᵀ (model::WgmmaShape::swap_ab), as cuBLAS's kernel for this layout
//   does: each consumer takes 128 columns of C for all 128 rows.
// Changed from 17_warp_specialized.cu: the tile loop, the cluster (launch, multicast, arrivals on
// the peer's barriers, its meeting at the start, the producer's tail), the swapped operands, and
// the staged epilogue (stage_and_store_c, C's tensor map).
// Traffic: B crosses from L2 once per cluster. What it leaves on the table: one tile shape for
// every size (19 makes it a choice). Measurements behind these choices: docs/notes/18_persistent.md.
#pragma once

#include "kernels/common/hopper_common.cuh"
#include "model/tensor_core/stream_k.hpp"

namespace ts::kernels {

namespace persistent {

// What a thread of each role may keep (setmaxnreg): the producer needs few, the consumers their
// accumulators and the addresses around them.
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;

template <model::WgmmaShape Shape>
constexpr int shared_bytes() {
    return model::wgmma_shared_bytes(Shape) + 1024;  // + room to align to 1024
}

// Stream-K (model/tensor_core/stream_k.hpp): a later part of a split tile leaves one consumer's FP32 sums in
// slot `slot`, as each thread holds them, for the first part's threads, which hold the same cells,
// to add. Thread t's values 4q … 4q + 3 are float4 number q · 128 + t of the slot: each store or
// load of a warp is 512 contiguous bytes. `quad` is q, from the slice and the value's index in it.
template <model::WgmmaShape Shape>
__device__ __forceinline__ std::size_t slot_quad(int slot, int m_slice, int value, int thread) {
    constexpr int kQuadsPerThread = Shape.accumulator_registers() / 4;
    const int quad = (m_slice * Shape.wgmma_n / 2 + value) / 4;
    return (static_cast<std::size_t>(slot) * kQuadsPerThread + quad) * model::kWarpgroupSize + thread;
}
template <model::WgmmaShape Shape>
__device__ __forceinline__ void hand_over_sums(const Accumulators<Shape>& acc, StreamKSlots slots, int slot,
                                               int consumer, int thread) {
    float4* to = reinterpret_cast<float4*>(slots.sums);
#pragma unroll
    for (int ms = 0; ms < Shape.m_slices(); ++ms)
#pragma unroll
        for (int r = 0; r < Shape.wgmma_n / 2; r += 4)
            __stcg(&to[slot_quad<Shape>(slot, ms, r, thread)],
                   make_float4(acc[ms][r], acc[ms][r + 1], acc[ms][r + 2], acc[ms][r + 3]));
    // Every thread of the warpgroup has written its sums before thread 0 says so; the release makes
    // them visible, at GPU scope, to whoever acquires the flag.
    named_barrier_sync(1 + consumer, model::kWarpgroupSize);
    if (thread == 0) asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(slots.flags + slot), "r"(slots.epoch) : "memory");
}
// The first part adds the sums a later part left in slot `slot`, once its flag shows this launch.
template <model::WgmmaShape Shape>
__device__ __forceinline__ void add_handed_over(Accumulators<Shape>& acc, StreamKSlots slots, int slot, int consumer,
                                                int thread) {
    if (thread == 0) {
        unsigned raised = 0;
        do asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(raised) : "l"(slots.flags + slot) : "memory");
        while (raised != slots.epoch);
    }
    // No thread reads the slot before thread 0 has seen the flag raised.
    named_barrier_sync(1 + consumer, model::kWarpgroupSize);
    const float4* from = reinterpret_cast<const float4*>(slots.sums);
#pragma unroll
    for (int ms = 0; ms < Shape.m_slices(); ++ms)
#pragma unroll
        for (int r = 0; r < Shape.wgmma_n / 2; r += 4) {
            const float4 v = __ldcg(&from[slot_quad<Shape>(slot, ms, r, thread)]);
            acc[ms][r] += v.x;
            acc[ms][r + 1] += v.y;
            acc[ms][r + 2] += v.z;
            acc[ms][r + 3] += v.w;
        }
}

// Where a value is worked out, when the compiler would move it: after_issue(x) is x, but read only
// after the instructions before it (the wgmmas just issued), so that what depends on it runs in
// their shadow; computed_now(tile) is the tile, finished here rather than sunk to where it is used.
__device__ __forceinline__ int after_issue(int x) {
    asm volatile("" : "+r"(x));
    return x;
}
__device__ __forceinline__ model::ClusterTile computed_now(model::ClusterTile t) {
    asm volatile("" : "+r"(t.batch), "+r"(t.cluster_row), "+r"(t.col));
    return t;
}

// A kept stage (model::c_last_slab_in_stage) goes back to the producers once the TMA stores of this
// consumer's last slab of C have read it: thread 0, which issued them, waits for that, then
// arrives for its warpgroup on the stage's barrier in every CTA of the cluster.
template <int ClusterSize>
__device__ __forceinline__ void release_kept_stage(std::uint64_t* empty_barrier, int thread) {
    if (thread != 0) return;
    bulk_wait_group_read<0>();
    for (int r = 0; r < ClusterSize; ++r) mbarrier_arrive_cluster(empty_barrier, r);
}

// The kernel for the shape ShapeType::value (a type, not the shape itself: nvcc's host stubs cannot
// name a __global__ template instantiated on a class-type value).
template <typename ShapeType, typename T>
__global__ void __cluster_dims__(ShapeType::value.cluster_m, 1, 1) __launch_bounds__(ShapeType::value.threads(), 1)
    persistent_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, T* c,
                      int m, int n, int k, int batches, const __grid_constant__ CUtensorMap c_map, bool c_by_tma,
                      StreamKSlots slots) {
    constexpr model::WgmmaShape kShape = ShapeType::value;
    constexpr int kClusterSize = kShape.cluster_m;
    static_assert(kShape.valid() && model::setmaxnreg_fits(kShape, kProducerRegisters, kConsumerRegisters));
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
    const int k_steps = model::wgmma_k_steps(kShape, k);
    // What this cluster computes: whole tiles c, c + clusters, ...; with stream_k, then its share of
    // the last round (model::first_unit, next_unit). Producer and consumers walk the same units.
    const model::StreamKSplit split =
        model::stream_k_split(cluster_rows * cols * batches, clusters, k_steps, kShape.stream_k);
    // B's slabs in one copy where N allows (the launch made B's map to match: make_tensor_maps).
    const bool b_runs = model::b_slab_runs(kShape, n);
    const auto tile_of = [&](int index) {
        return model::persistent_tile(index, cluster_rows, cols, model::kPersistentGroupRows);
    };

    if (thread == 0) {
        // The maps' descriptors come in while the barriers are made and the cluster meets, not on
        // the first copy's path.
        prefetch_tensor_map(&a_map);
        prefetch_tensor_map(&b_map);
        if (c_by_tma) prefetch_tensor_map(&c_map);
        init_ring_barriers<kShape>(full, empty);
    }
    // The cluster meets in two halves: every thread arrives here, and each role waits (below) just
    // before it first multicasts into the other CTA or arrives on its barriers, having set up in
    // between.
    cluster_arrive_relaxed();

    // One branch per role, an if and its else: that is how setmaxnreg takes effect.
    if (model::warpgroup_role(kShape, warpgroup) == model::TcRole::Producer) {
        setmaxnreg_dec<kProducerRegisters>();
        // The first tile is worked out (divisions, a few hundred cycles) while the cluster meets,
        // not between the meeting and the first copy.
        model::WorkUnit u = model::first_unit(split, cluster);
        model::ClusterTile t = computed_now(tile_of(u.tile));
        // Both CTAs' barriers exist before either multicasts into the other.
        cluster_wait();
        if (wg_thread == 0) {
            int step = 0;  // counts K steps over every unit this cluster takes: the ring runs on
            for (; u.valid(); u = model::next_unit(split, cluster, u), t = tile_of(u.tile)) {
                const int block_m = t.cluster_row * kClusterSize + rank;
                for (int kk = u.k_begin; kk < u.k_end; ++kk, ++step) {
                    const model::StageStep ring = model::stage_step(kShape, step);
                    // Refill only once the consumers of both CTAs released the stage's last K step
                    // (in the first round the stages start empty).
                    if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);
                    issue_cluster_stage<kShape>(smem, full, &a_map, &b_map, block_m, t.col, t.batch, kk, ring.stage,
                                                rank, b_runs);
                }
            }
            // The producer's tail, in place of a cluster barrier at the end: the consumers of both
            // CTAs have released this CTA's stages for the last time, so no arrival from the other
            // CTA is still on its way here when the block ends. (What the other CTA multicast here
            // has arrived: this CTA's consumers waited for every stage of it.)
            for (int tail = 0; tail < kShape.stages; ++tail, ++step) {
                const model::StageStep ring = model::stage_step(kShape, step);
                if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);
            }
        }
    } else {
        setmaxnreg_inc<kConsumerRegisters>();
        const int consumer = model::consumer_of_warpgroup(kShape, warpgroup);
        // Swapped operands: B's tile (N contiguous) is wgmma's A, read MN-major, and A's tile its B,
        // read K-major; a consumer takes 128 columns of C for all 128 rows, and its accumulators hold
        // a piece of Cᵀ, which stmatrix .trans writes back the right way round (stage_and_store_c).
        // The descriptors of stage 0, K slice 0; every other is a sum (model::a_descriptor_step).
        const std::uint64_t a_desc0 =
            model::encode_descriptor(model::wgmma_a_descriptor(kShape, smem_base, 0, consumer, 0, 0));
        const std::uint64_t b_desc0 = model::encode_descriptor(model::wgmma_b_descriptor(kShape, smem_base, 0, 0, 0));
        // Where the ring is and the descriptors of that stage, carried from one K step to the next
        // and over every tile (the walk of model::stage_step, without its division): between two K
        // steps only the wait, the wgmmas, the release and two additions, and the descriptors stay
        // in the uniform registers wgmma reads (the warpgroup number comes from lane 0 for that:
        // warpgroup_index).
        constexpr std::uint64_t kAStageStep = model::a_descriptor_step(kShape, 1, 0);
        constexpr std::uint64_t kBStageStep = model::b_descriptor_step(kShape, 1, 0);
        static_assert(model::a_descriptor_step(kShape, kShape.stages - 1, 0) == (kShape.stages - 1) * kAStageStep &&
                          model::b_descriptor_step(kShape, kShape.stages - 1, 0) == (kShape.stages - 1) * kBStageStep,
                      "the stages lie evenly spaced");
        model::RingCursor ring;
        std::uint64_t a_stage = a_desc0, b_stage = b_desc0;
        // Both CTAs' barriers exist before this warpgroup arrives on the other's.
        cluster_wait();
        // The stage kept for the last unit's last slab of C, until its store has read it (−1: none).
        int kept_stage = -1;
        for (model::WorkUnit u = model::first_unit(split, cluster); u.valid(); u = model::next_unit(split, cluster, u)) {
            model::ClusterTile t;
            Accumulators<kShape> acc;
            // Where this unit stores C by TMA, its last K step's stage is kept for the last slab.
            const bool keep_last_stage = model::c_last_slab_in_stage(kShape) && c_by_tma && !u.hands_over();
            for (int kk = u.k_begin; kk < u.k_end; ++kk) {
                // The stage is whole when TMA has delivered every byte, from both CTAs' copies.
                mbarrier_wait(&full[ring.stage], ring.full_parity);
                // The unit's first K step overwrites what the last unit left in acc.
                wgmma_stage_from<kShape, T>(acc, a_stage, b_stage, kk > u.k_begin);
                if (kk == u.k_begin) {
                    // Where the unit's C goes, worked out while its first wgmmas run. Left to the
                    // compiler, the divisions sit between the last wgmmas and the epilogue, with the
                    // tensor cores idle.
                    // Stream-K's consumer has no registers to carry it through the loop (ptxas
                    // spilled 16 bytes): it works it out after the loop.
                    if constexpr (!kShape.stream_k)
                        t = computed_now(tile_of(after_issue(u.tile)));
                    // The stage kept for the last unit's C, once its store has read it: in the
                    // shadow of these wgmmas, and before the K step that needs it refilled.
                    if (kept_stage >= 0) release_kept_stage<kClusterSize>(&empty[kept_stage], wg_thread);
                    kept_stage = -1;
                }
                // This warpgroup's reads of the stage are over when its wgmmas are. All of them, not
                // all but the last group (wait<1>): that would hold two stages per consumer and leave
                // the producer one stage ahead.
                wgmma_wait<0>();
                // Release the stage in every CTA of the cluster (each of them multicast part of it
                // here): thread r arrives on CTA r's barrier, the arrivals side by side. Or keep it.
                if (keep_last_stage && kk == u.k_end - 1)
                    kept_stage = ring.stage;
                else if (wg_thread < kClusterSize) mbarrier_arrive_cluster(&empty[ring.stage], wg_thread);
                ring.advance(kShape);
                a_stage = ring.stage == 0 ? a_desc0 : a_stage + kAStageStep;
                b_stage = ring.stage == 0 ? b_desc0 : b_stage + kBStageStep;
            }
            if constexpr (kShape.stream_k) {
                // A split tile's parts meet in FP32: a later part hands its sums over and is done; the
                // first part adds the later ones, from the clusters after its own, and stores C.
                // Slot of cluster q: (q · cluster_m + rank) · consumers + consumer.
                const auto slot_of = [&](int q) { return (q * kClusterSize + rank) * kShape.consumers + consumer; };
                if (u.hands_over()) {
                    hand_over_sums<kShape>(acc, slots, slot_of(cluster), consumer, wg_thread);
                    continue;
                }
                if (u.completes_split(k_steps)) {
                    const int parts = model::later_parts(split, cluster, u.tile);
                    for (int p = 1; p <= parts; ++p) add_handed_over<kShape>(acc, slots, slot_of(cluster + p), consumer, wg_thread);
                }
            }
            if constexpr (kShape.stream_k) t = tile_of(u.tile);
            const int block_m = t.cluster_row * kClusterSize + rank;
            stage_and_store_c<kShape, T>(acc, smem, c_by_tma ? &c_map : nullptr, c, m, n, block_m * kShape.bm,
                                         t.col * kShape.bn, t.batch, consumer, wg_thread, kept_stage);
        }
        // The last tile's stores have read shared memory before the block ends and it goes (and a
        // kept stage goes back, which the producer's tail waits for). Their writes to C need no
        // wait: a grid's writes are complete when it is.
        if (kept_stage >= 0)
            release_kept_stage<kClusterSize>(&empty[kept_stage], wg_thread);
        else if (c_by_tma && wg_thread == 0)
            bulk_wait_group_read<0>();
    }
}

// The launcher and handle of the kernel for the shape ShapeType::value, for launch_by_half_type:
// PersistentRung<ShapeType>::Of.
template <typename ShapeType>
struct PersistentRung {
    static constexpr model::WgmmaShape Shape = ShapeType::value;
    template <typename T>
    struct Of {
        static cudaError_t launch(const model::KernelConfig&, const model::Problem& p, Operands<std::uint16_t> operands,
                                  cudaStream_t stream) {
            // C by TMA where its tensor map can be made; else the consumers copy their staged part out
            // themselves (stage_and_store_c; the map is then unused).
            CUtensorMap c_map{};
            const char* why = nullptr;
            const bool c_by_tma = make_c_tensor_map(Shape, p, operands.c, c_map, why);
            // Stream-K's slots (model/tensor_core/stream_k.hpp): one per consumer of every CTA the GPU can hold,
            // one a SM (__launch_bounds__ above), whatever number of clusters the launch then takes.
            StreamKSlots slots;
            if constexpr (Shape.stream_k) {
                const auto floats = static_cast<std::size_t>(Shape.accumulator_registers()) * model::kWarpgroupSize;
                if (const cudaError_t e = stream_k_slots(Shape.consumers, floats, slots); e != cudaSuccess) return e;
            }
            return launch_tma_kernel<T>(
                persistent_kernel<ShapeType, T>, Shape, shared_bytes<Shape>(), p, operands, stream,
                [&] { return dim3(static_cast<unsigned>(clusters_that_fit(p) * Shape.cluster_m)); }, c_map, c_by_tma,
                slots);
        }
        // As many clusters as the GPU runs at once (cudaOccupancyMaxActiveClusters: an H100's 132 SMs
        // hold 66 pairs when every GPC's SMs pair up), or fewer where fewer finish the tiles in as many
        // rounds (model::balanced_clusters: 64 for 4096³ and 8192³ on an H100). Stream-K takes all
        // that fit: its last round is shared out, and a first part waits for later parts, which must
        // be running.
        static int clusters_that_fit(const model::Problem& p) {
            cudaLaunchConfig_t config{};
            config.gridDim = dim3(Shape.cluster_m, 1, 1);
            config.blockDim = dim3(Shape.threads(), 1, 1);
            config.dynamicSmemBytes = shared_bytes<Shape>();
            int clusters = 0;
            if (cudaOccupancyMaxActiveClusters(&clusters, persistent_kernel<ShapeType, T>, &config) != cudaSuccess) return 0;
            const std::int64_t tiles = static_cast<std::int64_t>(model::cluster_rows_of(Shape, static_cast<int>(p.m))) *
                                       model::block_cols_of(Shape, static_cast<int>(p.n)) * p.batch;
            return Shape.stream_k && tiles > 0 ? clusters : model::balanced_clusters(tiles, clusters);
        }
        static TcKernelHandle handle(const model::Problem&) {
            return {reinterpret_cast<const void*>(persistent_kernel<ShapeType, T>), Shape.threads(), shared_bytes<Shape>()};
        }
    };
};

}  // namespace persistent

}  // namespace ts::kernels
