#include "model/user_kernel.hpp"

#include <charconv>

#include "model/format.hpp"

namespace ts::model {

namespace {

// Whether `text` is valid UTF-8: every lead byte followed by as many continuation bytes as it
// announces (overlong forms are not looked for: the compiler will say).
bool valid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        std::size_t more = 0;
        if (lead < 0x80) more = 0;
        else if ((lead & 0xE0) == 0xC0) more = 1;
        else if ((lead & 0xF0) == 0xE0) more = 2;
        else if ((lead & 0xF8) == 0xF0) more = 3;
        else return false;
        if (text.size() - i <= more) return false;
        for (std::size_t j = 1; j <= more; ++j)
            if ((static_cast<unsigned char>(text[i + j]) & 0xC0) != 0x80) return false;
        i += more + 1;
    }
    return true;
}

std::optional<Severity> severity_of(std::string_view word) {
    if (word == "error" || word == "catastrophic error") return Severity::Error;
    if (word == "warning") return Severity::Warning;
    if (word == "remark" || word == "note") return Severity::Note;
    return std::nullopt;
}

// "file(12): error: words" or "file(12): warning #177-D: words": the line, the severity and the
// words (a warning's number after them, in brackets). Nullopt for any other line.
std::optional<Diagnostic> heading_of(std::string_view line, std::string_view file) {
    if (!line.starts_with(file) || line.size() <= file.size() || line[file.size()] != '(') return std::nullopt;
    std::string_view rest = line.substr(file.size() + 1);
    const std::size_t close = rest.find("): ");
    if (close == std::string_view::npos || close == 0) return std::nullopt;
    int number = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + close, number);
    if (error != std::errc{} || end != rest.data() + close || number < 1) return std::nullopt;
    rest.remove_prefix(close + 3);
    const std::size_t colon = rest.find(": ");
    if (colon == std::string_view::npos) return std::nullopt;
    std::string_view kind = rest.substr(0, colon);
    std::string_view code;
    if (const std::size_t hash = kind.find(" #"); hash != std::string_view::npos) {
        code = kind.substr(hash + 1);
        kind = kind.substr(0, hash);
    }
    const auto severity = severity_of(kind);
    if (!severity) return std::nullopt;
    Diagnostic d;
    d.line = number;
    d.severity = *severity;
    d.message = std::string(rest.substr(colon + 2));
    if (!code.empty()) d.message += format_text(" ({})", code);
    return d;
}

// The column a caret line points at: NVRTC prints the source line indented by two spaces and
// the caret under the character, so caret index − 2, counted from 1.
int caret_column(std::string_view line) {
    const std::size_t caret = line.find('^');
    if (caret == std::string_view::npos || caret < 2) return 0;
    if (line.find_first_not_of(' ') != caret) return 0;
    return static_cast<int>(caret) - 1;
}

}  // namespace

std::string empty_user_kernel() {
    return std::string(
               "// Your kernel: C = A·B, row-major floats, A is M×K, B is K×N, C is M×N.\n"
               "// As written, each thread computes one cell of C: blockIdx and threadIdx say which.\n") +
           std::string(kUserKernelSignature) +
           " {\n"
           "    const int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
           "    const int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (row >= M || col >= N) return;  // threads past the edge of C do nothing\n"
           "    float sum = 0.0f;\n"
           "    // Your loop over K goes here.\n"
           "    C[row * N + col] = sum;\n"
           "}\n";
}

std::optional<std::string> user_kernel_problem(std::string_view source) {
    if (source.empty()) return std::string("the file is empty: start from the empty kernel or a rung's source");
    if (static_cast<std::int64_t>(source.size()) > kMostUserKernelBytes)
        return format_text("the file holds {} bytes; a kernel file may hold at most {} (1 MiB)", source.size(),
                           kMostUserKernelBytes);
    if (source.find('\0') != std::string_view::npos || !valid_utf8(source))
        return std::string("the file is not text (it holds a NUL byte or is not UTF-8)");
    // The function by its name and the words around it; the compiler checks the rest.
    if (source.find("matmul(") == std::string_view::npos || source.find("extern \"C\"") == std::string_view::npos ||
        source.find("__global__") == std::string_view::npos)
        return format_text("no kernel with TileScope's signature: the file must define\n  {}", kUserKernelSignature);
    return std::nullopt;
}

std::vector<Diagnostic> parse_compiler_log(std::string_view log, std::string_view file) {
    std::vector<Diagnostic> diagnostics;
    if (file.empty()) return diagnostics;
    const std::vector<std::string_view> lines = split_lines(log);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        auto d = heading_of(lines[i], file);
        if (!d) continue;
        // The source line and its caret follow, unless the message stands alone.
        if (i + 2 < lines.size()) d->column = caret_column(lines[i + 2]);
        diagnostics.push_back(*d);
    }
    return diagnostics;
}

std::string_view severity_name(Severity severity) {
    switch (severity) {
        case Severity::Error: return "error";
        case Severity::Warning: return "warning";
        case Severity::Note: return "note";
    }
    return "?";
}

}  // namespace ts::model
