// Teaches: one thread per cell of C, each reading a whole row of A and column of B from global memory.
// Changed from the previous kernel: nothing; this is the starting point.
// Traffic: ts::model::count_traffic with KernelKind::Naive predicts it (2·M·N·K loads per batch).
#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

namespace {

template <typename T, bool Batched>
__global__ void naive_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    // threadIdx.x walks the columns of C: a warp's 32 threads read 32 neighbouring
    // elements of B and write 32 neighbouring elements of C, so those accesses coalesce.
    const int row = naive_row(blockIdx.y, blockDim.y, threadIdx.y);
    const int col = naive_col(blockIdx.x, blockDim.x, threadIdx.x);
    // The grid is rounded up to whole blocks; a ghost thread has no cell and stores nothing.
    if (!inside(row, col, m, n)) return;

    select_batch<Batched>(a, b, c, m, n, k);

    T sum = 0;
    for (int i = 0; i < k; ++i) sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];
    c[row_major(row, col, n)] = sum;
}

}  // namespace

const void* naive_handle(const model::KernelConfig&, const model::Problem& problem) {
    return kernel_handle(problem, [&](auto zero) {
        using T = decltype(zero);
        return pick_kernel<T>(naive_kernel<T, false>, naive_kernel<T, true>, problem);
    });
}

template <typename T>
cudaError_t launch_naive(const model::KernelConfig& config, const model::Problem& problem,
                         Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::Naive) return cudaErrorInvalidValue;
    return launch_planned<T>(naive_kernel<T, false>, naive_kernel<T, true>, config, problem, operands,
                             stream);
}

template cudaError_t launch_naive<std::int32_t>(const model::KernelConfig&, const model::Problem&,
                                                Operands<std::int32_t>, cudaStream_t);
template cudaError_t launch_naive<float>(const model::KernelConfig&, const model::Problem&, Operands<float>,
                                         cudaStream_t);
template cudaError_t launch_naive<double>(const model::KernelConfig&, const model::Problem&, Operands<double>,
                                          cudaStream_t);

cudaError_t kernel_image_status() {
    // Asking for a kernel's attributes loads its code for the current device, which fails
    // exactly when a launch would fail for want of a matching architecture.
    cudaFuncAttributes attributes{};
    return cudaFuncGetAttributes(&attributes, naive_kernel<float, false>);
}

}  // namespace ts::kernels
