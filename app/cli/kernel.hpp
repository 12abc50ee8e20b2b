// kernel.hpp — `tilescope-cli kernel FILE.cu`: the learner's own kernel (model/user_kernel/source.hpp).
//
// Compiled with NVRTC in the GPU worker (for the GPU's own architecture), then run between guard
// zones on the check's sizes (model::user_check_problems), each run checked cell by cell, then
// timed at --m --n --k with the rungs' method beside a rung (--kernel, tiled T=16 by default).
// The worker (here, or on a server or a cluster's node: --gpu) is supervised as the window's is:
// a kernel that faults or never returns costs a restart of the worker and a sentence; the
// command then stops there (every other size would cost the same).
//
// --record builds it a second time to record itself (gpu/user_kernel_tracing.hpp), runs that at
// --record-size, counts its loads against the naive and tiled kernels', and for a kernel shaped like
// the tiled rung compares the trace with the model and saves it (--trace-out) for the theatre.
//
// --compile-only compiles in this process, needs no GPU, and takes --arch.
#pragma once

#include <iosfwd>
#include <string>

#include "setup_options.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

struct KernelOptions {
    std::string file;            // the .cu file
    bool compile_only = false;   // --compile-only
    std::string arch = "sm_90";  // --arch sm_XY (with --compile-only, or when there is no GPU)
    double time_limit_s = 30.0;  // --time-limit S
    bool template_out = false;   // --template: print the empty kernel and stop
    std::string starter;         // --starter NAME: print a rung's kernel in the fixed signature and stop
    int runs = 5;                // --runs: checked launches at each check size
    bool no_measure = false;     // --no-measure: compile and check only
    bool hot = false;            // --hot: back-to-back timed launches
    int samples = 10;            // --samples: timed launches
    int warmup = 2;              // --warmup: untimed launches first
    SetupOptions setup;          // --m --n --k of the timing, --kernel (and --tile, --block) to time beside
    bool record = false;         // --record: also record it (its accesses) at --record-size
    int record_size = 64;        // --record-size S: M = N = K of the trace
    std::string trace_out;       // --trace-out FILE: save the trace for tilescope --trace
    std::string gpu = "local";   // --gpu SPEC: where the worker runs (gpu/worker_target.hpp)
};

CLI::App* add_kernel_command(CLI::App& app, KernelOptions& options);

// 0: compiled, right at every check size, and measured; 1: it does not compile, the compiler was
// stopped, a check found wrong cells or stray writes, or a run failed (a fault, a deadline, a
// refused launch); 2: bad arguments, an unreadable or unusable file, no NVRTC, or no GPU to run on.
int run_kernel(const KernelOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
