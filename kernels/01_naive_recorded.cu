// Teaches: what the naive kernel really does on a GPU: every thread's walk along its row of
// A and column of B, recorded load by load, for the player's "as recorded on <GPU>" replay.
// Changed from 01_naive.cu: the same index math and loop, plus records. Each thread writes
// down the two elements it reads at every k; thread (0, 0) notes the SM the block runs on
// and stamps its clocks at every T values of k, the chunks the player calls phases.
// Traffic: 01's loads, plus the records' global stores, so the times show order and overlap,
// not the kernel's speed.
#include "kernels/common/launch_common.cuh"
#include "kernels/common/recording.cuh"

namespace ts::kernels {

namespace {

__global__ void naive_recorded_kernel(const float* a, const float* b, float* c, int m, int n, int k, int chunk,
                                      TraceBuffers trace) {
    using namespace ts::model;
    const int row = naive_row(blockIdx.y, blockDim.y, threadIdx.y);
    const int col = naive_col(blockIdx.x, blockDim.x, threadIdx.x);
    const int block = block_linear(blockIdx.x, blockIdx.y, gridDim.x);
    // Thread (0, 0) always has a cell: a block starts inside C, since the grid is rounded up
    // by less than one block.
    const bool stamps = threadIdx.x == 0 && threadIdx.y == 0;
    if (stamps) trace.block_sm[block] = current_sm();
    if (!inside(row, col, m, n)) return;

    const int phases = phase_count(k, chunk);
    float sum = 0;
    for (int i = 0; i < k; ++i) {
        PhaseClock& clock = trace.clocks[phase_clock_slot(block, phases, i / chunk)];
        if (stamps && i % chunk == 0) stamp_start(clock);
        sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];
        if (trace.loads) {
            trace.loads[naive_load_slot(block, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y, k, i, 0)] =
                RecordedLoad{row, i, i, RecordedLoad::kLoaded};
            trace.loads[naive_load_slot(block, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y, k, i, 1)] =
                RecordedLoad{i, col, i, RecordedLoad::kLoaded};
        }
        if (stamps && (i % chunk == chunk - 1 || i == k - 1)) stamp_end(clock);
    }
    c[row_major(row, col, n)] = sum;
}

}  // namespace

cudaError_t launch_naive_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                  Operands<float> operands, TraceBuffers trace, cudaStream_t stream) {
    if (config.kind != model::KernelKind::Naive || problem.batch != 1 || config.tile < 1)
        return cudaErrorInvalidValue;
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    naive_recorded_kernel<<<grid, block, 0, stream>>>(operands.a, operands.b, operands.c, static_cast<int>(problem.m),
                                                      static_cast<int>(problem.n), static_cast<int>(problem.k),
                                                      config.tile, trace);
    return cudaGetLastError();
}

}  // namespace ts::kernels
