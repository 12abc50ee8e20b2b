// app_states.hpp — AppStates for view tests: the tiled kernel on an M×N×K problem, a fake GPU,
// and what a fake GPU answers for an experiment.
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

// What the runner would answer for missing-second-sync at 64³, T = 16, 50 runs: row 3, columns
// 16..31 of C wrong in `wrong_runs` of them.
inline gpu::RunResult fake_second_sync_result(int wrong_runs, std::uint64_t id) {
    const model::ExperimentCase c = experiment_case(model::Experiment::MissingSecondSync, 64, 64, 64, 16);
    gpu::RunResult result;
    result.id = id;
    result.ok = true;
    result.request.kind = gpu::RequestKind::Experiment;
    result.request.experiment = model::Experiment::MissingSecondSync;
    result.request.kernel = c.kernel;
    result.request.problem = c.problem;
    model::ExperimentRun run;
    run.experiment = model::Experiment::MissingSecondSync;
    run.c = c;
    run.blocks = 16;
    run.runs = 50;
    run.wrong_runs = wrong_runs;
    run.map = model::make_wrong_cell_map(64, 64);
    for (int col = 16; col < 32; ++col) run.map.wrong_runs[3 * 64 + col] = wrong_runs;
    result.experiment = run;
    return result;
}

}  // namespace ts::testing_support
