// Teaches: what the regtile-2d kernel really does on a GPU, load instruction by load
// instruction: the theatre replays this trace "as recorded on <GPU>", and a gpu test
// checks it against the model (model::compare_with_model, model::ladder_model_load).
// Changed from 07_regtile_2d.cu: the same index math and loops (float, one matrix), the real
// kernel's load function (load_ladder_tiles), plus three records. After its loads in every
// K step each thread writes down its 4 loads of A and 4 of B (record_ladder_loads: element,
// As/Bs slot, loaded or padding); thread 0 stamps the start and end of every K step and the
// SM the block runs on.
// Traffic: 07's loads, plus the records' global stores, so the times show order and overlap,
// not the kernel's speed.
#include "kernels/common/ladder_common.cuh"
#include "kernels/common/ladder_recording.cuh"
#include "kernels/common/recording.cuh"

namespace ts::kernels {

namespace {

__global__ void __launch_bounds__(model::kRegTile2dShape.threads())
    regtile_2d_recorded_kernel(const float* a, const float* b, float* c, int m, int n, int k, TraceBuffers trace) {
    using namespace ts::model;
    constexpr LadderShape s = kRegTile2dShape;
    __shared__ float as[s.bm][s.bk];
    __shared__ float bs[s.bk][s.bn];

    const int thread = threadIdx.x;
    const int block_row = blockIdx.y * s.bm, block_col = blockIdx.x * s.bn;
    const int tile_row = ladder_tile_row(s, thread);
    const int tile_col = ladder_tile_col(s, thread);
    const int block = block_linear(blockIdx.x, blockIdx.y, gridDim.x);
    const bool stamps = thread == 0;
    if (stamps) trace.block_sm[block] = current_sm();

    float sums[s.tm][s.tn] = {};
    float a_column[s.tm];
    float b_row[s.tn];
    const int steps = ladder_steps(s, k);
    for (int step = 0; step < steps; ++step) {
        PhaseClock& clock = trace.clocks[phase_clock_slot(block, steps, step)];
        if (stamps) stamp_start(clock);
        load_ladder_tiles<float, s>(a, b, as, bs, m, n, k, block_row, block_col, step);
        record_ladder_loads<s>(trace.loads, block, steps, step, m, n, k, block_row, block_col);
        // Without this barrier a thread could read a slot of As or Bs that another thread
        // has not written yet.
        __syncthreads();
        for (int i = 0; i < s.bk; ++i) {
            for (int r = 0; r < s.tm; ++r) a_column[r] = as[tile_row + r][i];
            for (int j = 0; j < s.tn; ++j) b_row[j] = bs[i][tile_col + j];
            for (int r = 0; r < s.tm; ++r)
                for (int j = 0; j < s.tn; ++j) sums[r][j] += a_column[r] * b_row[j];
        }
        // Without this barrier a fast thread could overwrite As or Bs with the next step's
        // tiles while a slower thread still reads this step's; after it the whole block has
        // finished the step, so the stamp is its end.
        __syncthreads();
        if (stamps) stamp_end(clock);
    }
    const int row = ladder_row(s, blockIdx.y, thread), col = ladder_col(s, blockIdx.x, thread);
    for (int r = 0; r < s.tm; ++r)
        for (int j = 0; j < s.tn; ++j)
            if (inside(row + r, col + j, m, n)) c[row_major(row + r, col + j, n)] = sums[r][j];
}

}  // namespace

cudaError_t launch_regtile_2d_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                       Operands<float> operands, TraceBuffers trace, cudaStream_t stream) {
    if (config.kind != model::KernelKind::RegTile2d || problem.batch != 1) return cudaErrorInvalidValue;
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    regtile_2d_recorded_kernel<<<grid, block, 0, stream>>>(operands.a, operands.b, operands.c,
                                                           static_cast<int>(problem.m), static_cast<int>(problem.n),
                                                           static_cast<int>(problem.k), trace);
    return cudaGetLastError();
}

}  // namespace ts::kernels
