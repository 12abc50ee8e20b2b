// gui_options.hpp — the window's flags, in one place: declared on the command line, checked
// before any window opens, and applied to the state of the window that opens. (The set-up's
// flags, --m --n --k --tile --kernel ..., are cli/setup_options.hpp's, shared with the
// command-line tools.)
//
//     GuiOptions gui;
//     take_worker_command(argc, argv, gui);               // --worker-command ARG…, the last flag
//     add_gui_options(app, gui);                          // before parsing
//     check_gui_options(app, gui, setup_options);         // after: the set-up, or an exit status
//     automation_options(gui);                            // what the window does by itself
//     apply_gui_options(state, gui, setup, opened);       // once the window and its state exist
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "automation.hpp"
#include "cli/setup_options.hpp"
#include "gpu/worker_target.hpp"
#include "lesson_flags.hpp"
#include "platform/key_names.hpp"
#include "window_settings.hpp"
#include "settings/settings.hpp"
#include "views/theatre/theatre_flags.hpp"
#include "views/window/app_state.hpp"

namespace CLI {
class App;
}

namespace ts::app {

struct GuiOptions {
    std::string screenshot;   // empty: interactive
    bool tooltip = false;     // --tooltip: the screenshot keeps a pinned cell's tooltip
    std::string layout_report;  // --layout-report FILE: the picture's boxes as JSON
    int frames = 0;           // 0: the default for the mode (see frames_to_settle)
    bool run = false;
    std::vector<int> select;  // ROW, COL of a cell of C to pin; empty: none
    views::TheatreFlags theatre;  // --select-block, --phase, --step, --side-by-side, ...
    int width = 1600;
    int height = 1000;
    std::string view = "stage";  // --view: stage, latency, tuning, roofline, theatre, ladder, experiment or kernel
    std::string experiment;      // --experiment NAME: the Experiments view on it; with --view theatre, its stale read
    std::string bars = "speed";  // --bars speed|energy: what the ladder view's bars and the roofline's heights measure
    std::string ladder_page = "bars";  // --ladder-page bars|errors: the ladders, or error against speed
    std::string kernel_file;     // --kernel-file FILE: the kernel editor opens it
    std::string load;            // --load: a measurement; empty: the committed ones without a GPU
    int lab_benchmark = 0;       // --lab-benchmark: changes of the latency lab's size to time; 0: none
    double soak = 0.0;           // --soak: seconds of random changes, then a report; 0: none
    std::uint64_t soak_seed = 1;
    std::vector<int> lab_sizes{256, 512, 1024, 2048};
    int frame_time = 0;            // --frame-time: frames to time; 0: none
    std::optional<float> zoom;     // --zoom: the stage's zoom; 1 fits it to the window
    std::vector<int> center;       // --center: ROW, COL of the cell of C in the middle of the stage
    std::string export_path;     // --export-animation FILE; empty: none
    double fps = 2.0;            // --fps: frames per second of the animation

    // The lessons: --list-lessons, --lesson NAME or --lesson-file FILE (with --step), --lesson-walk DIR.
    bool list_lessons = false;
    std::string lesson_name, lesson_file;
    std::string lesson_walk;     // a folder for one PNG per step; empty: none
    // Presenter mode and the settings file, as typed.
    bool presenter = false, fullscreen = false, no_settings = false;
    float font_scale = 1.0f;
    std::string palette, settings_file;
    std::string keys_text;       // --keys as typed
    // Where the GPU worker runs: --gpu SPEC, or --worker-command ARG… (gpu/worker_target.hpp).
    std::string gpu = "local";
    std::vector<std::string> worker_command;
    bool worker_command_given = false;  // take_worker_command() found --worker-command
    bool worker_target_given = false;   // --gpu or --worker-command was given (else the settings' choice)

    // What check_gui_options() makes of the flags above.
    LessonChoice lesson;                  // the lesson to open, checked before the window opens
    std::vector<platform::KeyPress> keys;  // --keys: pressed one by one once the window has settled
    Overrides presentation;               // --presenter, --font-scale, --palette, --fullscreen, sizes, view, panel
    std::filesystem::path settings;       // the settings file; empty: none read or written
    gpu::WorkerTarget worker_target;      // --gpu or --worker-command: where the GPU worker runs
};

// --worker-command takes every argument after it as the worker's command, options such as
// "-p" or "-J" included, so it comes last on the command line. This takes them (and the flag)
// off argv before CLI11 parses the rest, which would read them as its own flags.
void take_worker_command(int& argc, char** argv, GuiOptions& gui);

// Declares the window's flags on `app`, bound to `gui`, in the order --help lists them.
void add_gui_options(CLI::App& app, GuiOptions& gui);

// After parsing, before any window opens: checks the flags against each other and against the
// set-up, and fills in what follows from them (the lesson, the keys, the presentation, the
// settings file, the worker's target). The set-up the window opens with; or the exit status, 0 after --list-lessons
// and 2 with the reason on stderr when a flag does not fit.
std::variant<cli::Setup, int> check_gui_options(const CLI::App& app, GuiOptions& gui, cli::SetupOptions setup_options);

// What the window does by itself (automation.hpp).
AutomationOptions automation_options(const GuiOptions& gui);

// Puts a window's new state where the flags and the settings it `opened` with say: the set-up,
// the pinned cell and the stage's camera, the view and the theatre, the experiment and the
// kernel file. nullopt, or 2 when a theatre flag or --kernel-file does not fit (said on stderr).
std::optional<int> apply_gui_options(views::AppState& state, const GuiOptions& gui, const cli::Setup& setup,
                                     const settings::Settings& opened, const settings::Settings& loaded);

}  // namespace ts::app
