// The device side of one request, without the runner's timing: inputs drawn from the seed,
// the poison that makes an unwritten cell fail, and the check after a real launch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "gpu/cpu_reference.hpp"
#include "gpu/device_operands.hpp"
#include "support/gpu_skip.hpp"
#include "support/problems.hpp"

using namespace ts::gpu;
using namespace ts::model;


namespace {


RunRequest request_of(Dtype dtype, std::uint64_t seed = 5) {
    RunRequest request;
    request.kernel.kind = KernelKind::Tiled;
    request.kernel.tile = 16;
    request.problem = {20, 30, 40, 2, dtype};
    request.seed = seed;
    return request;
}

// The default stream: these tests run one thing at a time.
constexpr cudaStream_t kStream = nullptr;

}  // namespace

class DeviceOperandsTest : public ::testing::TestWithParam<Dtype> {};

TEST_P(DeviceOperandsTest, UnwrittenCellsFailAndAWrittenCPasses) {
    SKIP_WITHOUT_GPU();
    const DeviceOperands operands(request_of(GetParam()), kStream);
    RunResult result;
    // Poisoned and never launched: every cell must fail, named as never written.
    operands.poison(kStream);
    operands.check(result, kStream);
    EXPECT_TRUE(result.checked);
    EXPECT_FALSE(result.check_passed);
    EXPECT_EQ(result.mismatches, 20 * 30 * 2);
    EXPECT_NE(result.check_summary.find("1200 of them still hold the poison"), std::string::npos)
        << result.check_summary;

    operands.launch(kStream);
    operands.check(result, kStream);
    EXPECT_TRUE(result.check_passed) << result.check_summary;

    // Poison again after a good launch: the old answer must not count.
    operands.poison(kStream);
    operands.check(result, kStream);
    EXPECT_FALSE(result.check_passed);
}

INSTANTIATE_TEST_SUITE_P(Types, DeviceOperandsTest, ::testing::Values(Dtype::Int32, Dtype::Float32, Dtype::Float64),
                         [](const ::testing::TestParamInfo<Dtype>& info) {
                             return std::string(dtype_name(info.param));
                         });

TEST(DeviceOperandsInputs, FreshPerSeedAndInt32WithinItsBound) {
    SKIP_WITHOUT_GPU();
    const DeviceOperands first(request_of(Dtype::Int32, 1), kStream);
    const DeviceOperands again(request_of(Dtype::Int32, 1), kStream);
    const DeviceOperands other(request_of(Dtype::Int32, 2), kStream);
    auto same = [](std::span<const std::byte> x, std::span<const std::byte> y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end());
    };
    EXPECT_TRUE(same(first.host_a(), again.host_a()));
    EXPECT_FALSE(same(first.host_a(), other.host_a()));
    EXPECT_FALSE(same(first.host_b(), other.host_b()));

    // A is 2 × 20 × 40 int32; K = 40 allows |a| up to int32_input_bound(40) = 5181.
    const std::span<const std::byte> bytes = first.host_a();
    ASSERT_EQ(bytes.size(), 2u * 20 * 40 * sizeof(std::int32_t));
    std::vector<std::int32_t> a(bytes.size() / sizeof(std::int32_t));
    std::memcpy(a.data(), bytes.data(), bytes.size());
    const std::int32_t bound = int32_input_bound(40);
    EXPECT_EQ(bound, 5181);
    EXPECT_LE(*std::max_element(a.begin(), a.end()), bound);
    EXPECT_GE(*std::min_element(a.begin(), a.end()), -bound);
    EXPECT_GT(*std::max_element(a.begin(), a.end()), bound / 2) << "the range is used, not just small values";
    EXPECT_LT(*std::min_element(a.begin(), a.end()), -bound / 2);
    EXPECT_EQ(first.c_bytes(), 2u * 20 * 30 * sizeof(std::int32_t));
}

// Above kCpuReferenceLimit floats are checked against cuBLAS in FP64: that check must fail
// an unwritten C too, not only the CPU one.
TEST(DeviceOperandsCublasReference, UnwrittenCellsFail) {
    SKIP_WITHOUT_GPU();
    RunRequest request = request_of(Dtype::Float32);
    request.problem = {2111, 2143, 2087, 1, Dtype::Float32};
    ASSERT_GT(request.problem.m * request.problem.n * request.problem.k, kCpuReferenceLimit);
    const DeviceOperands operands(request, kStream);
    RunResult result;
    operands.poison(kStream);
    operands.check(result, kStream);
    if (result.check_summary.find("cuBLAS in FP64") == std::string::npos)
        GTEST_SKIP() << "cuBLAS is not loaded here, so the CPU checked: " << result.check_summary;
    EXPECT_FALSE(result.check_passed);
    EXPECT_EQ(result.mismatches, 2111 * 2143);
    EXPECT_NE(result.check_summary.find("never written"), std::string::npos) << result.check_summary;
}
