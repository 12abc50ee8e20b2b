// gui_options.cxx — see gui_options.hpp.
//
// [SECTION] The flags, as --help lists them
// [SECTION] Checks before the window opens
// [SECTION] The state of the window that opens
#include "gui_options.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <utility>

#include "export/animation_file.hpp"
#include "model/experiment.hpp"
#include "model/format.hpp"
#include "paths/data_dir.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/kernel/kernel_view.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lab/latency_view.hpp"
#include "views/stage/stage_layout.hpp"
#include "views/theatre/rungs/rung_canvas.hpp"
#include "views/window/setup_panel.hpp"

namespace ts::app {

//-----------------------------------------------------------------------------
// [SECTION] The flags, as --help lists them
//-----------------------------------------------------------------------------

void add_gui_options(CLI::App& app, GuiOptions& gui) {
    app.add_option("--screenshot", gui.screenshot, "render the window, save it as a PNG to FILE and exit")
        ->type_name("FILE");
    app.add_option("--layout-report", gui.layout_report,
                   "with --screenshot: write where the stage or theatre drew its matrices and labels, as JSON, to FILE")
        ->type_name("FILE");
    app.add_flag("--tooltip", gui.tooltip,
                 "with --screenshot: keep the tooltip of a pinned cell (left out by default, as it covers the picture)");
    app.add_option("--frames", gui.frames,
                   "frames to render before the screenshot or exit (default: 3 with --screenshot, "
                   "otherwise until the window is closed)")
        ->check(CLI::Range(1, 1000000))
        ->type_name("N");
    app.add_flag("--run", gui.run,
                 "run the set-up on the GPU at start (in the latency and roofline views: measure the chosen "
                 "size; in the tuning view: the whole grid; in the ladder view: every rung at its size); with --screenshot, wait (up to 120 s) for the "
                 "results");
    app.add_option("--select", gui.select,
                   "pin cell ROW,COL of C as a click does: its thread, block, row of A and column of B "
                   "are highlighted")
        ->delimiter(',')
        ->expected(2)
        ->type_name("ROW,COL");
    app.add_option("--width", gui.width, "window width in pixels")
        ->check(CLI::Range(320, 16384))
        ->type_name("PIXELS")
        ->capture_default_str();
    app.add_option("--height", gui.height, "window height in pixels")
        ->check(CLI::Range(240, 16384))
        ->type_name("PIXELS")
        ->capture_default_str();

    app.add_option("--view", gui.view,
                   "the view to open: stage (default), latency, tuning, roofline, theatre, ladder, experiment or kernel")
        ->check(CLI::IsMember({"stage", "latency", "tuning", "roofline", "theatre", "ladder", "experiment", "kernel"}))
        ->type_name("VIEW");
    app.add_option("--experiment", gui.experiment,
                   "open the Experiments view on NAME (" + model::experiment_names() +
                       ", or accumulator: the tensor cores' accumulator measured); with --view theatre, the "
                       "theatre on the stale read of its recorded result")
        ->type_name("NAME");
    app.add_option("--bars", gui.bars,
                   "what the ladder view's bars and the roofline's heights measure: speed (default) or energy "
                   "(TFLOP per joule, from NVML's energy counter)")
        ->check(CLI::IsMember({"speed", "energy"}))
        ->type_name("speed|energy");
    app.add_option("--ladder-page", gui.ladder_page,
                   "what the ladder view shows: bars (default), or errors: every 16- and 8-bit point's error against "
                   "FP64 against its TFLOP/s")
        ->check(CLI::IsMember({"bars", "errors"}))
        ->type_name("bars|errors");
    app.add_option("--kernel-file", gui.kernel_file,
                   "open FILE (a path, or a name in the kernels folder) in the kernel editor (--view kernel; with --run, "
                   "compile, check and measure it), or plot it beside the rungs (--view latency, ladder, tuning or "
                   "roofline; the roofline's --run records it too, for its intensity)")
        ->type_name("FILE");
    app.add_option("--select-block", gui.theatre.select_block, "the tiling theatre's block: blockIdx.x,blockIdx.y")
        ->delimiter(',')
        ->expected(2)
        ->type_name("BX,BY");
    app.add_option("--phase", gui.theatre.phase, "the tiling theatre's phase, from 0 (a tensor-core rung: its K step)")->type_name("P");
    // With --lesson, --step is the lesson's step; apply_theatre_flags checks the theatre's words.
    app.add_option("--step", gui.theatre.step,
                   "the tiling theatre's sub-step within the phase; with --lesson or --lesson-file, the lesson's "
                   "step S (from 1)")
        ->type_name("load|sync1|compute|sync2|store|S");
    app.add_option("--k-step", gui.theatre.k_step, "the tiling theatre: one k per step, at the tile loop's i = I")
        ->type_name("I");
    app.add_flag("--side-by-side", gui.theatre.side_by_side,
                 "the tiling theatre: the naive and tiled kernels in lockstep, with running counters");
    app.add_option("--panel", gui.theatre.panel,
                   "the tiling theatre's open tab (fragments, smem, stages and tiles: the tensor-core rungs' pictures)")
        ->check(CLI::IsMember({"source", "thread", "warp", "sms", "fragments", "smem", "stages", "tiles"}))
        ->type_name("source|thread|warp|sms|fragments|smem|stages|tiles");
    app.add_option("--statement", gui.theatre.statement,
                   "the tiling theatre's Source tab for a tensor-core rung: the statement lit, from 1 (--phase: its K step)")
        ->type_name("S");
    app.add_option("--round", gui.theatre.round, "the tiling theatre's Tiles tab (persistent rungs): the round on show, from 1")
        ->type_name("R");
    app.add_flag("--row-by-row", gui.theatre.row_by_row,
                 "the tiling theatre's Tiles tab: the plain row-by-row order instead of the kernels' own");
    app.add_option("--hover-a", gui.theatre.hover_a, "the tiling theatre: pin element ROW,COL of A (who loads it)")
        ->delimiter(',')
        ->expected(2)
        ->type_name("ROW,COL");
    app.add_option("--hover-b", gui.theatre.hover_b, "the tiling theatre: pin element ROW,COL of B")
        ->delimiter(',')
        ->expected(2)
        ->type_name("ROW,COL");
    app.add_option("--batch-z", gui.theatre.batch_z,
                   "the tiling theatre: show matrix Z of a batched (bmm) stack; the batch grows to Z + 1")
        ->type_name("Z");
    app.add_flag("--record", gui.theatre.record,
                 "the tiling theatre: record a trace of the problem on show on the GPU (the naive and tiled kernels, "
                 "or the regtile-2d or warptile rung on show, with records of every load, SM and clock) and replay it; "
                 "with --screenshot, wait for it");
    app.add_option("--trace", gui.theatre.traces,
                   "the tiling theatre: replay a trace saved by `tilescope record --out FILE` (give one naive "
                   "and one tiled to replay both); " + (paths::data_dir() / "traces").string() + " holds some made on an NVIDIA H200")
        ->type_name("FILE");
    app.add_option("--load", gui.load,
                   "measurements to show: JSON from `tilescope bench --json` or the lab's Save JSON, or CSV from "
                   "`tilescope bench --csv`; default: the newest in " + (paths::data_dir() / "measurements").string())
        ->check(CLI::ExistingFile)
        ->type_name("FILE");
    app.add_option("--soak", gui.soak,
                   "change views, sizes, kernels, lessons and measurements at random (some invalid on purpose) "
                   "for SECONDS, then print memory at start and end and the requests done and failed; exit 1 if "
                   "memory grew over 5 % or the GPU worker stopped")
        ->check(CLI::Range(1.0, 86400.0))
        ->type_name("SECONDS");
    app.add_option("--soak-seed", gui.soak_seed, "the seed of --soak's random changes (default 1)");
    app.add_option("--lab-benchmark", gui.lab_benchmark,
                   "in the latency view, change the size N times as the control does, print how long each "
                   "change takes to reach the plot and how long frames take meanwhile (no vsync), and exit; "
                   "exit 1 without a usable GPU")
        ->check(CLI::Range(1, 100000))
        ->type_name("N");
    app.add_option("--lab-sizes", gui.lab_sizes, "the sizes --lab-benchmark takes in turn")
        ->delimiter(',')
        ->check(CLI::IsMember({128, 256, 512, 1024, 2048, 4096}))
        ->type_name("SIZE,...")
        ->capture_default_str();
    app.add_option("--zoom", gui.zoom, "zoom the stage by Z about its middle, or about --center (1: all of it fits)")
        ->check(CLI::Range(views::kMinZoom, 1e6f))
        ->type_name("Z");
    app.add_option("--center", gui.center, "put cell ROW,COL of C in the middle of the stage")
        ->delimiter(',')
        ->expected(2)
        ->type_name("ROW,COL");
    app.add_option("--export-animation", gui.export_path,
                   "draw the theatre's steps (--view theatre), a lesson's (--lesson NAME) or the ladders climbing rung "
                   "by rung (--view ladder) offscreen, one frame per step, at --width × --height (default 1280 × 720; "
                   "--presenter: presenter mode's 2× text), write them to FILE and exit. FILE's extension says the "
                   "format: .gif, .webp, .png (a numbered series), .mp4 or .webm (these two with ffmpeg)")
        ->type_name("FILE");
    app.add_option("--fps", gui.fps, "with --export-animation: frames per second; each step is held 1/FPS s (default 2)")
        ->check(CLI::Range(0.2, 50.0))
        ->type_name("FPS");
    app.add_option("--frame-time", gui.frame_time,
                   "draw N frames without vsync, print their median and 90th-percentile time in ms, and exit")
        ->check(CLI::Range(1, 100000))
        ->type_name("N");

    // Guided lessons (assets/lessons, views/lessons/lesson_state.hpp).
    app.add_flag("--list-lessons", gui.list_lessons, "print the name of every lesson, one per line, and exit");
    app.add_option("--lesson", gui.lesson_name, "open lesson NAME (see --list-lessons) at --step S (default 1)")
        ->type_name("NAME");
    app.add_option("--lesson-file", gui.lesson_file, "open the lesson in FILE (the format: docs/lessons.md)")
        ->type_name("FILE");
    app.add_option("--lesson-walk", gui.lesson_walk,
                   "save every step of the lesson as DIR/NAME-step-S.png (and -answer.png where it asks for a "
                   "prediction), then exit")
        ->type_name("DIR");

    // Presenter mode and settings (window_settings.hpp, settings/settings.hpp).
    app.add_flag("--presenter", gui.presenter,
                 "presenter mode for a projector: text 2× (or --font-scale), high contrast (or --palette), thick "
                 "highlights; F5 switches it");
    app.add_option("--font-scale", gui.font_scale, "text and widgets S times larger, drawn crisp at that size (1, 1.5, 2, 3)")
        ->check(CLI::Range(settings::kMinFontScale, settings::kMaxFontScale))
        ->type_name("S");
    app.add_option("--palette", gui.palette, "colours: default, high-contrast or colour-blind (Okabe–Ito)")
        ->check(CLI::IsMember({"default", "high-contrast", "colour-blind", "color-blind"}))
        ->type_name("NAME");
    app.add_flag("--fullscreen", gui.fullscreen, "open full screen on the primary monitor (F11 switches)");
    auto* settings_option =
        app.add_option("--settings", gui.settings_file,
                       "read and write settings in FILE instead of $XDG_CONFIG_HOME/tilescope/settings.ini "
                       "(~/.config/tilescope/settings.ini)")
            ->type_name("FILE");
    app.add_flag("--no-settings", gui.no_settings, "neither read nor write a settings file")->excludes(settings_option);
    app.add_option("--keys", gui.keys_text,
                   "press these keys one by one once the window has settled, before --screenshot, e.g. "
                   "\"F11,ctrl+2,PageDown,shift+Right,F1\"")
        ->type_name("KEY,...");

    // Where the GPU worker runs (gpu/worker_target.hpp).
    app.add_option("--gpu", gui.gpu,
                   "where the GPU worker runs: local (this machine, the default), ssh://[user@]host[:port] (a "
                   "server, through ssh in batch mode, running `tilescope worker` there), slurm or slurm:PARTITION "
                   "(a cluster's node, through srun --gres=gpu:1)")
        ->type_name("SPEC");
    app.add_option("--worker-command", gui.worker_command,
                   "the last flag: every argument after it is the program that starts a worker and its arguments, "
                   "run as given, with no shell (any other launcher)")
        ->expected(1, -1)
        ->type_name("ARG...");
}

void take_worker_command(int& argc, char** argv, GuiOptions& gui) {
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) != "--worker-command") continue;
        gui.worker_command_given = true;
        gui.worker_command.assign(argv + i + 1, argv + argc);
        argc = i;
        return;
    }
}

