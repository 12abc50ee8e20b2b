// `tilescope-cli kernel FILE.cu --compile-only`: the empty kernel it prints compiles; a broken one
// is listed as file:line:column; what cannot be compiled, or is not asked right, says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpu/nvrtc_compiler.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;

ts::testing_support::CommandOutcome kernel(const std::string& arguments) {
    return ts::testing_support::run_command(std::string(TILESCOPE_CLI_PATH) + " kernel " + arguments);
}

fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = fs::temp_directory_path() / ("tilescope-kernel-test-" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

TEST(KernelCommand, WrongRequestsSayWhy) {
    const auto template_out = kernel("--template");
    EXPECT_EQ(template_out.exit_code, 0);
    EXPECT_NE(template_out.output.find("extern \"C\" __global__ void matmul("), std::string::npos);
    EXPECT_EQ(kernel("").exit_code, 2);
    const fs::path empty = write("empty.cu", "");
    const auto run = kernel("'" + empty.string() + "'");
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.output.find("only --compile-only exists yet"), std::string::npos) << run.output;
    const auto nothing = kernel("--compile-only '" + empty.string() + "'");
    EXPECT_EQ(nothing.exit_code, 2);
    EXPECT_NE(nothing.output.find("the file is empty"), std::string::npos) << nothing.output;
    const auto missing = kernel("--compile-only /nonexistent/k.cu");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.output.find("cannot open /nonexistent/k.cu"), std::string::npos) << missing.output;
    const auto arch = kernel("--compile-only --arch 90 '" + empty.string() + "'");
    EXPECT_EQ(arch.exit_code, 2);
    EXPECT_NE(arch.output.find("--arch must be sm_"), std::string::npos) << arch.output;
}

TEST(KernelCommand, CompilesAndListsErrors) {
    std::string why;
    if (!ts::gpu::nvrtc_version(why)) GTEST_SKIP() << "no NVRTC: " << why;
    const auto empty = kernel("--template");
    const fs::path good = write("good.cu", empty.output);
    const auto compiled = kernel("--compile-only '" + good.string() + "'");
    EXPECT_EQ(compiled.exit_code, 0) << compiled.output;
    EXPECT_NE(compiled.output.find("compiled for sm_90 with NVRTC"), std::string::npos) << compiled.output;
    const fs::path broken = write("broken.cu", "extern \"C\" __global__ void matmul(const float* A, const float* B, "
                                               "float* C, int M, int N, int K) {\n    C[0] = nope;\n}\n");
    const auto failed = kernel("--compile-only --arch sm_80 '" + broken.string() + "'");
    EXPECT_EQ(failed.exit_code, 1);
    EXPECT_NE(failed.output.find("tilescope-kernel-test-broken.cu:2:12: error: identifier \"nope\" is undefined"),
              std::string::npos)
        << failed.output;
}

}  // namespace
