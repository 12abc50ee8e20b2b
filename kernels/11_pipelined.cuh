// 11_pipelined.cuh — the pipelined kernel, shared by 11_pipelined.cu (one shape) and
// 12_tuned.cu (every candidate shape the tuner measures).
//
// Teaches: overlap loading with computing. Up to 10, every K step was: load the tiles,
// barrier, compute, barrier; while the tiles travel from global memory the threads wait,
// and while they compute the memory system idles (other blocks on the SM fill some of the
// gap, but 10 fits only a few blocks per SM). Here shared memory holds S.stages K steps at
// once, and copies run asynchronously (cp.async, compute capability 8.0 and newer): while
// the block computes step s from one stage, the copies of steps s + 1 … s + stages − 1 are
// already on their way into the others.
// Changed from 10_warptile.cu:
// - shared memory is dynamic (stages × (As + Bs) passes the 48 KiB a kernel may declare
//   statically for several of the tuned rung's shapes), and the launcher asks for it;
// - the loads of a step are cp.async copies: 16 bytes per B vector straight into Bs;
//   4 bytes per value of A, since a float4 of A lands in four rows of the transposed As
//   (LadderShape::a_vec: neighbouring threads copy neighbouring elements of A, so a warp's
//   copy reads two whole 64-byte pieces of two rows of A);
// - one barrier per step instead of two: it both publishes the step's copies and tells every
//   thread that the stage about to be refilled is no longer read (see the loop);
// - the same overlap one level down: a thread reads the fragments of As and Bs for k + 1
//   while it computes the products of k (accumulate_step_prefetched);
// - K steps of 8 instead of 16, four in flight: with the loads overlapped a short step costs
//   little, and four stages of 128×8 and 8×128 fit in 32.5 KiB;
// - on compute capability 7.5 (Turing), which has no cp.async, the copy helpers below are
//   plain loads and stores: the stages then only save a barrier per step, not the waiting.
#pragma once

#include "kernels/ladder_vector.cuh"

namespace ts::kernels {

// Copies 4 (or 16) bytes from global to shared memory without passing through registers;
// the copy completes in the background, in the commit group this thread opens next.
__device__ __forceinline__ void copy_async_4(float* to_shared, const float* from_global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const auto slot = static_cast<unsigned>(__cvta_generic_to_shared(to_shared));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(slot), "l"(from_global));
#else
    *to_shared = *from_global;
#endif
}
__device__ __forceinline__ void copy_async_16(float* to_shared, const float* from_global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const auto slot = static_cast<unsigned>(__cvta_generic_to_shared(to_shared));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(slot), "l"(from_global));
#else
    *reinterpret_cast<float4*>(to_shared) = *reinterpret_cast<const float4*>(from_global);
#endif
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

// Starts the copies of K step `step` into one stage's As and Bs, in the order of
// load_vector_tiles (ladder_vector.cuh); slots outside A or B are written with zeros.
template <model::LadderShape S, bool Aligned>
__device__ __forceinline__ void copy_step_async(const float* a, const float* b, float* as, float* bs, int m, int n,
                                                int k, int block_row, int block_col, int step) {
    using namespace ts::model;
    const int thread = threadIdx.x;
    static_assert(S.a_vec() == 1);
#pragma unroll
    for (int i = 0; i < S.a_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bk);
        const int c = ladder_load_col(thread, i, S.threads(), S.bk);
        const int row = block_row + r, col = step * S.bk + c;
        float* slot = &as[ladder_as_slot(S, r, c)];
        if (inside(row, col, m, k)) copy_async_4(slot, &a[row_major(row, col, k)]);
        else *slot = 0.0f;
    }
#pragma unroll
    for (int i = 0; i < S.b_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bn, 4);
        const int c = ladder_load_col(thread, i, S.threads(), S.bn, 4);
        const int row = step * S.bk + r, col = block_col + c;
        float* slot = &bs[row_major(r, c, S.bn)];
        if constexpr (Aligned) {
            if (row < k && col < n) copy_async_16(slot, &b[row_major(row, col, n)]);
            else *reinterpret_cast<float4*>(slot) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                if (inside(row, col + j, k, n)) copy_async_4(slot + j, &b[row_major(row, col + j, n)]);
                else slot[j] = 0.0f;
            }
        }
    }
}

template <typename Shape, bool Batched, bool Aligned>
__global__ void __launch_bounds__(Shape::value.threads()) pipelined_kernel(const float* a, const float* b, float* c,
                                                                             int m, int n, int k) {
    using namespace ts::model;
    constexpr LadderShape S = Shape::value;
    static_assert(S.stages >= 2, "a pipeline needs a stage to compute from and one to load into");
    // Stage s: As at s · (as_slots + bs_slots) floats, its Bs right after it. float4 keeps
    // the start on 16 bytes.
    extern __shared__ float4 shared_vectors[];
    float* shared = reinterpret_cast<float*>(shared_vectors);
    const auto as_of = [&](int stage) { return shared + stage * (S.as_slots() + S.bs_slots()); };
    const auto bs_of = [&](int stage) { return as_of(stage) + S.as_slots(); };
    select_batch<Batched>(a, b, c, m, n, k);
    const int block_row = blockIdx.y * S.bm, block_col = blockIdx.x * S.bn;
    const int steps = ladder_steps(S, k);

    // Fill the pipeline: start the copies of the first stages − 1 steps. A group is
    // committed even when there is no step left to copy, so that group g always holds
    // step g and the wait below counts the same way to the end.
#pragma unroll
    for (int stage = 0; stage < S.stages - 1; ++stage) {
        if (stage < steps) copy_step_async<S, Aligned>(a, b, as_of(stage), bs_of(stage), m, n, k, block_row, block_col, stage);
        commit_copies();
    }

    float sums[S.cells_per_thread()] = {};
    for (int step = 0; step < steps; ++step) {
        // Step `step` is group `step`; the stages − 2 groups after it may still be in flight.
        wait_for_copies<S.stages - 2>();
        // This barrier does two things: every thread's copies of this step are now visible
        // to all threads, and every thread has finished computing step − 1, so the stage it
        // read may be refilled below.
        __syncthreads();
        const int next = step + S.stages - 1;
        if (next < steps) {
            const int stage = next % S.stages;
            copy_step_async<S, Aligned>(a, b, as_of(stage), bs_of(stage), m, n, k, block_row, block_col, next);
        }
        commit_copies();
        accumulate_step_prefetched<S>(as_of(step % S.stages), bs_of(step % S.stages), threadIdx.x, sums);
    }
    store_vector_tiles<S, Aligned>(c, sums, m, n);
}

template <typename S>
constexpr FloatRungKernels pipelined_kernels() {
    return {&pipelined_kernel<S, false, false>, &pipelined_kernel<S, true, false>, &pipelined_kernel<S, false, true>,
            &pipelined_kernel<S, true, true>};
}

}  // namespace ts::kernels
