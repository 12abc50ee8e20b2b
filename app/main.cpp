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
//   tilescope --gpu ssh://ana@gpu1             the GPU worker on a server, through ssh (--gpu slurm: srun)
//
// The window's flags are gui_options.hpp's; the window and its frame loop are run_window.hpp's
// and automation.hpp's; the commands without a window are cli/commands.hpp's.
#include <CLI/CLI.hpp>

#include <variant>

#include "cli/commands.hpp"
#include "cli/setup_options.hpp"
#include "gui_options.hpp"
#include "run_window.hpp"

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

    ts::app::GuiOptions gui;
    ts::app::take_worker_command(argc, argv, gui);  // every argument after --worker-command
    ts::app::add_gui_options(app, gui);
    ts::cli::Commands commands(app);  // bench, check, roofline: no window

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }
    if (const auto exit_code = commands.run_chosen()) return *exit_code;
    const auto checked = ts::app::check_gui_options(app, gui, setup_options);
    if (const int* exit_code = std::get_if<int>(&checked)) return *exit_code;
    return ts::app::run_window(gui, std::get<ts::cli::Setup>(checked));
}
