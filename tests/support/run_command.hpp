// run_command.hpp — run a program the way a user would, and keep what it said.
#pragma once

#include <array>
#include <cstdio>
#include <string>
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

}  // namespace ts::testing_support
