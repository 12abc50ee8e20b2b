// problems.hpp — a Problem from its sizes, for tests that build many of them.
#pragma once

#include <cstdint>

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

}  // namespace ts::testing_support
