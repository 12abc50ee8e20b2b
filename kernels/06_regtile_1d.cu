// Teaches: more work per thread. Each thread computes TM = 8 cells of one column of C, so one
// value of Bs, held in a register, feeds 8 multiply-adds instead of 1.
// Changed from 05_tiled.cu: blocks are 1-D (512 threads) and own a 64×64 tile of C, not T×T;
// K is walked 8 at a time (BK); each thread loads one element of the 64×8 tile of A and one
// of the 8×64 tile of B per step, and keeps 8 running sums in registers.
// Traffic: ts::model::count_ladder with kRegTile1dShape: A read ceil(N/64) times and B
// ceil(M/64) times (the tiled kernel with T = 32: 32 times each at 1024³, here 16), and
// 9 shared loads per 8 FMAs where the tiled kernel needed 2 per FMA.
#include "kernels/common/ladder_common.cuh"

namespace ts::kernels {

namespace {

template <typename T, bool Batched>
__global__ void __launch_bounds__(model::kRegTile1dShape.threads())
    regtile_1d_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    constexpr LadderShape s = kRegTile1dShape;
    __shared__ T as[s.bm][s.bk];
    __shared__ T bs[s.bk][s.bn];
    select_batch<Batched>(a, b, c, m, n, k);

    const int thread = threadIdx.x;
    const int block_row = blockIdx.y * s.bm, block_col = blockIdx.x * s.bn;
    const int tile_row = ladder_tile_row(s, thread);  // first row of this thread's cells in the tile
    const int tile_col = ladder_tile_col(s, thread);

    T sums[s.tm] = {};
    for (int step = 0; step < ladder_steps(s, k); ++step) {
        load_ladder_tiles<T, s>(a, b, as, bs, m, n, k, block_row, block_col, step);
        // Without this barrier a thread could read a slot of As or Bs that another thread
        // has not written yet.
        __syncthreads();
        for (int i = 0; i < s.bk; ++i) {
            const T b_value = bs[i][tile_col];  // one shared load, kept for 8 FMAs
            for (int r = 0; r < s.tm; ++r) sums[r] += as[tile_row + r][i] * b_value;
        }
        // Without this barrier a fast thread could overwrite As or Bs with the next step's
        // tiles while a slower thread still reads this step's.
        __syncthreads();
    }
    const int row = ladder_row(s, blockIdx.y, thread), col = ladder_col(s, blockIdx.x, thread);
    for (int r = 0; r < s.tm; ++r)
        if (inside(row + r, col, m, n)) c[row_major(row + r, col, n)] = sums[r];
}

}  // namespace

const void* regtile_1d_handle(const model::KernelConfig&, const model::Problem& problem) {
    return kernel_handle(problem, [&](auto zero) {
        using T = decltype(zero);
        return pick_kernel<T>(&regtile_1d_kernel<T, false>, &regtile_1d_kernel<T, true>, problem);
    });
}

template <typename T>
cudaError_t launch_regtile_1d(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::RegTile1d) return cudaErrorInvalidValue;
    return launch_planned<T>(&regtile_1d_kernel<T, false>, &regtile_1d_kernel<T, true>, config, problem, operands,
                             stream);
}

TS_INSTANTIATE_LAUNCHER(launch_regtile_1d)

}  // namespace ts::kernels
