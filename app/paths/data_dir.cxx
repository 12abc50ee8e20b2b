#include "data_dir.hpp"

#include <cstdlib>
#include <system_error>

namespace ts::paths {

namespace {

bool holds_lessons(const std::filesystem::path& dir) {
    std::error_code error;
    return std::filesystem::is_directory(dir / "lessons", error);
}

}  // namespace

std::filesystem::path data_dir() {
    if (const char* chosen = std::getenv("TILESCOPE_DATA_DIR"); chosen && *chosen) return chosen;
    std::error_code error;
    const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const std::filesystem::path beside = program.parent_path().parent_path() / "share" / "tilescope";
        if (holds_lessons(beside)) return beside;
    }
    if (holds_lessons(TILESCOPE_SOURCE_ASSETS_DIR)) return TILESCOPE_SOURCE_ASSETS_DIR;
    return TILESCOPE_INSTALLED_DATA_DIR;
}

}  // namespace ts::paths
