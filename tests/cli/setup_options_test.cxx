// The flags every tool shares: good values become a problem and a kernel, bad ones a
// message that names the flag and says what is wrong.
#include <gtest/gtest.h>

#include "cli/setup_options.hpp"
#include "support/parse_result.hpp"

namespace ts::cli {
namespace {

std::string error_of(const SetupOptions& options) { return testing_support::message_of(resolve_setup(options), ""); }

TEST(SetupOptions, DefaultsResolveToTiledSixteen) {
    const auto resolved = resolve_setup(SetupOptions{});
    ASSERT_TRUE(std::holds_alternative<ts::cli::Setup>(resolved)) << error_of(SetupOptions{});
    const ts::cli::Setup& setup = std::get<ts::cli::Setup>(resolved);
    EXPECT_EQ(setup.problem.m, 1024);
    EXPECT_EQ(setup.kernel.kind, model::KernelKind::Tiled);
    EXPECT_EQ(setup.kernel.tile, 16);
}

TEST(SetupOptions, ReadsRectangularSizesAndBlockShape) {
    SetupOptions options;
    options.m = "40";
    options.n = "28";
    options.k = "36";
    options.kernel = "naive";
    options.block = "32x8";
    const ts::cli::Setup setup = std::get<ts::cli::Setup>(resolve_setup(options));
    EXPECT_EQ(setup.problem.m, 40);
    EXPECT_EQ(setup.problem.n, 28);
    EXPECT_EQ(setup.problem.k, 36);
    EXPECT_EQ(setup.kernel.kind, model::KernelKind::Naive);
    EXPECT_EQ(setup.kernel.block_x, 32);
    EXPECT_EQ(setup.kernel.block_y, 8);
}

TEST(SetupOptions, RejectsZeroNegativeAndNonNumericSizes) {
    SetupOptions options;
    options.m = "0";
    EXPECT_NE(error_of(options).find("at least 1"), std::string::npos) << error_of(options);
    options.m = "-3";
    EXPECT_NE(error_of(options).find("at least 1"), std::string::npos) << error_of(options);
    options.m = "abc";
    EXPECT_EQ(error_of(options), "--m expects a whole number, got \"abc\"");
    options.m = "12.5";
    EXPECT_EQ(error_of(options), "--m expects a whole number, got \"12.5\"");
}

TEST(SetupOptions, RejectsHugeSizes) {
    SetupOptions options;
    options.m = "99999999999999999999999";
    EXPECT_NE(error_of(options).find("far too large"), std::string::npos) << error_of(options);
    options.m = "100000";
    options.k = "100000";  // A would have 10^10 elements: 32-bit indices overflow
    EXPECT_NE(error_of(options).find("2^31"), std::string::npos) << error_of(options);
}

TEST(SetupOptions, TileSixtyFourExplainsTheThreadLimit) {
    SetupOptions options;
    options.tile = "64";
    const std::string why = error_of(options);
    EXPECT_NE(why.find("4096 threads"), std::string::npos) << why;
    EXPECT_NE(why.find("1024"), std::string::npos) << why;
    EXPECT_NE(why.find("invalid configuration argument"), std::string::npos) << why;
}

TEST(SetupOptions, RejectsUnknownKernelDtypeAndBadBlock) {
    SetupOptions options;
    options.kernel = "fast";
    EXPECT_NE(error_of(options).find("--kernel"), std::string::npos);
    options = {};
    options.dtype = "quad";
    EXPECT_NE(error_of(options).find("--dtype"), std::string::npos);
    options = {};
    options.block = "32";
    EXPECT_NE(error_of(options).find("--block"), std::string::npos);
    options.block = "32x0";
    EXPECT_NE(error_of(options).find("at least 1"), std::string::npos) << error_of(options);
}

}  // namespace
}  // namespace ts::cli
