#include "paths/program_path.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace ts::paths {

std::optional<std::filesystem::path> find_on_path(std::string_view program) {
    const char* path_variable = std::getenv("PATH");
    // POSIX leaves an unset PATH to the implementation; glibc's execvp then looks here.
    const std::string_view folders = path_variable ? path_variable : "/bin:/usr/bin";
    std::size_t start = 0;
    while (start <= folders.size()) {
        const std::size_t end = std::min(folders.find(':', start), folders.size());
        // An empty entry is the current folder, as for execvp.
        const std::string_view folder = end > start ? folders.substr(start, end - start) : std::string_view(".");
        const std::filesystem::path candidate = std::filesystem::path(folder) / program;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error) && access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

}  // namespace ts::paths
