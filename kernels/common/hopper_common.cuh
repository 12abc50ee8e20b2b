// hopper_common.cuh — what the sm_90a rungs (16 on) share: TMA tensor maps and copies, mbarriers,
// and the launch that makes A and B fit TMA.
//
// TMA (the Tensor Memory Accelerator) copies a whole box of a matrix into shared memory from one
// instruction of one thread, swizzling it on the way (model/tensor_core/swizzle.hpp), and counts the bytes
// it delivers into an mbarrier. Boxes that reach past the matrix arrive as zeros, which does the
// edge work of M, N and K for free. What TMA cannot do is a row that starts off a 16-byte boundary:
// its tensor maps take strides in multiples of 16 bytes. When K or N is not a multiple of 8, the
// launcher copies A and B into padded scratch buffers first (zeros in the padding), and that copy
// is part of the launch and of its time.
#pragma once

#include <cuda.h>  // CUtensorMap and its enums; the function itself comes from the runtime (no -lcuda)
#include <cudaTypedefs.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/tc_common.cuh"
#include "kernels/common/wgmma_instructions.cuh"
#include "model/tensor_core/pipeline.hpp"

namespace ts::kernels {

// ---- mbarrier ----------------------------------------------------------------------------------

__device__ __forceinline__ void mbarrier_init(std::uint64_t* barrier, int arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(arrivals));
}
// Makes the initialised barriers visible to the async proxy (TMA) before any copy names them.
__device__ __forceinline__ void fence_barrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// The producer's arrival on a full barrier, announcing how many bytes TMA will bring into it.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* barrier, int bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* barrier) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(barrier)) : "memory");
}
// Waits until the phase of parity `parity` of the barrier has completed (model/tensor_core/pipeline.hpp says
// which parity each wait names). try_wait may give up after a while: loop until it says done.
// With a suspend-time hint (nanoseconds) the thread may sleep in try_wait until the phase completes
// or the time is up, rather than ask again and again: the producer waiting for a full ring to free
// a stage then issues fewer instructions beside the consumers' warps on its SMSP.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* barrier, int parity) {
    constexpr std::uint32_t kSuspendHintNs = 1000000;
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "wait:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1, %2;\n"
        "@!done bra wait;\n"
        "}\n" ::"r"(shared_address(barrier)),
        "r"(parity), "n"(kSuspendHintNs)
        : "memory");
}

// ---- TMA ---------------------------------------------------------------------------------------

// One box of a 3-D tensor map (inner, outer, batch) into shared memory, counted into `barrier`.
__device__ __forceinline__ void tma_load_3d(void* shared, const CUtensorMap* map, std::uint64_t* barrier, int inner,
                                            int outer, int batch) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::
            "r"(shared_address(shared)),
        "l"(map), "r"(inner), "r"(outer), "r"(batch), "r"(shared_address(barrier))
        : "memory");
}

// The same box into the same place of every CTA in `cta_mask` (a bit per rank of the cluster),
// counted into each one's barrier at the same offset.
__device__ __forceinline__ void tma_load_3d_multicast(void* shared, const CUtensorMap* map, std::uint64_t* barrier,
                                                      int inner, int outer, int batch, std::uint16_t cta_mask) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(shared_address(shared)),
        "l"(map), "r"(inner), "r"(outer), "r"(batch), "r"(shared_address(barrier)), "h"(cta_mask)
        : "memory");
}

// A run of B's slabs (model::b_slab_run) through B's 4-D map (columns, rows, slabs, batch), to
// this CTA only or, with `cta_mask`, multicast to the CTAs of the mask.
__device__ __forceinline__ void tma_load_slab_run(void* shared, const CUtensorMap* map, std::uint64_t* barrier,
                                                  int first_row, int first_slab, int batch) {
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {0, %2, %3, %4}], [%5];\n" ::
            "r"(shared_address(shared)),
        "l"(map), "r"(first_row), "r"(first_slab), "r"(batch), "r"(shared_address(barrier))
        : "memory");
}
__device__ __forceinline__ void tma_load_slab_run_multicast(void* shared, const CUtensorMap* map,
                                                            std::uint64_t* barrier, int first_row, int first_slab,
                                                            int batch, std::uint16_t cta_mask) {
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {0, %2, %3, %4}], [%5], %6;\n" ::"r"(shared_address(shared)),
        "l"(map), "r"(first_row), "r"(first_slab), "r"(batch), "r"(shared_address(barrier)), "h"(cta_mask)
        : "memory");
}

