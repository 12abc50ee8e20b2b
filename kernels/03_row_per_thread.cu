// Teaches: giving each thread a whole row of C (the PMPP exercise): far fewer threads, each doing N dot products in turn.
// Changed from 02_naive_row_from_x.cu: blocks are 1-D and a thread loops over every column of its row instead of owning one cell.
// Traffic: ts::model::count_traffic with KernelKind::RowPerThread predicts it (the naive 2·M·N·K loads, in another order).
#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

namespace {

template <typename T, bool Batched>
__global__ void row_per_thread_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    // Only M threads have work, so a small matrix leaves most of the GPU idle. A warp holds
    // 32 neighbouring rows: its reads of A lie K elements apart (uncoalesced), its reads of
    // B are one address for all 32 (a broadcast), its writes of C lie N apart.
    const int row = row_per_thread_row(blockIdx.x, blockDim.x, threadIdx.x);
    if (row >= m) return;  // ghost thread: the grid rounds M up to whole blocks

    select_batch<Batched>(a, b, c, m, n, k);

    for (int col = 0; col < n; ++col) {
        T sum = 0;
        for (int i = 0; i < k; ++i) sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];
        c[row_major(row, col, n)] = sum;
    }
}

}  // namespace

const void* row_per_thread_handle(const model::KernelConfig&, const model::Problem& problem) {
    return kernel_handle(problem, [&](auto zero) {
        using T = decltype(zero);
        return pick_kernel<T>(row_per_thread_kernel<T, false>, row_per_thread_kernel<T, true>, problem);
    });
}

template <typename T>
cudaError_t launch_row_per_thread(const model::KernelConfig& config, const model::Problem& problem,
                                  Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::RowPerThread) return cudaErrorInvalidValue;
    return launch_planned<T>(row_per_thread_kernel<T, false>, row_per_thread_kernel<T, true>, config, problem, operands,
                             stream);
}

template cudaError_t launch_row_per_thread<std::int32_t>(const model::KernelConfig&, const model::Problem&,
                                                         Operands<std::int32_t>, cudaStream_t);
template cudaError_t launch_row_per_thread<float>(const model::KernelConfig&, const model::Problem&,
                                                  Operands<float>, cudaStream_t);
template cudaError_t launch_row_per_thread<double>(const model::KernelConfig&, const model::Problem&,
                                                   Operands<double>, cudaStream_t);

}  // namespace ts::kernels
