// Teaches: what the first barrier of the tiled kernel is for. Without it a thread starts its
// multiply-adds as soon as its own two stores are done, and reads slots of As and Bs that
// other threads have not stored yet: they still hold the previous phase's element (or, in
// phase 0, whatever an earlier block left in shared memory), and that value goes into the sum.
// Changed from 05_tiled.cu: the __syncthreads() between the loads and the multiply-adds is
// gone; nothing else. Float only, T = 8, 16 and 32, one matrix (experiment missing-first-sync).
// Why Bs suffers most: a row of As is stored by one row of threads, which for T ≤ 32 sits in
// the reader's own warp, so As is mostly read after its stores; a column of Bs is stored by T
// rows of threads, most of them in other warps, and those are the reads that come too early.
#include "kernels/experiments/experiment_launchers.hpp"
#include "kernels/experiments/tiled_variant.cuh"

namespace ts::kernels {

namespace {

template <int Tile>
__global__ void tiled_missing_first_sync_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
    using namespace ts::model;
    __shared__ float as[Tile][Tile];
    __shared__ float bs[Tile][Tile];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = tiled_row(blockIdx.y, Tile, ty);
    const int col = tiled_col(blockIdx.x, Tile, tx);

    float sum = 0;
    const int phases = phase_count(k, Tile);
    for (int phase = 0; phase < phases; ++phase) {
        const int a_col = tiled_a_col(phase, Tile, tx);
        const int b_row = tiled_b_row(phase, Tile, ty);
        as[ty][tx] = inside(row, a_col, m, k) ? a[row_major(row, a_col, k)] : 0.0f;
        bs[ty][tx] = inside(b_row, col, k, n) ? b[row_major(b_row, col, n)] : 0.0f;
        // MISSING ON PURPOSE: the barrier that made every thread wait here until all T×T
        // slots of As and Bs were stored. Without it the loop below may read a slot whose
        // thread is still waiting for its load from global memory.

        for (int i = 0; i < Tile; ++i) sum += as[ty][i] * bs[i][tx];
        // Still here: no thread may store the next phase's tiles while another still reads
        // this phase's.
        __syncthreads();
    }
    if (inside(row, col, m, n)) c[row_major(row, col, n)] = sum;
}

constexpr MatmulKernel<float> kernel_for(int tile) {
    return tile == 8 ? &tiled_missing_first_sync_kernel<8>
         : tile == 16 ? &tiled_missing_first_sync_kernel<16>
         : tile == 32 ? &tiled_missing_first_sync_kernel<32>
                      : nullptr;
}

}  // namespace

cudaError_t launch_tiled_missing_first_sync(const model::KernelConfig& config, const model::Problem& problem,
                                            Operands<float> operands, cudaStream_t stream) {
    return launch_tiled_variant(kernel_for(config.tile), config, problem, operands, stream);
}

}  // namespace ts::kernels
