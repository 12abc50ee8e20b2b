// check.hpp — `tilescope check`: the random correctness suite. Every kernel (every block
// shape family, every tile width T = 1..32, cuBLAS) in int32, float and double, plain (mm)
// and batched (bmm), on random sizes that no block or tile divides, each run through the
// GPU runner and checked against its reference (exact for int32). fp8 (cuBLAS alone so far)
// runs with tensor and block scales unless --scaling names one. No ImGui, no GL.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpu/runner.hpp"
#include "model/kernel_kind.hpp"
#include "model/problem.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

// Raw values as typed; resolve_check() checks them.
struct CheckOptions {
    std::string seed;           // empty: a random seed, printed so the run can be repeated
    bool quick = false;         // a smaller suite: fewer block shapes and tiles, no large sizes
    std::string dtype = "all";  // int32, float, double, bf16, fp16, fp8 or all
    std::string scaling;        // fp8's scales: tensor, block or empty for both
    std::string kernel;         // one kernel's cases only (--kernel cublas), or empty for all
};

struct CheckPlan {
    std::uint64_t seed = 0;
    bool quick = false;
    std::vector<model::Dtype> dtypes;
    std::vector<model::Fp8Scaling> fp8_scalings;  // the scalings fp8's cases run with
    std::optional<model::KernelKind> kernel;      // only this kernel's cases, when set
};

// Registers the "check" subcommand on `app`; returns it so the caller can test whether it
// was chosen (`sub->parsed()`).
CLI::App* add_check_command(CLI::App& app, CheckOptions& options);

// The checked options, or a message saying which value is wrong.
std::variant<CheckPlan, std::string> resolve_check(const CheckOptions& options);

// The requests the suite runs, in order: the same list for the same plan. Each request
// has its own seed (fresh inputs), one launch and no warm-up: this checks, it does not time.
// With plan.kernel, that kernel's cases of the whole suite, drawn as the whole suite draws them.
std::vector<gpu::RunRequest> check_suite(const CheckPlan& plan);

// Runs the suite. Progress goes to `err`; every failure (with its configuration) and the
// last line, exactly "N passed, N failed" (then ", N skipped" when some were), go to `out`.
// Returns 0 when nothing failed, 1 when something did, 2 for bad arguments or no usable GPU.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
