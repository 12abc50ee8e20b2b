// 11_pipelined.cuh — the pipelined kernel, shared by 11_pipelined.cu (one shape) and
// 12_tuned.cu (every candidate shape the tuner measures).
// Teaches: overlap loading with computing. Up to 10 every K step is load, barrier, compute,
// barrier: while the tiles travel the threads wait, while they compute the memory idles (other
// blocks fill some of the gap, but 10 fits only a few per SM). Here shared memory holds S.stages
// K steps and copies run asynchronously (cp.async, compute capability 8.0 on): while the block
// computes step s, steps s + 1 … s + stages − 1 are on their way.
// Changed from 10_warptile.cu:
// - shared memory is dynamic (stages × (As + Bs) passes the 48 KiB of static shared memory for
//   several of the tuned rung's shapes), and the launcher asks for it;
// - a step's loads are cp.async copies: 16 bytes per B vector into Bs, 4 per value of A (a_vec);
// - one barrier per step instead of two, before the step's last k: it publishes the next step's
//   copies and frees this step's stage, already read into registers (pipeline_body);
// - a thread reads the fragments for k + 1, a 128-bit load at a time, in between the products of
//   k (products_loading, which says why the products go down and up the columns);
// - blocks wholly inside C copy without edge tests, but in a last, partial K step;
// - K steps of 8, four in flight: overlapped, a short step costs little, and four stages of 128×8
//   and 8×128 fit in 32.5 KiB;
// - on compute capability 7.5 (Turing), without cp.async, the copy helpers are plain loads and
//   stores: the stages then only save a barrier per step, not the waiting.
#pragma once

#include <type_traits>

#include "kernels/common/ladder_vector.cuh"

namespace ts::kernels {

// Copies 4 (or 16) bytes from global to shared memory without passing through registers;
// the copy completes in the background, in the commit group this thread opens next.
// `to_shared` is a shared-memory address (shared_address below): cp.async wants one, and
// working it out from a pointer in every step costs instructions in the loop.
__device__ __forceinline__ unsigned shared_address(const float* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void copy_async_4(unsigned to_shared, const float* from_global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(to_shared), "l"(from_global));
#else
    *static_cast<float*>(__cvta_shared_to_generic(to_shared)) = *from_global;
#endif
}
__device__ __forceinline__ void copy_async_16(unsigned to_shared, const float* from_global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to_shared), "l"(from_global));
#else
    *static_cast<float4*>(__cvta_shared_to_generic(to_shared)) = *reinterpret_cast<const float4*>(from_global);
#endif
}
// Writes zeros to 4 (or 16) bytes of shared memory at a shared address: a slot outside the
// matrix.
__device__ __forceinline__ void zero_shared_4(unsigned at) { asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(at), "f"(0.0f)); }
__device__ __forceinline__ void zero_shared_16(unsigned at) {
    asm volatile("st.shared.v4.f32 [%0], {%1, %1, %1, %1};\n" ::"r"(at), "f"(0.0f));
}
// Closes this thread's current group of copies.
__device__ __forceinline__ void commit_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
// Waits until at most `Pending` of this thread's newest groups are still in flight.
template <int Pending>
__device__ __forceinline__ void wait_for_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending));
#endif
}

// Starts the copies of K step `step` into one stage's As and Bs (at shared addresses
// as_at and bs_at), in the order of load_vector_tiles
// (ladder_vector.cuh); slots outside A or B are written with zeros. Checked = false: the
// caller knows the whole step lies inside A and B (see pipelined_kernel).
template <model::LadderShape S, bool Aligned, bool Checked>
__device__ __forceinline__ void copy_step_async(const float* a, const float* b, unsigned as_at, unsigned bs_at, int m,
                                                int n, int k, int block_row, int block_col, int step) {
    using namespace ts::model;
    const int thread = threadIdx.x;
    // A goes 4 bytes a value (a float4 of A would land in four rows of the transposed As), but
    // neighbouring threads copy neighbouring elements, so a warp's copy reads two whole 64-byte
    // pieces of two rows of A.
    static_assert(S.a_vec() == 1);
    // Unrolled only where unchecked: the edge blocks' tests, unrolled, would hold more
    // registers than the rest of the kernel needs.
    constexpr int a_unroll = Checked ? 1 : S.a_loads_per_thread(), b_unroll = Checked ? 1 : S.b_loads_per_thread();
#pragma unroll a_unroll
    for (int i = 0; i < S.a_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bk);
        const int c = ladder_load_col(thread, i, S.threads(), S.bk);
        const int row = block_row + r, col = step * S.bk + c;
        const int slot = ladder_as_slot(S, r, c);
        if (!Checked || inside(row, col, m, k)) copy_async_4(as_at + 4 * slot, &a[row_major(row, col, k)]);
        else zero_shared_4(as_at + 4 * slot);
    }
