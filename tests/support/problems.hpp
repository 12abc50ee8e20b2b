// problems.hpp — a Problem from its sizes, a naive or tiled kernel from its block or T, and an
// experiment's case, for tests that build many of them.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "model/experiment.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"

namespace ts::model {
// GoogleTest names a failing parameter with these.
inline void PrintTo(const KernelConfig& config, std::ostream* out) { *out << describe(config); }
inline void PrintTo(KernelKind kind, std::ostream* out) { *out << kernel_name(kind); }
inline void PrintTo(Dtype dtype, std::ostream* out) { *out << dtype_name(dtype); }
}  // namespace ts::model

namespace ts::testing_support {

inline model::Problem make_problem(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch = 1) {
    model::Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.batch = batch;
    return p;
}

// The same with an element type (the batch comes last here, as Problem lists it).
inline model::Problem make_problem(std::int64_t m, std::int64_t n, std::int64_t k, model::Dtype dtype,
                                   std::int64_t batch = 1) {
    model::Problem p = make_problem(m, n, k, batch);
    p.dtype = dtype;
    return p;
}

// A naive-family kernel (naive, naive-row, row- or column-per-thread) with its block.
inline model::KernelConfig make_naive(model::KernelKind kind = model::KernelKind::Naive, int block_x = 16,
                                      int block_y = 16) {
    model::KernelConfig config;
    config.kind = kind;
    config.block_x = block_x;
    config.block_y = block_y;
    return config;
}

// validate()'s and plan_launch's answers as one text: the reason, or "<accepted>".
inline std::string reason_or_accepted(const std::optional<std::string>& reason) { return reason.value_or("<accepted>"); }

inline model::KernelConfig make_tiled(int tile) {
    model::KernelConfig config;
    config.kind = model::KernelKind::Tiled;
    config.tile = tile;
    return config;
}

// An experiment's case: M×N×K in FP32, the real kernel the experiment breaks with tile T.
inline model::ExperimentCase experiment_case(model::Experiment experiment, std::int64_t m, std::int64_t n,
                                             std::int64_t k, int tile) {
    model::ExperimentCase c;
    c.problem = make_problem(m, n, k);
    c.kernel = model::experiment_kernel(experiment, tile);
    return c;
}

}  // namespace ts::testing_support
