// run_command.hpp — run a program the way a user would, and keep what it said.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <sys/wait.h>

namespace ts::testing_support {

struct CommandOutcome {
    int exit_code = -1;   // -1: it did not exit normally
    std::string output;   // stdout and stderr together
};

inline CommandOutcome run_command(const std::string& command_line) {
    CommandOutcome outcome;
    FILE* pipe = popen((command_line + " 2>&1").c_str(), "r");
    if (!pipe) return outcome;
    std::array<char, 512> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe)) outcome.output += buffer.data();
    const int status = pclose(pipe);
    outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

#ifdef TILESCOPE_CLI_PATH
// tilescope-cli with `arguments` (the tests that use it define where it was built).
inline CommandOutcome run_cli(const std::string& arguments) {
    return run_command(std::string(TILESCOPE_CLI_PATH) + " " + arguments);
}

// tilescope-cli with `arguments` exits 2, and what it prints holds `message`.
inline void expect_refused(const std::string& arguments, const std::string& message) {
    const CommandOutcome outcome = run_cli(arguments);
    EXPECT_EQ(outcome.exit_code, 2) << arguments << "\n" << outcome.output;
    EXPECT_NE(outcome.output.find(message), std::string::npos) << arguments << "\n" << outcome.output;
}

// The same for each argument list and the message paired with it.
inline void expect_refused(std::span<const std::pair<const char*, const char*>> cases) {
    for (const auto& [arguments, message] : cases) expect_refused(arguments, message);
}

// `tilescope-cli COMMAND --help` exits 0 and names each of `flags`.
inline void expect_help_lists(const std::string& command, std::initializer_list<const char*> flags) {
    const CommandOutcome outcome = run_cli(command + " --help");
    EXPECT_EQ(outcome.exit_code, 0) << command << "\n" << outcome.output;
    for (const char* flag : flags) EXPECT_NE(outcome.output.find(flag), std::string::npos) << command << ": " << flag;
}
#endif

}  // namespace ts::testing_support
