// FP8 e4m3 as bits, every one of its 256 codes, and the scales that bring FP32 inputs into its range.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "model/fp8_values.hpp"
#include "model/input_values.hpp"

using namespace ts::model;

namespace {

bool is_nan_code(int code) { return (code & 0x7F) == 0x7F; }

}  // namespace

TEST(E4M3, EveryCodeDecodesAndRoundsBackToItself) {
    int nans = 0;
    for (int code = 0; code < 256; ++code) {
        const double value = e4m3_to_double(static_cast<std::uint8_t>(code));
        if (is_nan_code(code)) {
            EXPECT_TRUE(std::isnan(value)) << code;
            EXPECT_EQ(round_to_e4m3(value) & 0x7F, kE4M3NanCode) << code;
            ++nans;
            continue;
        }
        EXPECT_TRUE(std::isfinite(value)) << code << ": e4m3 has no infinity";
        EXPECT_EQ(round_to_e4m3(value), code) << code << " = " << value;
        EXPECT_EQ(std::signbit(value), code >= 0x80) << code;
    }
    EXPECT_EQ(nans, 2) << "S.1111.111 only";
}

TEST(E4M3, KnownValues) {
    EXPECT_EQ(e4m3_to_double(0x38), 1.0);
    EXPECT_EQ(e4m3_to_double(kE4M3MaxCode), 448.0);
    EXPECT_EQ(e4m3_to_double(0x08), std::ldexp(1.0, -6)) << "the smallest normal";
    EXPECT_EQ(e4m3_to_double(0x01), std::ldexp(1.0, -9)) << "the smallest subnormal";
    EXPECT_EQ(e4m3_to_double(0x07), 7 * std::ldexp(1.0, -9)) << "the largest subnormal";
    EXPECT_EQ(e4m3_to_double(0xB8), -1.0);
    EXPECT_EQ(e4m3_to_double(0x77), 240.0);
    EXPECT_EQ(e4m3_to_double(0x78), 256.0) << "exponent 15 holds finite values in e4m3fn";
}

TEST(E4M3, EveryCodeIsLargerThanTheOneBelow) {
    for (int code = 1; code <= kE4M3MaxCode; ++code)
        EXPECT_GT(e4m3_to_double(static_cast<std::uint8_t>(code)), e4m3_to_double(static_cast<std::uint8_t>(code - 1)))
            << code;
}

TEST(E4M3, RoundsToNearestTiesToEvenBetweenEveryPairOfNeighbours) {
    for (int code = 0; code < kE4M3MaxCode; ++code) {
        const double low = e4m3_to_double(static_cast<std::uint8_t>(code));
        const double high = e4m3_to_double(static_cast<std::uint8_t>(code + 1));
        const double middle = (low + high) / 2;
        const int even = code % 2 == 0 ? code : code + 1;  // the even code has a 0 last fraction bit
        EXPECT_EQ(round_to_e4m3(middle), even) << "halfway between " << low << " and " << high;
        EXPECT_EQ(round_to_e4m3(std::nextafter(middle, low)), code) << middle;
        EXPECT_EQ(round_to_e4m3(std::nextafter(middle, high)), code + 1) << middle;
        EXPECT_EQ(round_to_e4m3(-std::nextafter(middle, high)), (code + 1) | 0x80) << -middle;
    }
}

TEST(E4M3, SaturatesAt448AndKeepsNan) {
    EXPECT_EQ(round_to_e4m3(448.0), kE4M3MaxCode);
    EXPECT_EQ(round_to_e4m3(463.9), kE4M3MaxCode);
    EXPECT_EQ(round_to_e4m3(1e30), kE4M3MaxCode);
    EXPECT_EQ(round_to_e4m3(std::numeric_limits<double>::infinity()), kE4M3MaxCode);
    EXPECT_EQ(round_to_e4m3(-std::numeric_limits<double>::infinity()), kE4M3MaxCode | 0x80);
    EXPECT_EQ(round_to_e4m3(-500.0), kE4M3MaxCode | 0x80);
    EXPECT_EQ(round_to_e4m3(std::nan("")), kE4M3NanCode);
    EXPECT_EQ(round_to_e4m3(std::ldexp(1.0, -11)), 0x00) << "below half the smallest subnormal: zero";
    EXPECT_EQ(round_to_e4m3(-std::ldexp(1.0, -11)), 0x80) << "a negative zero";
    EXPECT_EQ(round_to_e4m3(std::ldexp(1.0, -10)), 0x00) << "exactly half: to the even zero";
    EXPECT_EQ(round_to_e4m3(std::ldexp(1.5, -10)), 0x01);
}

TEST(Fp8Scale, MapsTheLargestValueTo448AndZeroToOne) {
    EXPECT_EQ(fp8_scale_of(448.0f), 1.0f);
    EXPECT_EQ(fp8_scale_of(0.0f), 1.0f) << "an all-zero block stays zero";
    EXPECT_EQ(fp8_scale_of(1.0f), 1.0f / 448.0f);
    const float scale = fp8_scale_of(0.75f);
    EXPECT_EQ(quantize_e4m3(0.75f, scale), kE4M3MaxCode);
    EXPECT_EQ(quantize_e4m3(-0.75f, scale), kE4M3MaxCode | 0x80);
    EXPECT_EQ(quantize_e4m3(0.0f, scale), 0x00);
}

