// A learner's kernel through NVRTC, with no GPU: good and broken kernels, the time limit, and the
// bad inputs the issue lists (a wrong signature, template recursion, 1 MiB of shared memory).
// Skips, saying why, where NVRTC cannot be loaded.
#include <gtest/gtest.h>

#include <string>

#include "gpu/nvrtc_compiler.hpp"
#include "gpu/user_kernel_tracing.hpp"
#include "model/user_kernel/source.hpp"

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

// The tracing build (gpu/user_kernel_tracing.hpp) of every starter compiles too, and an error
// in the kernel keeps its own line number behind the prelude.
TEST(NvrtcCompiler, TheTracingBuildCompilesAndKeepsLineNumbers) {
    SKIP_WITHOUT_NVRTC();
    for (const ts::model::Starter starter : ts::model::kAllStarters) {
        const auto trace = ts::gpu::tracing_source(ts::model::starter_kernel(starter));
        ASSERT_EQ(trace.index(), 0u) << std::get<1>(trace);
        const CompileResult r = ts::gpu::compile_user_kernel(std::get<0>(trace).source, "starter.cu", 9, 0);
        EXPECT_TRUE(r.ok) << ts::model::starter_name(starter) << ": " << r.why << "\n" << r.log;
    }
    // The parameter list over three lines: the error on line 5 is still reported on line 5.
    const std::string broken = "// a kernel\nextern \"C\" __global__ void matmul(const float* A, const float* B,\n"
                               "    float* C,\n    int M, int N, int K) {\n    C[0] = nope;\n}\n";
    const auto trace = ts::gpu::tracing_source(broken);
    ASSERT_EQ(trace.index(), 0u);
    const CompileResult r = ts::gpu::compile_user_kernel(std::get<0>(trace).source, "broken.cu", 9, 0);
    ASSERT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty()) << r.log;
    EXPECT_EQ(r.diagnostics.front().line, 5) << r.log;
    // A kernel that takes A's address cannot record through the accessors: the compiler says so.
    const CompileResult pointer = ts::gpu::compile_user_kernel(
        std::get<0>(ts::gpu::tracing_source(kernel("    const float* row = A + 4;\n    C[0] = row[0];\n"))).source,
        "pointer.cu", 9, 0);
    EXPECT_FALSE(pointer.ok);
    EXPECT_EQ(ts::gpu::tracing_source("__global__ void gemm() {}").index(), 1u);
}

