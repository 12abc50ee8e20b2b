// repo_text.hpp — reading the repository's own text for tests/repo: its files, the scripts a
// page names, and its Markdown pages (README.md and docs/).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ts::repo_test {

namespace fs = std::filesystem;

inline const fs::path kSourceDir = TILESCOPE_SOURCE_DIR;

inline std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The names after "scripts/" in TEXT: "scripts/test-distros trixie" names test-distros,
// "scripts/lsan-suppressions.txt" names lsan-suppressions.txt, "scripts/" alone nothing.
inline std::set<std::string> scripts_named_in(const std::string& text) {
    static const std::regex kScript(R"((^|[^A-Za-z0-9_./-])scripts/([A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?))");
    std::set<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kScript); it != std::sregex_iterator(); ++it)
        names.insert((*it)[2]);
    return names;
}

inline bool is_executable(const fs::path& path) {
    return (fs::status(path).permissions() & fs::perms::owner_exec) != fs::perms::none;
}

inline bool starts_with_shebang(const fs::path& path) { return read_file(path).starts_with("#!"); }

// README.md and every .md under docs/, sorted.
inline std::vector<fs::path> markdown_pages() {
    std::vector<fs::path> pages{kSourceDir / "README.md"};
    if (fs::is_directory(kSourceDir / "docs"))
        for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "docs"))
            if (entry.is_regular_file() && entry.path().extension() == ".md") pages.push_back(entry.path());
    std::sort(pages.begin() + 1, pages.end());
    return pages;
}

}  // namespace ts::repo_test