// One box of shared memory out to a 3-D tensor map, asynchronously, in this thread's current bulk
// group (bulk_commit_group closes it). Parts of the box outside the matrix are not written.
__device__ __forceinline__ void tma_store_3d(const CUtensorMap* map, const void* shared, int inner, int outer,
                                             int batch) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(map),
                 "r"(shared_address(shared)), "r"(inner), "r"(outer), "r"(batch)
                 : "memory");
}
// Fetches a tensor map (a __grid_constant__ parameter) into the TMA unit's descriptor cache ahead of
// its first copy, which would otherwise wait for the 128 bytes to come from memory first.
__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap* map) {
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(map) : "memory");
}
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Waits until at most `Pending` of this thread's bulk groups still read their shared memory (the
// writes to global memory may still be under way): the memory may then be written again.
template <int Pending>
__device__ __forceinline__ void bulk_wait_group_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(Pending) : "memory");
}
// Orders this thread's ordinary writes to shared memory before what the async proxy (TMA) reads
// there afterwards: without it a TMA store may read what was there before.
__device__ __forceinline__ void fence_proxy_async_shared() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// A barrier for `threads` threads (whole warps) of the block under hardware barrier `id` (1 to 15;
// 0 is __syncthreads'), so that one warpgroup can wait for itself alone.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// Four 8×8 matrices of 16-bit elements into shared memory, each transposed: every lane gives its
// two elements of each matrix packed in one register (an mma accumulator fragment's row), and lane
// 8q + i names where row i of matrix q, after the transpose, goes (16 bytes).
__device__ __forceinline__ void stmatrix_x4_trans(std::uint32_t address, std::uint32_t m0, std::uint32_t m1,
                                                  std::uint32_t m2, std::uint32_t m3) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(address), "r"(m0),
                 "r"(m1), "r"(m2), "r"(m3)
                 : "memory");
}
// Two FP32 values rounded to T and packed, the first in the low half.
template <typename T>
__device__ __forceinline__ std::uint32_t pack_pair(float first, float second) {
    using Pair = typename std::conditional<kIsBf16<T>, __nv_bfloat162, __half2>::type;
    const Pair pair = {from_float<T>(first), from_float<T>(second)};
    return *reinterpret_cast<const std::uint32_t*>(&pair);
}

// This thread's warpgroup, as lane 0 of its warp has it: the same number, but now the compiler
// knows that every lane of the warp holds it (warp-uniform), so what is computed from it (a
// consumer's wgmma descriptors) may stay in the uniform registers wgmma reads descriptors from,
// rather than being moved into them before every wgmma.
__device__ __forceinline__ int warpgroup_index() {
    return __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) / model::kWarpgroupSize, 0);
}

// ---- Clusters ----------------------------------------------------------------------------------

__device__ __forceinline__ int cluster_cta_rank() {
    std::uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
    return static_cast<int>(rank);
}
// The cluster's meeting at the start, in two halves so that each role's setup runs between them.
// Every thread of every CTA arrives, then waits until all have arrived: after the wait, the
// barriers each CTA initialised exist for the others to arrive on and multicast into. The arrival
// is relaxed: what it has to publish, the barriers' initialisation, fence_barrier_init (run by the
// thread that initialised them) already published at cluster scope, and a releasing arrival costs
// a fence over the whole GPU (MEMBAR.ALL.GPU in SASS) on the way to the first K step.
__device__ __forceinline__ void cluster_arrive_relaxed() {
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
    asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory");
}
// An arrival on the barrier at the same offset in CTA `rank`'s shared memory (this CTA's own too).
// Without .release.cluster: what the arrival announces (the wgmmas' reads of a stage) was already
// waited for with wgmma.wait_group, and a cluster-wide release fence on every K step costs time.
__device__ __forceinline__ void mbarrier_arrive_cluster(std::uint64_t* barrier, int rank) {
    asm volatile(
        "{\n"
        ".reg .b32 remote;\n"
        "mapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
        "}\n" ::"r"(shared_address(barrier)),
        "r"(rank)
        : "memory");
}

