// lesson_catalog.hpp — where lessons live and what they are called: assets/lessons/NN-name.lesson,
// taught in the order of NN, opened by name.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ts::lessons {

// The lessons shipped with TileScope: lessons/ of its data folder (paths/data_dir.hpp).
std::filesystem::path lessons_dir();

// Every *.lesson file in `dir`, in teaching order (by file name); empty if `dir` is missing.
std::vector<std::filesystem::path> lesson_files(const std::filesystem::path& dir);

// 03-redundant-loads.lesson → "redundant-loads": the NN- prefix orders, the rest names.
std::string lesson_name(const std::filesystem::path& file);

}  // namespace ts::lessons
