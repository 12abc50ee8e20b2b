// Teaches: why the mapping of threadIdx.x matters; a warp that walks down a column of C cannot coalesce.
// Changed from 01_naive.cu: threadIdx.x picks the row and threadIdx.y the column, the roles swapped.
// Traffic: ts::model::count_traffic with KernelKind::NaiveRowFromX predicts it (the same element count as naive).
#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

namespace {

template <typename T, bool Batched>
__global__ void naive_row_from_x_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    // threadIdx.x walks the rows of C: a warp's 32 threads read A at addresses K elements
    // apart and write C at addresses N apart, so every access is its own memory transaction.
    const int row = row_from_x_row(blockIdx.x, blockDim.x, threadIdx.x);
    const int col = row_from_x_col(blockIdx.y, blockDim.y, threadIdx.y);
    if (!inside(row, col, m, n)) return;  // ghost thread: no cell, no store

    select_batch<Batched>(a, b, c, m, n, k);

    T sum = 0;
    for (int i = 0; i < k; ++i) sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];
    c[row_major(row, col, n)] = sum;
}

}  // namespace

const void* naive_row_from_x_handle(const model::KernelConfig&, const model::Problem& problem) {
    return kernel_handle(problem, [&](auto zero) {
        using T = decltype(zero);
        return pick_kernel<T>(naive_row_from_x_kernel<T, false>, naive_row_from_x_kernel<T, true>, problem);
    });
}

template <typename T>
cudaError_t launch_naive_row_from_x(const model::KernelConfig& config, const model::Problem& problem,
                                    Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::NaiveRowFromX) return cudaErrorInvalidValue;
    return launch_planned<T>(naive_row_from_x_kernel<T, false>, naive_row_from_x_kernel<T, true>, config,
                             problem, operands, stream);
}

template cudaError_t launch_naive_row_from_x<std::int32_t>(const model::KernelConfig&, const model::Problem&,
                                                           Operands<std::int32_t>, cudaStream_t);
template cudaError_t launch_naive_row_from_x<float>(const model::KernelConfig&, const model::Problem&,
                                                    Operands<float>, cudaStream_t);
template cudaError_t launch_naive_row_from_x<double>(const model::KernelConfig&, const model::Problem&,
                                                     Operands<double>, cudaStream_t);

}  // namespace ts::kernels
