#include "model/user_kernel/source.hpp"

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
               "// As written, each thread computes one cell of C: blockIdx and threadIdx say which.\n"
               "// The launch, as expressions of M, N and K (cdiv rounds up):\n"
               "// grid:   cdiv(N, 16), cdiv(M, 16)\n"
               "// block:  16, 16\n"
               "// shared: 0\n") +
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

std::string_view starter_name(Starter starter) {
    switch (starter) {
        case Starter::Empty: return "empty";
        case Starter::Naive: return "naive";
        case Starter::Tiled: return "tiled";
    }
    return "?";
}

std::optional<Starter> parse_starter(std::string_view text) {
    for (const Starter s : kAllStarters)
        if (starter_name(s) == text) return s;
    return std::nullopt;
}

// The rungs' own loops (kernels/01_naive.cu, 05_tiled.cu) with TileScope's index helpers written
// out, so the file stands alone; tests/model/user_kernel/source_test.cxx checks that the statements that
// do the work are the rungs' own.
std::string starter_kernel(Starter starter) {
    const std::string signature(kUserKernelSignature);
    switch (starter) {
        case Starter::Empty: return empty_user_kernel();
        case Starter::Naive:
            return "// Rung 01, naive: one thread per cell of C, reading a row of A and a column of B from\n"
                   "// global memory. threadIdx.x walks the columns, so a warp's loads of B coalesce.\n"
                   "// grid:   cdiv(N, 16), cdiv(M, 16)\n"
                   "// block:  16, 16\n"
                   "// shared: 0\n" +
                   signature +
                   " {\n"
                   "    const int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
                   "    const int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "    // The grid is rounded up to whole blocks; a ghost thread has no cell and stores nothing.\n"
                   "    if (row >= M || col >= N) return;\n"
                   "    float sum = 0;\n"
                   "    for (int i = 0; i < K; ++i) sum += A[row * K + i] * B[i * N + col];\n"
                   "    C[row * N + col] = sum;\n"
                   "}\n";
        case Starter::Tiled:
            return "// Rung 05, tiled: TILE×TILE blocks stage tiles of A and B in shared memory, so each element\n"
                   "// is read from global memory once per block instead of once per thread.\n"
                   "// grid:   cdiv(N, 16), cdiv(M, 16)\n"
                   "// block:  16, 16\n"
                   "// shared: 0\n"
                   "#define TILE 16  // the block is TILE×TILE threads: keep // block: above the same\n" +
                   signature +
                   " {\n"
                   "    __shared__ float as[TILE][TILE];\n"
                   "    __shared__ float bs[TILE][TILE];\n"
                   "    const int tx = threadIdx.x;\n"
                   "    const int ty = threadIdx.y;\n"
                   "    const int row = blockIdx.y * TILE + ty;\n"
                   "    const int col = blockIdx.x * TILE + tx;\n"
                   "    // Ghost threads (row or col outside C) do not return early: they still load their share\n"
                   "    // of each tile and reach every barrier, because the threads inside C need both.\n"
                   "    float sum = 0;\n"
                   "    const int phases = (K + TILE - 1) / TILE;\n"
                   "    for (int phase = 0; phase < phases; ++phase) {\n"
                   "        const int a_col = phase * TILE + tx;\n"
                   "        const int b_row = phase * TILE + ty;\n"
                   "        // A slot whose element lies outside the matrix gets 0, which adds nothing below.\n"
                   "        as[ty][tx] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;\n"
                   "        bs[ty][tx] = b_row < K && col < N ? B[b_row * N + col] : 0.0f;\n"
                   "        // Without this barrier a thread could read a slot that another thread has not\n"
                   "        // written yet, and add a stale value from the previous phase.\n"
                   "        __syncthreads();\n"
                   "        for (int i = 0; i < TILE; ++i) sum += as[ty][i] * bs[i][tx];\n"
                   "        // Without this barrier a fast thread could start the next phase and overwrite a\n"
                   "        // slot that a slower thread is still reading for this one.\n"
                   "        __syncthreads();\n"
                   "    }\n"
                   "    if (row < M && col < N) C[row * N + col] = sum;\n"
                   "}\n";
    }
    return empty_user_kernel();
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

std::vector<Problem> user_check_problems() {
    const auto float_problem = [](std::int64_t m, std::int64_t n, std::int64_t k) {
        return Problem{.m = m, .n = n, .k = k, .batch = 1, .dtype = Dtype::Float32};
    };
    return {float_problem(1, 1, 1), float_problem(17, 33, 5), float_problem(127, 129, 65),
            float_problem(256, 256, 256), float_problem(301, 257, 131)};
}

}  // namespace ts::model
