// Lists and ranges as bench reads them, their expansion into points, and the default sweep.
#include <gtest/gtest.h>

#include <algorithm>

#include <set>

#include "cli/sweep.hpp"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/ladder_rungs.hpp"
#include "model/rung_info.hpp"
#include "model/tensor_core/pipeline.hpp"
#include "support/parse_result.hpp"

namespace ts::cli {
namespace {

std::vector<std::int64_t> numbers(const std::string& text) {
    return testing_support::value_or_failure(parse_number_list("--size", text), text + ": ");
}

std::string number_error(const std::string& text) {
    return testing_support::message_of(parse_number_list("--size", text));
}

TEST(NumberList, RangesAndValues) {
    EXPECT_EQ(numbers("256:4096:x2"), (std::vector<std::int64_t>{256, 512, 1024, 2048, 4096}));
    EXPECT_EQ(numbers("100:400:+100"), (std::vector<std::int64_t>{100, 200, 300, 400}));
    EXPECT_EQ(numbers("100:450:+100"), (std::vector<std::int64_t>{100, 200, 300, 400}));  // stops before the end
    EXPECT_EQ(numbers("3:100:x3"), (std::vector<std::int64_t>{3, 9, 27, 81}));
    EXPECT_EQ(numbers("64"), (std::vector<std::int64_t>{64}));
    EXPECT_EQ(numbers(" 64, 100 ,128:512:x2"), (std::vector<std::int64_t>{64, 100, 128, 256, 512}));
    EXPECT_EQ(numbers("512:512:x2"), (std::vector<std::int64_t>{512}));
    EXPECT_EQ(numbers("128,128:256:x2"), (std::vector<std::int64_t>{128, 256}));  // each value once
}

TEST(NumberList, BadInputSaysWhat) {
    EXPECT_NE(number_error("").find("--size is empty"), std::string::npos);
    EXPECT_NE(number_error("64,,128").find("empty entry"), std::string::npos);
    EXPECT_NE(number_error("64,").find("empty entry"), std::string::npos);
    EXPECT_NE(number_error("0").find("at least 1"), std::string::npos);
    EXPECT_NE(number_error("-5").find("at least 1"), std::string::npos);
    EXPECT_NE(number_error("lots").find("whole number"), std::string::npos);
    EXPECT_NE(number_error("99999999999999999999999").find("far too large"), std::string::npos);
    for (const char* range : {"256:4096", "256:4096:y2", "256:4096:x", "256::x2", "1:2:3:4"})
        EXPECT_NE(number_error(range).find("FIRST:LAST:xFACTOR"), std::string::npos) << range << number_error(range);
    EXPECT_NE(number_error("256:4096:x1").find("factor must be at least 2"), std::string::npos);
    EXPECT_NE(number_error("100:400:+0").find("step must be at least 1"), std::string::npos);
    EXPECT_NE(number_error("4096:256:x2").find("starts above its end"), std::string::npos);
    EXPECT_NE(number_error("0:256:x2").find("at least 1"), std::string::npos);
    EXPECT_NE(number_error("1:1000000:+1").find("more than"), std::string::npos);
}

TEST(BlockList, ShapesWithXOrTimes) {
    auto parsed = parse_block_list("--block", "32x32, 16×16,8X4");
    using Blocks = std::vector<std::pair<int, int>>;
    ASSERT_TRUE(std::holds_alternative<Blocks>(parsed)) << std::get<std::string>(parsed);
    EXPECT_EQ(std::get<0>(parsed), (std::vector<std::pair<int, int>>{{32, 32}, {16, 16}, {8, 4}}));
    for (const char* bad : {"32", "32x0", "x32", "32x32,", "axb"})
        EXPECT_TRUE(std::holds_alternative<std::string>(parse_block_list("--block", bad))) << bad;
}

std::vector<cli::Setup> expand(const SweepLists& lists) { return testing_support::value_or_failure(expand_sweep(lists)); }

std::string expand_error(const SweepLists& lists) { return testing_support::message_of(expand_sweep(lists)); }

TEST(ExpandSweep, NothingGivenIsOneTiledPointAt1024) {
    const std::vector<cli::Setup> points = expand(SweepLists{});
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].kernel.kind, model::KernelKind::Tiled);
    EXPECT_EQ(points[0].kernel.tile, 16);
    EXPECT_EQ(points[0].problem.m, 1024);
    EXPECT_EQ(points[0].problem.k, 1024);
    EXPECT_EQ(points[0].problem.dtype, model::Dtype::Float32);
}

