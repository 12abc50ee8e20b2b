// automation.cxx — see automation.hpp.
#include "automation.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <utility>

#include "animation_export.hpp"
#include "frame_time.hpp"
#include "lesson_flags.hpp"
#include "model/format.hpp"
#include "views/common/plot.hpp"
#include "views/lab/counters_panel.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/lab/roofline_view.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/lab/tuning_view.hpp"
#include "views/window/status_bar.hpp"

namespace ts::app {

namespace {

constexpr auto kRunTimeout = std::chrono::seconds(120);

bool is_lab_view(views::ViewId view) {
    using views::ViewId;
    return view == ViewId::Latency || view == ViewId::Tuning || view == ViewId::Roofline || view == ViewId::Ladder;
}

}  // namespace

Automation::Automation(AutomationOptions options)
    : m_options(std::move(options)),
      m_frames_to_settle(m_options.frames > 0 ? m_options.frames
                                              : (m_options.screenshot.empty() && !m_options.export_subject ? 0 : kSettleFrames)),
      m_start_run(m_options.run) {
    if (m_options.soak_seconds > 0) m_soak.emplace(m_options.soak_seconds, m_options.soak_seed);
    if (m_options.lab_benchmark > 0) m_lab_benchmark.emplace(m_options.lab_benchmark, m_options.lab_sizes);
}

AutomationMode Automation::mode() const {
    if (!m_options.lesson_walk.empty()) return AutomationMode::LessonWalk;
    if (m_options.frame_time > 0) return AutomationMode::FrameTime;
    if (m_soak) return AutomationMode::Soak;
    if (m_lab_benchmark) return AutomationMode::LabBenchmark;
    if (m_options.export_subject) return AutomationMode::Export;
    if (!m_options.screenshot.empty() || m_options.frames > 0) return AutomationMode::Screenshot;
    if (!m_options.keys.empty()) return AutomationMode::Keys;
    return AutomationMode::Interactive;
}

bool Automation::vsync() const {
    return m_options.lab_benchmark == 0 && m_options.frame_time == 0;
}

int Automation::run(platform::Window& window, gpu::Runner& runner, views::AppState& state, WindowSettings& window_settings) {
    if (mode() == AutomationMode::LessonWalk) return walk_lesson(window, runner, state, m_options.lesson_walk);
    if (mode() == AutomationMode::FrameTime) return time_frames(window, runner, state, m_options.frame_time);

    AnimationExport animation_export;
    // The loop: exchange with the runner, draw, render, present.
    while (!window.should_close()) {
        before_frame(window);
        draw_frame(window, state,
                   {.runner = &runner,
                    .follow_pointer = follow_pointer(),
                    .before_draw = [&] { before_draw(state, runner); },
                    .after_draw = [&] { after_draw(state.lab, state); }});
        if (const auto exit_code = after_render(window, state.exporting, state.presentation, state, window_settings))
            return *exit_code;
        // A plot's "Save PNG" asks for its rectangle of this frame; the views cannot read pixels.
        for (const views::PlotImageRequest& request : views::take_plot_image_requests()) {
            const auto why = window.save_region(request.path, request.min, request.max);
            if (request.outcome) *request.outcome = why ? *why : "saved " + request.path;
        }
        window.present();
        animation_export.step(window, state);  // between frames: it draws offscreen, may change the fonts
        window_settings.after_frame(window, state.presentation, state);
    }
    window_settings.finish(window, state.presentation, state);
    return 0;
}

bool Automation::follow_pointer() const {
    return m_options.screenshot.empty() && !m_options.export_subject && !m_lab_benchmark && !m_soak;
}

void Automation::prepare(views::AppState& state) const {
    // --run reports every failed request on stderr (announce_failures).
    state.lab.measured.failures.keep_unreported = m_options.run;
    state.picture_without_tooltips = (!m_options.screenshot.empty() || m_options.export_subject) && !m_options.tooltip;
    state.picture.wanted = !m_options.layout_report.empty();
    if (m_lab_benchmark) {
        state.view = views::ViewId::Latency;
        // Its figures time its own requests alone; a sweep beside them would slow them.
        views::pass_over_first_visit_sweep(state.lab.measured, "--lab-benchmark times its own requests");
    }
}

double Automation::seconds_since_start() const {
    return std::chrono::duration<double>(Clock::now() - m_started).count();
}

void Automation::before_frame(platform::Window& window) {
    // --keys start once the layout has settled, as a person's would.
    if (m_frame++ == kSettleFrames) window.queue_keys(m_options.keys);
    m_pressing_keys = m_frame <= kSettleFrames + 1 ? !m_options.keys.empty() : window.keys_pending();
}

// --run waits for the GPU probe, then does what the view's measure or run button does.
void Automation::start_run(views::AppState& state) {
    m_start_run = false;
    if (state.view == views::ViewId::Kernel) {
        // Without a GPU the kernel is still compiled, and the editor says why it goes no further.
        const bool gpu = state.device->usable;
        views::start_job(state.kernel_editor, gpu ? views::KernelJob::All : views::KernelJob::Compile);
        m_awaiting_lab = m_awaiting_kernel = true;
        std::cerr << "tilescope: --run: " << (gpu ? "compiling, checking, measuring and tracing" : "compiling (no GPU: "
                  + state.device->why_not + ")") << " your kernel…\n";
        return;
    }
    if (state.view == views::ViewId::Experiment) {
        if (!state.device->usable) {
            std::cerr << "tilescope: --run: not running the experiment: " << state.device->why_not << "\n";
            return;
        }
        views::start_experiment_batch(state.experiments, state.experiments.experiment);
        m_awaiting_lab = true;
        std::cerr << "tilescope: --run: running the experiment's cases on the GPU…\n";
        return;
    }
    if (is_lab_view(state.view)) {
        if (!state.device->usable) {
            std::cerr << "tilescope: --run: not measuring: " << state.device->why_not << "\n";
            return;
        }
        if (state.view == views::ViewId::Tuning)
            views::start_sweep(state.lab.measured, views::tuning_requests(state.lab.choices.latency.yours));
        else if (state.view == views::ViewId::Ladder)
            views::start_sweep(state.lab.measured, views::ladder_requests(views::shown_ladder_size(state.lab), views::Ladder::Fp32,
                                                                 state.lab.choices.latency.yours));
        else
            views::measure_latency_now(state.lab);  // the roofline plots these points too
        // The roofline also places each kernel by the DRAM bytes its counters measured.
        if (state.view == views::ViewId::Roofline) {
            const model::Problem problem{views::kRooflineSize, views::kRooflineSize, views::kRooflineSize, 1,
                                         model::Dtype::Float32};
            for (const model::KernelConfig& kernel : views::counters_kernels(state.lab))
                views::read_counters_now(state.lab, kernel, problem);
            // Your kernel's place comes from its trace: record it too.
            if (state.lab.choices.latency.yours) {
                views::start_job(state.kernel_editor, views::KernelJob::Record);
                m_awaiting_kernel = true;
            }
        }
        m_awaiting_lab = true;
        std::cerr << "tilescope: --run: measuring on the GPU…\n";
        return;
    }
    if (const auto why = views::why_no_run(state)) {
        std::cerr << "tilescope: --run: not running on the GPU: " << *why << "\n";
        return;
    }
    state.run_requested = true;
    m_awaiting_run = true;
    std::cerr << "tilescope: --run: running on the GPU…\n";
}

// --run: every request that failed, one line each on stderr, with the runner's sentence (a
// person watching the window sees it in place and in the status bar).
void Automation::announce_failures(views::Failures& failures, const views::AppState& app) {
    for (const views::Failure& f : std::exchange(failures.unreported, {}))
        std::cerr << "tilescope: --run: " << views::failure_status(f) << "\n";
    int newest = m_experiment_failures_told;
    for (const views::ExperimentPage& page : app.experiments.pages)
        for (const views::ExperimentOutcome& outcome : page.outcomes)
            if (!outcome.recorded && !outcome.error.empty() && outcome.serial > m_experiment_failures_told) {
                std::cerr << "tilescope: --run: failed: " << model::experiment_name(outcome.experiment) << " on "
                          << model::describe(outcome.c.kernel) << ": " << outcome.error << "\n";
                newest = std::max(newest, outcome.serial);
            }
    m_experiment_failures_told = newest;
}

void Automation::before_draw(views::AppState& state, gpu::Runner& runner) {
    if (m_start_run && state.device) start_run(state);
    if (m_options.run) announce_failures(state.lab.measured.failures, state);
    if (m_awaiting_run && state.run.last) {
        if (!state.run.last->ok) std::cerr << "tilescope: --run: failed: " << state.run.last->error << "\n";
        m_awaiting_run = false;
    }
    // --record: the theatre submits once the probe is done; a machine without a GPU says why.
    if (m_options.record && state.device && !m_announced_record) {
        m_announced_record = true;
        if (const auto why = views::why_no_trace(state); why && state.theatre.traces.pending.empty())
            std::cerr << "tilescope: --record: not tracing: " << *why << "\n";
        else
            std::cerr << "tilescope: --record: tracing on the GPU…\n";
    }
    m_awaiting_record = state.theatre.traces.requested || !state.theatre.traces.pending.empty();
    if (m_soak) m_soak->step(state, runner, seconds_since_start());
}

namespace {

// --run in the kernel editor: what the job found, on stderr, as the editor shows it.
void announce_kernel_job(const views::KernelEditorState& editor) {
    const std::string name = editor.name;
    if (editor.compile) {
        const gpu::UserCompileReport& report = *editor.compile;
        if (report.ok)
            std::cerr << model::format_text("tilescope: --run: {}: compiled for {} with NVRTC {}\n", name, report.arch,
                                            report.nvrtc_version);
        else
            std::cerr << "tilescope: --run: " << name << ": " << report.why << "\n";
        for (const model::Diagnostic& d : report.diagnostics)
            std::cerr << model::format_text("tilescope: --run: {}:{}:{}: {}: {}\n", name, d.line, d.column,
                                            model::severity_name(d.severity), d.message);
    } else if (!editor.compile_error.empty()) {
        std::cerr << "tilescope: --run: " << name << ": " << editor.compile_error << "\n";
    }
    for (const views::ExperimentOutcome& check : editor.checks) {
        const model::Problem& p = check.c.problem;
        std::cerr << model::format_text("tilescope: --run: check {}×{}×{}: ", p.m, p.n, p.k);
        if (!check.run) std::cerr << "failed: " << check.error << "\n";
        else std::cerr << model::format_text("{} of {} runs wrong, {} stray writes\n", check.run->wrong_runs,
                                             check.run->runs, check.run->stray_writes);
    }
    for (const auto* measured : {&editor.mine, &editor.theirs})
        if (*measured)
            std::cerr << model::format_text("tilescope: --run: measured {}: {}\n", gpu::describe_point((*measured)->request),
                                            (*measured)->ok ? model::format_text("{} ms", model::fixed((*measured)->median_ms, 3))
                                                            : (*measured)->error);
    if (const auto& recorded = editor.recorded) {
        std::cerr << model::format_text("tilescope: --run: recorded at {}: ", model::problem_size_text(recorded->request.problem));
        if (!recorded->ok || !recorded->user_trace) {
            std::cerr << "failed: " << recorded->error << "\n";
        } else {
            std::cerr << recorded->user_trace->counts_text << "\n";
            for (const model::SharedSentence& line : model::describe_shared(recorded->user_trace->shared))
                std::cerr << "tilescope: --run: " << line.text << "\n";
        }
    }
    if (!editor.job_note.empty()) std::cerr << "tilescope: --run: " << editor.job_note << "\n";
}

}  // namespace

void Automation::after_draw(views::LabState& lab, const views::AppState& app) {
    if (m_awaiting_kernel && !views::job_running(app.kernel_editor)) {
        m_awaiting_kernel = false;
        announce_kernel_job(app.kernel_editor);
    }
    const views::LabMeasurements& measured = lab.measured;
    if (m_awaiting_lab && measured.to_submit.empty() && measured.in_flight == 0 && !measured.sweep.active() &&
        !app.experiments.batch && !views::job_running(app.kernel_editor))
        m_awaiting_lab = false;
    if (m_lab_benchmark) {
        m_lab_benchmark->on_frame(lab, app, seconds_since_start());
        if (const auto& why = m_lab_benchmark->failure()) {
            std::cerr << "tilescope: --lab-benchmark: " << *why << "\n";
            m_failed = 1;
        }
    }
}

std::optional<int> Automation::save_screenshot(platform::Window& window) const {
    if (m_options.screenshot.empty()) return std::nullopt;
    if (const auto why = window.save_screenshot(m_options.screenshot)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 1;
    }
    std::cout << "tilescope: saved " << m_options.screenshot << "\n";
    return std::nullopt;
}

std::optional<int> Automation::after_render(platform::Window& window, views::ExportState& exporting,
                                            views::Presentation& presentation, const views::AppState& app,
                                            WindowSettings& window_settings) {
    if (m_failed) return m_failed;
    // A --load that cannot be read ends the program, as it did when it was read before the window opened.
    if (app.lab.measured.load_flag_failed) {
        std::cerr << "tilescope: --load: " << app.lab.measured.load_error << "\n";
        return 2;
    }
    if (m_soak && m_soak->finished()) {
        std::cout << m_soak->report(app);
        window_settings.finish(window, presentation, app);
        return m_soak->exit_code(app);
    }
    if (m_lab_benchmark && m_lab_benchmark->finished()) {
        std::cout << m_lab_benchmark->report();
        // With --screenshot, the lab as the benchmark leaves it: its live points.
        return save_screenshot(window).value_or(0);
    }

    // A screenshot waits for the measurement being read, which the lab and the lessons show.
    // And for an export on its way (the dialog's, or --export-animation's, which is reported here).
    const bool export_busy = exporting.running || exporting.start_requested;
    if (m_export_started && export_busy) export_animation(exporting);
    const bool waiting = m_start_run || m_awaiting_run || m_awaiting_lab || m_awaiting_record ||
                         views::measurement_loading(app.lab.measured) || export_busy;
    // A running --lab-benchmark keeps the window open; it saves --screenshot itself.
    m_quiet_frames = waiting || m_pressing_keys || m_lab_benchmark ? 0 : m_quiet_frames + 1;
    if (m_frames_to_settle == 0) return std::nullopt;
    const auto now = Clock::now();
    const bool timed_out = waiting && !export_busy && now - m_started > kRunTimeout;  // an export reports its own progress
    const char* awaited = export_busy ? "the export"
                          : waiting && !m_start_run && !m_awaiting_run && !m_awaiting_lab && !m_awaiting_record
                              ? "the measurement to load"
                              : "the GPU run";
    if (waiting && now > m_next_progress) {
        std::cerr << "tilescope: still waiting for " << awaited << " ("
                  << std::chrono::duration_cast<std::chrono::seconds>(now - m_started).count() << " s)\n";
        m_next_progress += std::chrono::seconds(10);
    }
    if (!timed_out && m_quiet_frames < m_frames_to_settle) return std::nullopt;
    if (timed_out) std::cerr << "tilescope: gave up waiting for " << awaited << " after 120 s\n";
    // --export-animation starts once the window has settled, and the program ends with it.
    if (m_options.export_subject && !timed_out) {
        const auto exported = export_animation(exporting);
        if (!exported) return std::nullopt;
        if (*exported != 0) return exported;
    }
    window_settings.finish(window, presentation, app);
    if (const auto failed = save_screenshot(window)) return failed;
    if (const auto failed = save_layout_report(app)) return failed;
    return timed_out ? 1 : 0;
}

// --export-animation: asks the main loop's export for the animation once the window has settled,
// writes its progress to stderr, and ends with its outcome: nullopt while it runs, 0 once the file
// is written, 1 if it was not.
std::optional<int> Automation::export_animation(views::ExportState& exporting) {
    if (!m_export_started) {
        m_export_started = true;
        exporting.subject = *m_options.export_subject;
        exporting.choice = m_options.export_choice;
        exporting.start_requested = true;
        return std::nullopt;
    }
    if (exporting.start_requested) return std::nullopt;
    if (exporting.running) {
        // About every tenth of the frames, and once when the file is being written.
        const int step = std::max(exporting.frames_total / 10, 1);
        if (!exporting.encoding && exporting.frames_done >= m_export_frames_told + step) {
            m_export_frames_told = exporting.frames_done;
            std::cerr << model::format_text("tilescope: --export-animation: frame {} of {}\n", exporting.frames_done,
                                            exporting.frames_total);
        } else if (exporting.encoding && m_export_frames_told <= exporting.frames_total) {
            m_export_frames_told = exporting.frames_total + 1;
            std::cerr << "tilescope: --export-animation: writing " << exporting.choice.path << "…\n";
        }
        return std::nullopt;
    }
    return exporting.outcome_failed ? 1 : 0;  // the export wrote its outcome to stderr
}

std::optional<int> Automation::save_layout_report(const views::AppState& state) const {
    if (m_options.layout_report.empty()) return std::nullopt;
    std::ofstream out(m_options.layout_report);
    out << views::picture_layout_json(state.picture);
    if (!out) {
        std::cerr << "tilescope: --layout-report: cannot write " << m_options.layout_report << "\n";
        return 1;
    }
    return std::nullopt;
}

}  // namespace ts::app
