// The CPU reference on hand-computed products, against a plain triple loop, and the
// comparison's treatment of tolerance and NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <span>

#include "support/problems.hpp"
#include "gpu/cpu_reference.hpp"
#include "model/fp8_values.hpp"

using namespace ts::gpu;
using ts::model::Problem;

namespace {

using ts::testing_support::make_problem;

// Exact cells of a reference, for a comparison to start from.
Reference exact(std::vector<double> c, std::vector<double> abs_sum) { return {std::move(c), std::move(abs_sum)}; }

}  // namespace

TEST(CpuReference, TwoByTwo) {
    // [1 2] [5 6]   [19 22]
    // [3 4] [7 8] = [43 50]
    const std::vector<float> a = {1, 2, 3, 4};
    const std::vector<float> b = {5, 6, 7, 8};
    const Reference ref = reference_matmul(a, b, make_problem(2, 2, 2));
    EXPECT_EQ(ref.c, (std::vector<double>{19, 22, 43, 50}));
    EXPECT_EQ(ref.abs_sum, (std::vector<double>{19, 22, 43, 50}));
}

TEST(CpuReference, SignsCancelInCButNotInAbsSum) {
    // A is 1×2, B is 2×3: C[0][j] = 1·B[0][j] − 2·B[1][j].
    const std::vector<float> a = {1, -2};
    const std::vector<float> b = {3, -1, 0.5f, 4, 1, 0.25f};
    const Reference ref = reference_matmul(a, b, make_problem(1, 3, 2));
    EXPECT_EQ(ref.c, (std::vector<double>{-5, -3, 0}));
    EXPECT_EQ(ref.abs_sum, (std::vector<double>{11, 3, 1}));
}

TEST(CpuReference, BatchesAreIndependent) {
    // Two batches of 1×1×2: [1 2]·[3 4]ᵀ = 11 and [−1 0.5]·[2 8]ᵀ = 2.
    const std::vector<float> a = {1, 2, -1, 0.5f};
    const std::vector<float> b = {3, 4, 2, 8};
    const Reference ref = reference_matmul(a, b, make_problem(1, 1, 2, 2));
    EXPECT_EQ(ref.c, (std::vector<double>{11, 2}));
    EXPECT_EQ(ref.abs_sum, (std::vector<double>{11, 6}));
}

TEST(CpuReference, MatchesTripleLoopAcrossBlockEdges) {
    // N > 256 and K > 128 cross the reference's cache blocks; M = 19 leaves a partial block
    // of rows; three threads share the rows.
    const Problem p = make_problem(19, 300, 140);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> a(static_cast<std::size_t>(p.m * p.k));
    std::vector<float> b(static_cast<std::size_t>(p.k * p.n));
    for (float& x : a) x = uniform(rng);
    for (float& x : b) x = uniform(rng);

    const Reference ref = reference_matmul(a, b, p, 3);
    for (std::int64_t r = 0; r < p.m; ++r) {
        for (std::int64_t c = 0; c < p.n; ++c) {
            double sum = 0.0;
            double abs_sum = 0.0;
            for (std::int64_t i = 0; i < p.k; ++i) {
                const double term = static_cast<double>(a[r * p.k + i]) * b[i * p.n + c];
                sum += term;
                abs_sum += std::fabs(term);
            }
            ASSERT_NEAR(ref.c[r * p.n + c], sum, 1e-12 * abs_sum) << "C[" << r << "][" << c << "]";
            ASSERT_NEAR(ref.abs_sum[r * p.n + c], abs_sum, 1e-12 * abs_sum) << "C[" << r << "][" << c << "]";
        }
    }
}

TEST(CpuReference, RejectsInputsOfTheWrongSize) {
    const std::vector<float> a(5);
    const std::vector<float> b(4);
    EXPECT_THROW(reference_matmul(a, b, make_problem(2, 2, 2)), std::invalid_argument);
}

TEST(CpuReference, Int32IsExactAndHasNoTolerance) {
    // [ 3 −7] [ 2  1]   [ 6−7·4  3+7·5]   [−22  38]
    // [−1  5] [ 4 −5] = [−2+5·4 −1−5·5] = [ 18 −26]
    const std::vector<std::int32_t> a = {3, -7, -1, 5};
    const std::vector<std::int32_t> b = {2, 1, 4, -5};
    const Reference ref = reference_matmul(a, b, make_problem(2, 2, 2));
    EXPECT_EQ(ref.c, (std::vector<double>{-22, 38, 18, -26}));
    EXPECT_TRUE(ref.abs_sum.empty());
}

