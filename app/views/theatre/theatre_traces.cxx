#include "views/theatre/theatre_traces.hpp"

#include <algorithm>

#include "record/trace_file.hpp"
#include "views/theatre/theatre_logic.hpp"

namespace ts::views {

namespace {

std::shared_ptr<const model::KernelTrace>& slot_of(TheatreTraces& traces, model::KernelKind kind) {
    return kind == model::KernelKind::Tiled ? traces.tiled : traces.naive;
}

}  // namespace

bool trace_fits(const model::KernelTrace& trace, const AppState& state) {
    const model::Problem& p = state.problem;
    if (trace.problem.m != p.m || trace.problem.n != p.n || trace.problem.k != p.k || p.batch != 1) return false;
    // A ladder rung's shape is fixed: the rung on show is all that must match.
    if (model::is_recorded_ladder(trace.config.kind) || model::is_tensor_core(trace.config.kind))
        return trace.config.kind == state.kernel.kind;
    if (trace.config.tile != state.kernel.tile) return false;
    if (trace.config.kind == model::KernelKind::Tiled) return true;
    const model::KernelConfig naive{model::KernelKind::Naive, state.kernel.block_x, state.kernel.block_y,
                                    state.kernel.tile};
    return trace.config.block_x == naive.block_x && trace.config.block_y == naive.block_y;
}

const std::optional<std::string>& trace_difference(const std::shared_ptr<const model::KernelTrace>& trace) {
    // Holding the trace keeps its address from being reused by another one.
    static std::shared_ptr<const model::KernelTrace> compared;
    static std::optional<std::string> difference;
    if (trace != compared) {
        compared = trace;
        difference = trace ? model::compare_with_model(*trace) : std::nullopt;
    }
    return difference;
}

std::shared_ptr<const model::KernelTrace> tensor_core_trace(const TheatreTraces& traces,
                                                                model::KernelKind kind) {
    for (const auto& trace : traces.tensor_cores)
        if (trace->config.kind == kind) return trace;
    return nullptr;
}

const model::KernelTrace* timeline_trace(const AppState& state) {
    const TheatreTraces& r = state.theatre.traces;
    // The tensor-core rungs: the wgmma rung's trace, on the problem it was made on.
    if (model::is_tensor_core(state.kernel.kind))
    {
        const auto trace = tensor_core_trace(r, state.kernel.kind);
        return trace && trace_fits(*trace, state) ? trace.get() : nullptr;
    }
    if (plays_rung(state)) return r.rung && trace_fits(*r.rung, state) ? r.rung.get() : nullptr;
    const model::KernelTrace* played = plays_naive(state) ? r.naive.get() : r.tiled.get();
    const model::KernelTrace* other = plays_naive(state) ? r.tiled.get() : r.naive.get();
    if (played && trace_fits(*played, state)) return played;
    if (other && trace_fits(*other, state)) return other;
    return nullptr;
}

void choose_theatre_source(TheatreState& theatre, const AppState& app) {
    const TheatreTraces& r = theatre.traces;
    const bool fits = (r.naive && r.naive->has_loads() && trace_fits(*r.naive, app)) ||
                      (r.tiled && r.tiled->has_loads() && trace_fits(*r.tiled, app));
    theatre.source = r.replay && fits && r.replay_source ? r.replay_source.get() : &model_source();
}

void add_trace(TheatreTraces& traces, model::KernelTrace trace) {
    const model::KernelKind kind = trace.config.kind;
    if (model::is_tensor_core(kind)) {
        std::erase_if(traces.tensor_cores, [&](const auto& t) { return t->config.kind == kind; });
        traces.tensor_cores.push_back(std::make_shared<const model::KernelTrace>(std::move(trace)));
        return;
    }
    if (model::is_recorded_ladder(kind)) {
        traces.rung = std::make_shared<const model::KernelTrace>(std::move(trace));
        return;  // the replay source plays the naive and tiled kernels only
    }
    slot_of(traces, kind) = std::make_shared<const model::KernelTrace>(std::move(trace));
    traces.replay_source = std::make_shared<const RecordedSource>(traces.naive, traces.tiled);
}

std::optional<std::string> load_trace_file(TheatreTraces& traces, const std::filesystem::path& file) {
    auto loaded = record::load_trace(file);
    if (auto* why = std::get_if<std::string>(&loaded)) return *why;
    add_trace(traces, std::move(std::get<model::KernelTrace>(loaded)));
    return std::nullopt;
}

std::optional<std::string> why_no_trace(const AppState& state) {
    if (!state.device) return "still probing for a CUDA GPU";
    if (!state.device->usable) return "no GPU here, so the player shows the model: " + state.device->why_not;
    if (!state.theatre.traces.pending.empty()) return "tracing…";
    // Of the tensor-core rungs mma, wgmma and warp-specialized have recorded variants.
    if (model::is_tensor_core(state.kernel.kind)) {
        if (!model::recorded_kind(state.kernel.kind))
            return "of the tensor-core rungs mma (14_mma_recorded.cu: its registers after ldmatrix), wgmma "
                   "(16_wgmma_recorded.cu: its first stage as TMA wrote it) and warp-specialized "
                   "(17_warp_specialized_recorded.cu: each role's waits) have recorded variants";
        return model::check_recordable(state.kernel, state.problem);
    }
    if (auto why = theatre_error(state)) return why;
    // A ladder rung records itself (regtile-2d and warptile have recorded variants; the others
    // say so).
    if (plays_rung(state)) return model::check_recordable(state.kernel, state.problem);
    // The tiled kernel is the one the theatre is about: its reason stands for both.
    const int tile = state.kernel.tile;
    if (auto why = model::check_recordable({model::KernelKind::Tiled, tile, tile, tile}, state.problem)) return why;
    return std::nullopt;
}

std::vector<gpu::RunRequest> trace_requests(const AppState& state) {
    const int tile = state.kernel.tile;
    std::vector<gpu::RunRequest> requests;
    const bool recorded_tc =
        state.kernel.kind == model::KernelKind::Wgmma || state.kernel.kind == model::KernelKind::WarpSpecialized;
    if (recorded_tc && !model::check_recordable(state.kernel, state.problem)) {
        gpu::RunRequest request;
        request.kind = gpu::RequestKind::Record;
        request.kernel = state.kernel;
        request.problem = state.problem;
        request.problem.dtype = model::Dtype::BFloat16;
        requests.push_back(request);
        return requests;
    }
    if (model::is_tensor_core(state.kernel.kind)) return requests;
    if (plays_rung(state)) {
        // The played rung alone, on the problem on show (the recorder runs it in float).
        if (!model::check_recordable(state.kernel, state.problem)) {
            gpu::RunRequest request;
            request.kind = gpu::RequestKind::Record;
            request.kernel = state.kernel;
            request.problem = state.problem;
            requests.push_back(request);
        }
        return requests;
    }
    for (const model::KernelConfig& config :
         {model::KernelConfig{model::KernelKind::Tiled, tile, tile, tile},
          model::KernelConfig{model::KernelKind::Naive, state.kernel.block_x, state.kernel.block_y, tile}}) {
        gpu::RunRequest request;
        request.kind = gpu::RequestKind::Record;
        request.kernel = config;
        request.problem = state.problem;
        // A naive grid too large to record (small blocks on a large C) is left out.
        if (!model::check_recordable(config, state.problem)) requests.push_back(request);
    }
    return requests;
}

void submit_traces(TheatreTraces& traces, const AppState& app, gpu::Runner& runner, double now) {
    if (!traces.requested || !app.device) return;  // a press while probing waits for the answer
    traces.requested = false;
    if (why_no_trace(app)) return;
    traces.error.clear();
    for (const gpu::RunRequest& request : trace_requests(app)) traces.pending.push_back(runner.submit(request));
    traces.pending_since = now;
}

bool take_trace_result(TheatreTraces& traces, const gpu::RunResult& result) {
    // Only the theatre's own: the kernel editor records too (its Record button), and its result
    // goes back to it.
    if (result.request.kind != gpu::RequestKind::Record ||
        std::find(traces.pending.begin(), traces.pending.end(), result.id) == traces.pending.end())
        return false;
    std::erase(traces.pending, result.id);
    if (!result.ok || !result.trace) {
        traces.error = "tracing " + model::describe(result.request.kernel) + " failed: " + result.error;
        return true;
    }
    add_trace(traces, *result.trace);
    traces.replay = true;
    return true;
}

}  // namespace ts::views
