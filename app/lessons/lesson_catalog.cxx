#include "lesson_catalog.hpp"

#include <algorithm>
#include <cctype>

#include "paths/data_dir.hpp"

namespace ts::lessons {

std::filesystem::path lessons_dir() { return paths::data_dir() / "lessons"; }

std::vector<std::filesystem::path> lesson_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error))
        if (entry.path().extension() == ".lesson") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string lesson_name(const std::filesystem::path& file) {
    const std::string stem = file.stem().string();
    std::size_t start = 0;
    while (start < stem.size() && std::isdigit(static_cast<unsigned char>(stem[start]))) ++start;
    if (start > 0 && start < stem.size() && stem[start] == '-') return stem.substr(start + 1);
    return stem;
}

}  // namespace ts::lessons
