// main.cpp — tilescope: the teaching window, or `tilescope bench ...` without one.
//
//   tilescope                                  open the window (12×16×8, tiled, T = 4)
//   tilescope --m 4 --n 4 --k 4 --tile 2       the textbook's 4×4 example with 2×2 blocks
//   tilescope --screenshot out.png [--run]     render, save a PNG, exit (for docs and tests)
//   tilescope --select 1,2                     pin C[1][2]: its thread, block, row and column
//   tilescope --view theatre --select-block 3,2 --phase 4 --step load   the tiling theatre, paused there
//   tilescope --view theatre --side-by-side --phase 1 --step sync2     naive vs tiled, with running counters
//   tilescope --lesson tiling --step 3         a guided lesson at its third step (--list-lessons)
//   tilescope bench --m 1024 --kernel tiled    measure on the GPU, print, no window
//   tilescope check | roofline                 the correctness suite; the roofline, no window
//   tilescope --lab-benchmark 20               time the latency lab: change to new point, frames
//   tilescope --m 4096 --n 4096 --zoom 300 --center 100,2000   the stage zoomed in on C[100][2000]
//   tilescope --m 4096 --n 4096 --k 4096 --frame-time 100   median and p90 frame time, no vsync
//   tilescope --view theatre --m 64 --n 64 --k 64 --tile 16 --export-animation out.gif   a block's phases, animated
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cli/commands.hpp"
#include "cli/sweep.hpp"
#include "model/format.hpp"
#include "record/journal.hpp"
#include "gpu/supervisor.hpp"
#include "cli/setup_options.hpp"
#include "views/theatre/ladder_canvas.hpp"
#include "gpu/runner.hpp"
#include "platform/key_names.hpp"
#include "session.hpp"
#include "platform/window.hpp"
#include "views/window/app_state.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/kernel/kernel_view.hpp"
#include "lesson_flags.hpp"
#include "animation_export.hpp"
#include "automation.hpp"
#include "export/animation_file.hpp"
#include "views/lessons/lesson_state.hpp"
#include "views/window/main_view.hpp"
#include "views/common/plot.hpp"
#include "views/window/setup_panel.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "views/theatre/theatre_flags.hpp"
#include "views/common/theme.hpp"
#include "paths/data_dir.hpp"

