// FP8 on a real device: the GPU's quantisation against the host's, bit for bit, and cuBLASLt's
// FP8 GEMM through the runner, checked, per tensor and block scaled, at sizes 128 divides and
// sizes it does not. Skips without a usable device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <array>
#include <vector>

#include "gpu/cublaslt_library.hpp"
#include "gpu/runner.hpp"
#include "kernels/common/fill_inputs.hpp"
#include "kernels/common/quantize_fp8.hpp"
#include "model/fp8_values.hpp"
#include "support/gpu_skip.hpp"

using namespace ts::gpu;
using namespace ts::model;

namespace {

template <typename T>
struct Device {
    explicit Device(std::int64_t count) : size(count) {
        void* memory = nullptr;
        EXPECT_EQ(cudaMalloc(&memory, static_cast<std::size_t>(count) * sizeof(T)), cudaSuccess);
        data = static_cast<T*>(memory);
    }
    ~Device() { cudaFree(data); }
    std::vector<T> host() const {
        std::vector<T> out(static_cast<std::size_t>(size));
        EXPECT_EQ(cudaMemcpy(out.data(), data, out.size() * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
        return out;
    }
    T* data = nullptr;
    std::int64_t size = 0;
};

RunRequest fp8_request(std::int64_t m, std::int64_t n, std::int64_t k, Fp8Scaling scaling, std::int64_t batch = 1) {
    RunRequest request;
    request.kernel.kind = KernelKind::Cublas;
    request.problem = {m, n, k, batch, Dtype::Fp8E4M3, scaling};
    request.warmup_launches = 1;
    request.timed_launches = 3;
    request.seed = 11;
    return request;
}

}  // namespace

class Fp8Quantise : public ::testing::TestWithParam<Fp8Scaling> {};

// The GPU's codes and scales are the host's (model::quantize_fp8) on the same FP32 inputs, every bit.
TEST_P(Fp8Quantise, TheGpuQuantisesAsTheHostDoes) {
    SKIP_WITHOUT_GPU();
    for (const auto& [m, n, k] : {std::array<std::int64_t, 3>{256, 256, 256}, std::array<std::int64_t, 3>{257, 255, 300}}) {
        const Problem p{m, n, k, 1, Dtype::Fp8E4M3, GetParam()};
        for (const Fp8Operand operand : {Fp8Operand::A, Fp8Operand::B}) {
            const std::int64_t rows = operand == Fp8Operand::A ? m : n;
            const std::int64_t scale_count = operand == Fp8Operand::A ? p.a_scale_count() : p.b_scale_count();
            Device<float> values(rows * k), scales(scale_count);
            Device<std::uint8_t> codes(rows * k);
            Device<unsigned> amax(1);
            ASSERT_EQ(ts::kernels::fill_inputs(values.data, values.size, 11, operand == Fp8Operand::A ? 0 : 1, 0, nullptr),
                      cudaSuccess);
            cudaError_t launched = cudaSuccess;
            if (GetParam() == Fp8Scaling::Tensor)
                launched = ts::kernels::quantize_fp8_per_tensor(values.data, values.size, codes.data, scales.data,
                                                                amax.data, nullptr);
            else if (operand == Fp8Operand::A)
                launched = ts::kernels::quantize_fp8_rows(values.data, rows, k, codes.data, scales.data, nullptr);
            else
                launched = ts::kernels::quantize_fp8_blocks(values.data, rows, k, codes.data, scales.data, nullptr);
            ASSERT_EQ(launched, cudaSuccess);
            ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
            const Fp8Matrix expected = quantize_fp8(values.host(), p, operand);
            EXPECT_EQ(scales.host(), expected.scales) << m << "×" << n << "×" << k;
            EXPECT_EQ(codes.host(), expected.codes) << m << "×" << n << "×" << k;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Scalings, Fp8Quantise, ::testing::Values(Fp8Scaling::Tensor, Fp8Scaling::Block),
                         [](const ::testing::TestParamInfo<Fp8Scaling>& info) {
                             return std::string(fp8_scaling_name(info.param));
                         });

class Fp8Cublas : public ::testing::TestWithParam<Fp8Scaling> {};

// cuBLASLt's FP8 GEMM through the runner: checked against FP64 on the dequantised inputs, the
// quantisation timed, the pipeline's error against FP64 on the FP32 inputs measured. The odd size
// (K not a multiple of 16, M not of 4) may be unsupported, saying so; the others must run.
TEST_P(Fp8Cublas, ChecksPerTensorAndBlockScaled) {
    SKIP_WITHOUT_GPU();
    for (const RunRequest& request : {fp8_request(256, 256, 256, GetParam()), fp8_request(257, 255, 300, GetParam()),
                                      fp8_request(200, 384, 640, GetParam())}) {
        const RunResult result = run_request(request);
        const std::string point = describe_point(request);
        if (!result.ok && result.unsupported) {
            EXPECT_NE(result.error.find("cuBLASLt"), std::string::npos) << point << ": " << result.error;
            EXPECT_EQ(request.problem.m, 257) << point << ": refused where FP8 should run: " << result.error;
            continue;
        }
        ASSERT_TRUE(result.ok) << point << ": " << result.error;
        EXPECT_TRUE(result.checked) << point;
        EXPECT_TRUE(result.check_passed) << point << ": " << result.check_summary;
        EXPECT_GT(result.quantize_ms, 0.0) << point;
        // e4m3 keeps about 2^-4 of each input: C's error against the unquantised product is
        // some percent of the largest cells, far from zero and far from 1.
        EXPECT_GT(result.error_vs_fp64_rms, 1e-4) << point;
        EXPECT_LT(result.error_vs_fp64_rms, 0.1) << point;
        EXPECT_GT(result.error_vs_fp64_max, 0.0) << point;
    }
}

TEST(Fp8Cublas, ABatchPerTensor) {
    SKIP_WITHOUT_GPU();
    const RunResult result = run_request(fp8_request(64, 96, 160, Fp8Scaling::Tensor, 3));
    if (!result.ok && result.unsupported) GTEST_SKIP() << result.error;
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_TRUE(result.check_passed) << result.check_summary;
}

INSTANTIATE_TEST_SUITE_P(Scalings, Fp8Cublas, ::testing::Values(Fp8Scaling::Tensor, Fp8Scaling::Block),
                         [](const ::testing::TestParamInfo<Fp8Scaling>& info) {
                             return std::string(fp8_scaling_name(info.param));
                         });

// Needs the library, not a GPU: block scales with an M that is no multiple of 4 are refused, with
// the reason, before cuBLASLt is asked anything.
TEST(Fp8Cublas, BlockScalesWithMNotAMultipleOf4SayWhy) {
    if (const auto why = cublaslt_unavailable()) GTEST_SKIP() << *why;
    const Problem p{257, 256, 256, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    const std::optional<std::string> why = cublaslt_fp8_unsupported(p);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("M and N multiples of 4 (M = 257, N = 256)"), std::string::npos) << *why;
    EXPECT_NE(cublaslt_fp8_unsupported({4, 4, 4, 1, Dtype::Float32}), std::nullopt) << "fp8 only";
}

// The FP8 rungs through the runner, each with the scales it is written for: checked against FP64
// on the dequantised inputs at sizes the tiles divide and sizes they do not (K not a multiple of
// 16: padded copies; not of 128: a partial last K step and block of scales; one cell; a batch,
// per tensor), and at a size of several rounds of tiles. The pipeline's error against the FP32
// inputs is measured as cuBLASLt's is.
class Fp8Rungs : public ::testing::TestWithParam<KernelKind> {};

TEST_P(Fp8Rungs, CheckAtEdgeSizes) {
    SKIP_WITHOUT_GPU();
    const KernelKind kind = GetParam();
    const Fp8Scaling scaling = *fp8_rung_scaling(kind);
    const std::array<std::int64_t, 4> sizes[] = {{256, 256, 256, 1}, {257, 255, 300, 1}, {200, 384, 640, 1},
                                                 {1, 1, 1, 1},       {129, 17, 4097, 1}, {1000, 1500, 2000, 1},
                                                 {2304, 2048, 1024, 1}, {64, 96, 160, 3}};
    for (const auto& [m, n, k, batch] : sizes) {
        if (batch > 1 && scaling == Fp8Scaling::Block) continue;  // block scales: one matrix (model::validate)
        RunRequest request = fp8_request(m, n, k, scaling, batch);
        request.kernel.kind = kind;
        const RunResult result = run_request(request);
        const std::string point = describe_point(request);
        if (!result.ok && result.unsupported) GTEST_SKIP() << point << ": " << result.error;  // not a Hopper GPU
        ASSERT_TRUE(result.ok) << point << ": " << result.error;
        EXPECT_TRUE(result.checked) << point;
        EXPECT_TRUE(result.check_passed) << point << ": " << result.check_summary;
        if (m * n * k > 1000) {
            EXPECT_GT(result.error_vs_fp64_rms, 1e-4) << point;
            EXPECT_LT(result.error_vs_fp64_rms, 0.1) << point;
        }
    }
}

// The other scaling is refused before anything runs, naming the rung that has it.
TEST_P(Fp8Rungs, TheOtherScalesAreRefusedWithTheRungThatHasThem) {
    const KernelKind kind = GetParam();
    const Fp8Scaling other = *fp8_rung_scaling(kind) == Fp8Scaling::Tensor ? Fp8Scaling::Block : Fp8Scaling::Tensor;
    RunRequest request = fp8_request(256, 256, 256, other);
    request.kernel.kind = kind;
    const RunResult result = run_request(request);
    EXPECT_FALSE(result.ok);
    if (result.error.find("scales") == std::string::npos) GTEST_SKIP() << result.error;  // no GPU: said first
    EXPECT_NE(result.error.find(kind == KernelKind::Fp8 ? "fp8-blocks" : "the fp8 rung"), std::string::npos)
        << result.error;
}

INSTANTIATE_TEST_SUITE_P(Rungs, Fp8Rungs, ::testing::Values(KernelKind::Fp8, KernelKind::Fp8Blocks),
                         [](const ::testing::TestParamInfo<KernelKind>& info) {
                             return info.param == KernelKind::Fp8 ? std::string("Fp8") : std::string("Fp8Blocks");
                         });
