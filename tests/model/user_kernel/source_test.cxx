// A learner's kernel as text (model/user_kernel/source.hpp): what is refused before the compiler sees it,
// and NVRTC's log read back into line, column and words (a log NVRTC 13.0 wrote, kept here).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "model/user_kernel/source.hpp"

namespace {

using ts::model::Diagnostic;
using ts::model::Severity;

TEST(UserKernel, TheEmptyKernelHasTheSignatureAndPasses) {
    const std::string empty = ts::model::empty_user_kernel();
    EXPECT_NE(empty.find(ts::model::kUserKernelSignature), std::string::npos);
    EXPECT_EQ(ts::model::user_kernel_problem(empty), std::nullopt);
}

TEST(UserKernel, BadFilesAreRefusedWithAReason) {
    EXPECT_EQ(ts::model::user_kernel_problem(""), "the file is empty: start from the empty kernel or a rung's source");
    const std::string huge(10 << 20, 'x');
    EXPECT_EQ(ts::model::user_kernel_problem(huge),
              "the file holds 10485760 bytes; a kernel file may hold at most 1048576 (1 MiB)");
    const std::string binary("extern \"C\" __global__ void matmul(\0\x01", 37);
    EXPECT_EQ(ts::model::user_kernel_problem(binary), "the file is not text (it holds a NUL byte or is not UTF-8)");
    EXPECT_EQ(ts::model::user_kernel_problem("\xff\xfe k"), "the file is not text (it holds a NUL byte or is not UTF-8)");
    // UTF-8 is text: this one is refused for its missing kernel, not as binary.
    EXPECT_NE(ts::model::user_kernel_problem("// A·B ✓")->find("no kernel"), std::string::npos);
    const auto wrong = ts::model::user_kernel_problem("__global__ void my_gemm(float* c) {}");
    ASSERT_TRUE(wrong);
    EXPECT_NE(wrong->find("no kernel with TileScope's signature"), std::string::npos) << *wrong;
}

TEST(UserKernel, TheCompilersLogReadsBack) {
    const std::string log =
        "my.cu(3): error: identifier \"undefined_thing\" is undefined\n"
        "    float s = undefined_thing;\n"
        "              ^\n"
        "\n"
        "my.cu(6): error: expected a \";\"\n"
        "  }\n"
        "  ^\n"
        "\n"
        "my.cu(4): warning #177-D: variable \"unused\" was declared but never referenced\n"
        "    int unused = 3;\n"
        "        ^\n"
        "\n"
        "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
        "\n"
        "2 errors detected in the compilation of \"my.cu\".\n";
    const auto d = ts::model::parse_compiler_log(log, "my.cu");
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0], (Diagnostic{3, 13, Severity::Error, "identifier \"undefined_thing\" is undefined"}));
    EXPECT_EQ(d[1], (Diagnostic{6, 1, Severity::Error, "expected a \";\""}));
    EXPECT_EQ(d[2], (Diagnostic{4, 7, Severity::Warning, "variable \"unused\" was declared but never referenced (#177-D)"}));
    // Another file's messages, or lines that only look alike, are not the file's.
    EXPECT_TRUE(ts::model::parse_compiler_log(log, "other.cu").empty());
    EXPECT_TRUE(ts::model::parse_compiler_log("my.cu(x): error: y\nmy.cu(0): error: z\nmy.cu(2) error: w\n", "my.cu").empty());
    // A message without a caret has no column.
    EXPECT_EQ(ts::model::parse_compiler_log("my.cu(9): error: too much shared data\n", "my.cu"),
              (std::vector<Diagnostic>{{9, 0, Severity::Error, "too much shared data"}}));
}

// The starters are the rungs' own kernels: the statements that do the work are the rungs' lines
// with TileScope's index helpers written out.
TEST(UserKernel, TheStartersDoTheRungsOwnWork) {
    const auto read = [](const char* name) {
        std::ifstream in(std::string(TILESCOPE_KERNELS_DIR) + "/" + name);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    const std::string naive_rung = read("01_naive.cu");
    const std::string tiled_rung = read("05_tiled.cu");
    ASSERT_FALSE(naive_rung.empty());
    ASSERT_FALSE(tiled_rung.empty());
    const std::string naive = ts::model::starter_kernel(ts::model::Starter::Naive);
    const std::string tiled = ts::model::starter_kernel(ts::model::Starter::Tiled);
    EXPECT_NE(naive_rung.find("for (int i = 0; i < k; ++i) sum += a[row_major(row, i, k)] * b[row_major(i, col, n)];"),
              std::string::npos);
    EXPECT_NE(naive.find("for (int i = 0; i < K; ++i) sum += A[row * K + i] * B[i * N + col];"), std::string::npos);
    for (const char* line : {"for (int i = 0; i < Tile; ++i) sum += as[ty][i] * bs[i][tx];", "as[ty][tx] = inside(row, a_col, m, k)",
                             "__syncthreads();"})
        EXPECT_NE(tiled_rung.find(line), std::string::npos) << line;
    for (const char* line : {"for (int i = 0; i < TILE; ++i) sum += as[ty][i] * bs[i][tx];",
                             "as[ty][tx] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;", "__syncthreads();"})
        EXPECT_NE(tiled.find(line), std::string::npos) << line;
    // Both barriers, as in the rung.
    EXPECT_EQ(tiled.find("__syncthreads();", tiled.find("__syncthreads();") + 1) != std::string::npos, true);
}

}  // namespace
