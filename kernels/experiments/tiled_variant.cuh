// tiled_variant.cuh — what the broken variants of 05_tiled.cu share: their launch. Each
// variant is compiled for T = 8, 16 and 32 only (the experiments' tiles,
// model::check_experiment_case), in float, for one matrix.
#pragma once

#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

// Launches a variant's kernel for config.tile (null: no such tile) on the grid and block of
// model::plan_launch, as launch_tiled does for the real kernel.
inline cudaError_t launch_tiled_variant(MatmulKernel<float> kernel, const model::KernelConfig& config,
                                        const model::Problem& problem, Operands<float> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::Tiled || problem.batch != 1 || problem.dtype != model::Dtype::Float32)
        return cudaErrorInvalidValue;
    if (kernel == nullptr) return cudaErrorInvalidConfiguration;
    return launch_on_plan<float>(kernel, config, problem, operands, stream);
}

}  // namespace ts::kernels
