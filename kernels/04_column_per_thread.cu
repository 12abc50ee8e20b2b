// Teaches: the other half of the PMPP exercise: one thread per column of C, whose warps read B and write C coalesced.
// Changed from 03_row_per_thread.cu: a thread owns column blockIdx.x·blockDim.x + threadIdx.x and loops down the rows.
// Traffic: ts::model::count_traffic with KernelKind::ColumnPerThread predicts it (the naive 2·M·N·K loads, in another order).
#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

namespace {

template <typename T, bool Batched>
__global__ void column_per_thread_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    // A warp holds 32 neighbouring columns: its reads of B and writes of C are 32
    // neighbours (coalesced), and its reads of A are one address for all 32 (a broadcast).
    // Still only N threads have work.
    const int col = column_per_thread_col(blockIdx.x, blockDim.x, threadIdx.x);
    if (col >= n) return;  // ghost thread: the grid rounds N up to whole blocks

    select_batch<Batched>(a, b, c, m, n, k);

    for (int row = 0; row < m; ++row) {
        T sum = 0;
        for (int i = 0; i < k; ++i) sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];
        c[row_major(row, col, n)] = sum;
    }
}

}  // namespace

const void* column_per_thread_handle(const model::KernelConfig&, const model::Problem& problem) {
    return kernel_handle(problem, [&](auto zero) {
        using T = decltype(zero);
        return pick_kernel<T>(column_per_thread_kernel<T, false>, column_per_thread_kernel<T, true>, problem);
    });
}

template <typename T>
cudaError_t launch_column_per_thread(const model::KernelConfig& config, const model::Problem& problem,
                                     Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::ColumnPerThread) return cudaErrorInvalidValue;
    return launch_planned<T>(column_per_thread_kernel<T, false>, column_per_thread_kernel<T, true>, config,
                             problem, operands, stream);
}

template cudaError_t launch_column_per_thread<std::int32_t>(const model::KernelConfig&, const model::Problem&,
                                                            Operands<std::int32_t>, cudaStream_t);
template cudaError_t launch_column_per_thread<float>(const model::KernelConfig&, const model::Problem&,
                                                     Operands<float>, cudaStream_t);
template cudaError_t launch_column_per_thread<double>(const model::KernelConfig&, const model::Problem&,
                                                      Operands<double>, cudaStream_t);

}  // namespace ts::kernels
