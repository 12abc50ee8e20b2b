// Code comments describe the code as it is: no dates in the comments of app/ and kernels/ (the
// history is in docs/notes/ and the commit log), every file in kernels/ opens with at most 20
// lines of comment, a rung's saying what it teaches, what changed from the previous rung and its
// traffic or why, and a comment that names a file of kernels/ names one that exists. A failure
// names the file and the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

// Named, around the anonymous namespace: the unity build compiles this file in one batch with
// scripts_test.cxx, which has a kSourceDir and a read_file of its own.
namespace code_comments {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = TILESCOPE_SOURCE_DIR;
constexpr int kMostHeaderLines = 20;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

struct CommentLine {
    int line;          // from 1
    std::string text;  // the part of the line inside a comment
};

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The comment text of C++ or CUDA source, line by line: what `//` starts, and what lies between
// `/*` and `*/`; string literals (raw ones too) and character literals are code, and a `'` after a
// digit or letter is a digit separator (1'024) or a literal's prefix, not the start of a literal.
std::vector<CommentLine> comment_lines(std::string_view text) {
    std::vector<CommentLine> comments;
    int line = 1;
    auto add = [&](char c) {
        if (comments.empty() || comments.back().line != line) comments.push_back({line, {}});
        comments.back().text += c;
    };
    std::size_t i = 0;
    const auto at = [&](std::size_t j) { return j < text.size() ? text[j] : '\0'; };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (c == '/' && at(i + 1) == '/') {
            for (i += 2; i < text.size() && text[i] != '\n'; ++i) add(text[i]);
        } else if (c == '/' && at(i + 1) == '*') {
            for (i += 2; i < text.size() && !(text[i] == '*' && at(i + 1) == '/'); ++i) {
                if (text[i] == '\n')
                    ++line;
                else
                    add(text[i]);
            }
            i += 2;
        } else if (c == 'R' && at(i + 1) == '"' && (i == 0 || !is_word_char(text[i - 1]) || text[i - 1] == '8' ||
                                                     text[i - 1] == 'u' || text[i - 1] == 'U' || text[i - 1] == 'L')) {
            const std::size_t open = text.find('(', i + 2);
            if (open == std::string_view::npos) break;
            const std::string close = ")" + std::string(text.substr(i + 2, open - i - 2)) + "\"";
            const std::size_t end = text.find(close, open);
            const std::size_t stop = end == std::string_view::npos ? text.size() : end + close.size();
            for (; i < stop; ++i)
                if (text[i] == '\n') ++line;
        } else if (c == '"' || (c == '\'' && (i == 0 || !is_word_char(text[i - 1])))) {
            for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i)
                if (text[i] == '\\') ++i;
            ++i;
        } else {
            ++i;
        }
    }
    return comments;
}

// The comment text of CMake, shell or Python source, line by line: what `#` starts where it
// begins a word (so `$#` and `${#x}` in a script are code), outside a quoted string; `'` quotes
// only in shell and Python.
std::vector<CommentLine> hash_comment_lines(std::string_view text, bool single_quotes) {
    std::vector<CommentLine> comments;
    int line = 1;
    char quote = '\0';
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
        } else if (quote != '\0') {
            if (c == '\\' && quote == '"')
                ++i;
            else if (c == quote)
                quote = '\0';
        } else if (c == '"' || (c == '\'' && single_quotes)) {
            quote = c;
        } else if (c == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '(' ||
                                text[i - 1] == ';')) {
            std::size_t end = text.find('\n', i);
            if (end == std::string_view::npos) end = text.size();
            comments.push_back({line, std::string(text.substr(i + 1, end - i - 1))});
            i = end - 1;
        }
    }
    return comments;
}

enum class Language { None, C, CMake, Script };

