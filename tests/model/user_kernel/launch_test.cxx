// The learner's launch shape (model/user_kernel/launch.hpp): expressions of M, N and K, read from the
// kernel's own comment lines, checked against the GPU's limits.
#include <gtest/gtest.h>

#include <string>

#include "model/device_limits.hpp"
#include "model/user_kernel/source.hpp"
#include "model/user_kernel/launch.hpp"

namespace {

using ts::model::evaluate_launch_expression;

std::int64_t value_of(const char* text, std::int64_t m = 100, std::int64_t n = 37, std::int64_t k = 65) {
    auto v = evaluate_launch_expression(text, m, n, k);
    if (auto* why = std::get_if<std::string>(&v)) ADD_FAILURE() << text << ": " << *why;
    return std::get_if<std::int64_t>(&v) ? std::get<std::int64_t>(v) : -999;
}

std::string error_of(const char* text) {
    auto v = evaluate_launch_expression(text, 100, 37, 65);
    if (std::holds_alternative<std::int64_t>(v)) {
        ADD_FAILURE() << text << " gave " << std::get<std::int64_t>(v);
        return {};
    }
    return std::get<std::string>(v);
}

TEST(UserLaunch, ExpressionsAreCArithmeticOnMNK) {
    EXPECT_EQ(value_of("16"), 16);
    EXPECT_EQ(value_of("M"), 100);
    EXPECT_EQ(value_of("(N + 15) / 16"), 3);             // 52 / 16, rounded down as in C
    EXPECT_EQ(value_of("cdiv(N, 16)"), 3);
    EXPECT_EQ(value_of("cdiv(M, 16)"), 7);                // 6.25 up
    EXPECT_EQ(value_of("cdiv(64, 16)"), 4);               // exact stays exact
    EXPECT_EQ(value_of("2 * 16 * 16 * 4"), 2048);         // bytes of two float tiles
    EXPECT_EQ(value_of("K % 16 + -3"), -2);
    EXPECT_EQ(value_of("1 + 2 * 3"), 7);                  // * before +
    EXPECT_EQ(value_of("(1 + 2) * 3"), 9);
    EXPECT_EQ(value_of("10 - 4 - 3"), 3);                 // left to right
    EXPECT_EQ(value_of("min(M, N) + max(M, K)"), 137);
    EXPECT_EQ(value_of("  cdiv( M , 128 )  "), 1);
}

TEST(UserLaunch, BadExpressionsSayWhereAndWhy) {
    EXPECT_NE(error_of("").find("empty"), std::string::npos);
    EXPECT_NE(error_of("N / (M - 100)").find("division by zero"), std::string::npos);
    EXPECT_NE(error_of("M % 0").find("division by zero"), std::string::npos);
    const std::string unknown = error_of("cdiv(Q, 16)");
    EXPECT_NE(unknown.find("unknown name 'Q'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("column 6"), std::string::npos) << unknown;
    EXPECT_NE(error_of("(M + 1").find("not closed"), std::string::npos);
    EXPECT_NE(error_of("M +").find("ends too soon"), std::string::npos);
    EXPECT_NE(error_of("M N").find("unexpected 'N'"), std::string::npos);
    EXPECT_NE(error_of("min(M)").find("two arguments"), std::string::npos);
    EXPECT_NE(error_of("cdiv(M, 0)").find("b > 0"), std::string::npos);
    EXPECT_NE(error_of("99999999999999999999").find("2^63"), std::string::npos);
    EXPECT_NE(error_of("4611686018427387904 * 4").find("2^63"), std::string::npos);
    EXPECT_NE(error_of("9223372036854775807 + 1").find("2^63"), std::string::npos);
    EXPECT_NE(error_of(std::string(40, '(').append("1").append(40, ')').c_str()).find("inside each other"),
              std::string::npos);
    EXPECT_NE(error_of(std::string(300, '1').c_str()).find("at most 256"), std::string::npos);
}

TEST(UserLaunch, TheShapeIsReadFromTheKernelsOwnLines) {
    const std::string source =
        "// my kernel\n"
        "//   grid: cdiv(N, 32), cdiv(M, 8)\n"
        "// block:32,8\n"
        "// shared: 2 * 32 * 8 * 4\n"
        "extern \"C\" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {}\n";
    std::string problem;
    const ts::model::LaunchExpressions launch = ts::model::launch_from_source(source, &problem);
    EXPECT_EQ(problem, "");
    EXPECT_EQ(launch.grid_x, "cdiv(N, 32)");
    EXPECT_EQ(launch.grid_y, "cdiv(M, 8)");
    EXPECT_EQ(launch.block_x, "32");
    EXPECT_EQ(launch.block_y, "8");
    EXPECT_EQ(launch.shared, "2 * 32 * 8 * 4");
    const auto shape = ts::model::resolve_launch(launch, ts::model::Problem{.m = 100, .n = 70, .k = 5});
    ASSERT_TRUE(std::holds_alternative<ts::model::UserLaunchShape>(shape));
    EXPECT_EQ(std::get<ts::model::UserLaunchShape>(shape), (ts::model::UserLaunchShape{3, 13, 32, 8, 2048}));

    // A line that cannot be read is named, and the default kept.
    const auto partial = ts::model::launch_from_source("// grid: 4\n// block: 8, 8\n", &problem);
    EXPECT_EQ(problem, "line 1: // grid: needs two expressions, x and y");
    EXPECT_EQ(partial.grid_x, ts::model::LaunchExpressions{}.grid_x);
    EXPECT_EQ(partial.block_x, "8");

    // A comma inside a call is not a separator.
    const auto nested = ts::model::launch_from_source("// grid: max(1, N / 64), min(M, 4)\n");
    EXPECT_EQ(nested.grid_x, "max(1, N / 64)");
    EXPECT_EQ(nested.grid_y, "min(M, 4)");
}

TEST(UserLaunch, WritingTheShapeBackKeepsTheRest) {
    ts::model::LaunchExpressions launch;
    launch.block_x = "32";
    launch.grid_x = "cdiv(N, 32)";
    const std::string source = "// grid: 1, 1\nint x;\n// block: 1, 1\n";
    const std::string written = ts::model::with_launch(source, launch);
    EXPECT_EQ(written, "// shared: 0\n// grid:   cdiv(N, 32), cdiv(M, 16)\nint x;\n// block:  32, 16\n");
    EXPECT_EQ(ts::model::launch_from_source(written), launch);
    // No trailing newline stays none.
    EXPECT_EQ(ts::model::with_launch("int x;", launch).back(), ';');
}

TEST(UserLaunch, TheGpusLimitsRefuseAShapeInWords) {
    ts::model::DeviceLimits h100;
    for (const ts::model::DeviceLimits& preset : ts::model::device_presets())
        if (preset.name.find("H100") != std::string::npos) h100 = preset;
    ASSERT_EQ(h100.max_threads_per_block, 1024);
    EXPECT_EQ(ts::model::launch_refused({8, 8, 16, 16, 0}, h100), std::nullopt);
    const auto big_block = ts::model::launch_refused({1, 1, 64, 32, 0}, h100);
    ASSERT_TRUE(big_block);
    EXPECT_NE(big_block->find("2048 threads"), std::string::npos) << *big_block;
    const auto big_shared = ts::model::launch_refused({1, 1, 16, 16, 1 << 20}, h100);
    ASSERT_TRUE(big_shared);
    EXPECT_NE(big_shared->find("1048576 bytes of dynamic shared memory"), std::string::npos) << *big_shared;
    EXPECT_TRUE(ts::model::launch_refused({0, 1, 16, 16, 0}, h100));
    EXPECT_TRUE(ts::model::launch_refused({1, 70000, 16, 16, 0}, h100));
    EXPECT_TRUE(ts::model::launch_refused({1, 1, 16, 16, -4}, h100));
}

TEST(UserLaunch, EveryStarterCarriesAShapeThatResolves) {
    for (const ts::model::Starter starter : ts::model::kAllStarters) {
        const std::string source = ts::model::starter_kernel(starter);
        SCOPED_TRACE(std::string(ts::model::starter_name(starter)));
        EXPECT_EQ(ts::model::user_kernel_problem(source), std::nullopt);
        std::string problem;
        const auto launch = ts::model::launch_from_source(source, &problem);
        EXPECT_EQ(problem, "");
        const auto shape = ts::model::resolve_launch(launch, ts::model::Problem{.m = 127, .n = 129, .k = 65});
        ASSERT_TRUE(std::holds_alternative<ts::model::UserLaunchShape>(shape));
        EXPECT_EQ(std::get<ts::model::UserLaunchShape>(shape), (ts::model::UserLaunchShape{9, 8, 16, 16, 0}));
        EXPECT_EQ(ts::model::parse_starter(ts::model::starter_name(starter)), starter);
    }
    EXPECT_EQ(ts::model::parse_starter("regtile"), std::nullopt);
}

}  // namespace
