// program_path.hpp — where a program named without a folder is found, as execvp would find it:
// ffmpeg for the animation export, ssh and srun for a GPU worker elsewhere.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace ts::paths {

// The first executable regular file called `program` in the PATH's folders (an empty entry is
// the current folder; an unset PATH is "/bin:/usr/bin", glibc's execvp's), or nullopt.
std::optional<std::filesystem::path> find_on_path(std::string_view program);

}  // namespace ts::paths