// By the file's name: C++ and CUDA; CMake; shell and Python (by extension, or by a `#!` first
// line where there is none). "x.hpp.in" is what "x.hpp" is.
Language language_of(const fs::path& path) {
    static const std::set<std::string> kC = {".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".cu", ".cuh"};
    std::string name = path.filename().string();
    if (name.ends_with(".in")) name.resize(name.size() - 3);
    const std::string extension = fs::path(name).extension().string();
    if (kC.count(extension)) return Language::C;
    if (name == "CMakeLists.txt" || extension == ".cmake") return Language::CMake;
    if (extension == ".sh" || extension == ".py") return Language::Script;
    if (extension.empty()) {
        std::ifstream in(path, std::ios::binary);
        char start[2] = {};
        in.read(start, 2);
        if (start[0] == '#' && start[1] == '!') return Language::Script;
    }
    return Language::None;
}

std::vector<CommentLine> comments_of(const fs::path& path) {
    switch (language_of(path)) {
        case Language::C: return comment_lines(read_file(path));
        case Language::CMake: return hash_comment_lines(read_file(path), false);
        case Language::Script: return hash_comment_lines(read_file(path), true);
        case Language::None: break;
    }
    return {};
}

// Every file under DIR whose comments this test can read, in order.
std::vector<fs::path> sources_under(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file() && language_of(entry.path()) != Language::None) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string name_in_repository(const fs::path& file) { return fs::relative(file, kSourceDir).generic_string(); }

// The opening comment of a C++ or CUDA file: the comment lines before its first line of code
// (blank lines between them are not counted, and do not end it), and the line of the one past
// the limit, 0 when there is none.
struct Header {
    int lines = 0;
    int line_past_limit = 0;
    std::string text;  // its lines, one after another
};

Header header_of(std::string_view text) {
    Header header;
    int line_number = 0;
    bool in_block = false;
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) {
        ++line_number;
        const std::size_t first = line.find_first_not_of(" \t\r");
        const std::string_view trimmed =
            first == std::string::npos ? std::string_view() : std::string_view(line).substr(first);
        if (in_block) {
            in_block = trimmed.find("*/") == std::string_view::npos;
        } else if (trimmed.empty()) {
            continue;
        } else if (trimmed.starts_with("//")) {
        } else if (trimmed.starts_with("/*")) {
            in_block = trimmed.find("*/", 2) == std::string_view::npos;
        } else {
            break;
        }
        if (++header.lines == kMostHeaderLines + 1) header.line_past_limit = line_number;
        header.text += line + "\n";
    }
    return header;
}

// A date: YYYY-MM-DD, or a month and a day ("Dec 3", "on November 26th", "3 Dec").
bool has_date(const std::string& comment) {
    static const std::regex kIsoDate(R"((^|[^0-9])(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([^0-9]|$))");
    static const std::string kMonth =
        "(Jan(uary)?|Feb(ruary)?|Mar(ch)?|Apr(il)?|May|June?|July?|Aug(ust)?|Sep(t(ember)?)?|Oct(ober)?|"
        "Nov(ember)?|Dec(ember)?)";
    static const std::regex kMonthDay("\\b" + kMonth + "\\.? [0-3]?[0-9](st|nd|rd|th)?([^0-9A-Za-z]|$)");
    static const std::regex kDayMonth("(^|[^0-9.,])[0-3]?[0-9](st|nd|rd|th)? " + kMonth + "\\b");
    return std::regex_search(comment, kIsoDate) || std::regex_search(comment, kMonthDay) ||
           std::regex_search(comment, kDayMonth);
}

std::vector<CommentLine> dated(const std::vector<CommentLine>& comments) {
    std::vector<CommentLine> found;
    for (const CommentLine& comment : comments)
        if (has_date(comment.text)) found.push_back(comment);
    return found;
}

// The files of kernels/ a comment names: "kernels/common/launchers.hpp", a CUDA file as
// "common/recording.cuh" or "experiments/tiled_variant.cuh" (under kernels/; app/views has a
// common/ and an experiments/ of its own, without CUDA), and a rung's file or a CUDA header by its
// name alone ("05_tiled.cu", "hopper_common.cuh"), found anywhere under kernels/. A pattern such
// as "kernels/*_recorded.cu" names no one file.
struct NamedFile {
    std::string name;  // as the comment writes it
    bool bare = false;  // a name alone: look for it anywhere under kernels/
};

