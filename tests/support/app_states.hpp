// app_states.hpp — AppStates for view tests: the tiled kernel on an M×N×K problem, a fake GPU.
#pragma once

#include <cstdint>

#include <string>

#include "gpu/runner.hpp"
#include "model/device_limits.hpp"
#include "support/problems.hpp"
#include "views/window/app_state.hpp"

namespace ts::testing_support {

inline views::AppState state_for(std::int64_t m, std::int64_t n, std::int64_t k, int tile) {
    views::AppState state;
    state.problem = make_problem(m, n, k);
    state.kernel.kind = model::KernelKind::Tiled;
    state.kernel.tile = tile;
    return state;
}

// The tiled kernel with T = 8 on 40×28×36: no size is a multiple of the tile, so the last
// blocks and phases are ragged.
inline views::AppState ragged_state(model::KernelKind kind = model::KernelKind::Tiled) {
    views::AppState state = state_for(40, 28, 36, 8);
    state.kernel.kind = kind;
    return state;
}

// A GPU that the views take as usable (the first preset's limits); nothing is ever run on it.
inline void give_fake_gpu(views::AppState& state, const std::string& name = "") {
    gpu::DeviceInfo info;
    info.usable = true;
    info.limits = model::device_presets().front();
    info.limits.is_preset = false;
    if (!name.empty()) info.limits.name = name;
    state.device = info;
}

}  // namespace ts::testing_support
