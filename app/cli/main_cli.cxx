// tilescope-cli — the command-line tools without the GUI: links the model and the GPU
// runner only, so it runs on machines without a display or GLFW (a GPU server, CI).
#include <CLI/CLI.hpp>

#include <iostream>

#include "bench.hpp"
#include "check.hpp"
#include "roofline.hpp"

int main(int argc, char** argv) {
    CLI::App app{"TileScope command-line tools (no GUI)", "tilescope-cli"};
    app.require_subcommand(1);
    ts::cli::BenchOptions bench_options;
    CLI::App* bench = ts::cli::add_bench_command(app, bench_options);
    ts::cli::CheckOptions check_options;
    CLI::App* check = ts::cli::add_check_command(app, check_options);
    ts::cli::RooflineOptions roofline_options;
    CLI::App* roofline = ts::cli::add_roofline_command(app, roofline_options);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }
    if (bench->parsed()) return ts::cli::run_bench(bench_options, std::cout, std::cerr);
    if (check->parsed()) return ts::cli::run_check(check_options, std::cout, std::cerr);
    if (roofline->parsed()) return ts::cli::run_roofline(roofline_options, std::cout, std::cerr);
    return 2;
}
