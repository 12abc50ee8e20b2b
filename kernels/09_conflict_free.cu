// Teaches: shared-memory bank conflicts, and removing them. Shared memory has 32 banks of
// 4 bytes; a 128-bit access is served a quarter-warp (8 threads, 128 bytes) at a time, and
// takes one wavefront only if those 8 threads read 8 different 16-byte pieces of one
// 128-byte line (or the same piece). 08 broke that in two places:
// - reading Bs: a thread's 8 columns were contiguous, so the 8 threads of a quarter-warp
//   read 16 bytes each at 32-byte spacing, 256 bytes: two wavefronts per access;
// - writing As: a float4 of A goes down a column of the transposed As; in a warp the two
//   threads that loaded the same row of A at columns 0 and 4 wrote slots 4·128 floats apart,
//   the same bank.
// Changed from 08_vectorized.cu (only the shape, kConflictFreeShape):
// - each thread's 8 columns are split into two halves of 4, 64 columns apart (wn_iter = 2,
//   TN = 4): a quarter-warp now reads 8 neighbouring float4s, 128 contiguous bytes;
// - each row of As is padded by 4 floats (132 instead of 128): the two threads' slots now lie
//   4·132 floats apart, 16 banks away. 4, not 1, keeps every row of As on 16 bytes for the
//   float4 reads.
// What the model says about the cells: a thread still owns 64 cells, as two 8×4 tiles
// (thread_map: cells_of_thread returns both).
// Traffic: count_ladder with kConflictFreeShape: the same loads as 08; the difference is in
// wavefronts per access, which ncu counts as shared-memory bank conflicts.
#include "kernels/common/ladder_vector.cuh"

namespace ts::kernels {

namespace {
constexpr FloatRungKernels kKernels = vector_ladder_kernels<ShapeOf<model::kConflictFreeShape>>();
}

const void* conflict_free_handle(const model::KernelConfig&, const model::Problem& problem) {
    return float_rung_handle(kKernels, problem);
}

cudaError_t launch_conflict_free(const model::KernelConfig& config, const model::Problem& problem,
                                 Operands<float> operands, cudaStream_t stream) {
    return launch_float_rung(kKernels, model::KernelKind::ConflictFree, config, problem, operands, stream);
}

}  // namespace ts::kernels