//-----------------------------------------------------------------------------
// [SECTION] Checks before the window opens
//-----------------------------------------------------------------------------

namespace {

// The window explains a launch the model rejects instead of refusing to open, so a tile
// width that only check_config() turns down (T = 64) is kept when every other flag is fine.
std::variant<cli::Setup, std::string> resolve_for_window(const cli::SetupOptions& options) {
    auto setup = cli::resolve_setup(options);
    if (std::holds_alternative<cli::Setup>(setup)) return setup;

    cli::SetupOptions with_valid_tile = options;
    with_valid_tile.tile = "1";
    auto others = cli::resolve_setup(with_valid_tile);
    int tile = 0;
    const char* end = options.tile.data() + options.tile.size();
    const auto [stop, error] = std::from_chars(options.tile.data(), end, tile);
    auto* valid = std::get_if<cli::Setup>(&others);
    if (valid && error == std::errc() && stop == end && tile >= 1 && tile <= views::kMaxTypedTile) {
        valid->kernel.tile = tile;
        return *valid;
    }
    return setup;
}

// --export-animation's file and view, checked before a window opens: exit status 2 and why, or nullopt.
std::optional<int> check_export_flags(const GuiOptions& gui, bool lesson) {
    if (gui.export_path.empty()) return std::nullopt;
    const auto format = exporting::format_of_path(gui.export_path);
    if (const auto* why = std::get_if<std::string>(&format)) {
        std::cerr << "tilescope: --export-animation: " << *why << "\n";
        return 2;
    }
    if (const auto why = exporting::why_unavailable(std::get<exporting::AnimationFormat>(format))) {
        std::cerr << "tilescope: --export-animation: " << *why << "\n";
        return 2;
    }
    if (!lesson && gui.view != "theatre" && gui.view != "ladder") {
        std::cerr << "tilescope: --export-animation exports the theatre (--view theatre), a lesson (--lesson NAME) or "
                     "the ladders climbing (--view ladder); the "
                  << gui.view << " view has no steps to animate\n";
        return 2;
    }
    return std::nullopt;
}

// --select and --center: a cell of C, or exit status 2 and why.
std::optional<int> check_cell(const char* flag, const std::vector<int>& cell, const model::Problem& problem) {
    if (cell.empty() || model::inside(cell[0], cell[1], static_cast<int>(problem.m), static_cast<int>(problem.n)))
        return std::nullopt;
    std::cerr << "tilescope: " << flag << " " << cell[0] << "," << cell[1] << " is outside C, which has " << problem.m
              << " rows and " << problem.n << " columns (both count from 0)\n";
    return 2;
}

// --gpu or --worker-command, before any worker starts: nullopt with gui.worker_target set, or
// exit status 2 and why.
std::optional<int> choose_worker_target(const CLI::App& app, GuiOptions& gui) {
    const bool command_given = gui.worker_command_given || app.count("--worker-command") > 0;
    if (command_given && app.count("--gpu")) {
        std::cerr << "tilescope: --gpu and --worker-command both say where the GPU worker runs; give one of them\n";
        return 2;
    }
    auto target = command_given ? gpu::worker_target_from_command(gui.worker_command) : gpu::parse_worker_target(gui.gpu);
    if (const auto* why = std::get_if<std::string>(&target)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 2;
    }
    gui.worker_target = std::get<gpu::WorkerTarget>(std::move(target));
    gui.worker_target_given = command_given || app.count("--gpu") > 0;
    return std::nullopt;
}

}  // namespace