// setmaxnreg: a warpgroup gives registers back (dec) or takes them (inc), so that the producer
// runs on few and the consumers on many (model::setmaxnreg_fits).
template <int Registers>
__device__ __forceinline__ void setmaxnreg_dec() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
template <int Registers>
__device__ __forceinline__ void setmaxnreg_inc() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}

// ---- The ring and the wgmmas on it ---------------------------------------------------------------

// One thread makes the ring's barriers: full[s] completes on the producer's one arrival and the
// stage's bytes, empty[s] (where the rung has them) on one arrival per consumer warpgroup that
// reads the stage (model::empty_arrivals). The fence lets TMA see them initialised.
template <model::WgmmaShape Shape>
__device__ __forceinline__ void init_ring_barriers(std::uint64_t* full, std::uint64_t* empty) {
    for (int s = 0; s < Shape.stages; ++s) {
        mbarrier_init(&full[s], model::full_arrivals(Shape));
        if (empty) mbarrier_init(&empty[s], model::empty_arrivals(Shape));
    }
    fence_barrier_init();
}

// A consumer thread's accumulators: N/2 for each 64-slice of wgmma's M it covers.
template <model::WgmmaShape Shape>
using Accumulators = float[Shape.m_slices()][Shape.wgmma_n / 2];

// This warpgroup's wgmmas on one stage, started and committed as one group: per 32 bytes of K
// (16 elements of BF16, 32 of e4m3) one m64nNk16 or m64nNk32 per 64-slice of wgmma's M, from the stage's descriptors (K slice 0, this consumer's
// first 64-slice) plus constants (model::a_descriptor_step). With swap_ab wgmma reads B's tile as
// its A, MN-major, and A's as its B, K-major (model::wgmma_a_descriptor). `accumulate` false: the
// first wgmma writes acc rather than adding to it (a new tile).
template <model::WgmmaShape Shape, typename T>
__device__ __forceinline__ void wgmma_stage_from(Accumulators<Shape>& acc, std::uint64_t a_stage,
                                                 std::uint64_t b_stage, bool accumulate) {
    static_assert(Shape.n_slices() == 1);
    static_assert(Shape.wgmma_n == 256 || Shape.wgmma_n == 128, "only m64n256k16 and m64n128k16 are generated here");
    constexpr int kTransA = Shape.swap_ab ? 1 : 0, kTransB = Shape.swap_ab || Shape.b_k_major ? 0 : 1;
    // The accumulators were last written by the previous group or other instructions: order that first.
    wgmma_fence();
#pragma unroll
    for (int ks = 0; ks < Shape.k_slices(); ++ks) {
#pragma unroll
        for (int ms = 0; ms < Shape.m_slices(); ++ms) {
            const std::uint64_t a = a_stage + model::a_descriptor_step(Shape, 0, ks) + model::a_slice_step(Shape, ms);
            const std::uint64_t b = b_stage + model::b_descriptor_step(Shape, 0, ks);
            if constexpr (Shape.element_bytes == 1 && Shape.wgmma_n == 256)
                wgmma_m64n256k32_e4m3(acc[ms], a, b, accumulate || ks > 0);
            else if constexpr (Shape.element_bytes == 1)
                wgmma_m64n128k32_e4m3(acc[ms], a, b, accumulate || ks > 0);
            else if constexpr (Shape.wgmma_n == 256)
                wgmma_m64n256k16<T, kTransA, kTransB>(acc[ms], a, b, accumulate || ks > 0);
            else
                wgmma_m64n128k16<T, kTransA, kTransB>(acc[ms], a, b, accumulate || ks > 0);
        }
    }
    wgmma_commit();
}
// The same on stage `stage`, from the descriptors of stage 0.
template <model::WgmmaShape Shape, typename T>
__device__ __forceinline__ void wgmma_stage(Accumulators<Shape>& acc, std::uint64_t a_desc0,
                                            std::uint64_t b_desc0, int stage, bool accumulate) {
    wgmma_stage_from<Shape, T>(acc, a_desc0 + model::a_descriptor_step(Shape, stage, 0),
                               b_desc0 + model::b_descriptor_step(Shape, stage, 0), accumulate);
}

