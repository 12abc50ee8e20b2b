// setup_options.hpp — the flags that choose a problem and a kernel, shared by the app
// (tilescope --m 40 --tile 8 ...) and the command-line tools (tilescope bench ...), so
// both accept the same words and reject bad values with the same messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "model/kernel_config.hpp"
#include "model/problem.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

// Raw values as typed; resolve_setup() checks them. Sizes are parsed as text so that
// "abc", "-3" and "1e12" get our own message, not a parser's.
struct SetupOptions {
    std::string m = "1024";
    std::string n = "1024";
    std::string k = "1024";
    std::string tile = "16";
    std::string kernel = "tiled";
    std::string block = "16x16";   // naive kernels: blockDim.x x blockDim.y
    std::string dtype = "float";
};

struct Setup {
    model::Problem problem;
    model::KernelConfig kernel;
};

// A whole number from `text`, or a message naming `flag`: "--m expects a whole number, got
// "abc"", "--k 1e99 is far too large". A leading minus parses, so "-3" can get the caller's
// "at least 1" message rather than "not a number".
std::variant<std::int64_t, std::string> parse_count(std::string_view flag, std::string_view text);

// "naive, naive-row, ..., cublas": every kernel --kernel accepts, in teaching order.
std::string kernel_names();

// Adds --m --n --k --tile --kernel --block --dtype to `app`, writing into `options`.
void add_setup_options(CLI::App& app, SetupOptions& options);
// Adds --m --n --k alone, for a command that words the others its own way.
void add_size_options(CLI::App& app, SetupOptions& options);

// The checked problem and kernel, or a message saying which value is wrong and why.
std::variant<Setup, std::string> resolve_setup(const SetupOptions& options);

}  // namespace ts::cli
