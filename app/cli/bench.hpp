// bench.hpp — `tilescope bench`: measure kernels on the GPU. One point prints latency,
// GFLOP/s and the error against the CPU reference; lists and ranges make a sweep with a
// progress line per point and a table, and --csv/--json record it (app/record/).
// No ImGui, no GL.
#pragma once

#include <iosfwd>
#include <string>

#include "record/measurement_file.hpp"
#include "sweep.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

struct BenchOptions {
    SweepLists lists;          // --kernel --size --m --n --k --tile --block --threads --dtype --batch
    std::string sweep;         // --sweep default: the full sweep instead of the lists
    bool plan = false;         // --plan: list the points and the time estimate, run nothing
    int warmup = 2;
    int samples = 10;          // at least this many per point
    bool fixed = false;        // exactly --samples: no adaptive stopping
    bool hot = false;          // back to back, L2 not flushed
    double budget_s = 3.0;     // wall time per point once --samples are taken
    double max_noise_pct = 0.5;
    double min_time_s = 0.5;
    int max_samples = 10000;
    double settle_s = 0.0;     // untimed launches after the warm-up, in seconds
    int end_to_end_runs = 3;
    bool energy = true;        // --no-energy clears it: joules per matmul from NVML (gpu/energy.hpp)
    double energy_max_s = 15.0;
    bool check = true;         // --no-check clears it
    bool check_all = false;    // also check sweep points above 1024³
    bool cpu = false;          // time the CPU triple loop too
    double cpu_limit_s = 2.0;
    std::string csv;
    std::string json;
    std::string json_samples = "all";  // --json-samples none: counts only, as assets/measurements keeps them
    // --gpu: in a worker process where it says (local, ssh://…, slurm), queued with others on that
    // GPU (gpu/gpu_queue.hpp); empty: in this process, alone.
    std::string gpu;
};

// Registers the "bench" subcommand on `app`; returns it so the caller can test
// whether it was chosen (`sub->parsed()`).
CLI::App* add_bench_command(CLI::App& app, BenchOptions& options);

// What --json lists of each point's samples: every one unless --json-samples none.
record::SampleList json_sample_list(const BenchOptions& options);

// Runs the benchmark. Returns the process exit code: 0 on success, 1 when a GPU run failed
// or a check did not pass, 2 for bad arguments or no usable GPU.
int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
