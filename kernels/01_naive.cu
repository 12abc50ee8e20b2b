// Teaches: one thread per cell of C, each reading a whole row of A and column of B from global memory.
// Changed from the previous kernel: nothing; this is the starting point.
// Traffic: ts::model::count_traffic with KernelKind::Naive predicts it (2·M·N·K loads per batch).
#include "kernels/launchers.hpp"

#include "model/index_math.hpp"
#include "model/launch_geometry.hpp"

namespace ts::kernels {

namespace {

template <typename T>
__global__ void naive_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    // threadIdx.x walks the columns of C: a warp's 32 threads read 32 neighbouring
    // elements of B and write 32 neighbouring elements of C, so those accesses coalesce.
    const int row = naive_row(blockIdx.y, blockDim.y, threadIdx.y);
    const int col = naive_col(blockIdx.x, blockDim.x, threadIdx.x);
    // The grid is rounded up to whole blocks; a ghost thread has no cell and stores nothing.
    if (!inside(row, col, m, n)) return;

    a += static_cast<std::int64_t>(blockIdx.z) * m * k;
    b += static_cast<std::int64_t>(blockIdx.z) * k * n;
    c += static_cast<std::int64_t>(blockIdx.z) * m * n;

    T sum = 0;
    for (int i = 0; i < k; ++i) sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];
    c[row_major(row, col, n)] = sum;
}

}  // namespace

template <typename T>
cudaError_t launch_naive(const model::KernelConfig& config, const model::Problem& problem,
                         Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::Naive) return cudaErrorInvalidValue;
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y), static_cast<unsigned>(g.grid.z));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    naive_kernel<T><<<grid, block, 0, stream>>>(operands.a, operands.b, operands.c, static_cast<int>(problem.m),
                                                 static_cast<int>(problem.n), static_cast<int>(problem.k));
    return cudaGetLastError();
}

template cudaError_t launch_naive<float>(const model::KernelConfig&, const model::Problem&, Operands<float>,
                                         cudaStream_t);

cudaError_t kernel_image_status() {
    // Asking for a kernel's attributes loads its code for the current device, which fails
    // exactly when a launch would fail for want of a matching architecture.
    cudaFuncAttributes attributes{};
    return cudaFuncGetAttributes(&attributes, naive_kernel<float>);
}

}  // namespace ts::kernels
