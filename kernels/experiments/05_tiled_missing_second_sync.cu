// Teaches: what the second barrier of the tiled kernel is for. Without it a thread that has
// finished this phase's multiply-adds goes straight on to the next phase and overwrites its
// slots of As and Bs with the next tiles, while slower threads of the block are still reading
// this phase's: they add an element of the next phase in place of this one's.
// Changed from 05_tiled.cu: the __syncthreads() after the multiply-adds is gone; nothing
// else. Float only, T = 8, 16 and 32, one matrix (experiment missing-second-sync).
// Why it is rare: the overwriting thread must first load the next tile from global memory
// (hundreds of cycles), while a slow reader needs only T shared loads to finish, so the race
// is lost only when a warp is held up for a long time (another block's warps, a long wait
// for the scheduler). Running it many times, on many blocks, is what shows it.
#include "kernels/experiments/experiment_launchers.hpp"
#include "kernels/experiments/tiled_variant.cuh"

namespace ts::kernels {

namespace {

template <int Tile>
__global__ void tiled_missing_second_sync_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
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
        // Still here: every slot of As and Bs is stored before any thread reads one.
        __syncthreads();

        for (int i = 0; i < Tile; ++i) sum += as[ty][i] * bs[i][tx];
        // MISSING ON PURPOSE: the barrier that held every thread here until the whole block
        // had read this phase's tiles. Without it a fast thread stores the next phase's
        // element into a slot a slow thread has not read yet.
    }
    if (inside(row, col, m, n)) c[row_major(row, col, n)] = sum;
}

constexpr MatmulKernel<float> kernel_for(int tile) {
    return tile == 8 ? &tiled_missing_second_sync_kernel<8>
         : tile == 16 ? &tiled_missing_second_sync_kernel<16>
         : tile == 32 ? &tiled_missing_second_sync_kernel<32>
                      : nullptr;
}

}  // namespace

cudaError_t launch_tiled_missing_second_sync(const model::KernelConfig& config, const model::Problem& problem,
                                             Operands<float> operands, cudaStream_t stream) {
    return launch_tiled_variant(kernel_for(config.tile), config, problem, operands, stream);
}

}  // namespace ts::kernels
