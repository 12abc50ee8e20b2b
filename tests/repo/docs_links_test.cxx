// The manual holds together: every relative link in README.md and docs/**/*.md leads to a file
// or folder that exists, and a link to #anchor to a heading of its page (GitHub's slug); every
// script the pages name exists and is executable; every page of docs/ is linked from the README.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "repo_text.hpp"

namespace {

using namespace ts::repo_test;

// The text of a page outside its fenced code blocks (``` or ~~~), one string per line, with
// inline code spans blanked: links and headings inside code are not links and headings. A code
// span may go on over a line break, not past the paragraph's end.
std::vector<std::string> prose_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    bool fenced = false;
    bool in_code = false;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(' ');
        const std::string trimmed = first == std::string::npos ? "" : line.substr(first);
        if (trimmed.starts_with("```") || trimmed.starts_with("~~~")) {
            fenced = !fenced;
            lines.emplace_back();
            continue;
        }
        if (fenced) {
            lines.emplace_back();
            continue;
        }
        if (trimmed.empty()) in_code = false;
        // Blank `code spans`, keeping the line's length.
        for (char& c : line) {
            if (c == '`') in_code = !in_code;
            else if (in_code) c = ' ';
        }
        lines.push_back(line);
    }
    return lines;
}

// The next UTF-8 code point of TEXT at I, and I moved past it.
std::uint32_t next_code_point(const std::string& text, std::size_t& i) {
    const auto byte = static_cast<unsigned char>(text[i++]);
    if (byte < 0x80) return byte;
    const int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1;
    std::uint32_t code = byte & (0x3F >> extra);
    for (int k = 0; k < extra && i < text.size(); ++k) code = (code << 6) | (static_cast<unsigned char>(text[i++]) & 0x3F);
    return code;
}

// GitHub's anchor for a heading: lower case, spaces to hyphens, punctuation and symbols left
// out (ASCII ones, Latin-1's signs such as ³ and ×, and U+2000–U+2BFF: dashes, quotes,
// arrows); letters of other scripts kept as they are.
std::string heading_slug(const std::string& heading) {
    std::string slug;
    for (std::size_t i = 0; i < heading.size();) {
        const std::size_t start = i;
        const std::uint32_t c = next_code_point(heading, i);
        if (c < 0x80) {
            if (std::isalnum(static_cast<int>(c))) slug += static_cast<char>(std::tolower(static_cast<int>(c)));
            else if (c == ' ') slug += '-';
            else if (c == '-' || c == '_') slug += static_cast<char>(c);
            continue;
        }
        const bool sign = (c >= 0xA0 && c <= 0xBF) || c == 0xD7 || c == 0xF7 || (c >= 0x2000 && c <= 0x2BFF);
        if (!sign) slug += heading.substr(start, i - start);
    }
    return slug;
}

// Every anchor a page's headings give, a repeated one numbered as GitHub does (x, x-1, x-2).
std::set<std::string> anchors_of(const fs::path& page) {
    std::set<std::string> anchors;
    std::map<std::string, int> seen;
    for (const std::string& line : prose_lines(read_file(page))) {
        std::size_t level = 0;
        while (level < line.size() && line[level] == '#') ++level;
        if (level == 0 || level > 6 || level >= line.size() || line[level] != ' ') continue;
        std::string text = line.substr(level + 1);
        while (!text.empty() && (text.back() == '#' || text.back() == ' ')) text.pop_back();
        std::string anchor = heading_slug(text);
        if (const int n = seen[anchor]++; n > 0) anchor += "-" + std::to_string(n);
        anchors.insert(anchor);
    }
    return anchors;
}

struct Link {
    int line;
    std::string target;
};

// The targets of the page's inline links and images, "](target)", outside code.
std::vector<Link> links_of(const fs::path& page) {
    static const std::regex kLink(R"(\]\(([^)\s]+)(\s+"[^"]*")?\))");
    std::vector<Link> links;
    const auto lines = prose_lines(read_file(page));
    for (std::size_t n = 0; n < lines.size(); ++n)
        for (auto it = std::sregex_iterator(lines[n].begin(), lines[n].end(), kLink); it != std::sregex_iterator(); ++it)
            links.push_back({static_cast<int>(n) + 1, (*it)[1]});
    return links;
}

bool is_external(const std::string& target) {
    return target.find("://") != std::string::npos || target.starts_with("mailto:");
}

