// Teaches: move four floats per instruction. Global loads of A and B, shared loads of As and
// Bs and the stores of C become 128-bit (float4), so the kernel issues a quarter of the load
// instructions for the same bytes; the memory system serves 16 bytes per thread per request.
// Changed from 07_regtile_2d.cu: same 128×128 tiles, K step 8 and 8×8 register tiles, but
// - each thread loads one float4 of A's 128×8 tile and one of B's 8×128 tile per step;
// - As is stored transposed (k-major, 8 rows of 128): a thread's 8 values of one column of
//   the A tile then sit side by side, so it reads them with two float4 loads instead of
//   eight scalar ones (Bs already had its 8 values in a row);
// - the body (ladder_vector.cuh, shared with 09 and 10) is float only, and needs rows that
//   start on 16 bytes for the 128-bit path: K and N multiples of 4; other sizes run the same
//   kernel with 32-bit loads (the "not aligned" form).
// What it does not fix: in a 128-bit access the eight threads of a quarter-warp each read
// 16 bytes of Bs 32 bytes apart (their 8 columns are contiguous), so each access takes two
// shared-memory wavefronts, and writing a float4 of A down a column of As makes two threads
// of a warp meet in one bank. 09 removes both.
// Traffic: count_ladder with kVectorizedShape: the same global loads as 07, shared loads in
// float4s: (8 + 8) / 4 = 4 instructions per k per thread instead of 16.
#include "kernels/common/ladder_vector.cuh"

namespace ts::kernels {

namespace {
constexpr FloatRungKernels kKernels = vector_ladder_kernels<ShapeOf<model::kVectorizedShape>>();
}

const void* vectorized_handle(const model::KernelConfig&, const model::Problem& problem) {
    return float_rung_handle(kKernels, problem);
}

cudaError_t launch_vectorized(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<float> operands, cudaStream_t stream) {
    return launch_float_rung(kKernels, model::KernelKind::Vectorized, config, problem, operands, stream);
}

}  // namespace ts::kernels
