#include "app_state.hpp"

#include "model/launch_geometry.hpp"

namespace ts::views {

model::DeviceLimits launch_limits(const AppState& state) {
    if (state.device && state.device->usable) return state.device->limits;
    return model::generic_limits();
}

std::optional<std::string> launch_error(const AppState& state) {
    return model::check_launch(state.kernel, state.problem, launch_limits(state));
}

std::optional<std::string> why_no_run(const AppState& state) {
    if (!state.device) return "still probing for a CUDA GPU";
    if (!state.device->usable) return state.device->why_not;
    if (state.run.pending_id != 0) return "a run is in progress";
    if (auto why = launch_error(state)) return "this launch would fail: " + *why;
    return std::nullopt;
}

gpu::RunRequest make_run_request(const AppState& state) {
    gpu::RunRequest request;
    request.kernel = state.kernel;
    request.problem = state.problem;
    return request;
}

void exchange_with_runner(AppState& state, gpu::Runner& runner, double now) {
    if (!state.device) state.device = runner.device();
    // One run at a time (the button is disabled while one is pending), so a result is
    // always the pending run's.
    // Live requests are the latency lab's; the rest is the run panel's single run.
    while (auto result = runner.poll()) {
        if (!result->live_key.empty()) {
            take_live_result(state.lab, *result);
            continue;
        }
        state.run.last = std::move(*result);
        state.run.pending_id = 0;
    }
    if (state.device && state.device->usable) {
        for (const auto& [key, request] : state.lab.to_submit) runner.submit_live(key, request);
        state.lab.in_flight += static_cast<int>(state.lab.to_submit.size());
    }
    state.lab.to_submit.clear();
    if (state.run_requested) {
        state.run_requested = false;
        if (!why_no_run(state)) {
            state.run.pending_id = runner.submit(make_run_request(state));
            state.run.pending_since = now;
        }
    }
}

}  // namespace ts::views
