// Problem sizes, element types and the reasons a problem cannot run.
#include <gtest/gtest.h>

#include "model/problem.hpp"
#include "support/problems.hpp"

using namespace ts::model;

namespace {

using ts::testing_support::make_problem;
// The message, or a marker that none of the substring checks below will find.
using ts::testing_support::reason_or_accepted;

}  // namespace

TEST(Dtype, NamesAndSizes) {
    EXPECT_EQ(dtype_name(Dtype::Int32), "int32");
    EXPECT_EQ(dtype_name(Dtype::Float32), "float");
    EXPECT_EQ(dtype_name(Dtype::Float64), "double");
    EXPECT_EQ(dtype_size(Dtype::Int32), 4u);
    EXPECT_EQ(dtype_size(Dtype::Float32), 4u);
    EXPECT_EQ(dtype_size(Dtype::Float64), 8u);
}

TEST(Dtype, ParseRoundTripsNamesAndAcceptsAliases) {
    for (Dtype dtype : {Dtype::Int32, Dtype::Float32, Dtype::Float64})
        EXPECT_EQ(parse_dtype(dtype_name(dtype)), dtype);
    EXPECT_EQ(parse_dtype("float32"), Dtype::Float32);
    EXPECT_EQ(parse_dtype("float64"), Dtype::Float64);
    EXPECT_EQ(parse_dtype("half"), Dtype::Float16);
    EXPECT_EQ(parse_dtype("quad"), std::nullopt);
    EXPECT_EQ(parse_dtype(""), std::nullopt);
    EXPECT_EQ(parse_dtype("float "), std::nullopt);
}

TEST(Problem, ShapesFollowAIsMxKBIsKxNCIsMxN) {
    const Problem p = make_problem(3, 5, 7, Dtype::Float64, 2);
    EXPECT_EQ(p.a_elements(), 21);
    EXPECT_EQ(p.b_elements(), 35);
    EXPECT_EQ(p.c_elements(), 15);
    EXPECT_EQ(p.total_bytes(), (21 + 35 + 15) * 2 * 8);
    EXPECT_EQ(make_problem(3, 5, 7, Dtype::Int32).total_bytes(), (21 + 35 + 15) * 4);
}

TEST(ProblemValidate, AcceptsOrdinaryProblems) {
    EXPECT_EQ(validate(Problem{}), std::nullopt);
    EXPECT_EQ(validate(make_problem(1, 1, 1)), std::nullopt);
    EXPECT_EQ(validate(make_problem(4096, 4096, 4096, Dtype::Float64, 4)), std::nullopt);
}

TEST(ProblemValidate, RejectsZeroAndNegativeSizesNamingThem) {
    const std::string zero_m = reason_or_accepted(validate(make_problem(0, 4, 4)));
    EXPECT_NE(zero_m.find("at least 1"), std::string::npos) << zero_m;
    EXPECT_NE(zero_m.find("M = 0"), std::string::npos) << zero_m;

    const std::string negative_k = reason_or_accepted(validate(make_problem(4, 4, -3)));
    EXPECT_NE(negative_k.find("K = -3"), std::string::npos) << negative_k;

    const std::string zero_n = reason_or_accepted(validate(make_problem(4, 0, 4)));
    EXPECT_NE(zero_n.find("N = 0"), std::string::npos) << zero_n;

    const std::string zero_batch = reason_or_accepted(validate(make_problem(4, 4, 4, Dtype::Float32, 0)));
    EXPECT_NE(zero_batch.find("batch"), std::string::npos) << zero_batch;
    EXPECT_NE(zero_batch.find("got 0"), std::string::npos) << zero_batch;
}

TEST(ProblemValidate, Rejects32BitIndexOverflowNamingTheMatrix) {
    // M = K = 65536: A has 2^32 elements, so row * K + k no longer fits in an int.
    const std::string a = reason_or_accepted(validate(make_problem(65536, 1, 65536)));
    EXPECT_NE(a.find("A would have 65536 × 65536 elements"), std::string::npos) << a;
    EXPECT_NE(a.find("2^31"), std::string::npos) << a;
    EXPECT_NE(a.find("32-bit"), std::string::npos) << a;

    const std::string b = reason_or_accepted(validate(make_problem(1, 65536, 65536)));
    EXPECT_NE(b.find("B would have 65536 × 65536"), std::string::npos) << b;

    const std::string c = reason_or_accepted(validate(make_problem(65536, 65536, 1)));
    EXPECT_NE(c.find("C would have 65536 × 65536"), std::string::npos) << c;
}

TEST(ProblemValidate, IndexLimitIsExactlyIntMax) {
    // 46340² = 2 147 395 600 fits in an int; 46341² = 2 147 488 281 does not.
    EXPECT_EQ(validate(make_problem(46340, 1, 46340)), std::nullopt);
    EXPECT_NE(validate(make_problem(46341, 1, 46341)), std::nullopt);
    // 2^31 − 1 is prime, so the largest allowed matrix with exactly INT_MAX elements is a
    // single row or column of them.
    EXPECT_EQ(validate(make_problem(1, 1, 2147483647)), std::nullopt);
    EXPECT_NE(validate(make_problem(2, 1, 2147483647)), std::nullopt);
}

TEST(ProblemValidate, RejectsBatchOverGridZLimit) {
    EXPECT_EQ(validate(make_problem(2, 2, 2, Dtype::Float32, 65535)), std::nullopt);
    const std::string text = reason_or_accepted(validate(make_problem(2, 2, 2, Dtype::Float32, 65536)));
    EXPECT_NE(text.find("65536"), std::string::npos) << text;
    EXPECT_NE(text.find("65535"), std::string::npos) << text;
}