namespace {

struct GuiOptions {
    std::string screenshot;   // empty: interactive
    bool tooltip = false;     // --tooltip: the screenshot keeps a pinned cell's tooltip
    std::string layout_report;  // --layout-report FILE: the picture's boxes as JSON
    int frames = 0;           // 0: the default for the mode (see frames_to_settle)
    bool run = false;
    std::vector<int> select;  // ROW, COL of a cell of C to pin; empty: none
    ts::views::TheatreFlags theatre;  // --select-block, --phase, --step, --side-by-side, ...
    int width = 1600;
    int height = 1000;
    std::string view = "stage";  // --view: stage, latency, tuning, roofline, theatre, ladder, experiment or kernel
    std::string experiment;      // --experiment NAME: the Experiments view on it; with --view theatre, its stale read
    std::string kernel_file;     // --kernel-file FILE: the kernel editor opens it
    std::string load;            // --load: a recording; empty: the committed ones without a GPU
    int lab_benchmark = 0;       // --lab-benchmark: changes of the latency lab's size to time; 0: none
    double soak = 0.0;           // --soak: seconds of random changes, then a report; 0: none
    std::uint64_t soak_seed = 1;
    std::vector<int> lab_sizes{256, 512, 1024, 2048};
    int frame_time = 0;            // --frame-time: frames to time; 0: none
    std::optional<float> zoom;     // --zoom: the stage's zoom; 1 fits it to the window
    std::vector<int> center;       // --center: ROW, COL of the cell of C in the middle of the stage
    ts::app::LessonChoice lesson;  // --lesson or --lesson-file with --step, checked before the window opens
    std::string lesson_walk;       // --lesson-walk: a folder for one PNG per step; empty: none
    std::filesystem::path settings;          // the settings file; empty: none read or written
    ts::platform::Overrides presentation;    // --presenter, --font-scale, --palette, --fullscreen, ...
    std::vector<ts::platform::KeyPress> keys;  // --keys: pressed one by one once the window has settled
    std::string export_path;     // --export-animation FILE; empty: none
    double fps = 2.0;            // --fps: frames per second of the animation
};

using ts::app::kSettleFrames;

// The window explains a launch the model rejects instead of refusing to open, so a tile
// width that only check_config() turns down (T = 64) is kept when every other flag is fine.
std::variant<ts::cli::Setup, std::string> resolve_for_window(const ts::cli::SetupOptions& options) {
    auto setup = ts::cli::resolve_setup(options);
    if (std::holds_alternative<ts::cli::Setup>(setup)) return setup;

    ts::cli::SetupOptions with_valid_tile = options;
    with_valid_tile.tile = "1";
    auto others = ts::cli::resolve_setup(with_valid_tile);
    int tile = 0;
    const char* end = options.tile.data() + options.tile.size();
    const auto [stop, error] = std::from_chars(options.tile.data(), end, tile);
    auto* valid = std::get_if<ts::cli::Setup>(&others);
    if (valid && error == std::errc() && stop == end && tile >= 1 && tile <= ts::views::kMaxTypedTile) {
        valid->kernel.tile = tile;
        return *valid;
    }
    return setup;
}

// When the program started (static initialisation): --frame-time says how long after it the first frame was on screen.
const auto g_process_start = std::chrono::steady_clock::now();

// --frame-time N: how long a frame of the current view takes to draw. The settling frames,
// which also build the stage's heat-map textures, are not counted; the N after them are
// drawn without vsync, each waited for on the GPU before the next starts. It also says how
// soon the first frame was shown and whether the GPU probe (in the worker) had answered by
// then: the window must never wait for it.
int time_frames(ts::platform::Window& window, ts::gpu::Runner& runner, ts::views::AppState& state, int frames) {
    using Clock = std::chrono::steady_clock;
    std::vector<double> ms;
    double first_ms = 0.0;
    double first_shown_s = 0.0;
    bool probe_done_at_first_frame = false;
    for (int i = 0; i < kSettleFrames + frames; ++i) {
        const auto start = Clock::now();
        window.begin_frame(false);
        ts::views::exchange_with_runner(state, runner, ImGui::GetTime());
        if (i == 0) probe_done_at_first_frame = state.device.has_value();
        ts::views::draw_main_view(state);
        window.render(ImGui::ColorConvertU32ToFloat4(ts::views::colours::kBackground));
        window.present();
        window.finish();
        const double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (i == 0) {
            first_ms = elapsed;
            first_shown_s = std::chrono::duration<double>(Clock::now() - g_process_start).count();
        }
        if (i >= kSettleFrames) ms.push_back(elapsed);
    }
    const ts::views::Spread spread = ts::views::spread(ms);
    // Textures built: one per heat map however many frames, unless they are rebuilt per frame.
    const auto* heatmaps = window.heatmap_painter();
    char line[256];
    std::snprintf(line, sizeof line,
                  "frame time at %lld×%lld×%lld: median %.3f ms, p90 %.3f ms over %d frames (first frame %.1f ms, "
                  "heat-map textures built: %llu)\n",
                  static_cast<long long>(state.problem.m), static_cast<long long>(state.problem.n),
                  static_cast<long long>(state.problem.k), spread.median, spread.p90, frames, first_ms,
                  static_cast<unsigned long long>(heatmaps ? heatmaps->uploads() : 0));
    std::cout << line << "renderer: " << window.renderer() << "\n";
    std::snprintf(line, sizeof line, "first frame shown %.3f s after start (GPU probe %s by then)\n", first_shown_s,
                  probe_done_at_first_frame ? "answered" : "not yet answered");
    std::cout << line;
    return 0;
}

// What --export-animation exports: the lesson when one is open, else the theatre or the ladders;
// nullopt without the flag (main() has refused it in other views).
std::optional<ts::views::ExportSubject> export_subject(const GuiOptions& options) {
    if (options.export_path.empty()) return std::nullopt;
    if (options.lesson.lesson) return ts::views::ExportSubject::Lesson;
    return options.view == "ladder" ? ts::views::ExportSubject::Ladder : ts::views::ExportSubject::Theatre;
}

// --export-animation's file and view, checked before a window opens: exit status 2 and why, or nullopt.
std::optional<int> check_export_flags(const GuiOptions& gui, bool lesson) {
    if (gui.export_path.empty()) return std::nullopt;
    const auto format = ts::exporting::format_of_path(gui.export_path);
    if (const auto* why = std::get_if<std::string>(&format)) {
        std::cerr << "tilescope: --export-animation: " << *why << "\n";
        return 2;
    }
    if (const auto why = ts::exporting::why_unavailable(std::get<ts::exporting::AnimationFormat>(format))) {
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

int run_window(const GuiOptions& options, const ts::cli::Setup& setup) {
    ts::app::Automation automation({.screenshot = options.screenshot,
                                    .tooltip = options.tooltip,
                                    .layout_report = options.layout_report,
                                    .frames = options.frames,
                                    .run = options.run,
                                    .record = options.theatre.record,
                                    .keys = options.keys,
                                    .soak_seconds = options.soak,
                                    .soak_seed = options.soak_seed,
                                    .lab_benchmark = options.lab_benchmark,
                                    .lab_sizes = options.lab_sizes,
                                    .export_subject = export_subject(options),
                                    .export_choice = {.path = options.export_path,
                                                      .width = options.width,
                                                      .height = options.height,
                                                      .presenter = options.presentation.presenter,
                                                      .seconds_per_frame = 1.0 / options.fps}});
    ts::platform::Session session(options.settings);
    const ts::settings::Settings opened = ts::platform::merge(session.loaded(), options.presentation);
    auto created = ts::platform::Window::create({opened.window_width, opened.window_height, "TileScope",
                                                 options.lab_benchmark == 0 && options.frame_time == 0, opened.window_x,
                                                 opened.window_y, opened.fullscreen, opened.font_scale});
    if (auto* why = std::get_if<std::string>(&created)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 1;
    }
    ts::platform::Window& window = *std::get<std::unique_ptr<ts::platform::Window>>(created);
    if (window.font_warning()) std::cerr << "tilescope: " << *window.font_warning() << "\n";
    ts::views::set_fonts({window.fonts().heading, window.fonts().small, window.fonts().code});
    if (window.heatmap_warning()) std::cerr << "tilescope: " << *window.heatmap_warning() << "\n";
    ts::views::set_heatmap_painter(window.heatmap_painter());
    ts::views::apply_style(ImGui::GetStyle());

    // The window's CUDA work runs in a worker process (this same program, `tilescope worker`),
    // so a kernel that faults or never ends costs a restart of the worker, not the app.
    ts::gpu::Runner runner(ts::gpu::supervised_backend(
        {.worker_command = ts::gpu::this_program_as_worker(), .estimate_s = ts::cli::estimate_seconds}));
    ts::views::AppState state;
    // Every measurement goes to the session journal as it arrives; a journal that a crashed
    // TileScope left open is offered for reopening (record/journal.hpp).
    const std::filesystem::path journals = ts::record::default_journal_dir();
    const auto unfinished = ts::record::unfinished_sessions(journals);
    if (!unfinished.empty()) {
        state.lab.unfinished = unfinished.front();
        state.presentation.notice = ts::model::format_text(
            "TileScope ended unexpectedly during the session of {}: its {} measurement(s) can be reopened in the "
            "lab (Ctrl+2)",
            unfinished.front().started, unfinished.front().points);
        std::cerr << "tilescope: " << state.presentation.notice << "\n";
    }
    auto journal = ts::record::Journal::open(journals);
    if (auto* opened_journal = std::get_if<ts::record::Journal>(&journal))
        state.lab.journal = std::make_shared<ts::record::Journal>(std::move(*opened_journal));
    else
        std::cerr << "tilescope: " << std::get<std::string>(journal) << " (measurements are kept in memory only)\n";
    struct CloseJournalAtExit {
        ts::views::LabState& lab;
        ~CloseJournalAtExit() {
            if (lab.journal) lab.journal->close();
        }
    } close_journal_at_exit{state.lab};
    state.problem = setup.problem;
    state.kernel = setup.kernel;
    // The latency view opens on the set-up's type: --view latency --dtype bf16 plots the
    // tensor-core rungs.
    state.lab.latency.dtype = setup.problem.dtype;
    if (!options.select.empty()) state.selected = ts::model::Cell{options.select[0], options.select[1]};
    if (options.zoom || !options.center.empty()) {
        state.camera.request = ts::views::StageCamera::Request{options.zoom.value_or(1.0f), std::nullopt};
        if (!options.center.empty()) state.camera.request->centre = ts::model::Cell{options.center[0], options.center[1]};
    }
    state.lab.view = ts::views::parse_view(opened.view).value_or(ts::views::LabView::Stage);
    state.presentation = ts::platform::presentation_for(session.loaded(), options.presentation);
    if (const auto panel = ts::views::parse_panel(opened.theatre_panel)) state.theatre.panel = *panel;
    state.theatre.open_panel = state.theatre.panel;
    std::vector<std::string> trace_warnings;
    if (const auto why = ts::views::apply_theatre_flags(state, options.theatre, &trace_warnings)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 2;
    }
    for (const std::string& warning : trace_warnings) std::cerr << "tilescope: " << warning << "\n";
    if (const auto experiment = ts::model::parse_experiment(options.experiment))
        if (const auto note = ts::views::open_experiment(state, *experiment, options.view == "theatre"))
            std::cerr << "tilescope: --experiment: " << *note << "\n";
    if (!options.kernel_file.empty()) {
        if (const auto why = ts::views::open_kernel_flag(state, options.kernel_file)) {
            std::cerr << "tilescope: --kernel-file: " << *why << "\n";
            return 2;
        }
        // In the latency view the kernel is one more curve, in the ladder and tuning views one more
        // bar, on the roofline one more point, as the editor's "Plot beside the rungs" makes it.
        if (options.view == "latency" || options.view == "ladder" || options.view == "tuning" ||
            options.view == "roofline")
            state.lab.latency.yours = ts::views::user_source(state.kernel_editor);
    }
    automation.prepare(state);
    // Read off the UI thread: the window opens at once and the lab says "Loading recordings…"
    // until they are in (a --load that fails ends the program with 2, as before).
    if (!options.load.empty()) {
        ts::views::start_loading_recording(state.lab, options.load, true);
        // The user came to read these numbers: the lab does not start measuring over them.
        ts::views::pass_over_first_visit_sweep(state.lab,
                                               "a recording was opened with --load (Sweep the sizes measures this GPU)");
    } else if (const auto committed = ts::views::committed_recordings(); !committed.empty()) {
        // With a GPU, live points replace the recorded ones as they arrive.
        ts::views::start_loading_recording(state.lab, committed.back());
    }

    session.start(window, state, opened);
    if (options.lesson.lesson) ts::views::open_lesson(state, *options.lesson.lesson, options.lesson.step);
    if (!options.lesson.error.empty()) state.lesson.error = options.lesson.error;
    if (!options.lesson_walk.empty())
        return ts::app::walk_lesson(window, runner, state, options.lesson_walk, kSettleFrames);
    if (options.frame_time > 0) return time_frames(window, runner, state, options.frame_time);

    ts::app::AnimationExport animation_export;
    // The loop: exchange with the runner, draw, render, present. Everything the window does
    // by itself (--run, --keys, --soak, --screenshot, ...) is the automation's (automation.hpp).
    while (!window.should_close()) {
        automation.before_frame(window);
        window.begin_frame(automation.follow_pointer());
        ts::views::exchange_with_runner(state, runner, ImGui::GetTime());
        automation.before_draw(state, runner);
        ts::views::draw_main_view(state);
        automation.after_draw(state);
        window.render(ImGui::ColorConvertU32ToFloat4(ts::views::colours::kBackground));
        if (const auto exit_code = automation.after_render(window, state, session)) return *exit_code;
        // A plot's "Save PNG" asks for its rectangle of this frame; the views cannot read pixels.
        for (const ts::views::PlotImageRequest& request : ts::views::take_plot_image_requests()) {
            const auto why = window.save_region(request.path, request.min, request.max);
            if (request.outcome) *request.outcome = why ? *why : "saved " + request.path;
        }
        window.present();
        animation_export.step(window, state);  // between frames: it draws offscreen, may change the fonts
        session.after_frame(window, state);
    }
    session.finish(window, state);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"TileScope: see and measure how CUDA matrix multiplication works", "tilescope"};

    // The first launch shows 12×16×8 with T = 4: M, N and K all differ, so every label's
    // dimension is unambiguous; the grid is 4 × 3 blocks, so blockIdx.x visibly walks the
    // columns; every cell is big enough to show its value; and the sizes are multiples of
    // T, so ghost threads wait until a student types a size that is not.
    ts::cli::SetupOptions setup_options;
    setup_options.m = "12";
    setup_options.n = "16";
    setup_options.k = "8";
    setup_options.tile = "4";
    ts::cli::add_setup_options(app, setup_options);

    GuiOptions gui;
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
                   "open the Experiments view on NAME (" + ts::model::experiment_names() +
                       "); with --view theatre, the theatre on the stale read of its recorded result")
        ->type_name("NAME");
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
                 "the tiling theatre: record the problem on show on the GPU (the naive and tiled kernels, or the "
                 "regtile-2d or warptile rung on show, with records of every load, SM and clock) and replay it; "
                 "with --screenshot, wait for it");
    app.add_option("--trace", gui.theatre.traces,
                   "the tiling theatre: replay a recording saved by `tilescope record --out FILE` (give one naive "
                   "and one tiled to replay both); " + (ts::paths::data_dir() / "traces").string() + " holds some made on an NVIDIA H200")
        ->type_name("FILE");
    app.add_option("--load", gui.load,
                   "measurements to show: JSON from `tilescope bench --json` or the lab's Save JSON, or CSV from "
                   "`tilescope bench --csv`; default: the newest in " + (ts::paths::data_dir() / "measurements").string())
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
        ->check(CLI::Range(ts::views::kMinZoom, 1e6f))
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

