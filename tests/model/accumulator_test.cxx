// The accumulator experiment's model (model/accumulator.hpp): exact element bits, the operand
// images against the descriptor's canonical layout, the probes' design, and the decoder reading back
// what the simulator of an accumulator of f fraction bits gives, for every f and rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "model/accumulator.hpp"

namespace {

using namespace ts::model;

TEST(AccumulatorElements, E4m3BitsByHand) {
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp8E4m3, 1.0), 0x38);
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp8E4m3, 448.0), 0x7E);   // the largest
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp8E4m3, -448.0), 0xFE);
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp8E4m3, std::ldexp(1.0, -9)), 0x01);  // least subnormal
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp8E4m3, 256.0), 0x78);
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp8E4m3, 1.75 * 128), 0x76);
    EXPECT_FALSE(exact_element_bits(AccumulatorInput::Fp8E4m3, 1.0625));    // 4 fraction bits
    EXPECT_FALSE(exact_element_bits(AccumulatorInput::Fp8E4m3, 512.0));     // past 448
    EXPECT_FALSE(exact_element_bits(AccumulatorInput::Fp8E4m3, std::ldexp(1.0, -10)));
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Bf16, 1.0), 0x3F80);
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp16, 1.0), 0x3C00);
    EXPECT_EQ(exact_element_bits(AccumulatorInput::Fp16, std::ldexp(1.0, -24)), 0x0001);
    EXPECT_TRUE(std::isnan(element_value(AccumulatorInput::Fp8E4m3, 0x7F)));
}

TEST(AccumulatorElements, EveryPatternReadsBackToItself) {
    for (AccumulatorInput input : kAccumulatorInputs) {
        const int patterns = input == AccumulatorInput::Fp8E4m3 ? 256 : 65536;
        for (int bits = 0; bits < patterns; ++bits) {
            const double v = element_value(input, static_cast<std::uint16_t>(bits));
            if (!std::isfinite(v)) continue;
            const auto back = exact_element_bits(input, v);
            ASSERT_TRUE(back) << accumulator_input_name(input) << " " << bits;
            EXPECT_EQ(*back, bits) << accumulator_input_name(input) << " " << v;
        }
    }
}

TEST(AccumulatorImages, PlaceEveryElementOnceWhereTheDescriptorReadsIt) {
    for (AccumulatorInput input : kAccumulatorInputs)
        for (int rows : {kProbeRows, kProbeCols})
            for (bool swapped : {false, true}) {
                const int k = wgmma_k_of(input), bytes = element_bytes_of(input);
                std::vector<std::uint16_t> bits(static_cast<std::size_t>(rows) * k);
                for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<std::uint16_t>((i + 1) & (bytes == 1 ? 0xFF : 0xFFFF));
                const SmemDescriptor layout = operand_layout(input, rows);
                const std::vector<std::uint8_t> image = operand_image(input, bits, rows, layout);
                ASSERT_EQ(image.size(), static_cast<std::size_t>(rows) * 32);
                std::set<std::uint32_t> places;
                for (int r = 0; r < rows; ++r)
                    for (int c = 0; c < k; ++c) places.insert(canonical_k_major_offset(layout, r, c, bytes));
                EXPECT_EQ(places.size(), bits.size()) << "two elements share a place";
                // Row 1, column 0 is the 16 bytes after row 0's first core-matrix row; K's second core
                // matrix is one LBO on (the documented layout).
                EXPECT_EQ(image[16], bits[static_cast<std::size_t>(k)] & 0xFF);
                EXPECT_EQ(layout.leading_byte_offset, static_cast<std::uint32_t>(rows * 16));
                EXPECT_EQ(layout.stride_byte_offset, 128u);
                EXPECT_EQ(image[static_cast<std::size_t>(rows) * 16], bits[static_cast<std::size_t>(16 / bytes)] & 0xFF);
                if (rows > 8) {  // row 8: the next group of 8 rows, one SBO on
                    EXPECT_EQ(image[128], bits[static_cast<std::size_t>(8 * k)] & 0xFF);
                }
                const SmemDescriptor given = operand_descriptor(input, rows, swapped);
                EXPECT_EQ(given.leading_byte_offset, swapped ? 128u : static_cast<std::uint32_t>(rows * 16));
                EXPECT_EQ(given.stride_byte_offset, swapped ? static_cast<std::uint32_t>(rows * 16) : 128u);
            }
}

