// The man pages cmake/ManPages.cmake makes with help2man from the programs' --help: there, and
// holding the flags and commands a reader looks for, with the installed paths rather than the
// build machine's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string man_page(const std::string& name) {
    std::ifstream in(fs::path(TILESCOPE_MAN_DIR) / (name + ".1"), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// help2man writes a flag's hyphens as \-.
std::string roff(std::string flag) {
    for (std::size_t at = 0; (at = flag.find('-', at)) != std::string::npos; at += 2) flag.insert(at, "\\");
    return flag;
}

TEST(ManPages, TilescopeNamesItsFlags) {
#if !defined(TILESCOPE_MAN_PAGES) || !defined(TILESCOPE_MAN_PAGE_APP)
    GTEST_SKIP() << "no man page for tilescope in this build (help2man was not found, or no GUI is built)";
#else
    const std::string page = man_page("tilescope");
    ASSERT_FALSE(page.empty()) << "build/man/tilescope.1 is missing or empty";
    EXPECT_NE(page.find(".TH TILESCOPE \"1\""), std::string::npos);
    for (const char* flag : {"--view", "--screenshot", "--presenter", "--lesson", "--export-animation", "--kernel-file"})
        EXPECT_NE(page.find(roff(flag)), std::string::npos) << flag;
    EXPECT_NE(page.find("settings.ini"), std::string::npos);
    EXPECT_NE(page.find("/usr/share/tilescope"), std::string::npos) << "the installed data folder";
    // UTF-8 kept: help2man's own locale, C, turns the help's "Okabe–Ito" into "Okabe???Ito".
    EXPECT_NE(page.find("Okabe–Ito"), std::string::npos);
    EXPECT_EQ(page.find("???"), std::string::npos);
#endif
}

TEST(ManPages, TilescopeCliNamesEveryCommandAndItsFlags) {
#ifndef TILESCOPE_MAN_PAGES
    GTEST_SKIP() << "no man pages in this build: help2man was not found when CMake ran";
#else
    const std::string page = man_page("tilescope-cli");
    ASSERT_FALSE(page.empty()) << "build/man/tilescope-cli.1 is missing or empty";
    EXPECT_NE(page.find(".SH COMMANDS"), std::string::npos);
    for (const char* command : {"bench", "check", "tune", "roofline", "record", "counters", "experiment", "kernel", "compact"})
        EXPECT_NE(page.find(std::string(".SS ") + command + "\n"), std::string::npos) << command;
    // Flags of the commands, from each one's own --help.
    for (const char* flag : {"--settle", "--json-samples", "--hot", "--compile-only", "--trace-out", "--quick"})
        EXPECT_NE(page.find(flag), std::string::npos) << flag;
    // The worker is started by the app, not by people, and is left out.
    EXPECT_EQ(page.find(".SS worker"), std::string::npos);
    // The reader's home, not the build machine's.
    EXPECT_NE(page.find("~/.local/share/tilescope/tuned-shapes.ini"), std::string::npos);
    EXPECT_NE(page.find("p20–p80"), std::string::npos);
    EXPECT_EQ(page.find("???"), std::string::npos);
#endif
}

}  // namespace
