// 20 fp8: 18's persistent kernel with e4m3 inputs and one scale per tensor, applied in the
// epilogue, in model::kFp8Shape (128×256 tiles, four stages of 48 KiB, clusters of two). What it
// teaches and what changed from 18_persistent.cu: see 20_fp8.cuh, which 21_fp8_blocks.cu shares.
#include "kernels/20_fp8.cuh"

namespace ts::kernels {

namespace {
struct Fp8Shape {
    static constexpr model::WgmmaShape value = model::kFp8Shape;
};
constexpr auto kScaling = model::Fp8Scaling::Tensor;
}  // namespace

cudaError_t launch_fp8(const model::KernelConfig&, const model::Problem& problem, ScaledFp8Operands operands,
                       cudaStream_t stream) {
    return fp8::launch<Fp8Shape, kScaling>(problem, operands, stream);
}

TcKernelHandle fp8_handle() { return fp8::handle<Fp8Shape, kScaling>(); }

}  // namespace ts::kernels