TEST(AccumulatorProbes, AskEveryJOnceInEachHalfWithExactValues) {
    for (AccumulatorInput input : kAccumulatorInputs)
        for (ProbeKind kind : {ProbeKind::InsideWgmma, ProbeKind::AcrossSteps}) {
            const ProbeOperands p = make_probe(input, kind);
            const std::vector<double> exact = exact_sums(p);
            for (int row = 0; row < kProbeRows; ++row) {
                const int j = p.row_j[row];
                EXPECT_EQ(j, row % 32 == 31 ? 0 : row % 32 + 1);
                for (int n = 0; n < kProbeCols; ++n) {
                    const double want = std::ldexp(1.0, 16) + (j ? kProbeScales[n] * std::ldexp(1.0, 16 - j) : 0.0);
                    EXPECT_EQ(exact[static_cast<std::size_t>(row) * kProbeCols + n], want)
                        << accumulator_input_name(input) << " row " << row << " col " << n;
                }
            }
            EXPECT_EQ(p.accumulate, kind == ProbeKind::AcrossSteps);
            // Up to j = 28 every input is normal (a flushed subnormal must not pass for a dropped bit).
            const int least_normal = input == AccumulatorInput::Fp8E4m3 ? -6 : input == AccumulatorInput::Fp16 ? -14 : -126;
            for (int row = 0; row < kProbeRows; ++row)
                if (p.row_j[row] >= 1 && p.row_j[row] <= 28)
                    for (int kk = 0; kk < p.k; ++kk) {
                        const double a = std::fabs(p.a[static_cast<std::size_t>(row) * p.k + kk]);
                        EXPECT_TRUE(a == 0.0 || a >= std::ldexp(1.0, least_normal)) << "row " << row << " k " << kk;
                    }
        }
}

TEST(AccumulatorProbes, IdentityIsRightForEveryModelAndWrongWhenPermuted) {
    for (AccumulatorInput input : kAccumulatorInputs)
        for (ProbeKind kind : {ProbeKind::Identity, ProbeKind::IdentityAcross}) {
            const ProbeOperands p = make_probe(input, kind);
            for (int f = 10; f <= 24; ++f)
                EXPECT_FALSE(check_identity(p, simulate_probe(p, {f, AccumulatorRounding::TowardZero})));
            // The same sums with K's two core-matrix columns read the other way round are caught.
            ProbeOperands swapped = p;
            const int half = p.k / 2;
            for (int row = 0; row < kProbeRows; ++row)
                for (int c = 0; c < half; ++c)
                    std::swap(swapped.a[static_cast<std::size_t>(row) * p.k + c], swapped.a[static_cast<std::size_t>(row) * p.k + c + half]);
            EXPECT_TRUE(check_identity(p, simulate_probe(swapped, {23, AccumulatorRounding::Nearest})));
        }
}

// The heart of it: what an accumulator of f bits would output, decoded, gives f back, for both
// probes, every type, every f of 10 to 24 and every rounding. Up to 22 bits the answer is unique;
// past it the FP32 output cannot tell every f apart, and the decoder says so ("at least", or a range).
TEST(AccumulatorDecoder, RecoversTheBitsAndRoundingOfTheSimulator) {
    constexpr AccumulatorRounding kModes[] = {AccumulatorRounding::TowardZero, AccumulatorRounding::Down,
                                              AccumulatorRounding::Nearest};
    for (AccumulatorInput input : kAccumulatorInputs)
        for (ProbeKind kind : {ProbeKind::InsideWgmma, ProbeKind::AcrossSteps}) {
            const ProbeOperands p = make_probe(input, kind);
            for (int f = 10; f <= 24; ++f)
                for (AccumulatorRounding mode : kModes) {
                    const AccumulatorFinding got = decode_probe(p, simulate_probe(p, {f, mode}));
                    SCOPED_TRACE(::testing::Message() << accumulator_input_name(input) << " f=" << f << " "
                                                      << rounding_name(mode) << ": " << got.note);
                    ASSERT_TRUE(got.explained);
                    EXPECT_LE(got.fraction_bits, f);
                    EXPECT_GE(got.fraction_bits_max, f);
                    EXPECT_TRUE(got.ladder_consistent);
                    EXPECT_EQ(got.ladder_bits, std::min(f, 23));
                    if (f <= 22) {
                        EXPECT_EQ(got.fraction_bits, f);
                        EXPECT_EQ(got.fraction_bits_max, f);
                        EXPECT_EQ(got.rounding, mode);
                        EXPECT_FALSE(got.at_least);
                    }
                }
        }
}

// What the H100's BF16 wgmma does: 25 bits below the largest term, each cut toward zero, the sum cut
// to FP32 toward zero too. Rounding the sum to nearest would not explain its negative cells.
TEST(AccumulatorDecoder, TellsASumCutToFp32TowardZero) {
    const ProbeOperands p = make_probe(AccumulatorInput::Bf16, ProbeKind::AcrossSteps);
    const AccumulatorFinding got = decode_probe(p, simulate_probe(p, {25, AccumulatorRounding::TowardZero, true}));
    ASSERT_TRUE(got.explained) << got.note;
    EXPECT_EQ(got.fraction_bits, 25);
    EXPECT_EQ(got.fraction_bits_max, 25);
    EXPECT_EQ(got.rounding, AccumulatorRounding::TowardZero);
    EXPECT_TRUE(got.final_toward_zero);
    EXPECT_EQ(got.ladder_bits, 23);
    EXPECT_NE(describe_bits(got).find("cut to FP32 toward zero"), std::string::npos);
}

