// source.hpp — the learner's own kernel, as text: the fixed signature every such kernel has,
// the empty kernel to start from, the checks a file must pass before it is compiled, and the
// compiler's messages read back into line, column and words.
//
// The signature is fixed so that TileScope can launch, check and time any learner's kernel the way
// it does its own FP32 rungs: C = A·B, row-major, M×K by K×N into M×N floats.
//
//   extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)
//
// extern "C" keeps the name as written, so the compiled module has a function called matmul.
// GPU-free: the compiler itself is gpu/nvrtc_compiler.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/problem.hpp"

namespace ts::model {

inline constexpr std::string_view kUserKernelName = "matmul";
inline constexpr std::string_view kUserKernelSignature =
    "extern \"C\" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K)";

// Sources larger than this are refused before the compiler sees them (a real kernel is a few KiB).
inline constexpr std::int64_t kMostUserKernelBytes = 1 << 20;

// The empty kernel: the launch lines (model/user_kernel/launch.hpp), the signature, each thread's cell of C,
// and a note of what to write.
std::string empty_user_kernel();

// What a learner may start from: the empty kernel, or a rung's own kernel in the fixed signature.
enum class Starter { Empty, Naive, Tiled };
inline constexpr Starter kAllStarters[] = {Starter::Empty, Starter::Naive, Starter::Tiled};
std::string_view starter_name(Starter starter);  // "empty", "naive", "tiled"
std::optional<Starter> parse_starter(std::string_view text);
std::string starter_kernel(Starter starter);

// Why `source` cannot be compiled as a learner's kernel, or nullopt: empty, too large, not text
// (a NUL byte or invalid UTF-8), or without the fixed signature's function.
std::optional<std::string> user_kernel_problem(std::string_view source);

enum class Severity { Error, Warning, Note };

// One message of the compiler: where (line and column count from 1; column 0 when the compiler
// did not point at one) and what.
struct Diagnostic {
    int line = 0;
    int column = 0;
    Severity severity = Severity::Error;
    std::string message;
    bool operator==(const Diagnostic&) const = default;
};

// The messages in NVRTC's log for the file called `file`: lines "file(L): error: words" (or
// warning, or remark as a note), each followed by the source line and a caret under the column.
// Lines it does not recognise are left out; the log itself can be shown whole.
std::vector<Diagnostic> parse_compiler_log(std::string_view log, std::string_view file);

std::string_view severity_name(Severity severity);

// The sizes a check of the learner's kernel runs, smallest first: a single cell, sizes that are
// multiples of no tile (odd, prime, thinner than a block), and one that is a multiple of every
// usual tile, so an error that shows only at edges, or only inside, is caught either way.
std::vector<Problem> user_check_problems();

}  // namespace ts::model