TEST(CpuReference, Int32AtTheInputBoundIsExact) {
    // Every product at the largest allowed size, all of one sign: the sum is K·bound², which
    // must come out exactly and fit int32 with room for the poison.
    const std::int64_t k = 1000;
    const std::int32_t bound = int32_input_bound(k);
    const std::vector<std::int32_t> a(k, -bound);
    const std::vector<std::int32_t> b(k, -bound);
    const Reference ref = reference_matmul(a, b, make_problem(1, 1, k));
    const std::int64_t expected = k * bound * bound;
    EXPECT_LE(expected, std::int64_t{1} << 30);
    EXPECT_EQ(ref.c[0], static_cast<double>(expected));
}

TEST(CpuReference, DoubleInputsKeepTheirPrecision) {
    // 1 + 2^-40 is not a float; the double reference must not round it away.
    const double tiny = std::ldexp(1.0, -40);
    const std::vector<double> a = {1.0 + tiny};
    const std::vector<double> b = {1.0};
    const Reference ref = reference_matmul(a, b, make_problem(1, 1, 1));
    EXPECT_EQ(ref.c[0], 1.0 + tiny);
    EXPECT_EQ(ref.abs_sum[0], 1.0 + tiny);
}

TEST(Int32InputBound, KeepsEverySumWithin2To30) {
    for (std::int64_t k : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{1000}, std::int64_t{1024},
                           std::int64_t{1025}, std::int64_t{65537}, std::int64_t{1} << 30, std::int64_t{2000000000}}) {
        const std::int64_t bound = int32_input_bound(k);
        EXPECT_GE(bound, 1) << k;
        if (k <= (std::int64_t{1} << 30)) {
            EXPECT_LE(k * bound * bound, std::int64_t{1} << 30) << k;
            // The largest such bound: one more would break the rule.
            EXPECT_GT(k * (bound + 1) * (bound + 1), std::int64_t{1} << 30) << k;
        }
    }
    EXPECT_EQ(int32_input_bound(1024), 1024);
    EXPECT_EQ(int32_input_bound(1), 32768);
    // The poison lies beyond every correct result.
    EXPECT_LT(kInt32Poison, -(std::int32_t{1} << 30));
    std::int32_t filled = 0;
    std::memset(&filled, kInt32PoisonByte, sizeof filled);
    EXPECT_EQ(filled, kInt32Poison);
}

TEST(Compare, ToleranceScalesWithKAndTheType) {
    EXPECT_DOUBLE_EQ(tolerance_factor(ts::model::Dtype::Float32, 1), 2.0 * std::ldexp(1.0, -24));
    EXPECT_DOUBLE_EQ(tolerance_factor(ts::model::Dtype::Float32, 1024), 1024 * 2.0 * std::ldexp(1.0, -24));
    EXPECT_DOUBLE_EQ(tolerance_factor(ts::model::Dtype::Float64, 1024), 1024 * 2.0 * std::ldexp(1.0, -53));
    EXPECT_EQ(tolerance_factor(ts::model::Dtype::Int32, 1024), 0.0);
}

TEST(Compare, PassesWithinToleranceAndFailsBeyond) {
    const Reference ref = exact({10.0, -4.0, 0.0}, {100.0, 8.0, 0.0});
    // Tolerance factor 0.01: cell 0 may be off by 1, cell 1 by 0.08, cell 2 not at all.
    const std::vector<float> good = {11.0f, -3.93f, 0.0f};
    const Comparison pass = compare(good, ref, 0.01);
    EXPECT_TRUE(pass.passed());
    EXPECT_EQ(pass.first_bad, -1);
    EXPECT_NEAR(pass.max_rel_error, 0.1, 1e-6);  // |11 − 10| / 10

    const std::vector<float> bad = {11.0f, -4.0f, 0.001f};
    const Comparison fail = compare(bad, ref, 0.01);
    EXPECT_FALSE(fail.passed());
    EXPECT_EQ(fail.mismatches, 1);
    EXPECT_EQ(fail.first_bad, 2);
    EXPECT_EQ(fail.non_finite, 0);
}