TEST(AccumulatorDecoder, SaysWhenNoAccumulatorExplainsTheOutputs) {
    const ProbeOperands p = make_probe(AccumulatorInput::Fp8E4m3, ProbeKind::InsideWgmma);
    std::vector<float> outputs = simulate_probe(p, {13, AccumulatorRounding::TowardZero});
    outputs[5 * kProbeCols] = 65536.0f;  // j = 6 dropped while 7..13 survive
    const AccumulatorFinding got = decode_probe(p, outputs);
    EXPECT_FALSE(got.explained);
    EXPECT_FALSE(got.ladder_consistent);
    EXPECT_EQ(got.ladder_bits, 5);
    EXPECT_EQ(got.cells_unexplained, 1);
    EXPECT_NE(got.note.find("no accumulator"), std::string::npos);
}

TEST(AccumulatorGrowth, PromotionBoundsTheErrorAndTheChainGrowsWithK) {
    const GrowthInputs inputs = make_growth_inputs(AccumulatorInput::Fp8E4m3, kGrowthLargestK, 1);
    const std::vector<GrowthPoint> points = simulate_growth(inputs, {13, AccumulatorRounding::TowardZero});
    ASSERT_EQ(points.size(), growth_ks().size());
    EXPECT_EQ(points.front().k, 128);
    EXPECT_EQ(points.back().k, 16384);
    // Never promoted: the error grows with K; promoted: it stays near the first block's.
    EXPECT_GT(points.back().never_mean, 8 * points.front().never_mean);
    EXPECT_LT(points.back().promoted_max, 2 * points.front().promoted_max + 1e-6);
    EXPECT_LT(points.back().promoted_max, points.back().never_max / 8);
    // A full FP32 accumulator (23 bits, to nearest) is near exact either way.
    const std::vector<GrowthPoint> fp32 = simulate_growth(inputs, {23, AccumulatorRounding::Nearest});
    EXPECT_LT(fp32.back().never_max, 1e-5);
}

TEST(AccumulatorGrowth, ReferenceIsTheExactSumAndImagesHoldEveryStep) {
    const GrowthInputs inputs = make_growth_inputs(AccumulatorInput::Bf16, 256, 7);
    const std::vector<double> exact = growth_reference(inputs, 256);
    double sum = 0.0;
    for (int kk = 0; kk < 256; ++kk) sum += inputs.a[static_cast<std::size_t>(3) * 256 + kk] * inputs.b[static_cast<std::size_t>(kk) * kProbeCols + 5];
    EXPECT_EQ(exact[3 * kProbeCols + 5], sum);
    for (double v : inputs.a) EXPECT_TRUE(v >= 0.5 && v < 2.0);
    EXPECT_EQ(growth_a_images(inputs, operand_layout(inputs.input, kProbeRows)).size(), 256u / 16 * 64 * 32);
    EXPECT_EQ(growth_b_images(inputs, operand_layout(inputs.input, kProbeCols)).size(), 256u / 16 * 8 * 32);
}

TEST(AccumulatorWords, SayTheAnswer) {
    AccumulatorFinding f;
    f.ran = f.explained = true;
    f.fraction_bits = f.fraction_bits_max = 13;
    f.rounding = AccumulatorRounding::TowardZero;
    EXPECT_EQ(describe_bits(f), "13 fraction bits, truncated toward zero");
    f.fraction_bits_max = kMaxFractionBits;
    f.at_least = true;
    EXPECT_NE(describe_bits(f).find("at least 13"), std::string::npos);
    const std::string why = promotion_explanation(13);
    EXPECT_NE(why.find("each product keeps 6 of its bits"), std::string::npos) << why;      // in a block: 13 − 7
    EXPECT_NE(why.find("keeps none of its bits"), std::string::npos) << why;                // at K = 16384: 13 − 14
    EXPECT_NE(promotion_explanation(22).find("keeps 8 of its bits"), std::string::npos);    // 22 − 14
    EXPECT_NE(promotion_explanation(-1).find("f − 7 of its bits"), std::string::npos);
    EXPECT_EQ(parse_accumulator_input("bf16"), AccumulatorInput::Bf16);
    EXPECT_FALSE(parse_accumulator_input("fp64"));
}

}  // namespace
