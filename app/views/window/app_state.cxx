#include "views/window/app_state.hpp"
#include "views/window/status_bar.hpp"

#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "views/theatre/theatre_traces.hpp"

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

std::optional<CoalescingPenalty> measured_coalescing_penalty(const LabState& lab) {
    const std::vector<const record::Point*> points = lab_points(lab.measured);
    std::optional<CoalescingPenalty> best;
    std::int64_t best_size = 0;
    for (const record::Point* row : points) {
        if (!row->ok || row->kernel != "naive-row" || row->dtype != "float" || row->m != row->n || row->n != row->k || row->m <= best_size)
            continue;
        const std::string naive_config = "naive" + row->config.substr(std::string("naive-row").size());
        const record::Point* naive = find_point(points, naive_config, row->m, "float");
        if (!naive || naive->median_ms <= 0.0) continue;
        const bool live = !lab.measured.live_points.empty() && row >= &lab.measured.live_points.front() && row <= &lab.measured.live_points.back();
        best_size = row->m;
        best = CoalescingPenalty{row->median_ms / naive->median_ms,
                                 model::format_text("{} blocks, {}³ float, {}", row->config.substr(10), row->m,
                                               live ? "measured this session" : lab.measured.measurement_label)};
    }
    return best;
}

void exchange_with_runner(AppState& state, gpu::Runner& runner, double now) {
    apply_gpu_choice(state.gpu_choice, state.device, runner);
    if (!state.device) state.device = runner.device();
    state.worker = runner.worker_status();
    poll_measurement_load(state.lab.measured);  // the measurement read off the UI thread, once it is in
    // One run at a time (the button is disabled while one is pending), so a result is
    // always the pending run's.
    // Live requests are the latency lab's; the rest is the run panel's single run.
    while (auto result = runner.poll()) {
        ++state.results.done;
        if (!result->ok && result->superseded_by == 0) ++state.results.failed;
        if (result->error.find("the GPU worker stopped") != std::string::npos) ++state.results.worker_stopped;
        if (result->request.kind == gpu::RequestKind::Memory) {
            state.memory = std::move(*result);
            continue;
        }
        if (!result->live_key.empty()) {
            take_live_result(state.lab.measured, state.lab.panels, *result);
            continue;
        }
        if (take_trace_result(state.theatre.traces, *result)) continue;
        const std::string gpu_name = state.device && state.device->usable ? state.device->limits.name + on_host(*state.device) : "";
        if (take_experiment_result(state.experiments, *result, gpu_name)) continue;
        if (take_accumulator_result(state.experiments.accumulator, *result)) continue;
        if (take_kernel_result(state.kernel_editor, *result, gpu_name)) continue;
        state.run.last = std::move(*result);
        state.run.pending_id = 0;
    }
    if (state.device && state.device->usable) {
        for (const auto& [key, request] : state.lab.measured.to_submit) runner.submit_live(key, request);
        state.lab.measured.in_flight += static_cast<int>(state.lab.measured.to_submit.size());
    }
    state.lab.measured.to_submit.clear();
    submit_traces(state.theatre.traces, state, runner, now);
    // The Experiments view's batch: one case at a time, so that Cancel stops after the one running.
    if (state.device && state.device->usable)
        if (const auto request = next_experiment_request(state.experiments))
            experiment_submitted(state.experiments, runner.submit(*request));
    if (state.device && state.device->usable)
        if (const auto request = next_accumulator_request(state.experiments.accumulator))
            accumulator_submitted(state.experiments.accumulator, runner.submit(*request));
    // The kernel editor's job: one request at a time; a compile needs no GPU, only the probe's answer.
    if (state.device)
        if (const auto request = next_kernel_request(state.kernel_editor, *state.device))
            kernel_submitted(state.kernel_editor, runner.submit(*request));
    if (state.run_requested) {
        state.run_requested = false;
        if (!why_no_run(state)) {
            state.run.pending_id = runner.submit(make_run_request(state));
            state.run.pending_since = now;
        }
    }
}

}  // namespace ts::views
