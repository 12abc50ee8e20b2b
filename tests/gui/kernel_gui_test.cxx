// The kernel editor (--view kernel) in a real window: a kernel that does not compile, opened with
// --kernel-file and compiled with --run through the real GPU worker (NVRTC needs no GPU), has its
// lines marked in the gutter and its messages on stderr; at 1× and in presenter mode at 2×. Skips
// where NVRTC cannot be loaded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gui_harness.hpp"
#include "views/common/theme.hpp"

namespace {

using namespace ts::test;
namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A kernel whose line 4 uses a name never declared.
std::string broken_kernel_file(const std::string& test) {
    const fs::path path = out_path("kernel-" + test + ".cu");
    std::ofstream(path) << "// grid:   cdiv(N, 16), cdiv(M, 16)\n// block:  16, 16\n// shared: 0\n"
                           "extern \"C\" __global__ void matmul(const float* A, const float* B, float* C, int M, int "
                           "N, int K) { C[0] = undeclared; }\n";
    return path.string();
}

void expect_marked(const std::string& name, const std::string& flags) {
    std::string printed;
    const Image image = screenshot(name + ".png", "--view kernel --run --kernel-file '" + broken_kernel_file(name) +
                                                      "' " + flags,
                                   &printed);
    if (has(printed, "NVRTC") && !has(printed, "compiled for") && !has(printed, "does not compile"))
        GTEST_SKIP() << "NVRTC is not usable here: " << printed;
    EXPECT_TRUE(has(printed, "tilescope: --run: kernel-" + name + ".cu: the kernel does not compile")) << printed;
    EXPECT_TRUE(has(printed, ".cu:4:")) << printed;
    EXPECT_TRUE(has(printed, "identifier \"undeclared\" is undefined")) << printed;
    EXPECT_GT(distinct_colours(image), 50) << "the screenshot looks blank";
    // The gutter's mark of line 4: the error colour (a strong red in every palette), solid, in the
    // editor's left part, right of the panel (which has the colour only in its thin text).
    const int marks = image.count_if([](Rgb p) { return p.r > 150 && p.g < 70 && p.b < 70; }, 0.3f, 0.1f, 0.45f, 0.6f);
    EXPECT_GT(marks, 20) << "no line marked in the editor";
}

TEST(KernelGui, TheCompilersErrorsAreMarkedInTheEditor) { expect_marked("one", ""); }

TEST(KernelGui, AndSoInPresenterModeAt2x) { expect_marked("presenter", "--presenter --width 1920 --height 1080"); }

}  // namespace