std::vector<NamedFile> kernel_files_named_in(const std::string& comment) {
    static const std::regex kPath(R"((^|[^A-Za-z0-9_./*-]))"
                                  R"((kernels/[A-Za-z0-9_/]+\.(cuh|cu|hpp|cxx)|)"
                                  R"((common|experiments)/[A-Za-z0-9_]+\.(cuh|cu))\b)");
    static const std::regex kBare(R"((^|[^A-Za-z0-9_./*-])([0-9][0-9]_[A-Za-z0-9_]+\.(cuh|cu)|[A-Za-z0-9_]+\.cuh)\b)");
    std::vector<NamedFile> names;
    for (auto it = std::sregex_iterator(comment.begin(), comment.end(), kPath); it != std::sregex_iterator(); ++it)
        names.push_back({(*it)[2], false});
    for (auto it = std::sregex_iterator(comment.begin(), comment.end(), kBare); it != std::sregex_iterator(); ++it)
        names.push_back({(*it)[2], true});
    return names;
}

bool kernel_file_exists(const NamedFile& named, const std::set<std::string>& kernel_file_names) {
    if (named.bare) return kernel_file_names.count(named.name) > 0;
    const std::string path = named.name.starts_with("kernels/") ? named.name : "kernels/" + named.name;
    return fs::is_regular_file(kSourceDir / path);
}

TEST(CodeComments, CommentsAreFoundOutsideStringsOnly) {
    const std::string text =
        "int a = 1'024; // one 2026-11-26\n"
        "auto s = \"// 2026-11-27 is a string\"; char q = '\"'; char slash = '/';\n"
        "/* two\n   2025-01-02 */ int b;\n"
        "auto r = R\"x(// 2026-11-28 )\" raw)x\"; auto u = u8R\"(// 2026-11-29)\";\n"
        "int c = 3; /* three */ // four\n";
    const auto comments = comment_lines(text);
    ASSERT_EQ(comments.size(), 4u);
    EXPECT_EQ(comments[0].line, 1);
    EXPECT_EQ(comments[0].text, " one 2026-11-26");
    EXPECT_EQ(comments[1].line, 3);
    EXPECT_EQ(comments[2].line, 4);
    EXPECT_EQ(comments[2].text, "   2025-01-02 ");
    EXPECT_EQ(comments[3].line, 6);
    EXPECT_EQ(comments[3].text, " three  four");
    const auto found = dated(comments);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].line, 1);
    EXPECT_EQ(found[1].line, 4);
}

TEST(CodeComments, HashCommentsAreFoundOutsideStringsOnly) {
    const auto cmake = hash_comment_lines(
        "# one\nset(x \"# not\") # two\nmessage(\"a \\\" # still a string\")\nset(y 'b # three')\n", false);
    ASSERT_EQ(cmake.size(), 3u);
    EXPECT_EQ(cmake[0].line, 1);
    EXPECT_EQ(cmake[0].text, " one");
    EXPECT_EQ(cmake[1].line, 2);
    EXPECT_EQ(cmake[1].text, " two");
    EXPECT_EQ(cmake[2].line, 4);
    const auto shell = hash_comment_lines("echo $# ${#x} 'a # b' # four\n#five\n", true);
    ASSERT_EQ(shell.size(), 2u);
    EXPECT_EQ(shell[0].text, " four");
    EXPECT_EQ(shell[1].line, 2);
}

TEST(CodeComments, DatesAreFoundInEveryFormButNotInSizesOrPlaceholders) {
    for (const char* text : {" 2026-11-26", "(H100, 2026-11-27)", " measured on Dec 3", " on November 26th, H200",
                             " 3 Dec, two passes", " Sept 4:"})
        EXPECT_TRUE(has_date(text)) << text;
    for (const char* text : {" \"recorded on NVIDIA H200, YYYY-MM-DD\"", " 2026-13-01", " 4096-11-26", " 12026-11-26",
                             " 128×256 tiles, 64 of K", " December's release", " may 3 stages", " Decoder 3"})
        EXPECT_FALSE(has_date(text)) << text;
}

