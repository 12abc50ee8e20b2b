// launch_common.cuh — what every kernel file shares: the batch offset of bmm, and a
// launcher that picks the plain (mm) or batched (bmm) instantiation of a kernel.
//
// Why two instantiations: moving the pointers to block z's matrices, even by zero, changed
// how nvcc scheduled the naive kernel's loads. On an H200 at 4096³ float the textbook
// kernel took 22.2 ms and the same kernel with the batch offset 49.0 ms (.exp experiment
// in the closing note of the measurement issue). So the mm form carries no batch code at
// all, and only bmm pays for blockIdx.z.
#pragma once

#include <cuda_runtime.h>

#include "kernels/launchers.hpp"
#include "model/index_math.hpp"
#include "model/launch_geometry.hpp"

namespace ts::kernels {

// Batched (bmm): block z of the grid multiplies matrix z of each stack.
template <bool Batched, typename T>
__device__ __forceinline__ void select_batch(const T*& a, const T*& b, T*& c, int m, int n, int k) {
    if constexpr (Batched) {
        a += model::batch_offset(blockIdx.z, m, k);
        b += model::batch_offset(blockIdx.z, k, n);
        c += model::batch_offset(blockIdx.z, m, n);
    }
}

template <typename T>
using MatmulKernel = void (*)(const T*, const T*, T*, int, int, int);

// Launches `plain` for one matrix product or `batched` for a stack, on the grid and block
// that ts::model::plan_launch gives (the numbers the app draws), and returns the launch's
// error so a rejected configuration reaches the caller.
template <typename T>
cudaError_t launch_planned(MatmulKernel<T> plain, MatmulKernel<T> batched, const model::KernelConfig& config,
                           const model::Problem& problem, Operands<T> operands, cudaStream_t stream) {
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y), static_cast<unsigned>(g.grid.z));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    const MatmulKernel<T> kernel = problem.batch > 1 ? batched : plain;
    kernel<<<grid, block, 0, stream>>>(operands.a, operands.b, operands.c, static_cast<int>(problem.m),
                                       static_cast<int>(problem.n), static_cast<int>(problem.k));
    return cudaGetLastError();
}

}  // namespace ts::kernels