#pragma unroll b_unroll
    for (int i = 0; i < S.b_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bn, 4);
        const int c = ladder_load_col(thread, i, S.threads(), S.bn, 4);
        const int row = step * S.bk + r, col = block_col + c;
        const int slot = row_major(r, c, S.bn);
        if constexpr (Aligned) {
            if (!Checked || (row < k && col < n)) copy_async_16(bs_at + 4 * slot, &b[row_major(row, col, n)]);
            else zero_shared_16(bs_at + 4 * slot);
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                if (!Checked || inside(row, col + j, k, n)) copy_async_4(bs_at + 4 * (slot + j), &b[row_major(row, col + j, n)]);
                else zero_shared_4(bs_at + 4 * (slot + j));
            }
        }
    }
}

// Whether an unchecked body also takes a K that BK does not divide, checking the copies of its
// last step alone. Not for a shape that asks for two blocks per SM: it has 128 registers a thread,
// and that step's checks would spill some (tuned #4: 40 bytes a thread); for such a K it keeps the
// checked body.
TS_HOST_DEVICE constexpr bool unchecked_with_partial_k_step(model::LadderShape s) { return s.blocks_per_sm < 2; }

// The pipeline of one block. Checked = false where the block's whole tile of C lies inside C:
// then every copy but those of a last, partial K step lies inside A and B, and the loop does
// without testing each element against the matrix's edge (most blocks of a large problem; those
// tests take issue slots that the multiply-adds need).
template <model::LadderShape S, bool Aligned, bool Checked>
__device__ __forceinline__ void pipeline_body(const float* a, const float* b, float* c, float* shared, int m, int n,
                                              int k, int block_row, int block_col) {
    using namespace ts::model;
    const int thread = threadIdx.x;
    // Stage s: As at s · (as_slots + bs_slots) floats, its Bs right after it.
    constexpr int stage_slots = S.as_slots() + S.bs_slots();
    const unsigned shared_at = shared_address(shared);
    const auto as_of = [&](int stage) { return shared + stage * stage_slots; };
    const auto bs_of = [&](int stage) { return as_of(stage) + S.as_slots(); };
    const int steps = ladder_steps(S, k);
    // A block whose tile lies inside C checks its copies in one K step at most: the last, where
    // K is not a multiple of BK and the step reaches past A's columns and B's rows.
    const bool partial_last_step = k % S.bk != 0;
    const auto copy_step = [&](int step) {
        const int stage = step % S.stages;
        const unsigned as_at = shared_at + 4 * stage * stage_slots;
        if (Checked || (unchecked_with_partial_k_step(S) && partial_last_step && step == steps - 1))
            copy_step_async<S, Aligned, true>(a, b, as_at, as_at + 4 * S.as_slots(), m, n, k, block_row, block_col,
                                              step);
        else
            copy_step_async<S, Aligned, false>(a, b, as_at, as_at + 4 * S.as_slots(), m, n, k, block_row, block_col,
                                               step);
    };

    // Fill the pipeline: start the copies of the first stages − 1 steps. A group is
    // committed even when there is no step left to copy, so that group g always holds
    // step g and every wait below counts the same way to the end.
#pragma unroll
    for (int step = 0; step < S.stages - 1; ++step) {
        if (step < steps) copy_step(step);
        commit_copies();
    }
    // Two sets of fragment registers: the products of k run from one while the other fills
    // with k + 1. Named, not indexed by k % 2, so that both stay in registers.
    float a_even[S.wm_iter][S.tm], a_odd[S.wm_iter][S.tm];
    float b_even[S.wn_iter][S.tn], b_odd[S.wn_iter][S.tn];
    float sums[S.cells_per_thread()] = {};

    // Step 0 (group 0) must have arrived, from every thread's copies, before its first
    // fragments are read: wait for this thread's copies, then the barrier for everyone's.
    wait_for_copies<S.stages - 2>();
    __syncthreads();
    load_fragments<S>(as_of(0), bs_of(0), thread, 0, a_even, b_even);

    // One pass of the loop: step `step`. Refill: whether it starts the copies of step +
    // stages − 1. The passes that do come first, in a loop of their own, so that the body
    // of that loop (nearly all the work) has no branch and the compiler can spread the
    // copies among the multiply-adds.
    const auto pass = [&](int step, auto refill) {
        const float* as = as_of(step % S.stages);
        const float* bs = bs_of(step % S.stages);
        // Refill the stage that step − 1 used: the barrier at the end of the last pass showed
        // that every thread had read all of it. Its group is step + stages − 1.
        if constexpr (decltype(refill)::value) copy_step(step + S.stages - 1);
        commit_copies();
        // k = 0 … BK − 2 of this step, each while the fragments of k + 1 load.
#pragma unroll
        for (int i = 0; i + 2 < S.bk; i += 2) {
            products_loading<S>(a_even, b_even, sums, as, bs, thread, i + 1, a_odd, b_odd);
            products_loading<S>(a_odd, b_odd, sums, as, bs, thread, i + 2, a_even, b_even);
        }
        products_loading<S>(a_even, b_even, sums, as, bs, thread, S.bk - 1, a_odd, b_odd);
        // Step + 1 (group step + 1) has arrived once at most the stages − 2 newest groups are
        // in flight. The barrier does two things: every thread's copies of step + 1 are now
        // visible to all threads, and every thread has read this step's stage for the last
        // time (its last fragments are in registers), so the next pass may refill it.
        wait_for_copies<S.stages - 2>();
        __syncthreads();
        // The last k of this step, while the first fragments of step + 1 load (if any).
        const int next_i = decltype(refill)::value || step + 1 < steps ? 0 : -1;
        products_loading<S>(a_odd, b_odd, sums, as_of((step + 1) % S.stages), bs_of((step + 1) % S.stages), thread,
                            next_i, a_even, b_even);
    };
    // Not unrolled: each pass is already BK · cells multiply-adds long, and copies of it
    // would only cost registers.
    int step = 0;
#pragma unroll 1
    for (; step + S.stages - 1 < steps; ++step) pass(step, std::true_type{});
#pragma unroll 1
    for (; step < steps; ++step) pass(step, std::false_type{});
    store_vector_tiles<S, Aligned>(c, sums, m, n);
}