TEST(CodeComments, HeaderIsTheCommentBeforeTheFirstCode) {
    EXPECT_EQ(header_of("// a\n// b\n\n// c\n#pragma once\n// not the header\n").lines, 3);
    EXPECT_EQ(header_of("/* a\n   b */\n// c\nint x;\n").lines, 3);
    EXPECT_EQ(header_of("#include <x>\n// after code\n").lines, 0);
    std::string long_header = "// 1\n\n";
    for (int i = 2; i <= kMostHeaderLines + 2; ++i) long_header += "// " + std::to_string(i) + "\n";
    const Header header = header_of(long_header + "int x;\n");
    EXPECT_EQ(header.lines, kMostHeaderLines + 2);
    EXPECT_EQ(header.line_past_limit, kMostHeaderLines + 2);  // the blank line counts as a line of the file
    EXPECT_EQ(header_of("// 1\nint x;\n").line_past_limit, 0);
}

TEST(CodeComments, KernelFilesAreFoundByPathOrName) {
    const auto names = kernel_files_named_in(
        " kernels/common/launchers.hpp. (common/recording.cuh) 05_tiled.cu's loop, hopper_common.cuh; "
        "kernels/*_recorded.cu app/gpu/runner.cxx mine.cu tests/kernels/x.cu common/plot.cxx");
    std::vector<std::string> written;
    for (const NamedFile& n : names) written.push_back(n.name + (n.bare ? " (name)" : ""));
    EXPECT_EQ(written, (std::vector<std::string>{"kernels/common/launchers.hpp", "common/recording.cuh",
                                                 "05_tiled.cu (name)", "hopper_common.cuh (name)"}));
}

TEST(CodeComments, NoDateInTheCommentsOfAppOrKernels) {
    int files = 0;
    for (const char* dir : {"app", "kernels"})
        for (const fs::path& file : sources_under(kSourceDir / dir)) {
            ++files;
            const std::string name = name_in_repository(file);
            for (const CommentLine& comment : dated(comments_of(file)))
                ADD_FAILURE_AT(name.c_str(), comment.line)
                    << name << ":" << comment.line << " has a date in a comment; say what the code is, and put "
                    << "the history in docs/notes/:\n"
                    << comment.text;
        }
    EXPECT_GT(files, 300);
}

TEST(CodeComments, EveryKernelFileOpensWithAtMostTwentyLinesOfComment) {
    int files = 0;
    for (const fs::path& file : sources_under(kSourceDir / "kernels")) {
        if (language_of(file) != Language::C) continue;
        ++files;
        const std::string name = name_in_repository(file);
        const Header header = header_of(read_file(file));
        if (header.line_past_limit > 0)
            ADD_FAILURE_AT(name.c_str(), header.line_past_limit)
                << name << ":" << header.line_past_limit << " is line " << kMostHeaderLines + 1
                << " of the comment the file opens with (" << header.lines << " lines in all): say what it "
                << "teaches, what changed and its traffic or why in at most " << kMostHeaderLines
                << ", and put the history in docs/notes/";
        if (header.lines == 0) ADD_FAILURE_AT(name.c_str(), 1) << name << ":1 opens with no comment";
    }
    EXPECT_GT(files, 40);
}

// A rung's file (kernels/NN_name.cu) or an experiment's (kernels/experiments/NN_name.cu).
bool is_rung_file(const fs::path& file) {
    static const std::regex kRung(R"([0-9][0-9]_[A-Za-z0-9_]+\.cu)");
    const std::string folder = file.parent_path().filename().string();
    return std::regex_match(file.filename().string(), kRung) && (folder == "kernels" || folder == "experiments");
}

