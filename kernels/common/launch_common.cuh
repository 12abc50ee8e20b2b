// launch_common.cuh — what every kernel file shares: the batch offset of bmm, and a
// launcher that picks the plain (mm) or batched (bmm) instantiation of a kernel.
//
// Why two instantiations: moving the pointers to block z's matrices, even by zero, changes
// how nvcc schedules the naive kernel's loads, and the naive kernel with the batch offset
// runs at less than half the speed of the textbook one (the measurement is in
// docs/notes/kernels-common.md). So the mm form carries no batch code at all, and only bmm
// pays for blockIdx.z.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/common/launchers.hpp"
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

// The instantiation a launch of `problem` runs: batched (bmm) for a stack, plain for one
// product. The launch and the attribute queries below both pick with this.
template <typename T>
MatmulKernel<T> pick_kernel(MatmulKernel<T> plain, MatmulKernel<T> batched, const model::Problem& problem) {
    return problem.batch > 1 ? batched : plain;
}

// The dynamic shared memory a launch of `config` takes: the model's plan for the rungs that
// hold their stages in it (model::uses_dynamic_shared), none for the others.
inline int dynamic_shared_bytes(const model::KernelConfig& config, const model::LaunchGeometry& g) {
    return model::uses_dynamic_shared(config.kind) ? g.shared_bytes : 0;
}

// A kernel may use more than 48 KiB of dynamic shared memory only once it is allowed to;
// the launch and the occupancy query (kernel_attributes.cu) both need that first.
inline cudaError_t allow_dynamic_shared(const void* kernel, int bytes) {
    if (bytes <= 48 * 1024) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

// Launches `kernel` on the grid and block that ts::model::plan_launch gives (the numbers
// the app draws), with the shared memory the plan gives where it is dynamic, and returns the
// launch's error so a rejected configuration reaches the caller.
template <typename T>
cudaError_t launch_on_plan(MatmulKernel<T> kernel, const model::KernelConfig& config, const model::Problem& problem,
                           Operands<T> operands, cudaStream_t stream) {
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const int shared = dynamic_shared_bytes(config, g);
    if (const cudaError_t error = allow_dynamic_shared(reinterpret_cast<const void*>(kernel), shared);
        error != cudaSuccess)
        return error;
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y), static_cast<unsigned>(g.grid.z));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    kernel<<<grid, block, shared, stream>>>(operands.a, operands.b, operands.c, static_cast<int>(problem.m),
                                            static_cast<int>(problem.n), static_cast<int>(problem.k));
    return cudaGetLastError();
}

// Launches `plain` for one matrix product or `batched` for a stack (launch_on_plan).
template <typename T>
cudaError_t launch_planned(MatmulKernel<T> plain, MatmulKernel<T> batched, const model::KernelConfig& config,
                           const model::Problem& problem, Operands<T> operands, cudaStream_t stream) {
    return launch_on_plan(pick_kernel(plain, batched, problem), config, problem, operands, stream);
}

// The host-side handle of a kernel, as cudaFuncGetAttributes and the occupancy API take it:
// `for_type(T{})` returns the kernel for element type T, called with the problem's type.
template <typename ForType>
const void* kernel_handle(const model::Problem& problem, ForType for_type) {
    switch (problem.dtype) {
        case model::Dtype::Int32: return reinterpret_cast<const void*>(for_type(std::int32_t{}));
        case model::Dtype::Float32: return reinterpret_cast<const void*>(for_type(float{}));
        case model::Dtype::Float64: return reinterpret_cast<const void*>(for_type(double{}));
    }
    return nullptr;
}

// Defined next to each kernel, for kernel_attributes (kernel_attributes.cu): the handle of
// the kernel that kernel's launcher would run; nullptr for a tile outside 1..32.
const void* naive_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* naive_row_from_x_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* row_per_thread_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* column_per_thread_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* tiled_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* regtile_1d_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* regtile_2d_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* vectorized_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* conflict_free_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* warptile_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* pipelined_handle(const model::KernelConfig& config, const model::Problem& problem);
const void* tuned_handle(const model::KernelConfig& config, const model::Problem& problem);

// The tensor-core rungs' kernels carry their own block shape (the model's MmaShape or
// WgmmaShape) rather than plan_launch's: the handle comes with its threads and dynamic shared
// memory. A kernel of null: no such instantiation (a type other than BF16 or FP16).
struct TcKernelHandle {
    const void* kernel = nullptr;
    int threads = 0;
    int dynamic_shared = 0;
};
TcKernelHandle wmma_handle(const model::Problem& problem);
TcKernelHandle mma_handle(const model::Problem& problem);
TcKernelHandle mma_async_handle(const model::Problem& problem);
TcKernelHandle wgmma_handle(const model::Problem& problem);
TcKernelHandle warp_specialized_handle(const model::Problem& problem);
TcKernelHandle persistent_handle(const model::Problem& problem);
TcKernelHandle tc_tuned_handle(const model::KernelConfig& config, const model::Problem& problem);
TcKernelHandle fp8_handle();
TcKernelHandle fp8_blocks_handle();
// hopper_launch.cu: why this GPU cannot run sm_90a code, or null.
const char* sm90a_unavailable();

}  // namespace ts::kernels
