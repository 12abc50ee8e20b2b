// Teaches: what the warptile kernel really does on a GPU, float4 by float4: the theatre
// replays this trace "as recorded on <GPU>", and a gpu test checks it against the model
// (model::compare_with_model, model::ladder_model_load).
// Changed from 10_warptile.cu (vector_ladder_kernel of ladder_vector.cuh with
// kWarptileShape): the same loads, products and stores, called through the same functions
// (load_vector_tiles, accumulate_step, store_vector_tiles), for one float matrix, plus three
// records. After its loads in every K step each thread writes down its 4 float4 loads of A
// and 4 of B (record_ladder_loads: the vector's first element, the first As/Bs slot it
// writes, loaded or padding); thread 0 stamps the start and end of every K step and the SM
// the block runs on. The form that runs is the one the real launcher picks: 128-bit loads
// when K and N are multiples of 4 (and the buffers 16-byte aligned), four guarded 32-bit
// loads otherwise; the records are the same for both.
// Traffic: 10's loads, plus the records' global stores, so the times show order and overlap,
// not the kernel's speed.
#include "kernels/common/ladder_recording.cuh"
#include "kernels/common/ladder_vector.cuh"
#include "kernels/common/recording.cuh"

namespace ts::kernels {

namespace {

template <bool Aligned>
__global__ void __launch_bounds__(model::kWarptileShape.threads())
    warptile_recorded_kernel(const float* a, const float* b, float* c, int m, int n, int k, TraceBuffers trace) {
    using namespace ts::model;
    constexpr LadderShape S = kWarptileShape;
    __shared__ alignas(16) float as[S.as_slots()];
    __shared__ alignas(16) float bs[S.bs_slots()];

    const int block_row = blockIdx.y * S.bm, block_col = blockIdx.x * S.bn;
    const int block = block_linear(blockIdx.x, blockIdx.y, gridDim.x);
    const bool stamps = threadIdx.x == 0;
    if (stamps) trace.block_sm[block] = current_sm();

    float sums[S.cells_per_thread()] = {};
    const int steps = ladder_steps(S, k);
    for (int step = 0; step < steps; ++step) {
        PhaseClock& clock = trace.clocks[phase_clock_slot(block, steps, step)];
        if (stamps) stamp_start(clock);
        load_vector_tiles<S, Aligned>(a, b, as, bs, m, n, k, block_row, block_col, step);
        record_ladder_loads<S>(trace.loads, block, steps, step, m, n, k, block_row, block_col);
        // Without this barrier a thread could read a slot of As or Bs that another thread
        // has not written yet.
        __syncthreads();
        accumulate_step<S>(as, bs, threadIdx.x, sums);
        // Without this barrier a fast thread could overwrite As or Bs with the next step's
        // tiles while a slower thread still reads this step's; after it the whole block has
        // finished the step, so the stamp is its end.
        __syncthreads();
        if (stamps) stamp_end(clock);
    }
    store_vector_tiles<S, Aligned>(c, sums, m, n);
}

}  // namespace

cudaError_t launch_warptile_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                     Operands<float> operands, TraceBuffers trace, cudaStream_t stream) {
    if (config.kind != model::KernelKind::Warptile || problem.batch != 1) return cudaErrorInvalidValue;
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    // The form launch_warptile would run (launch_float_rung: vector_aligned).
    const auto kernel = vector_aligned(problem, operands) ? &warptile_recorded_kernel<true>
                                                          : &warptile_recorded_kernel<false>;
    kernel<<<grid, block, 0, stream>>>(operands.a, operands.b, operands.c, static_cast<int>(problem.m),
                                       static_cast<int>(problem.n), static_cast<int>(problem.k), trace);
    return cudaGetLastError();
}

}  // namespace ts::kernels