// One kernel serves mm and bmm: a plain launch has one matrix (blockIdx.z = 0), so the batch
// offsets are zero. (The rungs before compile a plain and a batched form; this kernel is the
// one compiled for every tuned shape, and one form instead of two halves the build.)
template <typename Shape, bool Aligned>
__global__ void __launch_bounds__(Shape::value.threads(), Shape::value.blocks_per_sm > 0 ? Shape::value.blocks_per_sm : 1)
    pipelined_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
    using namespace ts::model;
    constexpr LadderShape S = Shape::value;
    static_assert(S.stages >= 2, "a pipeline needs a stage to compute from and one to load into");
    static_assert(S.bk % 2 == 0, "the fragments alternate between two sets of registers, k by k");
    // Every stage's As and Bs; float4 keeps the start on 16 bytes.
    extern __shared__ float4 shared_vectors[];
    float* shared = reinterpret_cast<float*>(shared_vectors);
    select_batch<true>(a, b, c, m, n, k);
    const int block_row = blockIdx.y * S.bm, block_col = blockIdx.x * S.bn;
    // The unchecked body wherever the block's tile lies inside C, whatever the sizes: rows off
    // 16 bytes (K or N not a multiple of 4) cost B four 4-byte copies for each 16-byte one, a
    // few instructions per thousand multiply-adds, where the checked body's test of every
    // element cost 4099×4095×4097 a sixth of its speed.
    if (block_row + S.bm <= m && block_col + S.bn <= n && (unchecked_with_partial_k_step(S) || k % S.bk == 0)) {
        pipeline_body<S, Aligned, false>(a, b, c, shared, m, n, k, block_row, block_col);
        return;
    }
    pipeline_body<S, Aligned, true>(a, b, c, shared, m, n, k, block_row, block_col);
}

// The aligned form copies B and stores C 16 bytes at a time, and copies A 4 bytes at a time
// whatever the sizes: it needs N a multiple of 4 (and the buffers on 16 bytes), not K.
inline bool pipelined_rows_aligned(const model::Problem& problem) { return problem.n % 4 == 0; }

template <typename S>
constexpr FloatRungKernels pipelined_kernels() {
    return {&pipelined_kernel<S, false>, &pipelined_kernel<S, false>, &pipelined_kernel<S, true>,
            &pipelined_kernel<S, true>};
}

}  // namespace ts::kernels