std::variant<cli::Setup, int> check_gui_options(const CLI::App& app, GuiOptions& gui, cli::SetupOptions setup_options) {
    if (gui.list_lessons) return print_lesson_names();
    if (const auto exit_code = choose_worker_target(app, gui)) return *exit_code;
    if (!gui.experiment.empty() && !model::parse_experiment(gui.experiment) && gui.experiment != "accumulator") {
        std::cerr << "tilescope: --experiment " << gui.experiment << " is not an experiment; they are: "
                  << model::experiment_names() << "\n";
        return 2;
    }
    if (!gui.lesson_name.empty() || !gui.lesson_file.empty()) {
        // With a lesson, --step is the lesson's step, not the theatre's sub-step.
        const std::string step = std::exchange(gui.theatre.step, "");
        if (const auto exit_code =
                choose_lesson(gui.lesson, gui.lesson_name, gui.lesson_file, step, !gui.lesson_walk.empty()))
            return *exit_code;
    } else if (!gui.lesson_walk.empty()) {
        std::cerr << "tilescope: --lesson-walk needs --lesson NAME or --lesson-file FILE\n";
        return 2;
    }

    // A rung of the ladder in the theatre opens at its textbook size (two blocks by two of
    // it, its pipeline filled and drained) unless the sizes were given.
    if (gui.view == "theatre" && !app.count("--m") && !app.count("--n") && !app.count("--k"))
        if (const auto kind = model::parse_kernel(setup_options.kernel); kind && model::is_ladder(*kind)) {
            const model::Problem textbook = views::rung_textbook_problem({*kind, 16, 16, 16});
            setup_options.m = std::to_string(textbook.m);
            setup_options.n = std::to_string(textbook.n);
            setup_options.k = std::to_string(textbook.k);
        }
    auto setup = resolve_for_window(setup_options);
    if (auto* why = std::get_if<std::string>(&setup)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 2;
    }
    const model::Problem& problem = std::get<cli::Setup>(setup).problem;
    if (const auto exit_code = check_cell("--select", gui.select, problem)) return *exit_code;
    if (const auto exit_code = check_cell("--center", gui.center, problem)) return *exit_code;
    if (!gui.keys_text.empty()) {
        auto parsed = platform::parse_key_list(gui.keys_text);
        if (auto* why = std::get_if<std::string>(&parsed)) {
            std::cerr << "tilescope: " << *why << "\n";
            return 2;
        }
        gui.keys = std::get<std::vector<platform::KeyPress>>(parsed);
    }
    if (const auto exit_code = check_export_flags(gui, gui.lesson.lesson.has_value())) return *exit_code;
    // An animation is 1280 × 720 unless --width and --height say otherwise; the window opens at its size.
    if (!gui.export_path.empty()) {
        if (!app.count("--width")) gui.width = 1280;
        if (!app.count("--height")) gui.height = 720;
    }
    Overrides& flags = gui.presentation;
    flags.presenter = gui.presenter;
    flags.fullscreen = gui.fullscreen;
    if (app.count("--font-scale")) flags.font_scale = gui.font_scale;
    if (!gui.palette.empty()) flags.palette = settings::parse_palette(gui.palette);
    if (app.count("--width") || !gui.export_path.empty()) flags.width = gui.width;
    if (app.count("--height") || !gui.export_path.empty()) flags.height = gui.height;
    if (app.count("--view")) flags.view = gui.view;
    if (!gui.theatre.panel.empty()) flags.panel = gui.theatre.panel;
    // Runs that make pictures or timings use the defaults, whatever this machine's settings
    // say, unless --settings names a file.
    const bool reproducible = !gui.screenshot.empty() || gui.frame_time > 0 || gui.lab_benchmark > 0 ||
                              !gui.lesson_walk.empty() || !gui.export_path.empty();
    if (!gui.settings_file.empty())
        gui.settings = gui.settings_file;
    else if (!gui.no_settings && !reproducible)
        gui.settings = settings::default_path(std::getenv("XDG_CONFIG_HOME"), std::getenv("HOME"));
    return std::get<cli::Setup>(setup);
}