TEST(ExpandSweep, KernelsTimesTheirParametersTimesSizes) {
    SweepLists lists;
    lists.kernel = "naive,tiled,cublas";
    lists.block = "32x32,16x16";
    lists.tile = "8,32";
    lists.size = "128:512:x2";
    const std::vector<cli::Setup> points = expand(lists);
    // (2 blocks + 2 tiles + cuBLAS) × 3 sizes, kernel by kernel, sizes innermost.
    ASSERT_EQ(points.size(), 15u);
    EXPECT_EQ(model::describe(points[0].kernel), "naive 32×32");
    EXPECT_EQ(points[0].problem.m, 128);
    EXPECT_EQ(points[2].problem.m, 512);
    EXPECT_EQ(model::describe(points[3].kernel), "naive 16×16");
    EXPECT_EQ(model::describe(points[6].kernel), "tiled T=8");
    EXPECT_EQ(model::describe(points[14].kernel), "cublas");
}

TEST(ExpandSweep, RectangularDimensionsReplaceTheSquareOnes) {
    SweepLists lists;
    lists.m = "100,200";
    lists.k = "64";
    using Sizes = std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>>;
    Sizes sizes;
    for (const cli::Setup& s : expand(lists)) sizes.insert({s.problem.m, s.problem.n, s.problem.k});
    EXPECT_EQ(sizes, (Sizes{{100, 1024, 64}, {200, 1024, 64}}));

    lists.size = "256,512";  // N follows --size
    sizes.clear();
    for (const cli::Setup& s : expand(lists)) sizes.insert({s.problem.m, s.problem.n, s.problem.k});
    EXPECT_EQ(sizes.size(), 4u);
    EXPECT_TRUE(sizes.contains({200, 512, 64}));
}

// With --m, --n and --k all given, --size fills no dimension: a long --size list must neither
// repeat the combinations nor walk them once per square (4096 squares of 98 304 combinations
// took the fuzzer past its time limit).
TEST(ExpandSweep, SizesAreUnusedWhereEveryDimensionIsGiven) {
    SweepLists lists;
    lists.size = "1:4096:+1";
    lists.m = "1:4096:+1";
    lists.n = "1:24:+1";
    lists.k = "7";
    const std::vector<cli::Setup> points = expand(lists);
    ASSERT_EQ(points.size(), 4096u * 24);
    EXPECT_EQ(points.back().problem.m, 4096);
    EXPECT_EQ(points.back().problem.n, 24);
    EXPECT_EQ(points.back().problem.k, 7);
}

TEST(ExpandSweep, DtypesBatchesAndOneDimensionalBlocks) {
    SweepLists lists;
    lists.kernel = "row-per-thread,column-per-thread";
    lists.threads = "64,256";
    lists.dtype = "int32,double";
    lists.batch = "1,4";
    lists.size = "100";
    const std::vector<cli::Setup> points = expand(lists);
    ASSERT_EQ(points.size(), 2u * 2 * 2 * 2);
    EXPECT_EQ(points[0].problem.dtype, model::Dtype::Int32);
    EXPECT_EQ(points.back().problem.dtype, model::Dtype::Float64);
    EXPECT_EQ(points[1].problem.batch, 4);
    EXPECT_EQ(model::describe(points[0].kernel), "row-per-thread 64");
}

// Three dtypes spell more than a short string holds in place: the names must be read from
// text that is still alive (they were read from freed memory before).
TEST(ExpandSweep, ThreeDtypesAreThreeDtypes) {
    SweepLists lists;
    lists.kernel = "tiled,naive";
    lists.m = "1000";
    lists.n = "37";
    lists.k = "513";
    lists.dtype = "int32,float,double";
    const std::vector<cli::Setup> points = expand(lists);
    ASSERT_EQ(points.size(), 2u * 3);
    std::set<model::Dtype> dtypes;
    for (const cli::Setup& point : points) dtypes.insert(point.problem.dtype);
    EXPECT_EQ(dtypes, (std::set<model::Dtype>{model::Dtype::Int32, model::Dtype::Float32, model::Dtype::Float64}));
}

TEST(ExpandSweep, AllMeansEveryKernelOfTheType) {
    SweepLists lists;
    lists.kernel = "all";
    EXPECT_EQ(expand(lists).size(), std::size(model::kAllKernelKinds) - std::size(model::kTensorCoreKinds))
        << "in float: the tensor-core rungs take bf16 or fp16";
    lists.dtype = "bf16";
    EXPECT_EQ(expand(lists).size(), model::ladder_rungs(model::Ladder::TensorCores, model::Dtype::BFloat16).size() + 1)
        << "the 16-bit rungs and cuBLAS";
}

