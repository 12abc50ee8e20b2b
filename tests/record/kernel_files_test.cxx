// The learner's kernel files and the editor's draft (record/kernel_files.hpp): where they live,
// names that are refused, a file written whole, bad files read back with a reason, and a draft
// that survives and one that is broken.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "model/user_kernel/source.hpp"
#include "record/kernel_files.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ts::record;

fs::path fresh_dir(const std::string& name) {
    // The process id keeps two test runs at once (two build trees, ctest -j) out of each other's folder.
    const fs::path dir = fs::temp_directory_path() / ("tilescope-kernel-files-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    return dir;
}

TEST(KernelFiles, TheyLiveUnderTheXdgFolders) {
    const char* data = std::getenv("XDG_DATA_HOME");
    const char* state = std::getenv("XDG_STATE_HOME");
    const std::string old_data = data ? data : "", old_state = state ? state : "";
    setenv("XDG_DATA_HOME", "/somewhere/data", 1);
    setenv("XDG_STATE_HOME", "/somewhere/state", 1);
    EXPECT_EQ(user_kernels_dir(), fs::path("/somewhere/data/tilescope/kernels"));
    EXPECT_EQ(kernel_draft_path(), fs::path("/somewhere/state/tilescope/kernel-draft.json"));
    setenv("XDG_DATA_HOME", "relative", 1);  // ignored, as the specification says
    EXPECT_NE(user_kernels_dir().string().find(".local/share/tilescope/kernels"), std::string::npos);
    old_data.empty() ? unsetenv("XDG_DATA_HOME") : setenv("XDG_DATA_HOME", old_data.c_str(), 1);
    old_state.empty() ? unsetenv("XDG_STATE_HOME") : setenv("XDG_STATE_HOME", old_state.c_str(), 1);
}

TEST(KernelFiles, NamesAreCuFilesInTheFolder) {
    EXPECT_EQ(kernel_name_problem("mine.cu"), std::nullopt);
    EXPECT_TRUE(kernel_name_problem("mine.cpp"));
    EXPECT_TRUE(kernel_name_problem(".cu"));
    EXPECT_TRUE(kernel_name_problem(".hidden.cu"));
    EXPECT_TRUE(kernel_name_problem("../up.cu"));
    EXPECT_TRUE(kernel_name_problem(std::string(120, 'k') + ".cu"));
}

TEST(KernelFiles, WrittenWholeListedAndReadBack) {
    const fs::path dir = fresh_dir("write");
    EXPECT_TRUE(list_kernel_files(dir).empty());  // not there yet
    const std::string tiled = ts::model::starter_kernel(ts::model::Starter::Tiled);
    ASSERT_EQ(write_kernel_file(dir / "b.cu", tiled), std::nullopt);
    ASSERT_EQ(write_kernel_file(dir / "a.cu", tiled), std::nullopt);
    std::ofstream(dir / "notes.txt") << "not a kernel";
    EXPECT_EQ(list_kernel_files(dir), (std::vector<std::string>{"a.cu", "b.cu"}));
    const auto back = read_kernel_file(dir / "a.cu");
    ASSERT_EQ(back.index(), 0u) << std::get<1>(back);
    EXPECT_EQ(std::get<0>(back), tiled);
    // Nothing but the two files: the temporary one was renamed away.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 3);
    EXPECT_TRUE(write_kernel_file("/proc/no/such/place.cu", tiled));
}

TEST(KernelFiles, BadFilesSayWhy) {
    const fs::path dir = fresh_dir("bad");
    fs::create_directories(dir);
    const auto why = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name, std::ios::binary) << text;
        const auto read = read_kernel_file(dir / name);
        return read.index() == 1 ? std::get<1>(read) : std::string("read");
    };
    EXPECT_NE(why("empty.cu", "").find("the file is empty"), std::string::npos);
    EXPECT_NE(why("huge.cu", std::string(10 << 20, ' ')).find("at most 1048576"), std::string::npos);
    EXPECT_NE(why("binary.cu", std::string("\x7f" "ELF\0\0\x01", 7)).find("not text"), std::string::npos);
    EXPECT_NE(why("wrong.cu", "__global__ void gemm(float* c) {}").find("no kernel with TileScope's signature"),
              std::string::npos);
    const auto missing = read_kernel_file(dir / "missing.cu");
    ASSERT_EQ(missing.index(), 1u);
    EXPECT_NE(std::get<1>(missing).find("cannot open"), std::string::npos);
}

TEST(KernelFiles, ADraftSurvivesAndABrokenOneIsIgnored) {
    const fs::path dir = fresh_dir("draft");
    const fs::path path = dir / "kernel-draft.json";
    EXPECT_EQ(load_draft(path), std::nullopt);
    const KernelDraft draft{"mine.cu", "// half typed “✓”\nextern \"C\" __global__ void matmul(\n"};
    ASSERT_EQ(save_draft(path, draft), std::nullopt);
    EXPECT_EQ(load_draft(path), draft);
    // Bytes that are not UTF-8 are kept as replacement characters, not lost with the draft.
    ASSERT_EQ(save_draft(path, {"x.cu", "a\xff" "b"}), std::nullopt);
    ASSERT_TRUE(load_draft(path));
    EXPECT_EQ(load_draft(path)->source, "a\xEF\xBF\xBD" "b");
    std::ofstream(path) << "{\"draft\": \"tilescope-kernel\", \"name\": 3}";
    EXPECT_EQ(load_draft(path), std::nullopt);
    std::ofstream(path) << "not json";
    EXPECT_EQ(load_draft(path), std::nullopt);
    remove_draft(path);
    EXPECT_FALSE(fs::exists(path));
}

}  // namespace
