// bench.hpp — `tilescope bench`: run one kernel on the GPU, print latency, GFLOP/s and
// the error against the CPU reference. No ImGui, no GL.
#pragma once

#include <iosfwd>

#include "setup_options.hpp"

namespace ts::cli {

struct BenchOptions {
    SetupOptions setup;
    int warmup = 2;
    int samples = 10;
    bool check = true;
};

// Registers the "bench" subcommand on `app`; returns it so the caller can test
// whether it was chosen (`sub->parsed()`).
CLI::App* add_bench_command(CLI::App& app, BenchOptions& options);

// Runs the benchmark. Returns the process exit code: 0 on success, 1 when the GPU run
// failed or the check did not pass, 2 for bad arguments or no usable GPU.
int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
