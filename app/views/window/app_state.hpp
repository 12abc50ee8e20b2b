// app_state.hpp — what the views show and edit: the problem, the kernel, the device and
// the latest GPU run. The views read and write this; only the main loop talks to the
// runner, through exchange_with_runner().
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gpu/runner.hpp"
#include "views/experiments/experiment_state.hpp"
#include "views/export/export_state.hpp"
#include "views/kernel/kernel_state.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lessons/lesson_progress.hpp"
#include "model/device_limits.hpp"
#include "views/window/gpu_panel.hpp"
#include "model/index_math.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"
#include "views/window/presenter.hpp"
#include "views/window/view_id.hpp"
#include "views/common/picture_layout.hpp"
#include "views/stage/stage_layout.hpp"
#include "views/theatre/theatre_state.hpp"

namespace ts::views {

struct RunState {
    std::uint64_t pending_id = 0;         // the run in flight; 0: none
    double pending_since = 0.0;           // ImGui time of the submit, for "running… 3 s"
    std::optional<gpu::RunResult> last;   // the latest finished run, shown until the next
};

// What uncoalesced access costs on a real GPU: the naive-row kernel's time over the naive
// kernel's, measured at one size, worked out from the lab's points when it is shown (the
// warp panel, beside the model's sector counts; a lesson's answer).
struct CoalescingPenalty {
    double ratio = 0.0;     // naive-row time ÷ naive time
    std::string measured;   // where and at what size: "NVIDIA H200, 2048³ float"
};

struct AppState {
    ViewId view = ViewId::Stage;            // the view filling the window (the switcher, Ctrl+1 … Ctrl+8)
    model::Problem problem;
    model::KernelConfig kernel;
    std::optional<gpu::DeviceInfo> device;  // nullopt while the runner is still probing
    gpu::WorkerStatus worker;               // where the worker is and what it does (the runner's, each frame)
    GpuChoice gpu_choice;                   // this machine or a server (gpu_panel.hpp)
    RunState run;
    bool run_requested = false;             // set by the run panel; the main loop submits
    // A picture is being taken (--screenshot): tooltips that stay without a mouse over them (a
    // pinned cell's) are left out, unless --tooltip asks for them. Hovers need a pointer, which
    // a picture does not follow.
    bool picture_without_tooltips = false;
    // Where the stage or the theatre drew its picture in the last frame (picture_layout.hpp).
    PictureLayout picture;
    // Every result that came back, and of those the failed ones and the ones whose worker
    // process stopped (a crash, a hang: the supervisor's words); for the soak test.
    struct ResultCounts {
        int done = 0;
        int failed = 0;
        int worker_stopped = 0;
    } results;
    std::optional<gpu::RunResult> memory;  // the last answer to a RequestKind::Memory request
    std::optional<model::Cell> selected;    // a cell of C pinned by a click (or --select)
    StageCamera camera;                     // the stage's zoom and pan (or --zoom, --center)
    LabState lab;                           // the latency lab's views and live measurements
    TheatreState theatre;                   // the tiling theatre's block and phase player
    Presentation presentation;              // presenter mode, font scale, palette, the key list
    LessonProgress lesson;                  // the guided lesson on show, its step and the guess
    ExperimentState experiments = make_experiment_state();  // the Experiments view: cases, guesses, results
    KernelEditorState kernel_editor;        // your own kernel: its text, file, and what the GPU said
    ExportState exporting;                  // "Export animation…": the choice, and the export on its way
};

// The limits a launch is checked against: the GPU's when one is usable, otherwise the
// limits every CUDA GPU shares.
model::DeviceLimits launch_limits(const AppState& state);

// Why the current setup cannot launch (the model's reason), or nullopt.
std::optional<std::string> launch_error(const AppState& state);

// Why "Run on GPU" is unavailable right now, or nullopt when it may be pressed.
std::optional<std::string> why_no_run(const AppState& state);

gpu::RunRequest make_run_request(const AppState& state);

// The naive-row kernel's time over the naive kernel's with the same block shape, in float
// at the largest square size the lab has both for (live points win over recorded ones);
// nullopt when it has no such pair.
std::optional<CoalescingPenalty> measured_coalescing_penalty(const LabState& lab);

// Once per frame: picks up the probed device and finished results, and submits the run
// the panel asked for. Never blocks. `now` is ImGui::GetTime().
void exchange_with_runner(AppState& state, gpu::Runner& runner, double now);

}  // namespace ts::views
