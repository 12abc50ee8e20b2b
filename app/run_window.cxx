// run_window.cxx — see run_window.hpp.
#include "run_window.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <variant>

#include "automation.hpp"
#include "cli/sweep.hpp"
#include "gpu/supervisor.hpp"
#include "gpu/worker_target.hpp"
#include "model/format.hpp"
#include "record/journal.hpp"
#include "window_settings.hpp"
#include "views/common/theme.hpp"
#include "views/lab/lab_state.hpp"
#include "views/stage/stage_heatmap.hpp"

namespace ts::app {

namespace {

// Every measurement goes to the session journal as it arrives; a journal that a crashed
// TileScope left open is offered for reopening (record/journal.hpp).
void open_journal(views::LabMeasurements& measured, views::Presentation& presentation) {
    const std::filesystem::path journals = record::default_journal_dir();
    const auto unfinished = record::unfinished_sessions(journals);
    if (!unfinished.empty()) {
        measured.unfinished = unfinished.front();
        presentation.notice = model::format_text(
            "TileScope ended unexpectedly during the session of {}: its {} measurement(s) can be reopened in the "
            "lab (Ctrl+2)",
            unfinished.front().started, unfinished.front().points);
        std::cerr << "tilescope: " << presentation.notice << "\n";
    }
    auto journal = record::Journal::open(journals);
    if (auto* opened_journal = std::get_if<record::Journal>(&journal))
        measured.journal = std::make_shared<record::Journal>(std::move(*opened_journal));
    else
        std::cerr << "tilescope: " << std::get<std::string>(journal) << " (measurements are kept in memory only)\n";
}

// Read off the UI thread: the window opens at once and the lab says "Loading measurements…"
// until they are in (a --load that fails ends the program with 2: Automation::after_render).
void start_loading_measurements(views::LabMeasurements& measured, const std::string& load) {
    if (!load.empty()) {
        views::start_loading_measurement(measured, load, true);
        // The user came to read these numbers: the lab does not start measuring over them.
        views::pass_over_first_visit_sweep(measured,
                                           "a measurement was opened with --load (Sweep the sizes measures this GPU)");
    } else if (const auto committed = views::committed_measurements(); !committed.empty()) {
        // With a GPU, live points replace the recorded ones as they arrive.
        views::start_loading_measurement(measured, committed.back());
    }
}

// The supervised worker at `target`, with the model's estimate of each request's time for its deadline.
gpu::RunnerBackend supervised_backend_for(const gpu::WorkerTarget& target) {
    gpu::SupervisorOptions supervisor = gpu::supervisor_options(target);
    supervisor.estimate_s = cli::estimate_seconds;
    return gpu::supervised_backend(std::move(supervisor));
}

// --gpu or --worker-command when given; else the server the settings say was in use; else here.
gpu::WorkerTarget first_worker_target(const GuiOptions& options, const settings::Settings& opened) {
    if (options.worker_target_given || !opened.gpu_on_server || opened.gpu_server.empty()) return options.worker_target;
    auto saved = gpu::parse_worker_target(opened.gpu_server);
    if (const auto* why = std::get_if<std::string>(&saved)) {
        std::cerr << "tilescope: the GPU server in the settings is not used: " << *why << "\n";
        return options.worker_target;
    }
    return std::get<gpu::WorkerTarget>(std::move(saved));
}

}  // namespace

int run_window(const GuiOptions& options, const cli::Setup& setup) {
    Automation automation(automation_options(options));
    WindowSettings window_settings(options.settings);
    const settings::Settings opened = merge(window_settings.loaded(), options.presentation);
    auto created = platform::Window::create({opened.window_width, opened.window_height, "TileScope",
                                             automation.vsync(), opened.window_x, opened.window_y, opened.fullscreen,
                                             opened.font_scale});
    if (auto* why = std::get_if<std::string>(&created)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 1;
    }
    platform::Window& window = *std::get<std::unique_ptr<platform::Window>>(created);
    if (window.font_warning()) std::cerr << "tilescope: " << *window.font_warning() << "\n";
    views::set_fonts({window.fonts().heading, window.fonts().small, window.fonts().code});
    if (window.heatmap_warning()) std::cerr << "tilescope: " << *window.heatmap_warning() << "\n";
    views::set_heatmap_painter(window.heatmap_painter());
    views::apply_style(ImGui::GetStyle());

    // The window's CUDA work runs in a worker process (this same program, `tilescope worker`,
    // here or where --gpu or the GPU panel says), so a kernel that faults or never ends costs a
    // restart of the worker, not the app.
    const gpu::WorkerTarget target = first_worker_target(options, opened);
    gpu::Runner runner(supervised_backend_for(target));
    views::AppState state;
    open_journal(state.lab.measured, state.presentation);
    struct CloseJournalAtExit {
        views::LabState& lab;
        ~CloseJournalAtExit() {
            if (lab.measured.journal) lab.measured.journal->close();
        }
    } close_journal_at_exit{state.lab};
    if (const auto exit_code = apply_gui_options(state, options, setup, opened, window_settings.loaded())) return *exit_code;
    state.gpu_choice.backend_for = supervised_backend_for;
    state.gpu_choice.in_use = gpu::describe(target);
    state.gpu_choice.on_server = target.kind != gpu::WorkerTargetKind::Local;
    state.gpu_choice.server = state.gpu_choice.on_server ? gpu::describe(target) : opened.gpu_server;
    automation.prepare(state);
    start_loading_measurements(state.lab.measured, options.load);
    window_settings.start(window, state.presentation, state.lab.choices.latency, opened);
    open_chosen_lesson(state, options.lesson);
    return automation.run(window, runner, state, window_settings);
}

}  // namespace ts::app
