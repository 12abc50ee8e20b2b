// automation.hpp — what the window does by itself when no person drives it: --run, --record,
// --keys, --soak, --lab-benchmark, and knowing when a --screenshot or --export-animation run has
// settled (or waited too long for the GPU) and should save its picture or animation and end.
//
// The frame loop calls it at three fixed points and otherwise knows nothing of these flags:
//
//     window.begin_frame(automation.follow_pointer());
//     exchange_with_runner(...);
//     automation.before_draw(state, runner);
//     draw_main_view(state);
//     automation.after_draw(state);
//     window.render(...);
//     if (const auto exit_code = automation.after_render(window, state, session)) return *exit_code;
//
// With none of these flags it does nothing and never ends the loop.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "gpu/runner.hpp"
#include "platform/key_names.hpp"
#include "session.hpp"
#include "platform/window.hpp"
#include "soak.hpp"
#include "views/window/app_state.hpp"
#include "views/lab/lab_benchmark.hpp"

namespace ts::app {

// ImGui sizes windows and tables from the previous frame, so a new layout needs a few frames
// before it is drawn where it will stay.
constexpr int kSettleFrames = 3;

struct AutomationOptions {
    std::string screenshot;   // empty: interactive
    bool tooltip = false;     // --tooltip: a screenshot keeps the tooltips that stay without a mouse
    std::string layout_report;  // --layout-report FILE: where the picture's boxes go (JSON)
    int frames = 0;           // frames to draw once nothing is awaited; 0: the mode's default
    bool run = false;         // --run
    bool record = false;      // --record (the theatre submits it; this only reports)
    std::vector<platform::KeyPress> keys;
    double soak_seconds = 0.0;
    std::uint64_t soak_seed = 1;
    int lab_benchmark = 0;    // changes to time; 0: none
    std::vector<int> lab_sizes;
    // --export-animation: once settled, export this (the path empty: no export), then exit.
    std::optional<views::ExportSubject> export_subject;
    views::ExportChoice export_choice;
};

class Automation {
public:
    explicit Automation(AutomationOptions options);

    // Whether ImGui should follow the real pointer: not while a run of its own drives the window.
    bool follow_pointer() const;
    // Before the session starts: the view a run of its own needs (--lab-benchmark: latency).
    void prepare(views::AppState& state) const;

    // Before begin_frame(): queues --keys once the layout has settled.
    void before_frame(platform::Window& window);
    // After the exchange with the runner, before the views are drawn.
    void before_draw(views::AppState& state, gpu::Runner& runner);
    // After the views are drawn, before rendering.
    void after_draw(views::AppState& state);
    // After rendering: an exit code once the run is over (its report printed, its screenshot
    // saved, the session finished); nothing while it goes on.
    std::optional<int> after_render(platform::Window& window, views::AppState& state, platform::Session& session);

private:
    using Clock = std::chrono::steady_clock;
    double seconds_since_start() const;
    std::optional<int> save_screenshot(platform::Window& window) const;
    std::optional<int> save_layout_report(const views::AppState& state) const;
    std::optional<int> export_animation(views::AppState& state);
    void start_run(views::AppState& state);
    void announce_failures(views::AppState& state);

    AutomationOptions m_options;
    int m_frames_to_settle;   // 0: until the window is closed
    Clock::time_point m_started = Clock::now();
    Clock::time_point m_next_progress = m_started + std::chrono::seconds(10);
    std::optional<Soak> m_soak;
    std::optional<views::LabBenchmark> m_lab_benchmark;
    int m_frame = 0;
    int m_quiet_frames = 0;
    bool m_pressing_keys = false;
    bool m_start_run = false;
    bool m_awaiting_run = false;
    bool m_awaiting_lab = false;   // --run in a lab view: its measurements are still coming
    bool m_awaiting_kernel = false;  // --run in the kernel editor: its job is still running
    bool m_awaiting_record = false;
    bool m_announced_record = false;
    std::optional<int> m_failed;   // set by after_draw when the lab benchmark gave up
    // --run: the experiments' failures already written to stderr (their outcomes' serials).
    int m_experiment_failures_told = 0;
    bool m_export_started = false;
    int m_export_frames_told = 0;  // --export-animation's progress, as last written to stderr
};

}  // namespace ts::app