// What a rung's opening comment leaves out, of what it teaches, what changed from the rung before
// and its traffic or why (or what it leaves on the table: why the next rung); "" when nothing.
std::string missing_parts(const std::string& header) {
    const auto has = [&](const char* word) { return header.find(word) != std::string::npos; };
    std::string missing;
    if (!has("Teaches")) missing += " \"Teaches\"";
    if (!has("Changed from")) missing += " \"Changed from\"";
    if (!has("Traffic") && !has("Why") && !has("What it leaves on the table"))
        missing += " \"Traffic\" (or \"Why\", or \"What it leaves on the table\")";
    return missing;
}

// The opening comment of a rung, with that of the NN_name.cuh it shares where it names one
// ("see 11_pipelined.cuh"): 11 and 18 say what they teach there, once for 12 and 19 too.
std::string rung_header(const fs::path& file) {
    std::string header = header_of(read_file(file)).text;
    static const std::regex kShared(R"([0-9][0-9]_[A-Za-z0-9_]+\.cuh)");
    std::smatch shared;
    if (std::regex_search(header, shared, kShared))
        header += header_of(read_file(kSourceDir / "kernels" / shared.str())).text;
    return header;
}

TEST(CodeComments, RungHeaderPartsAreFound) {
    EXPECT_EQ(missing_parts("// Teaches: x.\n// Changed from 05: y.\n// Traffic: z.\n"), "");
    EXPECT_EQ(missing_parts("// Teaches: x.\n// Changed from 05: y.\n// What it leaves on the table: z.\n"), "");
    EXPECT_EQ(missing_parts("// Teaches: x.\n// Traffic: z.\n"), " \"Changed from\"");
    EXPECT_NE(missing_parts("// Teaches: x.\n// Changed from 05: y.\n"), "");
    EXPECT_TRUE(is_rung_file(kSourceDir / "kernels" / "05_tiled.cu"));
    EXPECT_TRUE(is_rung_file(kSourceDir / "kernels" / "experiments" / "05_tiled_no_bounds_check.cu"));
    EXPECT_FALSE(is_rung_file(kSourceDir / "kernels" / "11_pipelined.cuh"));
    EXPECT_FALSE(is_rung_file(kSourceDir / "kernels" / "common" / "l2_clean.cu"));
}

TEST(CodeComments, EveryRungSaysWhatItTeachesWhatChangedAndItsTrafficOrWhy) {
    int rungs = 0;
    for (const fs::path& file : sources_under(kSourceDir / "kernels")) {
        if (!is_rung_file(file)) continue;
        ++rungs;
        const std::string name = name_in_repository(file);
        const std::string missing = missing_parts(rung_header(file));
        if (!missing.empty())
            ADD_FAILURE_AT(name.c_str(), 1) << name << ":1: its opening comment (or that of the NN_name.cuh it names) "
                                            << "lacks" << missing;
    }
    EXPECT_GT(rungs, 30);
}

TEST(CodeComments, EveryKernelFileACommentNamesExists) {
    std::set<std::string> kernel_file_names;
    for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "kernels"))
        if (entry.is_regular_file()) kernel_file_names.insert(entry.path().filename().string());
    int named = 0;
    for (const char* dir : {"app", "kernels"})
        for (const fs::path& file : sources_under(kSourceDir / dir)) {
            const std::string name = name_in_repository(file);
            for (const CommentLine& comment : comments_of(file))
                for (const NamedFile& kernel_file : kernel_files_named_in(comment.text)) {
                    ++named;
                    if (!kernel_file_exists(kernel_file, kernel_file_names))
                        ADD_FAILURE_AT(name.c_str(), comment.line)
                            << name << ":" << comment.line << " names " << kernel_file.name
                            << (kernel_file.bare ? ", which no file under kernels/ is called"
                                                 : ", which does not exist");
                }
        }
    EXPECT_GT(named, 100);  // fewer: the patterns no longer match how the comments name files
}

}  // namespace
}  // namespace code_comments
