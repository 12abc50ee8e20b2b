// Teaches: a level between the block and the thread. The block's 128×128 tile is split into
// four 64×64 warp tiles, one per warp, and each warp's 32 threads tile theirs in four
// 64×16 sub-tiles: a thread owns an 8×4 tile in each sub-tile (128 cells). A warp now reads
// only its own 64 rows of As and 64 columns of Bs, so the registers of a thread hold values
// its neighbours also use from the same few shared-memory lines, and a thread's 6 float4
// reads of shared memory per k (24 floats) feed 128 FMAs.
// Changed from 09_conflict_free.cu (only the shape, kWarptileShape):
// - 128 threads (4 warps) instead of 256, each owning 128 cells instead of 64;
// - K step 16 instead of 8: with half the threads each loads 4 float4 of A and 4 of B per
//   step, and the two barriers of a step are paid for over twice the work;
// - a warp's lanes sit 4 across and 8 down within each 64×16 sub-tile, so a quarter-warp
//   reads 2 rows of As (broadcast) and 64 contiguous bytes of Bs: no bank conflicts when
//   reading. Writing As still meets two-way conflicts (a row of A's 128×16 tile is four
//   float4s, and the padding of 4 maps columns 0 and 8 to one bank), but that is one
//   write per slot per step against 16 reads.
// Traffic: count_ladder with kWarptileShape: the global loads of 08 and 09 (same block
// tile); per k a thread reads 8 + 16 floats of shared memory (6 float4) for 128 FMAs, 5.3
// FMAs per float where 09 had 4.
#include "kernels/common/ladder_vector.cuh"

namespace ts::kernels {

namespace {
constexpr FloatRungKernels kKernels = vector_ladder_kernels<ShapeOf<model::kWarptileShape>>();
}

const void* warptile_handle(const model::KernelConfig&, const model::Problem& problem) {
    return float_rung_handle(kKernels, problem);
}

cudaError_t launch_warptile(const model::KernelConfig& config, const model::Problem& problem,
                            Operands<float> operands, cudaStream_t stream) {
    return launch_float_rung(kKernels, model::KernelKind::Warptile, config, problem, operands, stream);
}

}  // namespace ts::kernels
