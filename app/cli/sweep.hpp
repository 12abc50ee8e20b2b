// sweep.hpp — the lists and ranges `tilescope bench` accepts, expanded into the points it
// measures, the default sweep, and how long a sweep will roughly take. No GPU needed.
//
// Lists are comma-separated; a number list may hold ranges:
//   256:4096:x2    256 512 1024 2048 4096   (geometric: times 2 until past the end)
//   100:400:+100   100 200 300 400          (arithmetic)
//   64,100,128:512:x2
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "gpu/runner.hpp"
#include "setup_options.hpp"

namespace ts::cli {

std::variant<std::vector<std::int64_t>, std::string> parse_number_list(std::string_view flag, std::string_view text);
// "32x32,16x16" (× works too): block shapes of the 2-D naive kernels.
std::variant<std::vector<std::pair<int, int>>, std::string> parse_block_list(std::string_view flag,
                                                                             std::string_view text);

// The list flags as typed; nullopt means "not given" (each has its own default), while a
// given but empty list is an error.
struct SweepLists {
    std::optional<std::string> kernel;   // naive,tiled,cublas or "all"     default: tiled
    std::optional<std::string> size;     // square sizes M = N = K           default: 1024
    std::optional<std::string> m;        // rectangular: each given dimension replaces the square size
    std::optional<std::string> n;
    std::optional<std::string> k;
    std::optional<std::string> tile;     // tiled kernel                      default: 16
    std::optional<std::string> block;    // naive and naive-row: XxY          default: 16x16
    std::optional<std::string> threads;  // row- and column-per-thread        default: 128
    std::optional<std::string> dtype;    // int32,float,double                default: float
    std::optional<std::string> batch;    //                                   default: 1
    std::optional<std::string> scaling;  // fp8 only: tensor,block           default: tensor
    bool any_given() const;
};

// Every point the lists describe, in the order they are measured: element type, then
// kernel (as listed), then its block shape or tile, then batch, then size. Sizes are every
// combination of the given M, N and K lists; a dimension not given follows --size (or is
// 1024). A value that is wrong whatever the GPU (bad syntax, 0, tile 64, an unknown kernel,
// a matrix over 2^31 elements) is an error message; what only a GPU can refuse (a 64×32
// block, too little memory) becomes a failed point later. fp8 runs on cuBLAS alone so far: a
// named kernel without an fp8 version, --scaling without fp8, and block scaling with a batch are
// errors here too. --scaling's entries vary after the element type.
std::variant<std::vector<Setup>, std::string> expand_sweep(const SweepLists& lists);

// The sweep the issue asks for (`tilescope bench --sweep default`), recorded under
// assets/measurements/: every kernel over 128..4096 (float); the row- and column-per-thread
// kernels to 2048; a smaller double and int32 sweep; naive block shapes 8..64 × 1..32 and
// tiled T = 1..32 at 2048.
std::vector<Setup> default_sweep();

// Rough seconds one point takes: warm-up, sampling by the request's stop rules, inputs,
// end-to-end runs and the CPU check. Kernel times come from rates seen on an H200, so on
// other GPUs this is a hint, not a promise.
double estimate_seconds(const gpu::RunRequest& request);

// "45 s", "3 min 20 s", "1 h 05 min".
std::string duration_text(double seconds);

// Whether usable_device says "probing the GPU…" first: the sweeping commands do, as the probe
// can take a second before their long run; the one-point commands stay quiet.
enum class ProbeNote { Say, Quiet };

// Probes the GPU through `runner`; when no GPU is usable, writes "tilescope COMMAND: no usable
// GPU: why" on `err` and returns nullopt.
std::optional<gpu::DeviceInfo> usable_device(gpu::Runner& runner, std::string_view command, std::ostream& err,
                                             ProbeNote note = ProbeNote::Say);

// A request of `kind` for the setup's kernel and problem, the rest as RunRequest has it.
gpu::RunRequest setup_request(const Setup& setup, gpu::RequestKind kind = gpu::RequestKind::Measure);

}  // namespace ts::cli
