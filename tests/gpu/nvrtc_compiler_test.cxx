// A learner's kernel through NVRTC, with no GPU: good and broken kernels, the time limit, and the
// bad inputs the issue lists (a wrong signature, template recursion, 1 MiB of shared memory).
// Skips, saying why, where NVRTC cannot be loaded.
#include <gtest/gtest.h>

#include <string>

#include "gpu/nvrtc_compiler.hpp"
#include "gpu/user_kernel_recording.hpp"
#include "model/user_kernel.hpp"

namespace {

using ts::gpu::CompileResult;
using ts::model::Severity;

#define SKIP_WITHOUT_NVRTC()                                                  \
    do {                                                                      \
        std::string why;                                                      \
        if (!ts::gpu::nvrtc_version(why)) GTEST_SKIP() << "no NVRTC: " << why; \
    } while (0)

std::string kernel(const std::string& body) {
    return std::string(ts::model::kUserKernelSignature) + " {\n" + body + "}\n";
}

TEST(NvrtcCompiler, TheEmptyKernelCompilesToMachineCode) {
    SKIP_WITHOUT_NVRTC();
    const CompileResult r = ts::gpu::compile_user_kernel(ts::model::empty_user_kernel(), "empty.cu", 9, 0);
    ASSERT_TRUE(r.ok) << r.why << "\n" << r.log;
    EXPECT_GT(r.cubin.size(), 1000u);
    EXPECT_TRUE(r.diagnostics.empty()) << r.log;
    // The same through the child process, within its time.
    const CompileResult child = ts::gpu::compile_user_kernel_with_deadline(ts::model::empty_user_kernel(), "empty.cu",
                                                                          8, 0, 60.0);
    ASSERT_TRUE(child.ok) << child.why;
    EXPECT_GT(child.cubin.size(), 1000u);
}

// Every starter compiles as it is printed, with no warning, and so for the H100 and H200's sm_90.
TEST(NvrtcCompiler, EveryStarterCompiles) {
    SKIP_WITHOUT_NVRTC();
    for (const ts::model::Starter starter : ts::model::kAllStarters) {
        const CompileResult r =
            ts::gpu::compile_user_kernel(ts::model::starter_kernel(starter), "starter.cu", 9, 0);
        EXPECT_TRUE(r.ok) << ts::model::starter_name(starter) << ": " << r.why << "\n" << r.log;
        EXPECT_TRUE(r.diagnostics.empty()) << ts::model::starter_name(starter) << ": " << r.log;
    }
}

// The recording build (gpu/user_kernel_recording.hpp) of every starter compiles too, and an error
// in the kernel keeps its own line number behind the prelude.
TEST(NvrtcCompiler, TheRecordingBuildCompilesAndKeepsLineNumbers) {
    SKIP_WITHOUT_NVRTC();
    for (const ts::model::Starter starter : ts::model::kAllStarters) {
        const auto recording = ts::gpu::recording_source(ts::model::starter_kernel(starter));
        ASSERT_EQ(recording.index(), 0u) << std::get<1>(recording);
        const CompileResult r = ts::gpu::compile_user_kernel(std::get<0>(recording), "starter.cu", 9, 0);
        EXPECT_TRUE(r.ok) << ts::model::starter_name(starter) << ": " << r.why << "\n" << r.log;
    }
    // The parameter list over three lines: the error on line 5 is still reported on line 5.
    const std::string broken = "// a kernel\nextern \"C\" __global__ void matmul(const float* A, const float* B,\n"
                               "    float* C,\n    int M, int N, int K) {\n    C[0] = nope;\n}\n";
    const auto recording = ts::gpu::recording_source(broken);
    ASSERT_EQ(recording.index(), 0u);
    const CompileResult r = ts::gpu::compile_user_kernel(std::get<0>(recording), "broken.cu", 9, 0);
    ASSERT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty()) << r.log;
    EXPECT_EQ(r.diagnostics.front().line, 5) << r.log;
    // A kernel that takes A's address cannot record through the accessors: the compiler says so.
    const CompileResult pointer = ts::gpu::compile_user_kernel(
        std::get<0>(ts::gpu::recording_source(kernel("    const float* row = A + 4;\n    C[0] = row[0];\n"))),
        "pointer.cu", 9, 0);
    EXPECT_FALSE(pointer.ok);
    EXPECT_EQ(ts::gpu::recording_source("__global__ void gemm() {}").index(), 1u);
}

TEST(NvrtcCompiler, ErrorsComeBackWithLineAndColumn) {
    SKIP_WITHOUT_NVRTC();
    const CompileResult r = ts::gpu::compile_user_kernel_with_deadline(
        kernel("    float s = undefined_thing;\n    int unused = 3;\n    C[0] = s\n"), "broken.cu", 9, 0, 60.0);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.why, "the kernel does not compile");
    ASSERT_GE(r.diagnostics.size(), 2u) << r.log;
    EXPECT_EQ(r.diagnostics[0].line, 2);
    EXPECT_EQ(r.diagnostics[0].column, 15);
    EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
    EXPECT_NE(r.diagnostics[0].message.find("undefined_thing"), std::string::npos);
    EXPECT_TRUE(r.cubin.empty());
}

TEST(NvrtcCompiler, BadKernelsGetASentence) {
    SKIP_WITHOUT_NVRTC();
    // A wrong signature never reaches the compiler.
    const CompileResult wrong = ts::gpu::compile_user_kernel("__global__ void gemm(float* c) {}\n", "w.cu", 9, 0);
    EXPECT_NE(wrong.why.find("no kernel with TileScope's signature"), std::string::npos) << wrong.why;
    // 1 MiB of shared memory: more than any GPU gives a block, refused when compiling.
    const CompileResult shared =
        ts::gpu::compile_user_kernel(kernel("    __shared__ float tile[262144];\n    tile[threadIdx.x] = A[0];\n"
                                            "    __syncthreads();\n    C[0] = tile[K];\n"),
                                     "shared.cu", 9, 0);
    EXPECT_FALSE(shared.ok);
    EXPECT_FALSE(shared.log.empty());
    // A template that recurses until the compiler gives up: an error, not a hang.
    const std::string recursion = "template <int N> struct Deep { static constexpr int value = Deep<N + 1>::value; };\n" +
                                  kernel("    C[0] = Deep<0>::value;\n");
    const CompileResult deep = ts::gpu::compile_user_kernel_with_deadline(recursion, "deep.cu", 9, 0, 60.0);
    EXPECT_FALSE(deep.ok);
    EXPECT_FALSE(deep.diagnostics.empty()) << deep.log;
}

TEST(NvrtcCompiler, TheTimeLimitStopsTheCompiler) {
    SKIP_WITHOUT_NVRTC();
    // No compile finishes in a millisecond: NVRTC alone takes longer to start.
    const CompileResult r =
        ts::gpu::compile_user_kernel_with_deadline(ts::model::empty_user_kernel(), "slow.cu", 9, 0, 0.001);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.why.find("was stopped"), std::string::npos) << r.why;
}

}  // namespace