TEST(ExpandSweep, TheTensorCoreLadderIsInBf16WithCublasInBothTypes) {
    SweepLists lists;
    lists.kernel = "tc-ladder";
    lists.size = "256,4099";
    const std::vector<cli::Setup> points = expand(lists);
    ASSERT_EQ(points.size(), 2u * (model::ladder_rungs(model::Ladder::TensorCores, model::Dtype::BFloat16).size() + 2));
    int cublas_float = 0;
    for (const cli::Setup& point : points) {
        if (point.problem.dtype == model::Dtype::Float32) {
            EXPECT_EQ(point.kernel.kind, model::KernelKind::Cublas);
            ++cublas_float;
        } else {
            EXPECT_EQ(point.problem.dtype, model::Dtype::BFloat16);
        }
    }
    EXPECT_EQ(cublas_float, 2);
    lists.dtype = "fp16";
    for (const cli::Setup& point : expand(lists))
        EXPECT_TRUE(point.problem.dtype == model::Dtype::Float16 || point.kernel.kind == model::KernelKind::Cublas);
}

TEST(ExpandSweep, WrongValuesAreErrorsNotPoints) {
    SweepLists lists;
    lists.kernel = "naive,warp-specialised";
    EXPECT_NE(expand_error(lists).find("--kernel must be one of"), std::string::npos) << expand_error(lists);
    lists = {};
    lists.tile = "16,64";
    EXPECT_NE(expand_error(lists).find("--tile 64"), std::string::npos);
    EXPECT_NE(expand_error(lists).find("invalid configuration argument"), std::string::npos);
    lists = {};
    lists.dtype = "float,quad";
    EXPECT_NE(expand_error(lists).find("--dtype must be"), std::string::npos);
    lists = {};
    lists.m = "100000";
    lists.k = "100000";
    EXPECT_NE(expand_error(lists).find("2^31"), std::string::npos) << expand_error(lists);
    lists = {};
    lists.batch = "0";
    EXPECT_NE(expand_error(lists).find("--batch must be at least 1"), std::string::npos);
}

TEST(ExpandSweep, Fp8IsCublasWithEachScaling) {
    SweepLists lists;
    lists.kernel = "cublas";
    lists.dtype = "fp8";
    lists.size = "4096,8192";
    std::vector<cli::Setup> points = expand(lists);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].problem.dtype, model::Dtype::Fp8E4M3);
    EXPECT_EQ(points[0].problem.fp8_scaling, model::Fp8Scaling::Tensor) << "per tensor unless asked";
    lists.scaling = "tensor,block";
    points = expand(lists);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].problem.fp8_scaling, model::Fp8Scaling::Tensor);
    EXPECT_EQ(points[3].problem.fp8_scaling, model::Fp8Scaling::Block);
    // Other types in the same sweep have no scales and are not repeated per scaling.
    lists.dtype = "bf16,fp8";
    EXPECT_EQ(expand(lists).size(), 2u + 4u);
    // "all" in fp8: each FP8 rung in the scales it is written for, and cuBLAS in both.
    lists = {};
    lists.kernel = "all";
    lists.dtype = "e4m3";
    points = expand(lists);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].kernel.kind, model::KernelKind::Fp8);
    EXPECT_EQ(points[1].kernel.kind, model::KernelKind::Cublas);
    EXPECT_EQ(points[2].kernel.kind, model::KernelKind::Fp8Blocks);
    EXPECT_EQ(points[2].problem.fp8_scaling, model::Fp8Scaling::Block);
    EXPECT_EQ(points[3].kernel.kind, model::KernelKind::Cublas);
    // An FP8 rung named alone runs its own scales, and refuses the other's.
    lists = {};
    lists.kernel = "fp8-blocks";
    lists.dtype = "fp8";
    points = expand(lists);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].problem.fp8_scaling, model::Fp8Scaling::Block);
    lists.scaling = "tensor";
    const std::string why = expand_error(lists);
    EXPECT_NE(why.find("the fp8-blocks rung is written for block scales"), std::string::npos) << why;
}

