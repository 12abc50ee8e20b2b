// commands.hpp — the command-line tools as subcommands (bench, check, roofline, record, compact, ...), registered
// once here for both executables: `tilescope <command>` and `tilescope-cli <command>`.
#pragma once

#include <memory>
#include <optional>

namespace CLI {
class App;
}

namespace ts::cli {

class Commands {
public:
    // Adds every subcommand to `app`; their options live as long as this object.
    explicit Commands(CLI::App& app);
    ~Commands();
    Commands(const Commands&) = delete;
    Commands& operator=(const Commands&) = delete;

    // After app.parse(): the exit code of the subcommand the user chose, or nullopt when
    // none was chosen (the app then opens its window).
    std::optional<int> run_chosen();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

}  // namespace ts::cli