// check found this on an H200: tc-tuned #2 in FP16, K = 1, a cell of C whose exact value is 716.62
// FP16 subnormal steps (2^-24 each). The kernel stored 717 steps, the nearest FP16: 0.38 of a step
// off, more than 2^-11·|c| allows, within the half step that rounding to a subnormal may cost.
TEST(Compare, A16BitSubnormalMayBeHalfAStepOff) {
    const double step = std::ldexp(1.0, -24);
    const Reference ref = exact({716.62 * step}, {716.62 * step});
    const double factor = tolerance_factor(ts::model::Dtype::Float16, 1);
    const OutputRounding fp16 = output_rounding(ts::model::Dtype::Float16);
    EXPECT_TRUE(compare(std::vector<double>{717 * step}, ref, factor, fp16).passed());
    EXPECT_FALSE(compare(std::vector<double>{717 * step}, ref, factor, {fp16.relative, 0.0}).passed());
    // A step further is not rounding.
    EXPECT_FALSE(compare(std::vector<double>{718 * step}, ref, factor, fp16).passed());
    // BF16's subnormals lie far below any of its tests' values: its half step is 2^-134.
    EXPECT_EQ(output_rounding(ts::model::Dtype::BFloat16).absolute, std::ldexp(1.0, -134));
    EXPECT_EQ(output_rounding(ts::model::Dtype::Float32).absolute, 0.0);
}

TEST(Compare, NanAndInfinityNeverPass) {
    const Reference ref = exact({1.0, 2.0, 3.0, 4.0}, {1.0, 2.0, 3.0, 4.0});
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> got = {1.0f, nan, 3.0f, inf};
    // Even an enormous tolerance does not let NaN or infinity through.
    const Comparison cmp = compare(got, ref, 1e30);
    EXPECT_EQ(cmp.mismatches, 2);
    EXPECT_EQ(cmp.non_finite, 2);
    EXPECT_EQ(cmp.first_bad, 1);
    EXPECT_EQ(cmp.max_rel_error, 0.0);  // the finite cells are exact
}

TEST(Compare, AllBitsSetIsNan) {
    // The runner fills C with 0xFF bytes before each launch; that pattern must be a NaN
    // so an unwritten cell fails.
    float poison = 0.0f;
    std::memset(&poison, 0xFF, sizeof poison);
    const Comparison cmp = compare(std::vector<float>{poison}, exact({0.0}, {0.0}), 1.0);
    EXPECT_FALSE(cmp.passed());
    EXPECT_EQ(cmp.non_finite, 1);
}

TEST(Compare, Int32MustMatchExactlyAndPoisonIsCounted) {
    // A is 2×1, B is 1×1: C = [2; 3]·[5] = [10; 15].
    const std::vector<std::int32_t> a = {2, 3};
    const std::vector<std::int32_t> b = {5};
    const Reference ref = reference_matmul(a, b, make_problem(2, 1, 1));
    ASSERT_EQ(ref.c, (std::vector<double>{10, 15}));
    EXPECT_TRUE(compare(std::vector<std::int32_t>{10, 15}, ref, 0.0).passed());
    // Off by one fails whatever tolerance factor is passed: int32 has none.
    const Comparison off = compare(std::vector<std::int32_t>{10, 16}, ref, 1e9);
    EXPECT_EQ(off.mismatches, 1);
    EXPECT_EQ(off.first_bad, 1);
    EXPECT_EQ(off.poisoned, 0);
    // A cell the kernel never wrote still holds the poison.
    const Comparison unwritten = compare(std::vector<std::int32_t>{kInt32Poison, 15}, ref, 0.0);
    EXPECT_EQ(unwritten.mismatches, 1);
    EXPECT_EQ(unwritten.poisoned, 1);
    EXPECT_EQ(unwritten.first_bad, 0);
}

TEST(Compare, AllBitsSetIsNanForDoubleToo) {
    double poison = 0.0;
    std::memset(&poison, 0xFF, sizeof poison);
    const Comparison cmp = compare(std::vector<double>{poison, 1.0}, exact({0.0, 1.0}, {0.0, 1.0}), 1.0);
    EXPECT_EQ(cmp.mismatches, 1);
    EXPECT_EQ(cmp.poisoned, 1);
    EXPECT_EQ(cmp.non_finite, 1);
}