// ---- The block's copies of one K step ----------------------------------------------------------

// Arms full[stage] with the stage's bytes and issues every box of K step `k_step` for the block at
// (block_m, block_n) of batch `batch` (model::tma_box: where each box comes from and goes to).
// With `b_runs` B's map is the 4-D one and its slabs come in one copy (model::b_slab_runs). One
// thread calls it.
template <model::WgmmaShape Shape>
__device__ __forceinline__ void issue_stage(unsigned char* smem, std::uint64_t* full, const CUtensorMap* a_map,
                                            const CUtensorMap* b_map, int block_m, int block_n, int batch,
                                            int k_step, bool b_runs) {
    const int stage = k_step % Shape.stages;
    mbarrier_arrive_expect_tx(&full[stage], model::expect_tx_bytes(Shape));
    if (b_runs) {
        const model::TmaSlabRun run = model::b_slab_run(Shape, block_n, k_step, 0, stage);
        tma_load_slab_run(smem + run.smem_offset, b_map, &full[stage], run.first_row, run.first_slab, batch);
    }
    // A's boxes, then B's unless its slabs came in one run.
#pragma unroll
    for (int i = 0; i < (b_runs ? model::a_boxes(Shape) : model::boxes_per_stage(Shape)); ++i) {
        const model::TmaBox box = model::tma_box(Shape, block_m, block_n, k_step, i);
        tma_load_3d(smem + box.smem_offset, box.of_a ? a_map : b_map, &full[stage], box.inner_coord, box.outer_coord,
                    batch);
    }
}

// The same in a cluster, for a persistent block: K step `k_step` of the tile into stage `stage`
// (the ring's, counted over every tile). This CTA (rank `rank`) brings all of its own A tile and
// its part of B's, the part multicast to every CTA of the cluster (model::tma_box's issuer); the
// other CTAs bring the other parts. full[stage] of each CTA expects the whole stage either way.
template <model::WgmmaShape Shape>
__device__ __forceinline__ void issue_cluster_stage(unsigned char* smem, std::uint64_t* full, const CUtensorMap* a_map,
                                                    const CUtensorMap* b_map, int block_m, int block_n, int batch,
                                                    int k_step, int stage, int rank, bool b_runs) {
    constexpr auto kEveryCta = static_cast<std::uint16_t>((1u << Shape.cluster_m) - 1);
    mbarrier_arrive_expect_tx(&full[stage], model::expect_tx_bytes(Shape));
    // A cluster of one (a tc-tuned candidate) copies B plainly: there is no other CTA to reach.
    if (b_runs) {
        const model::TmaSlabRun run = model::b_slab_run(Shape, block_n, k_step, rank, stage);
        if constexpr (Shape.cluster_m == 1)
            tma_load_slab_run(smem + run.smem_offset, b_map, &full[stage], run.first_row, run.first_slab, batch);
        else
            tma_load_slab_run_multicast(smem + run.smem_offset, b_map, &full[stage], run.first_row, run.first_slab,
                                        batch, kEveryCta);
    }
    // A's boxes, then this CTA's share of B's unless its slabs came in one run.
#pragma unroll
    for (int i = 0; i < (b_runs ? model::a_boxes(Shape) : model::boxes_per_stage(Shape)); ++i) {
        const model::TmaBox box = model::tma_box(Shape, block_m, block_n, k_step, i, stage);
        if (box.of_a)
            tma_load_3d(smem + box.smem_offset, a_map, &full[stage], box.inner_coord, box.outer_coord, batch);
        else if (Shape.cluster_m == 1)
            tma_load_3d(smem + box.smem_offset, b_map, &full[stage], box.inner_coord, box.outer_coord, batch);
        else if (box.issuer == rank)
            tma_load_3d_multicast(smem + box.smem_offset, b_map, &full[stage], box.inner_coord, box.outer_coord, batch,
                                  kEveryCta);
    }
}

