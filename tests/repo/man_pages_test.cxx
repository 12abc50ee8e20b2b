// The man pages cmake/ManPages.cmake makes with help2man from the programs' --help: there, and
// holding the flags and commands a reader looks for, with the installed paths rather than the
// build machine's. Through them, every flag a command in README.md or docs/ quotes is one the
// program has.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "repo_text.hpp"

namespace {

namespace fs = std::filesystem;
using ts::repo_test::markdown_pages;
using ts::repo_test::read_file;

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

// The text of tilescope-cli.1 from ".SS COMMAND" to the next section: that command's --help.
std::string command_help(const std::string& page, const std::string& command) {
    const auto start = page.find(".SS " + command + "\n");
    if (start == std::string::npos) return "";
    const auto end = page.find("\n.S", start + 1);
    return page.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Whether HELP names FLAG whole: --k is not --k-step.
bool names_flag(const std::string& help, const std::string& flag) {
    for (std::size_t at = help.find(flag); at != std::string::npos; at = help.find(flag, at + 1)) {
        const std::size_t after = at + flag.size();
        if (after == help.size() || !(std::isalnum(static_cast<unsigned char>(help[after])) || help[after] == '-')) return true;
    }
    return false;
}

TEST(ManPages, EveryFlagTheManualQuotesIsTheProgramsOwn) {
#if !defined(TILESCOPE_MAN_PAGES) || !defined(TILESCOPE_MAN_PAGE_APP)
    GTEST_SKIP() << "no man pages in this build (help2man was not found, or no GUI is built)";
#else
    const std::string app = man_page("tilescope"), cli = man_page("tilescope-cli");
    ASSERT_FALSE(app.empty() || cli.empty());
    // A command: tilescope or tilescope-cli at the start of a line or after a space, backtick or
    // bracket, and its words up to the end of the code, a # comment or a closing bracket.
    static const std::regex kCommand(R"((^|[\s`(])(tilescope(-cli)?)((?: +[^\s`#)]+)*))");
    int commands = 0;
    for (const fs::path& page : markdown_pages()) {
        std::string text = read_file(page);
        // Shell lines continued with a backslash are one command.
        for (std::size_t at; (at = text.find("\\\n")) != std::string::npos;) text.replace(at, 2, " ");
        std::istringstream lines(text);
        std::string line;
        for (int n = 1; std::getline(lines, line); ++n) {
            for (auto it = std::sregex_iterator(line.begin(), line.end(), kCommand); it != std::sregex_iterator(); ++it) {
                std::istringstream words((*it)[4].str());
                std::vector<std::string> args;
                for (std::string word; words >> word;) args.push_back(word);
                if (args.empty()) continue;
                // tilescope COMMAND and tilescope-cli COMMAND take that command's flags.
                const std::string command = command_help(cli, args[0]).empty() ? "" : args[0];
                const bool cli_only = (*it)[2] == "tilescope-cli";
                ++commands;
                for (std::string arg : args) {
                    if (!arg.starts_with("--") || arg == "--help") continue;
                    arg = arg.substr(0, arg.find('='));
                    while (!arg.empty() && (arg.back() == ',' || arg.back() == '.' || arg.back() == ';')) arg.pop_back();
                    SCOPED_TRACE(fs::relative(page, ts::repo_test::kSourceDir).generic_string() + ":" +
                                 std::to_string(n) + ": " + (*it)[0].str());
                    if (!command.empty()) EXPECT_TRUE(names_flag(command_help(cli, command), arg)) << command << " has no " << arg;
                    else if (!cli_only) EXPECT_TRUE(names_flag(app, roff(arg))) << "tilescope has no " << arg;
                }
            }
        }
    }
    EXPECT_GE(commands, 50) << "fewer commands than the manual quotes: the pattern no longer finds them";
#endif
}

}  // namespace