AutomationOptions automation_options(const GuiOptions& gui) {
    // What --export-animation exports: the lesson when one is open, else the theatre or the ladders
    // (check_gui_options has refused it in other views).
    std::optional<views::ExportSubject> export_subject;
    if (!gui.export_path.empty())
        export_subject = gui.lesson.lesson      ? views::ExportSubject::Lesson
                         : gui.view == "ladder" ? views::ExportSubject::Ladder
                                                : views::ExportSubject::Theatre;
    return {.screenshot = gui.screenshot,
            .tooltip = gui.tooltip,
            .layout_report = gui.layout_report,
            .frames = gui.frames,
            .run = gui.run,
            .record = gui.theatre.record,
            .keys = gui.keys,
            .soak_seconds = gui.soak,
            .soak_seed = gui.soak_seed,
            .lab_benchmark = gui.lab_benchmark,
            .lab_sizes = gui.lab_sizes,
            .export_subject = export_subject,
            .export_choice = {.path = gui.export_path,
                              .width = gui.width,
                              .height = gui.height,
                              .presenter = gui.presentation.presenter,
                              .seconds_per_frame = 1.0 / gui.fps},
            .lesson_walk = gui.lesson_walk,
            .frame_time = gui.frame_time};
}

//-----------------------------------------------------------------------------
// [SECTION] The state of the window that opens
//-----------------------------------------------------------------------------

