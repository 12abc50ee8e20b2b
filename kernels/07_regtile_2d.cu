// Teaches: register tiles in two dimensions. Each thread computes an 8×8 tile of C as outer
// products: per k it reads 8 values of As and 8 of Bs into registers and does 64 FMAs with
// them, so shared memory is read 16 times per 64 FMAs (4 FMAs per load; 06 managed 8 per 9).
// Changed from 06_regtile_1d.cu: 256 threads own a 128×128 tile (each thread 8×8 cells, not
// 8×1); each thread loads 4 elements of A's 128×8 tile and 4 of B's 8×128 tile per step.
// Traffic: ts::model::count_ladder with kRegTile2dShape: A read ceil(N/128) times, B
// ceil(M/128) times: half of 06's global loads.
#include "kernels/common/ladder_common.cuh"

namespace ts::kernels {

namespace {

template <typename T, bool Batched>
__global__ void __launch_bounds__(model::kRegTile2dShape.threads())
    regtile_2d_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    constexpr LadderShape s = kRegTile2dShape;
    __shared__ T as[s.bm][s.bk];
    __shared__ T bs[s.bk][s.bn];
    select_batch<Batched>(a, b, c, m, n, k);

    const int thread = threadIdx.x;
    const int block_row = blockIdx.y * s.bm, block_col = blockIdx.x * s.bn;
    const int tile_row = ladder_tile_row(s, thread);
    const int tile_col = ladder_tile_col(s, thread);

    T sums[s.tm][s.tn] = {};
    T a_column[s.tm];
    T b_row[s.tn];
    for (int step = 0; step < ladder_steps(s, k); ++step) {
        load_ladder_tiles<T, s>(a, b, as, bs, m, n, k, block_row, block_col, step);
        // Without this barrier a thread could read a slot of As or Bs that another thread
        // has not written yet.
        __syncthreads();
        for (int i = 0; i < s.bk; ++i) {
            for (int r = 0; r < s.tm; ++r) a_column[r] = as[tile_row + r][i];
            for (int j = 0; j < s.tn; ++j) b_row[j] = bs[i][tile_col + j];
            // The outer product: 64 FMAs from 16 registers.
            for (int r = 0; r < s.tm; ++r)
                for (int j = 0; j < s.tn; ++j) sums[r][j] += a_column[r] * b_row[j];
        }
        // Without this barrier a fast thread could overwrite As or Bs with the next step's
        // tiles while a slower thread still reads this step's.
        __syncthreads();
    }
    const int row = ladder_row(s, blockIdx.y, thread), col = ladder_col(s, blockIdx.x, thread);
    for (int r = 0; r < s.tm; ++r)
        for (int j = 0; j < s.tn; ++j)
            if (inside(row + r, col + j, m, n)) c[row_major(row + r, col + j, n)] = sums[r][j];
}

}  // namespace

const void* regtile_2d_handle(const model::KernelConfig&, const model::Problem& problem) {
    return kernel_handle(problem, [&](auto zero) {
        using T = decltype(zero);
        return pick_kernel<T>(&regtile_2d_kernel<T, false>, &regtile_2d_kernel<T, true>, problem);
    });
}

template <typename T>
cudaError_t launch_regtile_2d(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::RegTile2d) return cudaErrorInvalidValue;
    return launch_planned<T>(&regtile_2d_kernel<T, false>, &regtile_2d_kernel<T, true>, config, problem, operands,
                             stream);
}

TS_INSTANTIATE_LAUNCHER(launch_regtile_2d)

}  // namespace ts::kernels