    // Guided lessons (assets/lessons, views/lesson_state.hpp).
    bool list_lessons = false;
    std::string lesson_name, lesson_file;
    app.add_flag("--list-lessons", list_lessons, "print the name of every lesson, one per line, and exit");
    app.add_option("--lesson", lesson_name, "open lesson NAME (see --list-lessons) at --step S (default 1)")
        ->type_name("NAME");
    app.add_option("--lesson-file", lesson_file, "open the lesson in FILE (the format: docs/lessons.md)")
        ->type_name("FILE");
    app.add_option("--lesson-walk", gui.lesson_walk,
                   "save every step of the lesson as DIR/NAME-step-S.png (and -answer.png where it asks for a "
                   "prediction), then exit")
        ->type_name("DIR");

    // Presenter mode and settings (platform/session.hpp, settings/settings.hpp).
    bool presenter = false, fullscreen = false, no_settings = false;
    float font_scale = 1.0f;
    std::string palette, settings_file, keys;
    app.add_flag("--presenter", presenter,
                 "presenter mode for a projector: text 2× (or --font-scale), high contrast (or --palette), thick "
                 "highlights; F5 switches it");
    app.add_option("--font-scale", font_scale, "text and widgets S times larger, drawn crisp at that size (1, 1.5, 2, 3)")
        ->check(CLI::Range(ts::settings::kMinFontScale, ts::settings::kMaxFontScale))
        ->type_name("S");
    app.add_option("--palette", palette, "colours: default, high-contrast or colour-blind (Okabe–Ito)")
        ->check(CLI::IsMember({"default", "high-contrast", "colour-blind", "color-blind"}))
        ->type_name("NAME");
    app.add_flag("--fullscreen", fullscreen, "open full screen on the primary monitor (F11 switches)");
    auto* settings_option =
        app.add_option("--settings", settings_file,
                       "read and write settings in FILE instead of $XDG_CONFIG_HOME/tilescope/settings.ini "
                       "(~/.config/tilescope/settings.ini)")
            ->type_name("FILE");
    app.add_flag("--no-settings", no_settings, "neither read nor write a settings file")->excludes(settings_option);
    app.add_option("--keys", keys,
                   "press these keys one by one once the window has settled, before --screenshot, e.g. "
                   "\"F11,ctrl+2,PageDown,shift+Right,F1\"")
        ->type_name("KEY,...");

