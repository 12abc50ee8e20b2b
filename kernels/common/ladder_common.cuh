// ladder_common.cuh — what the ladder's rungs (06 on) share: copying one K step's tiles of A
// and B into shared memory with the model's strided load order, zeros where a tile hangs
// over the edge of a matrix.
#pragma once

#include "kernels/common/launch_common.cuh"
#include "model/ladder.hpp"

namespace ts::kernels {

// Thread t copies elements t, t + threads, ... of the BM×BK tile of A at (block_row, step·BK)
// into As and of the BK×BN tile of B at (step·BK, block_col) into Bs, row-major, so that
// consecutive threads read consecutive addresses. A slot outside the matrix gets 0, which
// adds nothing to any sum.
template <typename T, model::LadderShape S>
__device__ __forceinline__ void load_ladder_tiles(const T* a, const T* b, T (&as)[S.bm][S.bk], T (&bs)[S.bk][S.bn],
                                                  int m, int n, int k, int block_row, int block_col, int step) {
    using namespace ts::model;
    const int thread = threadIdx.x;
#pragma unroll
    for (int i = 0; i < S.a_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bk), c = ladder_load_col(thread, i, S.threads(), S.bk);
        const int row = block_row + r, col = step * S.bk + c;
        as[r][c] = inside(row, col, m, k) ? a[row_major(row, col, k)] : T(0);
    }
#pragma unroll
    for (int i = 0; i < S.b_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bn), c = ladder_load_col(thread, i, S.threads(), S.bn);
        const int row = step * S.bk + r, col = block_col + c;
        bs[r][c] = inside(row, col, k, n) ? b[row_major(row, col, n)] : T(0);
    }
}

}  // namespace ts::kernels

// Instantiates a launcher template for the three element types.
#define TS_INSTANTIATE_LAUNCHER(name)                                                                        \
    template cudaError_t name<std::int32_t>(const model::KernelConfig&, const model::Problem&,              \
                                            Operands<std::int32_t>, cudaStream_t);                          \
    template cudaError_t name<float>(const model::KernelConfig&, const model::Problem&, Operands<float>,    \
                                     cudaStream_t);                                                         \
    template cudaError_t name<double>(const model::KernelConfig&, const model::Problem&, Operands<double>, \
                                      cudaStream_t);