TEST(Compare, RejectsSizeMismatch) {
    EXPECT_THROW(compare(std::vector<float>(3), exact({1.0}, {1.0}), 1.0), std::invalid_argument);
}

TEST(Compare, Fp8IsHeldToFp32SumsPlusTheScalesAndBf16Out) {
    using ts::model::Dtype;
    // FP32's sums and the scales, plus what the accumulator measured on an H100 drops: 13 fraction
    // bits, over 300 products and 10 wgmmas.
    EXPECT_EQ(tolerance_factor(Dtype::Fp8E4M3, 300),
              (4.0 * 300 + 2.0) * std::ldexp(1.0, -24) + (300.0 + 10.0) * std::ldexp(1.0, -13));
    EXPECT_EQ(output_rounding(Dtype::Fp8E4M3).relative, std::ldexp(1.0, -8)) << "C is BF16";
    EXPECT_EQ(output_rounding(Dtype::Fp8E4M3).absolute, output_rounding(Dtype::BFloat16).absolute);
    EXPECT_EQ(tolerance_rule(Dtype::Fp8E4M3), "((4·K + 2)·2^-24 + (K + ⌈K/32⌉)·2^-13)·Σ|a·b| + 2^-8·|c| + 2^-134");
}

// What an FP8 GEMM does, on the CPU: e4m3 inputs with block scales, each product exact in FP32,
// each 128-long partial sum in FP32, scaled and added in FP32, C rounded to BF16. Within the
// bound everywhere; a cell off by a tenth of Σ|a·b| (past what 13 bits of accumulator lose) is not.
TEST(Compare, AnFp8GemmDoneAsTheGpuDoesItPassesAndAMissingTermFails) {
    using namespace ts::model;
    const Problem p{37, 29, 300, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> a(static_cast<std::size_t>(p.m * p.k)), b(static_cast<std::size_t>(p.n * p.k));
    for (float& x : a) x = uniform(rng);
    for (float& x : b) x = uniform(rng) * 1000.0f;  // a range e4m3 could not hold without its scale
    const Fp8Matrix qa = quantize_fp8(a, p, Fp8Operand::A);
    const Fp8Matrix qb = quantize_fp8(b, p, Fp8Operand::B);
    const std::vector<double> da = dequantize_fp8(qa, p, Fp8Operand::A);
    const std::vector<double> db_nk = dequantize_fp8(qb, p, Fp8Operand::B);
    std::vector<double> db(db_nk.size());  // K×N, as the reference takes B
    for (std::int64_t j = 0; j < p.n; ++j)
        for (std::int64_t kk = 0; kk < p.k; ++kk)
            db[static_cast<std::size_t>(kk * p.n + j)] = db_nk[static_cast<std::size_t>(j * p.k + kk)];
    const Reference ref = reference_matmul(std::span<const double>(da), std::span<const double>(db), p);

    std::vector<double> c(static_cast<std::size_t>(p.m * p.n));
    for (std::int64_t i = 0; i < p.m; ++i)
        for (std::int64_t j = 0; j < p.n; ++j) {
            float sum = 0.0f;
            for (std::int64_t kb = 0; kb < p.k_blocks(); ++kb) {
                float partial = 0.0f;
                for (std::int64_t kk = kb * 128; kk < std::min<std::int64_t>(p.k, kb * 128 + 128); ++kk)
                    partial += static_cast<float>(e4m3_to_double(qa.codes[static_cast<std::size_t>(i * p.k + kk)])) *
                               static_cast<float>(e4m3_to_double(qb.codes[static_cast<std::size_t>(j * p.k + kk)]));
                sum += partial * (fp8_scale_at(qa, p, Fp8Operand::A, i, kb * 128) *
                                  fp8_scale_at(qb, p, Fp8Operand::B, j, kb * 128));
            }
            c[static_cast<std::size_t>(i * p.n + j)] = half_to_double(round_to_half(sum, kBf16Format), kBf16Format);
        }
    const Comparison good = compare(std::span<const double>(c), ref, tolerance_factor(p.dtype, p.k),
                                    output_rounding(p.dtype));
    EXPECT_TRUE(good.passed()) << good.mismatches << " cells out, first " << good.first_bad;

    // C[5][7] off by a tenth of its Σ|a·b|, where the bound allows about 4 %.
    const std::size_t cell = 5 * 29 + 7;
    double sum_abs = 0.0;
    for (std::size_t kk = 0; kk < 300; ++kk) sum_abs += std::fabs(da[5 * 300 + kk] * db[kk * 29 + 7]);
    c[cell] -= 0.1 * sum_abs;
    const Comparison bad = compare(std::span<const double>(c), ref, tolerance_factor(p.dtype, p.k),
                                   output_rounding(p.dtype));
    EXPECT_EQ(bad.mismatches, 1);
    EXPECT_EQ(bad.first_bad, static_cast<std::int64_t>(cell));
}

// The error against FP64 (error_vs_exact) on known matrices: the largest relative error with
// |exact| below 1 counted against 1, and the RMS one as a ratio of Frobenius norms.
TEST(ErrorVsExact, KnownCells) {
    // [1 2] [5 6]   [19 22]
    // [3 4] [7 8] = [43 50]
    const Reference ref =
        reference_matmul(std::span<const double>(std::vector<double>{1, 2, 3, 4}),
                         std::span<const double>(std::vector<double>{5, 6, 7, 8}), make_problem(2, 2, 2));
    const std::vector<double> got = {19.5, 22.0, 43.0, 49.0};
    const ErrorVsExact error = error_vs_exact(std::span<const double>(got), ref.c);
    EXPECT_DOUBLE_EQ(error.max, 0.5 / 19.0);  // 1/50 is smaller
    EXPECT_DOUBLE_EQ(error.rms, std::sqrt((0.25 + 1.0) / (19.0 * 19 + 22 * 22 + 43 * 43 + 50 * 50)));
    // The exact product itself has no error.
    const ErrorVsExact none = error_vs_exact(std::span<const double>(ref.c), ref.c);
    EXPECT_EQ(none.max, 0.0);
    EXPECT_EQ(none.rms, 0.0);
}

TEST(ErrorVsExact, SmallCellsCountAgainstOneAndNonFiniteCellsAreLeftOut) {
    const std::vector<double> exact = {0.25, 2.0, 4.0};
    const std::vector<float> got = {0.5f, std::numeric_limits<float>::quiet_NaN(), 4.0f};
    const ErrorVsExact error = error_vs_exact(std::span<const float>(got), exact);
    EXPECT_DOUBLE_EQ(error.max, 0.25);  // 0.25 off, over max(0.25, 1)
    // The NaN cell counts in neither norm: 0.25 over ‖(0.25, 4)‖.
    EXPECT_DOUBLE_EQ(error.rms, 0.25 / std::sqrt(0.25 * 0.25 + 16.0));
    const std::vector<double> zero = {0.0, 0.0, 0.0};
    EXPECT_EQ(error_vs_exact(std::span<const float>(got), zero).rms, 0.0) << "no norm to divide by";
    EXPECT_THROW(error_vs_exact(std::span<const float>(got), std::vector<double>{1.0}), std::invalid_argument);
}

// What the 16-bit runs report: inputs rounded from FP32 to BF16, multiplied exactly, against the exact
// product of the FP32 values. The rounding of the inputs alone costs about 2^-9 relative per input:
// the RMS error lies well above FP32's and below BF16's unit roundoff times a few.
TEST(ErrorVsExact, RoundingTheInputsToBf16CostsAboutItsUnitRoundoff) {
    const ts::model::Problem p = make_problem(16, 16, 64);
    std::mt19937 random(7);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> a(static_cast<std::size_t>(p.m * p.k)), b(static_cast<std::size_t>(p.k * p.n));
    for (float& x : a) x = value(random);
    for (float& x : b) x = value(random);
    const auto rounded = [](const std::vector<float>& values) {
        std::vector<double> out;
        for (float x : values)
            out.push_back(ts::model::half_to_double(ts::model::round_to_half(x, ts::model::kBf16Format),
                                                    ts::model::kBf16Format));
        return out;
    };
    const Reference exact = reference_matmul(std::span<const float>(a), std::span<const float>(b), p);
    const std::vector<double> a16 = rounded(a), b16 = rounded(b);
    const Reference from_bf16 = reference_matmul(std::span<const double>(a16), std::span<const double>(b16), p);
    const ErrorVsExact error = error_vs_exact(std::span<const double>(from_bf16.c), exact.c);
    EXPECT_GT(error.rms, std::ldexp(1.0, -14));
    EXPECT_LT(error.rms, std::ldexp(1.0, -6));
    EXPECT_GT(error.max, 0.0);
}
