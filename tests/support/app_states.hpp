// app_states.hpp — an AppState set up for the tiled kernel on an M×N×K problem, for view tests.
#pragma once

#include <cstdint>

#include "support/problems.hpp"
#include "views/app_state.hpp"

namespace ts::testing_support {

inline views::AppState state_for(std::int64_t m, std::int64_t n, std::int64_t k, int tile) {
    views::AppState state;
    state.problem = make_problem(m, n, k);
    state.kernel.kind = model::KernelKind::Tiled;
    state.kernel.tile = tile;
    return state;
}

}  // namespace ts::testing_support