    ts::cli::Commands commands(app);   // bench, check, roofline: no window

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }
    if (const auto exit_code = commands.run_chosen()) return *exit_code;
    if (list_lessons) return ts::app::print_lesson_names();
    if (!gui.experiment.empty() && !ts::model::parse_experiment(gui.experiment)) {
        std::cerr << "tilescope: --experiment " << gui.experiment << " is not an experiment; they are: "
                  << ts::model::experiment_names() << "\n";
        return 2;
    }
    if (!lesson_name.empty() || !lesson_file.empty()) {
        // With a lesson, --step is the lesson's step, not the theatre's sub-step.
        const std::string step = std::exchange(gui.theatre.step, "");
        if (const auto exit_code =
                ts::app::choose_lesson(gui.lesson, lesson_name, lesson_file, step, !gui.lesson_walk.empty()))
            return *exit_code;
    } else if (!gui.lesson_walk.empty()) {
        std::cerr << "tilescope: --lesson-walk needs --lesson NAME or --lesson-file FILE\n";
        return 2;
    }

    // A rung of the ladder in the theatre opens at its textbook size (two blocks by two of
    // it, its pipeline filled and drained) unless the sizes were given.
    if (gui.view == "theatre" && !app.count("--m") && !app.count("--n") && !app.count("--k"))
        if (const auto kind = ts::model::parse_kernel(setup_options.kernel); kind && ts::model::is_ladder(*kind)) {
            const ts::model::Problem textbook = ts::views::ladder_textbook_problem({*kind, 16, 16, 16});
            setup_options.m = std::to_string(textbook.m);
            setup_options.n = std::to_string(textbook.n);
            setup_options.k = std::to_string(textbook.k);
        }
    auto setup = resolve_for_window(setup_options);
    if (auto* why = std::get_if<std::string>(&setup)) {
        std::cerr << "tilescope: " << *why << "\n";
        return 2;
    }
    const ts::model::Problem& problem = std::get<ts::cli::Setup>(setup).problem;
    if (!gui.select.empty() && !ts::model::inside(gui.select[0], gui.select[1], static_cast<int>(problem.m),
                                                  static_cast<int>(problem.n))) {
        std::cerr << "tilescope: --select " << gui.select[0] << "," << gui.select[1] << " is outside C, which has "
                  << problem.m << " rows and " << problem.n << " columns (both count from 0)\n";
        return 2;
    }
    if (!gui.center.empty() && !ts::model::inside(gui.center[0], gui.center[1], static_cast<int>(problem.m),
                                                  static_cast<int>(problem.n))) {
        std::cerr << "tilescope: --center " << gui.center[0] << "," << gui.center[1] << " is outside C, which has "
                  << problem.m << " rows and " << problem.n << " columns (both count from 0)\n";
        return 2;
    }
    if (!keys.empty()) {
        auto parsed = ts::platform::parse_key_list(keys);
        if (auto* why = std::get_if<std::string>(&parsed)) {
            std::cerr << "tilescope: " << *why << "\n";
            return 2;
        }
        gui.keys = std::get<std::vector<ts::platform::KeyPress>>(parsed);
    }
    if (const auto exit_code = check_export_flags(gui, gui.lesson.lesson.has_value())) return *exit_code;
    // An animation is 1280 × 720 unless --width and --height say otherwise; the window opens at its size.
    if (!gui.export_path.empty()) {
        if (!app.count("--width")) gui.width = 1280;
        if (!app.count("--height")) gui.height = 720;
    }
    ts::platform::Overrides& flags = gui.presentation;
    flags.presenter = presenter;
    flags.fullscreen = fullscreen;
    if (app.count("--font-scale")) flags.font_scale = font_scale;
    if (!palette.empty()) flags.palette = ts::settings::parse_palette(palette);
    if (app.count("--width") || !gui.export_path.empty()) flags.width = gui.width;
    if (app.count("--height") || !gui.export_path.empty()) flags.height = gui.height;
    if (app.count("--view")) flags.view = gui.view;
    if (!gui.theatre.panel.empty()) flags.panel = gui.theatre.panel;
    // Runs that make pictures or timings use the defaults, whatever this machine's settings
    // say, unless --settings names a file.
    const bool reproducible = !gui.screenshot.empty() || gui.frame_time > 0 || gui.lab_benchmark > 0 ||
                              !gui.lesson_walk.empty() || !gui.export_path.empty();
    if (!settings_file.empty())
        gui.settings = settings_file;
    else if (!no_settings && !reproducible)
        gui.settings = ts::settings::default_path(std::getenv("XDG_CONFIG_HOME"), std::getenv("HOME"));
    return run_window(gui, std::get<ts::cli::Setup>(setup));
}
