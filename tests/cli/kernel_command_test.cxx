// `tilescope-cli kernel FILE.cu`: the empty kernel and the starters it prints compile; a broken one
// is listed as file:line:column, here (--compile-only) and through the worker; what cannot be
// compiled, or is not asked right, says why. Without a GPU a kernel still compiles, and the command
// says that running it needs one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpu/nvrtc_compiler.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using ts::testing_support::expect_refused;

ts::testing_support::CommandOutcome kernel(const std::string& arguments) {
    return ts::testing_support::run_cli("kernel " + arguments);
}

fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = fs::temp_directory_path() / ("tilescope-kernel-test-" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A path as one word of the command line.
std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

TEST(KernelCommand, WrongRequestsSayWhy) {
    const auto template_out = kernel("--template");
    EXPECT_EQ(template_out.exit_code, 0);
    EXPECT_NE(template_out.output.find("extern \"C\" __global__ void matmul("), std::string::npos);
    EXPECT_EQ(kernel("").exit_code, 2);
    const std::string empty = quoted(write("empty.cu", ""));
    expect_refused("kernel " + empty, "the file is empty");
    expect_refused("kernel --starter regtile", "--starter takes empty, naive or tiled");
    const std::string bad_launch = quoted(write("bad-launch.cu", "// block: 16\nextern \"C\" __global__ void matmul("
                                                                 "const float* A, const float* B, float* C, int M, "
                                                                 "int N, int K) {}\n"));
    expect_refused("kernel " + bad_launch, "line 1: // block: needs two expressions");
    expect_refused("kernel --dtype bf16 " + bad_launch, "your kernel takes float matrices");
    expect_refused("kernel --compile-only " + empty, "the file is empty");
    expect_refused("kernel --compile-only /nonexistent/k.cu", "cannot open /nonexistent/k.cu");
    expect_refused("kernel --compile-only --arch 90 " + empty, "--arch must be sm_");
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

// Through the worker, as a user without --compile-only meets it.
TEST(KernelCommand, TheWorkerCompilesAndRunsWhereThereIsAGpu) {
    std::string why;
    if (!ts::gpu::nvrtc_version(why)) GTEST_SKIP() << "no NVRTC: " << why;
    const fs::path tiled = write("tiled.cu", kernel("--starter tiled").output);
    const auto ran = kernel("--m 128 --n 128 --k 128 --samples 3 '" + tiled.string() + "'");
    EXPECT_NE(ran.output.find("tilescope-kernel-test-tiled.cu: compiled for sm_"), std::string::npos) << ran.output;
    if (ran.exit_code == 2) {
        EXPECT_NE(ran.output.find("compiled, but running it needs a GPU"), std::string::npos) << ran.output;
    } else {
        EXPECT_EQ(ran.exit_code, 0) << ran.output;
        EXPECT_NE(ran.output.find("301 × 257 × 131"), std::string::npos) << ran.output;
        EXPECT_EQ(ran.output.find("WRONG"), std::string::npos) << ran.output;
        EXPECT_NE(ran.output.find("yours takes"), std::string::npos) << ran.output;
    }
    const fs::path broken = write("broken2.cu", "extern \"C\" __global__ void matmul(const float* A, const float* B, "
                                                "float* C, int M, int N, int K) {\n    C[0] = nope;\n}\n");
    const auto failed = kernel("'" + broken.string() + "'");
    EXPECT_EQ(failed.exit_code, 1) << failed.output;
    EXPECT_NE(failed.output.find("tilescope-kernel-test-broken2.cu:2:12: error: identifier \"nope\" is undefined"),
              std::string::npos)
        << failed.output;
}

}  // namespace
