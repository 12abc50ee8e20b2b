// launch.hpp — how the learner's kernel is launched: its grid, block and dynamic shared memory,
// written as integer expressions of M, N and K, the way one writes them in a launch.
//
// The shape lives in the kernel's own file, in three comment lines the compiler ignores, so a
// kernel file says everything needed to run it:
//
//   // grid:   (N + 15) / 16, (M + 15) / 16
//   // block:  16, 16
//   // shared: 0
//
// An expression holds whole numbers, M, N and K, + − * / % (integer division, as in C), brackets,
// and cdiv(a, b) (a / b rounded up), min(a, b) and max(a, b). The arithmetic is 64-bit and checked:
// an overflow or a division by zero is an error in words, not a wrong launch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "model/device_limits.hpp"
#include "model/problem.hpp"

namespace ts::model {

struct LaunchExpressions {
    std::string grid_x = "cdiv(N, 16)";
    std::string grid_y = "cdiv(M, 16)";
    std::string block_x = "16";
    std::string block_y = "16";
    std::string shared = "0";  // bytes of dynamic shared memory
    bool operator==(const LaunchExpressions&) const = default;
};

// The shape for one size: each expression's value.
struct UserLaunchShape {
    std::int64_t grid_x = 1, grid_y = 1;
    std::int64_t block_x = 1, block_y = 1;
    std::int64_t shared_bytes = 0;
    bool operator==(const UserLaunchShape&) const = default;
};

// Expressions longer than this, or nested deeper than kMostExpressionDepth brackets and calls, are
// refused (a launch shape is a few words).
inline constexpr std::size_t kMostExpressionChars = 256;
inline constexpr int kMostExpressionDepth = 32;

// The value of `text` for this M, N and K, or why it has none ("division by zero in …",
// "unknown name 'Q' at column 3: use M, N, K, cdiv, min or max").
std::variant<std::int64_t, std::string> evaluate_launch_expression(std::string_view text, std::int64_t m,
                                                                   std::int64_t n, std::int64_t k);

// Every expression for `problem`, or the first that has no value, named ("grid x: …").
std::variant<UserLaunchShape, std::string> resolve_launch(const LaunchExpressions& launch, const Problem& problem);

// Why the GPU described by `limits` would refuse the shape, or nullopt: a dimension below 1, a
// block past max_threads_per_block or the block's x and y limits, a grid past the grid's limits,
// or more dynamic shared memory than one block may opt in to (what static shared memory the
// kernel declares is added by CUDA: the launch itself says).
std::optional<std::string> launch_refused(const UserLaunchShape& shape, const DeviceLimits& limits);

// "grid (8, 8), block (16, 16), 0 bytes of dynamic shared memory"
std::string describe_launch(const UserLaunchShape& shape);

// The shape written in `source`'s "// grid:", "// block:" and "// shared:" lines; a line that is
// missing keeps the default above. `problem`, when not null, receives the first line that cannot
// be read ("line 3: // block: needs two expressions, x and y").
LaunchExpressions launch_from_source(std::string_view source, std::string* problem = nullptr);

// `source` with its launch lines saying `launch`: each existing line rewritten in place, a missing
// one added before the first line.
std::string with_launch(std::string_view source, const LaunchExpressions& launch);

}  // namespace ts::model
