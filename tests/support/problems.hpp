// problems.hpp — a Problem from its sizes, and a tiled kernel from its T, for tests that build
// many of them.
#pragma once

#include <cstdint>

#include "model/kernel_config.hpp"
#include "model/problem.hpp"

namespace ts::testing_support {

inline model::Problem make_problem(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch = 1) {
    model::Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.batch = batch;
    return p;
}

inline model::KernelConfig make_tiled(int tile) {
    model::KernelConfig config;
    config.kind = model::KernelKind::Tiled;
    config.tile = tile;
    return config;
}

}  // namespace ts::testing_support