// The accumulators of one consumer thread to C, times `scale` (FP8's, 1 for the 16-bit rungs),
// rounded to T, inside the matrix only: two neighbouring columns in one 32-bit store where N is
// even (every row then starts on 4 bytes). (A swap_ab shape stages C: stage_and_store_c.)
template <model::WgmmaShape Shape, typename T>
__device__ __forceinline__ void store_accumulators(const Accumulators<Shape>& acc, T* c, int m, int n, int block_row,
                                                   int block_col, int consumer, int thread, float scale = 1.0f) {
    static_assert(!Shape.swap_ab);
#pragma unroll
    for (int ms = 0; ms < Shape.m_slices(); ++ms) {
#pragma unroll
        for (int r = 0; r < Shape.wgmma_n / 2; r += 2) {
            const model::Cell cell = model::wgmma_block_cell(Shape, consumer, ms, 0, thread, r);
            const int row = block_row + cell.row, col = block_col + cell.col;
            if (row >= m) continue;
            T* out = c + static_cast<std::int64_t>(row) * n + col;
            const float first = acc[ms][r] * scale, second = acc[ms][r + 1] * scale;
            if (n % 2 == 0 && col + 1 < n) {
                *reinterpret_cast<std::uint32_t*>(out) = pack_pair<T>(first, second);
            } else {
                if (col < n) out[0] = from_float<T>(first);
                if (col + 1 < n) out[1] = from_float<T>(second);
            }
        }
    }
}

// ---- Host: tensor maps and the launch ---------------------------------------------------------

// The 16-bit operands the way TMA needs them: row strides of 16-byte multiples. For sizes that are
// not, padded copies in scratch memory (freed when the stream gets there).
struct TmaOperands {
    const void* a = nullptr;  // M×k_padded per batch
    const void* b = nullptr;  // K (or k_padded)×n_padded per batch; FP8's N×k_padded
    int k_padded = 0, n_padded = 0;
    void* scratch = nullptr;  // to free after the launch, or null
};
cudaError_t prepare_tma_operands(const model::Problem& problem, Operands<std::uint16_t> operands, TmaOperands& out,
                                 cudaStream_t stream);
// The same for FP8's A (M×K) and B (N×K) e4m3 bytes: rows of K, padded to a multiple of 16 where
// K is not one (then `b` is N×k_padded).
cudaError_t prepare_fp8_tma_operands(const model::Problem& problem, const std::uint8_t* a, const std::uint8_t* b,
                                     TmaOperands& out, cudaStream_t stream);
cudaError_t release_tma_operands(TmaOperands& operands, cudaStream_t stream);

// The tensor maps of A (inner K, outer M, batch) and B (inner N, outer K, batch; with b_k_major
// inner K, outer N), elements of the shape's size, with boxes of the swizzle span × the tile's
// rows and the shape's swizzle. Returns the driver's error as text in
// `why` on failure.
bool make_tensor_maps(const model::WgmmaShape& shape, const model::Problem& problem, const TmaOperands& operands,
                      CUtensorMap& a_map, CUtensorMap& b_map, const char*& why);

// C's tensor map for a Shape with c_staged (TMA stores of span × consumer_rows boxes, the staging
// area's swizzle). False, with the reason in `why`, where TMA cannot write C: a row of N elements
// that is not a whole number of 16 bytes, or C not on a 16-byte boundary. The kernel then writes
// C from registers (store_accumulators) instead.
bool make_c_tensor_map(const model::WgmmaShape& shape, const model::Problem& problem, void* c, CUtensorMap& c_map,
                       const char*& why);

// Where stream-K's later parts leave their FP32 sums (model/tensor_core/stream_k.hpp): one slot per CTA
// and consumer of the launch, each `floats` floats, and a flag per slot that a part raises to
// `epoch` once its sums are there. Each launch has an epoch of its own, so the flags never need
// clearing, and the memory stays from one launch to the next: allocating or clearing it each time
// would be timed with the kernel. One launch at a time may use them.
struct StreamKSlots {
    float* sums = nullptr;
    unsigned* flags = nullptr;
    unsigned epoch = 0;
};
// The slots for a launch on the current device, `per_sm` slots of `floats` floats for each of its
// SMs (a persistent CTA's consumers), and a new epoch.
cudaError_t stream_k_slots(int per_sm, std::size_t floats, StreamKSlots& out);

// A TMA rung's kernel: the maps of A and B, C, M, N, K, batches, and any further arguments.
template <typename T, typename... Extra>
using TmaKernel = void (*)(CUtensorMap, CUtensorMap, T*, int, int, int, int, Extra...);

