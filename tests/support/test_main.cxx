// The main of every test program: it starts in the folder of its own binary, whoever starts it
// and from wherever. The paths CMake compiles into the tests (the data they read, the programs
// they run: tilescope_test_paths in tests/CMakeLists.txt) are relative to that folder, so the
// compiled tests do not name the clone's directory, and ccache reuses them in a clone at another
// path (CI builds a fresh clone each time).
#include <gtest/gtest.h>

#include <filesystem>

int main(int argc, char** argv) {
    std::filesystem::current_path(std::filesystem::read_symlink("/proc/self/exe").parent_path());
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
