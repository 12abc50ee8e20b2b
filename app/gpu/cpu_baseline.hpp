// cpu_baseline.hpp — how long the textbook triple loop takes on one CPU core, for the
// "CPU vs GPU" comparison. Host code only; no CUDA.
//
// The loop is the first one every course shows, single-threaded, i-j-k order:
//   for i in M: for j in N: sum = 0; for k in K: sum += A[i][k]·B[k][j]; C[i][j] = sum
// in the problem's own element type. It is measured for sizes that take up to about two
// seconds; larger ones are extrapolated from the largest measured size by M·N·K·batch and
// marked as estimates. The loop slows down per operation as B's columns stop fitting in the
// caches, so estimates from a smaller size are, if anything, optimistic for the CPU.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "model/problem.hpp"

namespace ts::gpu {

struct CpuTime {
    model::Problem problem;
    double ms = 0.0;
    bool estimate = false;   // true: scaled from `basis` by M·N·K·batch, not run
    model::Problem basis;    // the measured problem this is scaled from (itself when measured)
    double basis_ms = 0.0;
};

// Runs the loop on `problem` (random inputs, every batch) and returns its time in ms: the
// median of as many runs as fit in 0.2 s, at least one.
double time_triple_loop(const model::Problem& problem);

// A time for each of `problems`, in the same order. Problems are taken smallest first; each
// is run when the largest measured so far (of its element type) predicts at most `limit_s`,
// otherwise estimated. Before estimating, cubes of doubling side are run while they fit in
// the limit, so the estimate starts from a size near it. `on_run` is told before each run.
std::vector<CpuTime> cpu_baseline(std::span<const model::Problem> problems, double limit_s = 2.0,
                                  const std::function<void(const model::Problem&)>& on_run = {});

}  // namespace ts::gpu