// The accumulators of one consumer warpgroup to C through shared memory (a Shape with c_staged and
// swap_ab): each thread writes its values, rounded to T, into the consumer's staging area
// (model::c_staging_offset), and thread 0 sends it out with one TMA store per slab, which writes
// only what lies inside the matrix. The stores run on while the warpgroup starts its next tile;
// the staging area is written again only once they have read it. With c_one_slab the area holds
// one 64-column slab: each slice is written, stored, and read by its store before the next; but
// where the caller kept the stage its tile's last K step read (`kept_stage`, not −1), the last
// slice goes there at once (model::c_slab_in_stage_offset) and the caller releases that stage
// once the store has read it. `thread` is 0..127 of the warpgroup; C's tensor map has boxes of
// span × consumer_rows (make_c_tensor_map). Where TMA cannot write C (`c_map` null: N not a
// multiple of 8) the warpgroup copies its staged part to `c` itself, neighbouring threads on
// neighbouring columns, inside the matrix only.
template <model::WgmmaShape Shape, typename T>
__device__ __forceinline__ void stage_and_store_c(const Accumulators<Shape>& acc, unsigned char* smem,
                                                  const CUtensorMap* c_map, T* c, int m, int n, int block_row,
                                                  int block_col, int batch, int consumer, int thread,
                                                  int kept_stage = -1) {
    // The one staged shape, 18's, has its operands swapped; a staged shape without would write
    // its accumulator pairs straight to c_staging_offset instead of through stmatrix.
    static_assert(Shape.c_staged && Shape.swap_ab);
    const model::Cell origin = model::consumer_origin(Shape, consumer);
    const std::uint32_t smem_base = shared_address(smem);
    constexpr int kSpan = Shape.span_elements();
    // The whole part at once, or (c_one_slab) each 64-column slice on its own: one slab, which
    // its TMA store reads before the next slice is written to the same place.
    constexpr int kRounds = Shape.c_one_slab ? Shape.m_slices() : 1;
    constexpr int kSlicesPerRound = Shape.m_slices() / kRounds;
#pragma unroll
    for (int round = 0; round < kRounds; ++round) {
        // The last slice into the kept stage: only this warpgroup's wgmmas read that part of it,
        // and they are over (wgmma_wait), so it is written with no wait.
        const bool into_stage = kRounds > 1 && round == kRounds - 1 && kept_stage >= 0;
        const auto staged_at = [&](int row, int col) {
            return into_stage ? model::c_slab_in_stage_offset(Shape, kept_stage, consumer, row, col)
                              : model::c_staging_offset(Shape, consumer, row, col);
        };
        if (!into_stage) {
            // The previous stores have read the staging area (thread 0 issued them, so it waits)...
            if (thread == 0) bulk_wait_group_read<0>();
            // ...before any thread of the warpgroup writes it again.
            named_barrier_sync(1 + consumer, model::kWarpgroupSize);
        }
        // The accumulators hold Cᵀ: stmatrix transposes 8×8 pieces on the way (model::stmatrix_trans_row).
#pragma unroll
        for (int ms = round * kSlicesPerRound; ms < (round + 1) * kSlicesPerRound; ++ms) {
#pragma unroll
            for (int group = 0; group < Shape.wgmma_n / 16; ++group) {
                const model::Cell to = model::stmatrix_trans_row(ms, group, thread);
                const float* r = &acc[ms][8 * group];
                stmatrix_x4_trans(smem_base + staged_at(to.row, to.col),
                                  pack_pair<T>(r[0], r[1]), pack_pair<T>(r[2], r[3]), pack_pair<T>(r[4], r[5]),
                                  pack_pair<T>(r[6], r[7]));
            }
        }
        // Each thread's writes are ordered before the async proxy's reads, and every thread has
        // written, before thread 0 starts the stores.
        fence_proxy_async_shared();
        named_barrier_sync(1 + consumer, model::kWarpgroupSize);
        // This round's columns of the consumer's part, from..to.
        const int first = round * kSlicesPerRound * model::kWgmmaM, last = first + kSlicesPerRound * model::kWgmmaM;
        if (c_map == nullptr) {
            const int first_row = block_row + origin.row, first_col = block_col + origin.col;
            T* c_batch = c + static_cast<std::int64_t>(batch) * m * n;
            const int cols = last - first;
            for (int i = thread; i < Shape.consumer_rows() * cols; i += model::kWarpgroupSize) {
                const int row = i / cols, col = first + i % cols;
                if (first_row + row < m && first_col + col < n)
                    c_batch[static_cast<std::int64_t>(first_row + row) * n + first_col + col] =
                        *reinterpret_cast<const T*>(smem + model::c_staging_offset(Shape, consumer, row, col));
            }
            // The next round's (or tile's) staging waits at the barrier above for every thread's reads.
            continue;
        }
        if (thread == 0) {
#pragma unroll
            for (int col = first; col < last; col += kSpan)
                tma_store_3d(c_map, smem + staged_at(0, col), block_col + origin.col + col,
                             block_row + origin.row, batch);
            bulk_commit_group();
        }
    }
}

