// tilescope-cli — the command-line tools without the GUI: links the model and the GPU
// runner only, so it runs on machines without a display or GLFW (a GPU server, CI).
#include <CLI/CLI.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{"TileScope command-line tools (no GUI)", "tilescope-cli"};
    app.require_subcommand(1);
    ts::cli::Commands commands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }
    return commands.run_chosen().value_or(2);
}
