#include "views/kernel/kernel_state.hpp"

#include <filesystem>

#include "model/format.hpp"
#include "record/kernel_files.hpp"

namespace ts::views {

namespace {

using model::format_text;
using model::problem_size_text;

// Whether a job runs the checks (the others compile, measure or record only).
bool checks(KernelJob job) { return job == KernelJob::Check || job == KernelJob::CheckAndMeasure || job == KernelJob::All; }

// A draft is written this long after the last change, so typing does not write on every key.
constexpr double kDraftDelaySeconds = 1.0;

gpu::RunRequest request_of(const KernelEditorState& state, gpu::RequestKind kind, const model::Problem& problem) {
    gpu::RunRequest request;
    request.kind = kind;
    request.user = user_source(state);
    request.problem = problem;
    request.runs = state.runs;
    return request;
}

model::Problem cube(int size) { return {size, size, size, 1, model::Dtype::Float32}; }

void stop_job(KernelEditorState& state, std::string note) {
    state.queue.clear();
    state.job = KernelJob::None;
    state.job_note = std::move(note);
}

}  // namespace

gpu::UserKernelSource user_source(const KernelEditorState& state) {
    gpu::UserKernelSource user;
    user.name = state.name;
    user.source = state.source;
    user.launch = state.launch;
    return user;
}

void refresh_launch(KernelEditorState& state) {
    if (state.launch_revision == state.revision) return;
    state.launch_problem.clear();
    state.launch = model::launch_from_source(state.source, &state.launch_problem);
    state.launch_revision = state.revision;
}

void source_changed(KernelEditorState& state) {
    ++state.revision;
    refresh_launch(state);
}

void set_launch(KernelEditorState& state, const model::LaunchExpressions& launch) {
    state.source = model::with_launch(state.source, launch);
    source_changed(state);
}

void start_from(KernelEditorState& state, model::Starter starter) {
    state.source = model::starter_kernel(starter);
    source_changed(state);
    state.notice = format_text("started from the {} kernel: not saved yet", model::starter_name(starter));
}

bool unsaved(const KernelEditorState& state) { return state.source != state.saved_source; }

bool open_kernel(KernelEditorState& state, const std::string& name) {
    if (auto why = record::kernel_name_problem(name)) {
        state.notice = *why;
        return false;
    }
    auto read = record::read_kernel_file(record::user_kernels_dir() / name);
    if (read.index() == 1) {
        state.notice = std::get<1>(read);
        return false;
    }
    state.name = state.name_field = name;
    state.source = state.saved_source = std::move(std::get<0>(read));
    source_changed(state);
    record::remove_draft(record::kernel_draft_path());
    state.draft_revision = state.revision;
    state.notice = format_text("opened {}", (record::user_kernels_dir() / name).string());
    return true;
}

bool save_kernel(KernelEditorState& state, const std::string& name) {
    if (auto why = record::kernel_name_problem(name)) {
        state.notice = *why;
        return false;
    }
    const std::filesystem::path path = record::user_kernels_dir() / name;
    if (auto why = record::write_kernel_file(path, state.source)) {
        state.notice = *why + " (your text is kept in the editor and its draft)";
        return false;
    }
    state.name = state.name_field = name;
    state.saved_source = state.source;
    record::remove_draft(record::kernel_draft_path());
    state.draft_revision = state.revision;
    state.notice = format_text("saved {}", path.string());
    return true;
}

void start_editor(KernelEditorState& state) {
    if (state.started) return;
    state.started = true;
    if (const auto draft = record::load_draft(record::kernel_draft_path())) {
        state.name = state.name_field = draft->name;
        state.source = draft->source;
        // What the file holds, if it is there: the draft's edits show as unsaved against it.
        const auto saved = record::read_kernel_file(record::user_kernels_dir() / draft->name);
        state.saved_source = saved.index() == 0 ? std::get<0>(saved) : std::string();
        source_changed(state);
        state.draft_revision = state.revision;
        state.notice = format_text("restored the unsaved edits of {} that TileScope kept when it last stopped",
                                   draft->name);
        return;
    }
    if (state.source.empty()) {
        state.source = model::empty_user_kernel();
        state.name_field = state.name;
    }
    source_changed(state);
    state.draft_revision = state.revision;
}

void keep_draft(KernelEditorState& state, double now) {
    if (state.draft_revision == state.revision) {
        state.draft_due = 0.0;
        return;
    }
    if (state.draft_due == 0.0) state.draft_due = now + kDraftDelaySeconds;
    if (now < state.draft_due) return;
    state.draft_due = 0.0;
    state.draft_revision = state.revision;
    if (!unsaved(state)) {
        record::remove_draft(record::kernel_draft_path());
        return;
    }
    if (auto why = record::save_draft(record::kernel_draft_path(), {state.name, state.source}))
        state.notice = "cannot keep a draft of your edits: " + *why;
}

void start_job(KernelEditorState& state, KernelJob job) {
    if (job_running(state) || job == KernelJob::None) return;
    start_editor(state);  // --run may ask before the view was first drawn
    refresh_launch(state);
    state.job = job;
    state.job_revision = state.revision;
    state.job_note.clear();
    state.queue.clear();
    state.queue.push_back(request_of(state, gpu::RequestKind::UserCompile, cube(state.measure_size)));
    if (checks(job))
        for (const model::Problem& p : model::user_check_problems())
            state.queue.push_back(request_of(state, gpu::RequestKind::UserCheck, p));
    if (job == KernelJob::Measure || job == KernelJob::CheckAndMeasure || job == KernelJob::All) {
        gpu::RunRequest mine = request_of(state, gpu::RequestKind::Measure, cube(state.measure_size));
        gpu::RunRequest theirs = mine;
        theirs.user.reset();
        theirs.kernel = state.beside;
        state.queue.push_back(std::move(mine));
        state.queue.push_back(std::move(theirs));
    }
    if (job == KernelJob::Record || job == KernelJob::All)
        state.queue.push_back(request_of(state, gpu::RequestKind::Record, cube(state.record_size)));
    state.queued_total = static_cast<int>(state.queue.size());
}

void cancel_job(KernelEditorState& state) {
    if (!job_running(state)) return;
    // The request in flight still comes back and is kept; nothing after it is sent.
    state.queue.clear();
    state.job_note = "cancelled: what had come back is kept";
    if (state.in_flight == 0) state.job = KernelJob::None;
}

bool job_running(const KernelEditorState& state) { return state.job != KernelJob::None; }

std::string job_progress(const KernelEditorState& state) {
    if (!job_running(state)) return "";
    const int current = state.queued_total - static_cast<int>(state.queue.size());
    return format_text("{} ({} of {})", state.in_flight != 0 ? state.in_flight_label : "waiting for the GPU worker",
                       std::max(current, 1), state.queued_total);
}

std::optional<gpu::RunRequest> next_kernel_request(KernelEditorState& state, const gpu::DeviceInfo& device) {
    if (state.in_flight != 0 || state.queue.empty()) return std::nullopt;
    const bool compile = state.queue.front().kind == gpu::RequestKind::UserCompile;
    if (!compile && !device.usable) {
        stop_job(state, "compiled; running and timing your kernel need a GPU: " + device.why_not);
        return std::nullopt;
    }
    gpu::RunRequest request = std::move(state.queue.front());
    state.queue.erase(state.queue.begin());
    const model::Problem& p = request.problem;
    switch (request.kind) {
        case gpu::RequestKind::UserCompile: state.in_flight_label = "compiling"; break;
        case gpu::RequestKind::UserCheck: state.in_flight_label = "checking " + problem_size_text(p); break;
        case gpu::RequestKind::Record: state.in_flight_label = "tracing at " + problem_size_text(p); break;
        default:
            state.in_flight_label = format_text("timing {} at {}", request.user ? "yours" : model::describe(request.kernel),
                                                problem_size_text(p));
    }
    return request;
}

void kernel_submitted(KernelEditorState& state, std::uint64_t id) { state.in_flight = id; }

bool take_kernel_result(KernelEditorState& state, const gpu::RunResult& result, const std::string& device_name) {
    if (state.in_flight == 0 || result.id != state.in_flight) return false;
    state.in_flight = 0;
    const gpu::RequestKind kind = result.request.kind;
    if (kind == gpu::RequestKind::UserCompile) {
        state.compile = result.compile;
        state.occupancy = result.occupancy;
        state.compile_error = result.compile ? std::string() : result.error;
        state.compiled_revision = state.job_revision;
        if (checks(state.job)) state.checks.clear();
        if (!result.ok) stop_job(state, result.compile ? "it does not compile: the compiler's messages are below; "
                                                         "click one to go to its line"
                                                       : result.error);
    } else if (kind == gpu::RequestKind::UserCheck) {
        ExperimentOutcome outcome;
        outcome.c = {result.request.problem, {}};
        outcome.run = result.experiment;
        outcome.error = result.ok ? std::string() : result.error;
        outcome.worker_restarted = says_worker_restarted(result.error);
        outcome.source = format_text("measured on {}, this session", device_name);
        outcome.serial = state.next_serial++;
        state.checks.push_back(std::move(outcome));
        if (!result.ok)
            stop_job(state, "the other sizes were not run: a kernel that fails at one size would fail the same at "
                            "each, and each could cost the worker");
    } else if (kind == gpu::RequestKind::Record) {
        state.recorded = result;
    } else if (kind == gpu::RequestKind::Measure) {
        (result.request.user ? state.mine : state.theirs) = result;
        if (!result.ok && result.request.user) {
            state.theirs.reset();
            stop_job(state, "the rung was not timed beside it");
        }
    }
    if (state.queue.empty() && state.in_flight == 0) state.job = KernelJob::None;
    return true;
}

std::optional<model::Severity> worst_on_line(const KernelEditorState& state, int line) {
    if (!state.compile) return std::nullopt;
    std::optional<model::Severity> worst;
    for (const model::Diagnostic& d : state.compile->diagnostics)
        if (d.line == line && (!worst || static_cast<int>(d.severity) < static_cast<int>(*worst))) worst = d.severity;
    return worst;
}

const gpu::RunResult* last_trace_of(const KernelEditorState& state, const std::string& source) {
    const auto& r = state.recorded;
    if (!r || !r->ok || !r->user_trace || !r->request.user || r->request.user->source != source) return nullptr;
    return &*r;
}

std::optional<model::Severity> recorded_on_line(const KernelEditorState& state, int line) {
    const gpu::RunResult* r = last_trace_of(state, state.source);
    if (!r) return std::nullopt;
    const model::SharedReport& shared = r->user_trace->shared;
    for (const model::SharedRace& race : shared.examples)
        if (race.writer_line == line || race.other_line == line) return model::Severity::Error;
    for (const model::SharedLineUse& use : shared.lines)
        if (use.line == line && use.wavefronts > use.warp_accesses) return model::Severity::Warning;
    return std::nullopt;
}

}  // namespace ts::views