namespace {

// --select pins a cell; --zoom and --center place the stage's camera.
void apply_stage_flags(std::optional<model::Cell>& selected, views::StageCamera& camera, const GuiOptions& gui) {
    if (!gui.select.empty()) selected = model::Cell{gui.select[0], gui.select[1]};
    if (gui.zoom || !gui.center.empty()) {
        camera.request = views::StageCamera::Request{gui.zoom.value_or(1.0f), std::nullopt};
        if (!gui.center.empty()) camera.request->centre = model::Cell{gui.center[0], gui.center[1]};
    }
}

// --kernel-file: the kernel editor opens it; in the latency view the kernel is one more curve,
// in the ladder and tuning views one more bar, on the roofline one more point, as the editor's
// "Plot beside the rungs" makes it. nullopt, or 2 and why.
std::optional<int> apply_kernel_file(views::KernelEditorState& editor, views::LatencyControls& latency,
                                     const GuiOptions& gui) {
    if (gui.kernel_file.empty()) return std::nullopt;
    if (const auto why = views::open_kernel_flag(editor, gui.kernel_file)) {
        std::cerr << "tilescope: --kernel-file: " << *why << "\n";
        return 2;
    }
    if (gui.view == "latency" || gui.view == "ladder" || gui.view == "tuning" || gui.view == "roofline")
        latency.yours = views::user_source(editor);
    return std::nullopt;
}

}  // namespace