TEST(ExpandSweep, Fp8BadCombinationsSayWhy) {
    SweepLists lists;
    lists.kernel = "tiled";
    lists.dtype = "fp8";
    std::string why = expand_error(lists);
    EXPECT_NE(why.find("--dtype fp8"), std::string::npos) << why;
    EXPECT_NE(why.find("cuBLAS"), std::string::npos) << why;
    lists.kernel = "wgmma";
    why = expand_error(lists);
    EXPECT_NE(why.find("the wgmma kernel takes bf16, fp16"), std::string::npos) << why;
    lists.kernel = "tuned";
    why = expand_error(lists);
    EXPECT_NE(why.find("the tuned kernel takes float"), std::string::npos) << why;
    lists = {};
    lists.scaling = "block";
    why = expand_error(lists);
    EXPECT_NE(why.find("--scaling chooses the scales of fp8 inputs"), std::string::npos) << why;
    lists.kernel = "cublas";
    lists.dtype = "fp8";
    lists.scaling = "row";
    why = expand_error(lists);
    EXPECT_NE(why.find("--scaling must be tensor or block"), std::string::npos) << why;
    lists.scaling = "block";
    lists.batch = "2";
    why = expand_error(lists);
    EXPECT_NE(why.find("block scaling is for one matrix per launch"), std::string::npos) << why;
    lists.scaling = "tensor";
    EXPECT_EQ(expand(lists).size(), 1u) << "a batch with one scale per tensor";
}

TEST(ExpandSweep, BlocksTheGpuMayRefuseStillBecomePoints) {
    // 64×32 = 2048 threads: the GPU refuses it, and the sweep records why for that point.
    SweepLists lists;
    lists.kernel = "naive";
    lists.block = "64x32,32x32";
    EXPECT_EQ(expand(lists).size(), 2u);
}

TEST(DefaultSweep, HasTheIssuesGroups) {
    const std::vector<cli::Setup> points = default_sweep();
    auto count = [&](auto&& predicate) { return std::count_if(points.begin(), points.end(), predicate); };
    // Every kernel over 128..4096 in float.
    for (model::KernelKind kind : {model::KernelKind::Naive, model::KernelKind::NaiveRowFromX, model::KernelKind::Tiled,
                                   model::KernelKind::Cublas})
        EXPECT_EQ(count([&](const cli::Setup& s) {
                      return s.kernel.kind == kind && s.problem.m == 4096 && s.problem.dtype == model::Dtype::Float32;
                  }),
                  kind == model::KernelKind::Naive ? 2 : kind == model::KernelKind::Tiled ? 3 : 1)
            << model::kernel_name(kind);
    // Every rung of the ladder over 128..4096, in float only (the tuned rung as the tuner picks).
    for (model::KernelKind kind : model::kAllKernelKinds) {
        if (!model::is_ladder(kind)) continue;
        EXPECT_EQ(count([&](const cli::Setup& s) { return s.kernel.kind == kind && s.kernel.variant < 0; }), 6)
            << model::kernel_name(kind);
        EXPECT_EQ(count([&](const cli::Setup& s) { return s.kernel.kind == kind && s.problem.dtype != model::Dtype::Float32; }),
                  0);
    }
    // The tensor-core rungs and cuBLAS in BF16 over 128..8192, and no other type for those rungs.
    // (tc-tuned as its tuner picks; its candidates below.)
    for (model::KernelKind kind : model::kTensorCoreKinds) {
        if (const auto scaling = model::fp8_rung_scaling(kind)) {
            // The FP8 rungs: 512 to 8192 in fp8, each in its own scales.
            EXPECT_EQ(count([&](const cli::Setup& s) {
                          return s.kernel.kind == kind && s.problem.dtype == model::Dtype::Fp8E4M3 &&
                                 s.problem.fp8_scaling == *scaling;
                      }),
                      5)
                << model::kernel_name(kind);
            EXPECT_EQ(count([&](const cli::Setup& s) { return s.kernel.kind == kind && s.problem.dtype != model::Dtype::Fp8E4M3; }),
                      0)
                << model::kernel_name(kind);
            continue;
        }
        EXPECT_EQ(count([&](const cli::Setup& s) {
                      return s.kernel.kind == kind && s.kernel.variant < 0 && s.problem.dtype == model::Dtype::BFloat16;
                  }),
                  7)
            << model::kernel_name(kind);
        EXPECT_EQ(count([&](const cli::Setup& s) { return s.kernel.kind == kind && s.problem.dtype != model::Dtype::BFloat16; }),
                  0)
            << model::kernel_name(kind);
    }
    // Every candidate of tc-tuned at 1024 to 8192 in BF16: "tc-tuned #0" …
    for (int variant = 0; variant < model::kTcTunedCandidateCount; ++variant)
        for (std::int64_t size : {1024, 2048, 4096, 8192})
            EXPECT_EQ(count([&](const cli::Setup& s) {
                          return model::describe(s.kernel) == model::format_text("tc-tuned #{}", variant) &&
                                 s.problem.m == size && s.problem.dtype == model::Dtype::BFloat16;
                      }),
                      1)
                << variant << " at " << size;
    EXPECT_EQ(count([](const cli::Setup& s) { return s.kernel.kind == model::KernelKind::TcTuned && s.kernel.variant >= 0; }),
              4 * model::kTcTunedCandidateCount);
    EXPECT_EQ(count([](const cli::Setup& s) {
                  return s.kernel.kind == model::KernelKind::Cublas && s.problem.dtype == model::Dtype::BFloat16;
              }),
              7);
    // And every candidate of the tuned rung at 1024, 2048 and 4096: "tuned #0" … "tuned #4".
    for (int variant = 0; variant < model::kTunedCandidateCount; ++variant)
        for (std::int64_t size : {1024, 2048, 4096})
            EXPECT_EQ(count([&](const cli::Setup& s) {
                          return model::describe(s.kernel) == model::format_text("tuned #{}", variant) &&
                                 s.problem.m == size && s.problem.dtype == model::Dtype::Float32;
                      }),
                      1)
                << variant << " at " << size;
    EXPECT_EQ(count([](const cli::Setup& s) { return s.kernel.kind == model::KernelKind::Tuned && s.kernel.variant >= 0; }),
              3 * model::kTunedCandidateCount);
    // Tile widths 1..32 and every naive block shape within 1024 threads at 2048.
    EXPECT_EQ(count([](const cli::Setup& s) { return s.kernel.kind == model::KernelKind::Tiled && s.problem.m == 2048 &&
                                                s.problem.dtype == model::Dtype::Float32; }),
              6);
    EXPECT_EQ(count([](const cli::Setup& s) { return s.kernel.kind == model::KernelKind::Naive && s.problem.m == 2048 &&
                                                s.problem.dtype == model::Dtype::Float32; }),
              23);
    EXPECT_GT(count([](const cli::Setup& s) { return s.problem.dtype == model::Dtype::Float64; }), 0);
    EXPECT_GT(count([](const cli::Setup& s) { return s.problem.dtype == model::Dtype::Int32; }), 0);
    EXPECT_EQ(count([](const cli::Setup& s) {
                  return s.kernel.kind == model::KernelKind::Cublas && s.problem.dtype == model::Dtype::Int32;
              }),
              0);
    // cuBLASLt's FP8 line in both scalings, 512 to 8192.
    for (model::Fp8Scaling scaling : {model::Fp8Scaling::Tensor, model::Fp8Scaling::Block})
        EXPECT_EQ(count([&](const cli::Setup& s) {
                      return s.kernel.kind == model::KernelKind::Cublas && s.problem.dtype == model::Dtype::Fp8E4M3 &&
                             s.problem.fp8_scaling == scaling;
                  }),
                  5);
    // No point twice (fp8's scalings are two points), and every point valid.
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_EQ(model::validate(points[i].problem), std::nullopt);
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(model::describe(points[i].kernel) == model::describe(points[j].kernel) &&
                         points[i].problem.m == points[j].problem.m &&
                         points[i].problem.dtype == points[j].problem.dtype &&
                         points[i].problem.fp8_scaling == points[j].problem.fp8_scaling)
                << i << " repeats " << j;
    }
}