TEST(Fp8Scale, BlockLayoutsAreTheOnesCublasLtReads) {
    // A: column after column of the M × ceil(K/128) grid.
    EXPECT_EQ(a_block_scale_index(0, 0, 257), 0);
    EXPECT_EQ(a_block_scale_index(256, 0, 257), 256);
    EXPECT_EQ(a_block_scale_index(0, 1, 257), 257);
    EXPECT_EQ(a_block_scale_index(5, 2, 257), 2 * 257 + 5);
    // B: row-major over its ceil(N/128) × ceil(K/128) blocks, rows padded to 4 floats.
    const Problem p{257, 255, 300, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    EXPECT_EQ(b_block_scale_index(0, 2, p.b_scale_stride()), 2);
    EXPECT_EQ(b_block_scale_index(1, 0, p.b_scale_stride()), 4);
}

namespace {

std::vector<float> inputs(std::int64_t count, int matrix) {
    std::vector<float> values(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(input_real(9, matrix, i));
    return values;
}

// Every dequantised value is within half a step of e4m3 (2^-4 relative, or half the smallest
// subnormal step times the scale) of its input, and every block's largest value is ±448 exactly.
void expect_close(const std::vector<float>& values, const std::vector<double>& back, const Fp8Matrix& q,
                  const Problem& p, Fp8Operand operand) {
    const std::int64_t rows = operand == Fp8Operand::A ? p.m : p.n;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < p.k; ++c) {
            const auto i = static_cast<std::size_t>(r * p.k + c);
            const double scale = fp8_scale_at(q, p, operand, r, c);
            const double allowed =
                std::max(std::ldexp(std::fabs(static_cast<double>(values[i])), -4), std::ldexp(scale, -10)) * 1.0001;
            ASSERT_LE(std::fabs(back[i] - values[i]), allowed) << "row " << r << ", column " << c;
        }
    int at_max = 0;
    for (std::uint8_t code : q.codes) at_max += (code & 0x7F) == kE4M3MaxCode;
    const auto blocks = std::count_if(q.scales.begin(), q.scales.end(), [](float s) { return s != 0.0f; });  // not padding
    EXPECT_GE(at_max, blocks) << "each block's largest |x| lands on 448";
}

}  // namespace

TEST(Fp8Quantize, PerTensorOneScaleForAll) {
    const Problem p{20, 30, 40, 2, Dtype::Fp8E4M3, Fp8Scaling::Tensor};
    const std::vector<float> a = inputs(p.a_elements() * p.batch, 0);
    const Fp8Matrix q = quantize_fp8(a, p, Fp8Operand::A);
    ASSERT_EQ(q.scales.size(), 1u);
    float amax = 0.0f;
    for (float x : a) amax = std::max(amax, std::fabs(x));
    EXPECT_EQ(q.scales[0], amax / 448.0f);
    const Problem one{20, 30, 40, 1, Dtype::Fp8E4M3, Fp8Scaling::Tensor};
    const std::vector<double> back = dequantize_fp8(q, p, Fp8Operand::A);
    expect_close(std::vector<float>(a.begin(), a.begin() + 800), std::vector<double>(back.begin(), back.begin() + 800),
                 q, one, Fp8Operand::A);
}

TEST(Fp8Quantize, BlocksWithPartialEdges) {
    const Problem p{257, 255, 300, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    const std::vector<float> a = inputs(p.m * p.k, 0);
    const std::vector<float> b = inputs(p.n * p.k, 1);
    const Fp8Matrix qa = quantize_fp8(a, p, Fp8Operand::A);
    const Fp8Matrix qb = quantize_fp8(b, p, Fp8Operand::B);
    ASSERT_EQ(static_cast<std::int64_t>(qa.scales.size()), p.a_scale_count());
    ASSERT_EQ(static_cast<std::int64_t>(qb.scales.size()), p.b_scale_count());
    expect_close(a, dequantize_fp8(qa, p, Fp8Operand::A), qa, p, Fp8Operand::A);
    expect_close(b, dequantize_fp8(qb, p, Fp8Operand::B), qb, p, Fp8Operand::B);
    // Row 3's last K block holds columns 256..299 only.
    float amax = 0.0f;
    for (int c = 256; c < 300; ++c) amax = std::max(amax, std::fabs(a[static_cast<std::size_t>(3 * 300 + c)]));
    EXPECT_EQ(qa.scales[static_cast<std::size_t>(a_block_scale_index(3, 2, p.m))], amax / 448.0f);
    // B's corner block: rows 128..254, columns 256..299.
    amax = 0.0f;
    for (int r = 128; r < 255; ++r)
        for (int c = 256; c < 300; ++c) amax = std::max(amax, std::fabs(b[static_cast<std::size_t>(r * 300 + c)]));
    EXPECT_EQ(qb.scales[static_cast<std::size_t>(b_block_scale_index(1, 2, p.b_scale_stride()))], amax / 448.0f);
    EXPECT_EQ(qb.scales[3], 0.0f) << "the padding of row 0";
    EXPECT_EQ(qb.scales[7], 0.0f) << "the padding of row 1";
}

TEST(Fp8Quantize, AnAllZeroBlockStaysZero) {
    const Problem p{2, 1, 200, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    std::vector<float> a(400, 0.0f);
    a[0] = 1.0f;  // row 0, first K block
    const Fp8Matrix q = quantize_fp8(a, p, Fp8Operand::A);
    EXPECT_EQ(q.scales[static_cast<std::size_t>(a_block_scale_index(1, 0, 2))], 1.0f);
    EXPECT_EQ(q.codes[0], kE4M3MaxCode);
    for (std::size_t i = 1; i < q.codes.size(); ++i) EXPECT_EQ(q.codes[i], 0) << i;
}
