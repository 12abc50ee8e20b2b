// theatre_traces.hpp — traces from the GPU in the theatre: asking the runner for
// them ("Trace on GPU", --record), loading them from files (--trace), and choosing the
// events the player shows: as recorded when a trace fits the problem on show, the
// model's otherwise, always labelled.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "gpu/runner.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// Whether `trace` is of the problem and T on show (the naive one also of its block shape; a
// ladder rung's: of the problem and the rung on show).
bool trace_fits(const model::KernelTrace& trace, const AppState& state);

// The trace of the kernel the SM timeline shows: the played kernel's when it fits,
// else the other kernel's; null when none fits. A ladder rung: its own trace or null.
const model::KernelTrace* timeline_trace(const AppState& state);

// compare_with_model for `trace`, worked out once per trace rather than once per frame (a
// wgmma stage is 16 384 words to rebuild and compare).
const std::optional<std::string>& trace_difference(const std::shared_ptr<const model::KernelTrace>& trace);

// The latest trace of tensor-core rung `kind` (wgmma, warp-specialized), or null.
std::shared_ptr<const model::KernelTrace> tensor_core_trace(const TheatreTraces& traces,
                                                                model::KernelKind kind);

// Keeps theatre.source (app.theatre's) pointing at the events to show: the trace when replay
// is on and one fits, the model otherwise. Once per frame, before drawing.
void choose_theatre_source(TheatreState& theatre, const AppState& app);

// Adds a trace (replacing an older one of the same kernel) and rebuilds the replay; a
// ladder rung's (regtile-2d, warptile) goes to traces.rung, replacing any other rung's.
void add_trace(TheatreTraces& traces, model::KernelTrace trace);

// Loads a trace saved by `tilescope record --out`; the reason when the file is unusable.
std::optional<std::string> load_trace_file(TheatreTraces& traces, const std::filesystem::path& file);

// Why "Trace on GPU" cannot be pressed now, or nullopt.
std::optional<std::string> why_no_trace(const AppState& state);

// The requests one press of "Trace on GPU" sends: the tiled kernel with the T on show and
// the naive kernel with its block shape, cutting K into the same chunks; each only if it can
// be recorded (model::check_recordable). When a ladder rung plays: that rung alone.
std::vector<gpu::RunRequest> trace_requests(const AppState& state);

// Called by exchange_with_runner: submits what the button asked for (`traces` is app.theatre's),
// and takes a finished Record result (true when `result` was one).
void submit_traces(TheatreTraces& traces, const AppState& app, gpu::Runner& runner, double now);
bool take_trace_result(TheatreTraces& traces, const gpu::RunResult& result);

}  // namespace ts::views