std::string page_name(const fs::path& page) { return fs::relative(page, kSourceDir).generic_string(); }

TEST(DocsLinks, SlugsAreGitHubs) {
    EXPECT_EQ(heading_slug("The tiling theatre"), "the-tiling-theatre");
    EXPECT_EQ(heading_slug("FP32 on an H100, 2026-11-24"), "fp32-on-an-h100-2026-11-24");
    EXPECT_EQ(heading_slug("tc-tuned's candidates"), "tc-tuneds-candidates");
    EXPECT_EQ(heading_slug("The app's own speed and stamina"), "the-apps-own-speed-and-stamina");
    EXPECT_EQ(heading_slug("2026-11-28, H100: the clock beside the time, and --settle"),
              "2026-11-28-h100-the-clock-beside-the-time-and---settle");
    EXPECT_EQ(heading_slug("How 18 got from 85–90 % to 4096³"), "how-18-got-from-8590--to-4096");
}

TEST(DocsLinks, FindsLinksAndHeadingsOutsideCodeOnly) {
    const auto lines = prose_lines(
        "# Title\n[a](x.md) `[b](y.md)`\n```\n# not a heading [c](z.md)\n```\n![d [1]](e.png) `code\n"
        "[f](g.md)` [h](i.md)\n");
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(lines[0], "# Title");
    EXPECT_NE(lines[1].find("x.md"), std::string::npos);
    EXPECT_EQ(lines[1].find("y.md"), std::string::npos);
    EXPECT_EQ(lines[3], "");
    EXPECT_NE(lines[5].find("e.png"), std::string::npos);
    EXPECT_EQ(lines[6].find("g.md"), std::string::npos);
    EXPECT_NE(lines[6].find("i.md"), std::string::npos);
}

TEST(DocsLinks, ThereAreDocs) {
    const auto pages = markdown_pages();
    // README.md and at least the manual's pages the README links to.
    EXPECT_GE(pages.size(), 10u);
    for (const char* page : {"using.md", "cli.md", "ladders.md", "architecture.md"})
        EXPECT_TRUE(fs::is_regular_file(kSourceDir / "docs" / page)) << "docs/" << page;
}

TEST(DocsLinks, EveryRelativeLinkLeadsSomewhere) {
    int checked = 0;
    for (const fs::path& page : markdown_pages()) {
        for (const Link& link : links_of(page)) {
            if (is_external(link.target)) continue;
            SCOPED_TRACE(page_name(page) + ":" + std::to_string(link.line) + ": (" + link.target + ")");
            ++checked;
            const auto hash = link.target.find('#');
            const std::string path = link.target.substr(0, hash);
            const fs::path target = path.empty() ? page : (page.parent_path() / path).lexically_normal();
            ASSERT_TRUE(fs::exists(target)) << target << " does not exist";
            if (hash == std::string::npos) continue;
            const std::string anchor = link.target.substr(hash + 1);
            ASSERT_EQ(target.extension(), ".md") << "an #anchor into a file that is not Markdown";
            const auto anchors = anchors_of(target);
            EXPECT_TRUE(anchors.contains(anchor)) << page_name(target) << " has no heading whose anchor is #" << anchor;
        }
    }
    EXPECT_GE(checked, 50) << "fewer links than the manual has: the pattern no longer finds them";
}

TEST(DocsLinks, EveryScriptNamedExistsAndIsExecutable) {
    for (const fs::path& page : markdown_pages()) {
        for (const std::string& name : scripts_named_in(read_file(page))) {
            const auto path = kSourceDir / "scripts" / name;
            SCOPED_TRACE(page_name(page) + " names scripts/" + name);
            ASSERT_TRUE(fs::is_regular_file(path)) << path << " does not exist";
            if (starts_with_shebang(path) || fs::path(name).extension().empty()) {
                EXPECT_TRUE(is_executable(path)) << path << " is not executable: git update-index --chmod=+x " << path;
            }
        }
    }
}

TEST(DocsLinks, TheReadmeLinksEveryPageOfTheManual) {
    std::set<std::string> linked;
    for (const Link& link : links_of(kSourceDir / "README.md"))
        linked.insert(link.target.substr(0, link.target.find('#')));
    for (const auto& entry : fs::directory_iterator(kSourceDir / "docs")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".md") continue;
        const std::string name = "docs/" + entry.path().filename().string();
        EXPECT_TRUE(linked.contains(name)) << "README.md does not link " << name;
    }
}

}  // namespace