// One block per BM×BN tile of C per batch (16, 17).
inline dim3 tile_grid(const model::WgmmaShape& shape, const model::Problem& p) {
    return dim3(static_cast<unsigned>(model::ceil_div(p.n, shape.bn)), static_cast<unsigned>(model::ceil_div(p.m, shape.bm)),
                static_cast<unsigned>(p.batch));
}

// The launch every TMA rung makes: refuse off Hopper, pad A and B where TMA needs it, make the
// tensor maps, allow the kernel its shared memory, launch on the grid `grid()` gives (asked after
// the shared memory is allowed, so that an occupancy query sees it; an empty grid: nothing fits),
// and free the padding when the stream gets there. The kernel gets the maps, C, M, N, K, batches.
template <typename T, typename Grid, typename... Extra>
cudaError_t launch_tma_kernel(TmaKernel<T, Extra...> kernel, const model::WgmmaShape& shape, int shared_bytes,
                              const model::Problem& p, Operands<std::uint16_t> operands, cudaStream_t stream, Grid grid,
                              std::type_identity_t<Extra>... extra) {
    if (sm90a_unavailable()) return cudaErrorNoKernelImageForDevice;
    TmaOperands tma;
    if (const cudaError_t e = prepare_tma_operands(p, operands, tma, stream); e != cudaSuccess) return e;
    CUtensorMap a_map, b_map;
    const char* why = nullptr;
    cudaError_t launched = cudaErrorInvalidValue;
    if (make_tensor_maps(shape, p, tma, a_map, b_map, why)) {
        launched = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
        const dim3 blocks = launched == cudaSuccess ? grid() : dim3(0, 0, 0);
        if (launched == cudaSuccess && blocks.x * blocks.y * blocks.z == 0) launched = cudaErrorInvalidConfiguration;
        if (launched == cudaSuccess) {
            kernel<<<blocks, shape.threads(), shared_bytes, stream>>>(a_map, b_map, reinterpret_cast<T*>(operands.c),
                                                                     static_cast<int>(p.m), static_cast<int>(p.n),
                                                                     static_cast<int>(p.k), static_cast<int>(p.batch),
                                                                     extra...);
            launched = cudaGetLastError();
        }
    }
    const cudaError_t released = release_tma_operands(tma, stream);
    return launched != cudaSuccess ? launched : released;
}

// The launcher and handle of a TMA rung with one block per tile of C (tile_grid), for
// launch_by_half_type and handle_by_half_type: TileGridRung<shape, shared bytes, Kernel>::Of, where
// Kernel<T>::kernel is the rung's kernel for the 16-bit type T. 16 and 17 are such rungs; 18's
// persistent grid has its own (persistent::PersistentRung).
template <model::WgmmaShape Shape, int SharedBytes, template <typename> class Kernel>
struct TileGridRung {
    template <typename T>
    struct Of {
        static cudaError_t launch(const model::KernelConfig&, const model::Problem& p, Operands<std::uint16_t> operands,
                                  cudaStream_t stream) {
            return launch_tma_kernel<T>(Kernel<T>::kernel, Shape, SharedBytes, p, operands, stream,
                                        [&] { return tile_grid(Shape, p); });
        }
        static TcKernelHandle handle(const model::Problem&) {
            return {reinterpret_cast<const void*>(Kernel<T>::kernel), Shape.threads(), SharedBytes};
        }
    };
};

}  // namespace ts::kernels
