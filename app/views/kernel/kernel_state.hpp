// kernel_state.hpp — what the kernel editor (--view kernel, Ctrl+8) remembers: the learner's
// source and file, its launch as read from the source, the draft that keeps unsaved edits across
// a crash, and the GPU work it asked for (compile, the check at five sizes, the measurement) with
// what came back. No ImGui here: the tests drive it as the view does.
//
// The GPU work goes to the runner one request at a time, like the Experiments view's batch, so
// Cancel stops after the request in flight; a compile that fails, or a check that costs the worker
// (a fault, a kernel that never returns), drops the rest of the queue.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/runner.hpp"
#include "model/kernel_config.hpp"
#include "model/user_kernel/source.hpp"
#include "model/user_kernel/launch.hpp"
#include "views/experiments/experiment_state.hpp"

namespace ts::views {

// Each job compiles first; Check then runs the check sizes, Measure times the kernel and the rung
// beside it, CheckAndMeasure does both, Record runs the tracing build once at record_size
// (model/user_kernel/user_trace.hpp), All does all three (--run).
enum class KernelJob { None, Compile, Check, Measure, CheckAndMeasure, Record, All };

struct KernelEditorState {
    std::string name = "mine.cu";   // the file it is saved as, in record::user_kernels_dir()
    std::string source;             // the editor's text
    std::string saved_source;       // what the file holds: unsaved edits when different
    bool started = false;           // the first frame opened the draft, or the empty kernel
    std::string notice;             // the last file action's words ("saved …", "cannot …", "restored …")
    std::uint64_t revision = 1;     // bumped by every change of `source`
    std::string name_field;         // the name being typed (applied by Save)

    // The launch, read from the source's comment lines whenever it changed.
    model::LaunchExpressions launch;
    std::string launch_problem;     // a launch line that cannot be read, or empty
    std::uint64_t launch_revision = 0;

    // The draft: written a second after the last change, removed by Save.
    std::uint64_t draft_revision = 0;
    double draft_due = 0.0;         // ImGui time at which a pending draft is written

    // What came back. The compile and check results belong to `checked_revision`'s source.
    std::optional<gpu::UserCompileReport> compile;
    std::optional<gpu::KernelOccupancy> occupancy;
    std::string compile_error;      // the request's failure when there is no report (no NVRTC, a worker that stopped)
    std::uint64_t compiled_revision = 0;  // the revision the last compile was of (0: none)
    std::vector<ExperimentOutcome> checks;  // one per check size, in model::user_check_problems order
    int runs = 5;                           // launches per check size
    int measure_size = 1024;
    model::KernelConfig beside{model::KernelKind::Tiled, 16, 16, 16};  // the rung timed beside it
    std::optional<gpu::RunResult> mine;     // the last measurement of the learner's kernel
    std::optional<gpu::RunResult> theirs;   // and of the rung beside it, at the same size
    int record_size = 64;                   // M = N = K of a trace
    std::optional<gpu::RunResult> recorded; // the last Record: its counts, and a theatre trace when tiled-shaped
    int next_serial = 1 << 20;              // heat-map keys, apart from the Experiments view's

    // The GPU work asked for and not yet back.
    KernelJob job = KernelJob::None;
    std::vector<gpu::RunRequest> queue;
    int queued_total = 0;
    std::uint64_t job_revision = 0;   // the revision the job's requests carry
    std::uint64_t in_flight = 0;
    std::string in_flight_label;      // "checking 127 × 129 × 65"
    std::string job_note;           // why the last job stopped early, or empty

    std::optional<int> jump_to_line;  // a diagnostic clicked: the editor puts its cursor there
    bool jump_focused = false;        // the editor has asked for the keys for that jump
    int jump_frames = 0;              // frames since, to give up the cursor where ImGui will not place it
    int followed_cursor = -1;         // the cursor offset the editor last scrolled to
    std::vector<std::string> files;   // the kernels folder, listed when the Open menu opens
};

// The source, name and launch as the runner takes them.
gpu::UserKernelSource user_source(const KernelEditorState& state);

// After an edit: a new revision, and the launch read again from the source.
void source_changed(KernelEditorState& state);
void refresh_launch(KernelEditorState& state);
// The launch fields edited: the source's comment lines rewritten to say `launch`.
void set_launch(KernelEditorState& state, const model::LaunchExpressions& launch);

// Replace the text with a starter (the empty kernel, naive, tiled), unsaved, under the same name.
void start_from(KernelEditorState& state, model::Starter starter);

// Files: open `name` from the kernels folder, save under `name` there. False with the reason in
// state.notice when it cannot.
bool open_kernel(KernelEditorState& state, const std::string& name);
bool save_kernel(KernelEditorState& state, const std::string& name);
bool unsaved(const KernelEditorState& state);

// The first frame: the draft a crash left (notice says so), else the empty kernel.
void start_editor(KernelEditorState& state);
// Every frame: writes the draft a second after the last change (`now`: ImGui time).
void keep_draft(KernelEditorState& state, double now);

// The jobs (KernelJob says what each queues).
void start_job(KernelEditorState& state, KernelJob job);
void cancel_job(KernelEditorState& state);
bool job_running(const KernelEditorState& state);
// "checking 127 × 129 × 65 (3 of 6)"
std::string job_progress(const KernelEditorState& state);

// The main loop's side: the next request to submit (a compile needs no GPU; the rest do: without
// one the queue is dropped with the reason), its id, and each result as it comes back (false for a
// result that is not the editor's).
std::optional<gpu::RunRequest> next_kernel_request(KernelEditorState& state, const gpu::DeviceInfo& device);
void kernel_submitted(KernelEditorState& state, std::uint64_t id);
bool take_kernel_result(KernelEditorState& state, const gpu::RunResult& result, const std::string& device_name);

// The diagnostics' lines, for the editor's marks.
std::optional<model::Severity> worst_on_line(const KernelEditorState& state, int line);
// The editor's last trace, where it came back whole and is of `source` (the text recorded,
// not the file's name): what the editor's tints and the roofline's point read. Else null.
const gpu::RunResult* last_trace_of(const KernelEditorState& state, const std::string& source);
// A line the last trace of this very source spoke of: a race's writer or reader (Error, red)
// or a line whose shared-memory accesses took more wavefronts than warp accesses (Warning: a
// bank conflict). The editor tints these as it tints the compiler's lines.
std::optional<model::Severity> recorded_on_line(const KernelEditorState& state, int line);

}  // namespace ts::views