// The shared arrays of the tracing build: the tiled starter's as and bs become accessors and
// compile; an error after them keeps its line, and so does one past the kernel's end (where the
// names are given back); each form of declaration TileScope records compiles; another form leaves
// shared memory unrecorded and says which line.
TEST(NvrtcCompiler, TheTracingBuildRecordsSharedArraysAndKeepsLineNumbers) {
    SKIP_WITHOUT_NVRTC();
    const auto tiled = ts::gpu::tracing_source(ts::model::starter_kernel(ts::model::Starter::Tiled));
    ASSERT_EQ(tiled.index(), 0u);
    EXPECT_EQ(std::get<0>(tiled).shared_names, (std::vector<std::string>{"as", "bs"}));
    EXPECT_EQ(std::get<0>(tiled).shared_not_recorded, "");
    EXPECT_NE(std::get<0>(tiled).source.find("ts_rec::Shared<0, (TILE), (TILE)> ts_rec_as;"), std::string::npos);

    // Line 3 declares, line 6 is wrong, line 9 (after the kernel) is wrong too.
    const std::string broken = "extern \"C\" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {\n"
                               "    // the tile\n"
                               "    __shared__ float tile[16][17];  // padded\n"
                               "    tile[threadIdx.y][threadIdx.x] = A[0];\n"
                               "    __syncthreads();\n"
                               "    C[0] = tile[0][0] + nope;\n"
                               "}\n"
                               "__device__ int helper(int tile) {\n"
                               "    return tile + also_nope;\n"
                               "}\n";
    const auto trace = ts::gpu::tracing_source(broken);
    ASSERT_EQ(trace.index(), 0u);
    const CompileResult r = ts::gpu::compile_user_kernel(std::get<0>(trace).source, "broken.cu", 9, 0);
    ASSERT_EQ(r.diagnostics.size(), 2u) << r.log;
    EXPECT_EQ(r.diagnostics[0].line, 6) << r.log;
    EXPECT_EQ(r.diagnostics[1].line, 9) << r.log;
    EXPECT_NE(r.diagnostics[1].message.find("also_nope"), std::string::npos) << "`tile` is a plain int again there";

    // Every form recorded: two-dimensional, one-dimensional, extern, with reads, writes, +=, a copy
    // between arrays and pointer steps.
    const std::string forms = kernel(
        "    __shared__ float two[8][8];\n"
        "    __shared__ float one[64];\n"
        "    extern __shared__ float dynamic[];\n"
        "    two[threadIdx.y][threadIdx.x] = A[0];\n"
        "    one[threadIdx.x] = two[0][threadIdx.x] * 2.0f;\n"
        "    one[threadIdx.x] += 1.0f;\n"
        "    dynamic[threadIdx.x] = one[threadIdx.x];\n"
        "    (dynamic + 64)[threadIdx.x] = two[1][2] * one[3];\n"
        "    __syncthreads();\n"
        "    C[0] = dynamic[K] + (dynamic + 64)[0];\n");
    const auto built = ts::gpu::tracing_source(forms);
    ASSERT_EQ(built.index(), 0u);
    EXPECT_EQ(std::get<0>(built).shared_names, (std::vector<std::string>{"two", "one", "dynamic"}));
    const CompileResult compiled = ts::gpu::compile_user_kernel(std::get<0>(built).source, "forms.cu", 9, 0);
    EXPECT_TRUE(compiled.ok) << compiled.log;

    // A declaration at the very start of its line (no indent): the name's #define goes before it,
    // on its own line, and the line numbers hold.
    const std::string unindented = kernel("__shared__ float flush[16];\nflush[threadIdx.x] = A[0];\n__syncthreads();\n"
                                          "C[0] = flush[0] + nope;\n");
    const auto flush = ts::gpu::tracing_source(unindented);
    ASSERT_EQ(flush.index(), 0u);
    EXPECT_EQ(std::get<0>(flush).shared_names, std::vector<std::string>{"flush"});
    const CompileResult flushed = ts::gpu::compile_user_kernel(std::get<0>(flush).source, "flush.cu", 9, 0);
    ASSERT_EQ(flushed.diagnostics.size(), 1u) << flushed.log;
    EXPECT_EQ(flushed.diagnostics[0].line, 5) << flushed.log;
    EXPECT_NE(flushed.diagnostics[0].message.find("nope"), std::string::npos) << flushed.log;

    // Two arrays in one statement: recorded globally, with the line that is not recorded.
    const auto two_in_one = ts::gpu::tracing_source(kernel("    __shared__ float a[4], b[4];\n    a[0] = A[0];\n    C[0] = a[0];\n"));
    ASSERT_EQ(two_in_one.index(), 0u);
    EXPECT_TRUE(std::get<0>(two_in_one).shared_names.empty());
    EXPECT_NE(std::get<0>(two_in_one).shared_not_recorded.find("line 2: shared memory is recorded where"), std::string::npos)
        << std::get<0>(two_in_one).shared_not_recorded;
    EXPECT_TRUE(ts::gpu::compile_user_kernel(std::get<0>(two_in_one).source, "two.cu", 9, 0).ok);
    // A pointer taken from a shared array does not compile as an accessor (the runner then records
    // the global accesses alone); the same kernel built without tracing shared memory compiles.
    const std::string pointer = kernel("    __shared__ float s[32];\n    float* p = s;\n    p[0] = A[0];\n    C[0] = p[0];\n");
    EXPECT_FALSE(ts::gpu::compile_user_kernel(std::get<0>(ts::gpu::tracing_source(pointer)).source, "p.cu", 9, 0).ok);
    EXPECT_TRUE(ts::gpu::compile_user_kernel(std::get<0>(ts::gpu::tracing_source(pointer, false)).source, "p.cu", 9, 0).ok);
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
