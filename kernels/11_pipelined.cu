// 11 pipelined: 10's block and warp tiles (kPipelinedShape: 128×128, warp tiles 64×64, 8×4
// ×4 per thread) with four K steps of 8 in shared memory and asynchronous copies. What it teaches and
// what changed from 10_warptile.cu: see 11_pipelined.cuh, which 12_tuned.cu shares.
// Traffic: count_ladder with kPipelinedShape: the same loads as 10; what changes is when
// they happen, not how many.
#include "kernels/11_pipelined.cuh"

namespace ts::kernels {

namespace {
constexpr FloatRungKernels kKernels = pipelined_kernels<ShapeOf<model::kPipelinedShape>>();
}

const void* pipelined_handle(const model::KernelConfig&, const model::Problem& problem) {
    return float_rung_handle(kKernels, problem, pipelined_rows_aligned);
}

cudaError_t launch_pipelined(const model::KernelConfig& config, const model::Problem& problem,
                             Operands<float> operands, cudaStream_t stream) {
    return launch_float_rung(kKernels, model::KernelKind::Pipelined, config, problem, operands, stream,
                             pipelined_rows_aligned);
}

}  // namespace ts::kernels