std::optional<int> apply_gui_options(views::AppState& state, const GuiOptions& gui, const cli::Setup& setup,
                                     const settings::Settings& opened, const settings::Settings& loaded) {
    state.problem = setup.problem;
    state.kernel = setup.kernel;
    // The latency view opens on the set-up's type: --view latency --dtype bf16 plots the
    // tensor-core rungs.
    state.lab.choices.latency.dtype = setup.problem.dtype;
    apply_stage_flags(state.selected, state.camera, gui);
    state.view = views::parse_view(opened.view).value_or(views::ViewId::Stage);
    state.presentation = presentation_for(loaded, gui.presentation);
    views::open_saved_panel(state.theatre, opened.theatre_panel);
    std::vector<std::string> trace_warnings;
    if (const auto why =
            views::apply_theatre_flags(state.theatre, state.problem, state, gui.theatre, &trace_warnings)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 2;
    }
    for (const std::string& warning : trace_warnings) std::cerr << "tilescope: " << warning << "\n";
    if (const auto experiment = model::parse_experiment(gui.experiment))
        if (const auto note = views::open_experiment(state, *experiment, gui.view == "theatre"))
            std::cerr << "tilescope: --experiment: " << *note << "\n";
    state.lab.choices.metric = gui.bars == "energy" ? views::LadderMetric::Energy : views::LadderMetric::Speed;
    state.lab.choices.ladder_page = gui.ladder_page == "errors" ? views::LadderPage::Errors : views::LadderPage::Bars;
    if (gui.experiment == "accumulator") {  // the Experiments view on the accumulator measurement
        state.view = views::ViewId::Experiment;
        state.experiments.accumulator_shown = true;
    }
    return apply_kernel_file(state.kernel_editor, state.lab.choices.latency, gui);
}

}  // namespace ts::app