TEST(Estimate, GrowsWithWorkAndFitsTheBrief) {
    gpu::RunRequest request;
    request.adaptive = true;
    request.check = false;
    request.kernel.kind = model::KernelKind::NaiveRowFromX;
    request.kernel.block_x = request.kernel.block_y = 32;
    request.problem.m = request.problem.n = request.problem.k = 4096;
    const double big = estimate_seconds(request);
    request.problem.m = request.problem.n = request.problem.k = 1024;
    EXPECT_LT(estimate_seconds(request), big);
    request.check = true;
    EXPECT_GT(estimate_seconds(request), estimate_seconds([&] {
        gpu::RunRequest unchecked = request;
        unchecked.check = false;
        return unchecked;
    }()));
    // The default sweep must fit in 8 minutes on an H200.
    double total = 0.0;
    for (const cli::Setup& setup : default_sweep()) {
        gpu::RunRequest r;
        r.kernel = setup.kernel;
        r.problem = setup.problem;
        r.adaptive = true;
        r.end_to_end_runs = 3;
        r.check = setup.problem.m <= 1024;
        total += estimate_seconds(r);
    }
    EXPECT_LT(total, 8 * 60.0);
}

TEST(Estimate, DurationText) {
    EXPECT_EQ(duration_text(44.6), "45 s");
    EXPECT_EQ(duration_text(200), "3 min 20 s");
    EXPECT_EQ(duration_text(3900), "1 h 05 min");
}

}  // namespace
}  // namespace ts::cli
