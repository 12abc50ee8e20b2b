// tune.hpp — `tilescope tune`: measures every shape a tuned rung is compiled for (the tuned
// rung's model::kTunedCandidates, in float, or tc-tuned's model::kTcTunedCandidates, in BF16 or
// FP16) at a few square sizes on this GPU, prints the table, and writes the fastest per size to
// the user's tuning table (gpu/tuned_shapes.hpp), where the app, bench and check find it. No
// ImGui, no GL.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "gpu/runner.hpp"
#include "model/tuning_table.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

struct TuneOptions {
    std::string kernel = "tuned";               // --kernel: tuned or tc-tuned
    std::string dtype;                          // --dtype: float for tuned; bf16 (default) or fp16 for tc-tuned
    std::string sizes = "1024,2048,4096,8192";  // --size: square sizes to tune at
    std::string output;                         // --output: the table to update (default: the user's)
    bool plan = false;                          // --plan: list the candidates and sizes, measure nothing
    double budget_s = 2.0;                      // --budget: seconds of samples per candidate and size at most
    double settle_s = 0.0;                      // --settle: seconds of untimed launches before each
    bool energy = false;                        // --energy: joules per matmul of each too (gpu/energy.hpp)
};

CLI::App* add_tune_command(CLI::App& app, TuneOptions& options);

// 0 on success, 1 when a candidate failed its check, 2 for bad arguments or no usable GPU.
int run_tune(const TuneOptions& options, std::ostream& out, std::ostream& err);

// ---- The table, separate from running so it is tested without a GPU ----------------------

// One measured candidate at one size (median_ms 0: it did not run; `error` says why).
struct TuneMeasurement {
    std::int64_t size = 0;
    int variant = 0;
    double median_ms = 0.0;
    std::string error;
};

// The section to write for `gpu` and `rung`: per size, in increasing order, the fastest
// candidate; the largest size's winner also covers anything larger ("*").
model::TuningSection winners(const std::string& gpu, model::KernelKind rung, const std::vector<TuneMeasurement>& measured);

// The printed table: a row per candidate of `rung` (its shape), a column per size with the
// median and its percentage of that size's best, the winner marked, and cuBLAS's median where
// given.
std::string tune_table(model::KernelKind rung, const std::vector<TuneMeasurement>& measured,
                       const std::vector<TuneMeasurement>& cublas);

}  // namespace ts::cli
