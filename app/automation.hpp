// automation.hpp — what the window does by itself when no person drives it. Every scripted run
// is a mode of it (AutomationMode): --lesson-walk, --frame-time, --soak, --lab-benchmark,
// --export-animation, --screenshot (or --frames) and --keys; with --run and --record it also
// starts the GPU's work and waits for it before a picture is taken.
//
// run() is the window's frame loop, and every mode's: the lesson walk and --frame-time draw
// frames of their own (through the same draw_frame(), frame.hpp); the other modes act at fixed
// points of the window's loop:
//
//     before_frame(window);                       // --keys, once the layout has settled
//     draw_frame(window, state, ...)              // begin, exchange, before_draw, draw, after_draw, render
//     if (const auto exit_code = after_render(window, state, window_settings)) return *exit_code;
//     window.present(); animation_export.step(...); window_settings.after_frame(...);
//
// With none of these flags it does nothing and the loop ends when the window is closed.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "frame.hpp"
#include "gpu/runner.hpp"
#include "platform/key_names.hpp"
#include "window_settings.hpp"
#include "platform/window.hpp"
#include "soak.hpp"
#include "views/window/app_state.hpp"
#include "views/lab/lab_benchmark.hpp"

namespace ts::app {

// The scripted modes; mode() names the first that a run's flags ask for, in this order. The
// lesson walk and --frame-time draw frames of their own and leave every other flag aside; the
// rest share the window's loop, where their flags combine: --keys are pressed first, --run's
// and --record's work is waited for, and --screenshot is saved after a lab benchmark or an export.
enum class AutomationMode {
    LessonWalk,    // --lesson-walk DIR: each step of the lesson saved as a PNG, then exit
    FrameTime,     // --frame-time N: N frames timed without vsync, the figures printed, exit
    Soak,          // --soak SECONDS: random changes for that long, then the memory report
    LabBenchmark,  // --lab-benchmark N: N changes of the latency lab's size timed, the report printed
    Export,        // --export-animation FILE: once settled, the animation written, then exit
    Screenshot,    // --screenshot FILE or --frames N: once settled (and --run's work done), save FILE, exit
    Keys,          // --keys alone: pressed once the layout has settled; the window stays open
    Interactive,   // none of these: a person drives the window (--run and --record start its work)
};

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
    std::filesystem::path lesson_walk;  // --lesson-walk DIR; empty: none
    int frame_time = 0;                 // --frame-time: frames to time; 0: none
};

class Automation {
public:
    explicit Automation(AutomationOptions options);

    AutomationMode mode() const;
    // Whether the window waits for the display's refresh: not while frames are timed
    // (--frame-time, --lab-benchmark), which time the work and not the display.
    bool vsync() const;
    // Before the window settings are applied (WindowSettings::start): the view a run of its own needs (--lab-benchmark: latency).
    void prepare(views::AppState& state) const;

    // Draws frames until the mode's run is over or the window is closed; the exit status. The
    // window's loop saves the settings at its end; the lesson walk and --frame-time leave them.
    int run(platform::Window& window, gpu::Runner& runner, views::AppState& state, WindowSettings& window_settings);

private:
    // Whether ImGui should follow the real pointer: not while a run of its own drives the window.
    bool follow_pointer() const;
    // Before begin_frame(): queues --keys once the layout has settled.
    void before_frame(platform::Window& window);
    // After the exchange with the runner, before the views are drawn.
    void before_draw(views::AppState& state, gpu::Runner& runner);
    // After the views are drawn, before rendering: the lab benchmark's next change of the lab.
    void after_draw(views::LabState& lab, const views::AppState& app);
    // After rendering: an exit code once the run is over (its report printed, its screenshot
    // saved, the window settings saved); nothing while it goes on. It writes the export it asks
    // for and the presentation's notice (a settings file that cannot be written).
    std::optional<int> after_render(platform::Window& window, views::ExportState& exporting,
                                    views::Presentation& presentation, const views::AppState& app,
                                    WindowSettings& window_settings);

    using Clock = std::chrono::steady_clock;
    double seconds_since_start() const;
    std::optional<int> save_screenshot(platform::Window& window) const;
    std::optional<int> save_layout_report(const views::AppState& state) const;
    std::optional<int> export_animation(views::ExportState& exporting);
    void start_run(views::AppState& state);
    void announce_failures(views::Failures& failures, const views::AppState& app);

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