TEST(ProblemValidate, RejectsMoreMemoryThanTheDeviceHas) {
    // 3 matrices of 1024 × 1024 floats: 12 MiB = 12 582 912 bytes.
    const Problem p = make_problem(1024, 1024, 1024);
    ASSERT_EQ(p.total_bytes(), 12582912);
    EXPECT_EQ(validate(p, 0), std::nullopt) << "0 means the device memory is unknown";
    EXPECT_EQ(validate(p, 12582912), std::nullopt) << "an exact fit is fine";
    EXPECT_NE(validate(p, 12582911), std::nullopt);

    const std::string text = reason_or_accepted(validate(p, 8 << 20));
    EXPECT_NE(text.find("12.0 MiB"), std::string::npos) << text;
    EXPECT_NE(text.find("8.0 MiB"), std::string::npos) << text;

    // Batches multiply the memory: 4 batches of doubles need 96 MiB.
    const std::string batched = reason_or_accepted(validate(make_problem(1024, 1024, 1024, Dtype::Float64, 4), 64 << 20));
    EXPECT_NE(batched.find("96.0 MiB"), std::string::npos) << batched;
}

TEST(Fp8, NameParseAndElementSizes) {
    EXPECT_EQ(dtype_name(Dtype::Fp8E4M3), "fp8");
    for (const char* text : {"fp8", "e4m3", "float8_e4m3"}) EXPECT_EQ(parse_dtype(text), Dtype::Fp8E4M3) << text;
    EXPECT_EQ(parse_dtype("fp8e5m2"), std::nullopt);
    EXPECT_EQ(dtype_size(Dtype::Fp8E4M3), 1u) << "A and B: one byte each";
    EXPECT_EQ(output_dtype_size(Dtype::Fp8E4M3), 2u) << "C is BF16";
    EXPECT_EQ(output_dtype_size(Dtype::Float64), 8u);
    EXPECT_TRUE(is_fp8(Dtype::Fp8E4M3));
    EXPECT_FALSE(is_half_precision(Dtype::Fp8E4M3));
    EXPECT_EQ(parse_fp8_scaling("tensor"), Fp8Scaling::Tensor);
    EXPECT_EQ(parse_fp8_scaling("block"), Fp8Scaling::Block);
    EXPECT_EQ(parse_fp8_scaling("row"), std::nullopt);
    EXPECT_EQ(fp8_scaling_name(Fp8Scaling::Block), "block");
    EXPECT_EQ(Problem{}.fp8_scaling, Fp8Scaling::Tensor) << "per tensor unless asked";
}

TEST(Fp8, ScaleShapesAndTotalBytes) {
    Problem p{257, 255, 300, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    EXPECT_EQ(p.k_blocks(), 3) << "300 = 128 + 128 + 44: the last block is partial";
    EXPECT_EQ(p.n_blocks(), 2);
    EXPECT_EQ(p.a_scale_count(), 257 * 3) << "one per row per 128 of K";
    EXPECT_EQ(p.b_scale_stride(), 4) << "3 blocks along K, each row padded to 4 floats";
    EXPECT_EQ(p.b_scale_count(), 2 * 4) << "one per 128×128 block of B's N×K, rows padded";
    EXPECT_EQ(p.total_bytes(), 257 * 300 + 255 * 300 + 257 * 255 * 2 + (257 * 3 + 2 * 4) * 4);

    p.fp8_scaling = Fp8Scaling::Tensor;
    p.batch = 3;
    EXPECT_EQ(p.a_scale_count(), 1) << "one float for all of A, every batch";
    EXPECT_EQ(p.b_scale_count(), 1);
    EXPECT_EQ(p.total_bytes(), (257 * 300 + 255 * 300 + 257 * 255 * 2) * 3 + 2 * 4);

    const Problem cube{256, 256, 256, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    EXPECT_EQ(cube.a_scale_count(), 256 * 2);
    EXPECT_EQ(cube.b_scale_count(), 2 * 4);
    const Problem long_k{128, 256, 128 * 9, 1, Dtype::Fp8E4M3, Fp8Scaling::Block};
    EXPECT_EQ(long_k.b_scale_stride(), 12);
    EXPECT_EQ(long_k.b_scale_count(), 2 * 12);
    const Problem plain{4, 5, 6, 2, Dtype::Float32};
    EXPECT_EQ(plain.a_scale_count() + plain.b_scale_count(), 0) << "other types have no scales";
    EXPECT_EQ(plain.total_bytes(), (4 * 6 + 6 * 5 + 4 * 5) * 2 * 4) << "unchanged for other types";
}

TEST(Fp8, ValidateRefusesBlockScalesInABatchAndNamesBAsNByK) {
    Problem p{64, 64, 256, 2, Dtype::Fp8E4M3, Fp8Scaling::Block};
    const std::string why = reason_or_accepted(validate(p));
    EXPECT_NE(why.find("block scaling"), std::string::npos) << why;
    EXPECT_NE(why.find("--scaling tensor"), std::string::npos) << why;
    p.fp8_scaling = Fp8Scaling::Tensor;
    EXPECT_EQ(validate(p), std::nullopt);
    p.batch = 1;
    p.fp8_scaling = Fp8Scaling::Block;
    EXPECT_EQ(validate(p), std::nullopt);

    const Problem wide{16, 100000, 100000, 1, Dtype::Fp8E4M3};
    const std::string too_big = reason_or_accepted(validate(wide));
    EXPECT_NE(too_big.find("B would have 100000 × 100000"), std::string::npos) << too_big;
    const Problem memory{4096, 4096, 4096, 1, Dtype::Fp8E4M3};
    const std::string no_room = reason_or_accepted(validate(memory, 1 << 20));
    EXPECT_NE(no_room.find("with their scales"), std::string::npos) << no_room;
}
