// Every script the README names (`scripts/NAME`) exists and is executable, and so is every
// script in scripts/: a clone gets the executable bit from git, and a script without it
// fails the README's command with "Permission denied" (scripts/test-distros once did).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "repo_text.hpp"

namespace {

using namespace ts::repo_test;

TEST(ReadmeScripts, FindsEveryNameAndOnlyNames) {
    const auto names = scripts_named_in(
        "```sh\nscripts/run     # builds\nscripts/test-distros trixie\n```\n"
        "`scripts/test-sanitizers`, (scripts/fuzz 60) and scripts/lsan-suppressions.txt.\n"
        "scripts/        run, test\napp/scripts/x tests/scripts/y\n");
    EXPECT_EQ(names, (std::set<std::string>{"run", "test-distros", "test-sanitizers", "fuzz",
                                            "lsan-suppressions.txt"}));
}

TEST(ReadmeScripts, EveryScriptNamedExistsAndIsExecutable) {
    const auto readme = kSourceDir / "README.md";
    ASSERT_TRUE(fs::exists(readme)) << readme;
    const auto names = scripts_named_in(read_file(readme));
    // The README's two commands at least; fewer means the pattern no longer matches it.
    ASSERT_TRUE(names.count("run") && names.count("test")) << "README.md names no scripts/run or scripts/test";
    for (const auto& name : names) {
        const auto path = kSourceDir / "scripts" / name;
        SCOPED_TRACE("README.md names scripts/" + name);
        ASSERT_TRUE(fs::is_regular_file(path)) << path << " does not exist";
        if (starts_with_shebang(path) || fs::path(name).extension().empty()) {
            EXPECT_TRUE(is_executable(path)) << path << " is not executable: git update-index --chmod=+x " << path;
        }
    }
}

TEST(ReadmeScripts, EveryScriptInScriptsIsExecutable) {
    int scripts = 0;
    for (const auto& entry : fs::directory_iterator(kSourceDir / "scripts")) {
        if (!entry.is_regular_file() || !starts_with_shebang(entry.path())) continue;
        ++scripts;
        EXPECT_TRUE(is_executable(entry.path()))
            << entry.path() << " starts with #! but is not executable: git update-index --chmod=+x " << entry.path();
    }
    EXPECT_GE(scripts, 2);
}

}  // namespace
