// 21 fp8-blocks: 20's kernel with DeepSeek's block scales: A's per row per 128 of K, B's per
// 128×128 block. Every K step's products are promoted into FP32 sums, times their two scales
// (fp8::promote), so each consumer keeps two sets of accumulators: model::kFp8BlocksShape (128×128
// tiles, six stages of 32 KiB, clusters of two). What it teaches: see 20_fp8.cuh.
#include "kernels/20_fp8.cuh"

namespace ts::kernels {

namespace {
struct Fp8BlocksShape {
    static constexpr model::WgmmaShape value = model::kFp8BlocksShape;
};
constexpr auto kScaling = model::Fp8Scaling::Block;
}  // namespace

cudaError_t launch_fp8_blocks(const model::KernelConfig&, const model::Problem& problem, ScaledFp8Operands operands,
                              cudaStream_t stream) {
    return fp8::launch<Fp8BlocksShape, kScaling>(problem, operands, stream);
}

TcKernelHandle fp8_blocks_handle() { return fp8::handle<Fp8BlocksShape, kScaling>(); }

}  // namespace ts::kernels
