// Teaches: what As's padding in 09_conflict_free.cu buys, by taking it out. The transposed As
// is BK = 8 rows of BM = 128 floats; a float4 of A goes down one column of it, a slot per row.
// In a warp, the two threads that loaded the same row of A at columns 0 and 4 store to rows
// 0–3 and 4–7 of As at the same column: with rows of 128 floats those slots lie 4·128 floats
// apart, a multiple of 32, so in the same bank, and each such store takes two wavefronts
// where one would do. 09 pads each row to 132 floats, which moves them 16 banks apart.
// Changed from 09_conflict_free.cu: only the shape, model::kUnpaddedConflictFreeShape
// (as_pad = 0 instead of 4); the kernel is the same vector_ladder_kernel. C stays right
// (experiment bank-conflicts).
// Traffic: 09's, load for load; the only difference the runner times is the bank conflicts of
// the stores to As.
#include "kernels/experiments/experiment_launchers.hpp"
#include "kernels/common/ladder_vector.cuh"

namespace ts::kernels {

namespace {
constexpr FloatRungKernels kKernels = vector_ladder_kernels<ShapeOf<model::kUnpaddedConflictFreeShape>>();
}

cudaError_t launch_conflict_free_unpadded(const model::KernelConfig& config, const model::Problem& problem,
                                          Operands<float> operands, cudaStream_t stream) {
    if (problem.batch != 1 || problem.dtype != model::Dtype::Float32) return cudaErrorInvalidValue;
    // The grid is the conflict-free rung's: plan_launch for config (kind ConflictFree), whose
    // tile sizes the unpadded shape shares.
    return launch_float_rung(kKernels, model::KernelKind::ConflictFree, config, problem, operands, stream);
}

}  // namespace ts::kernels
