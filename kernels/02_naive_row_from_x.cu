// Teaches: why the mapping of threadIdx.x matters; a warp that walks down a column of C cannot coalesce.
// Changed from 01_naive.cu: threadIdx.x picks the row and threadIdx.y the column, the roles swapped.
// Traffic: ts::model::count_traffic with KernelKind::NaiveRowFromX predicts it (the same element count as naive).
#include "kernels/launchers.hpp"

#include "model/index_math.hpp"
#include "model/launch_geometry.hpp"

namespace ts::kernels {

namespace {

template <typename T>
__global__ void naive_row_from_x_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    // threadIdx.x walks the rows of C: a warp's 32 threads read A at addresses K elements
    // apart and write C at addresses N apart, so every access is its own memory transaction.
    const int row = row_from_x_row(blockIdx.x, blockDim.x, threadIdx.x);
    const int col = row_from_x_col(blockIdx.y, blockDim.y, threadIdx.y);
    if (!inside(row, col, m, n)) return;  // ghost thread: no cell, no store

    a += static_cast<std::int64_t>(blockIdx.z) * m * k;
    b += static_cast<std::int64_t>(blockIdx.z) * k * n;
    c += static_cast<std::int64_t>(blockIdx.z) * m * n;

    T sum = 0;
    for (int i = 0; i < k; ++i) sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];
    c[row_major(row, col, n)] = sum;
}

}  // namespace

template <typename T>
cudaError_t launch_naive_row_from_x(const model::KernelConfig& config, const model::Problem& problem,
                                    Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::NaiveRowFromX) return cudaErrorInvalidValue;
    // plan_launch already puts M on the grid's x dimension for this kernel.
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y), static_cast<unsigned>(g.grid.z));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    naive_row_from_x_kernel<T><<<grid, block, 0, stream>>>(operands.a, operands.b, operands.c,
                                                            static_cast<int>(problem.m), static_cast<int>(problem.n),
                                                            static_cast<int>(problem.k));
    return cudaGetLastError();
}

template cudaError_t launch_naive_row_from_x<float>(const model::KernelConfig&, const model::Problem&,
                                                    Operands<float>, cudaStream_t);

}  // namespace ts::kernels
