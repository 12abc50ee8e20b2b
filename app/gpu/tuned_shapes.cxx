#include "tuned_shapes.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <variant>

#include "model/format.hpp"

namespace ts::gpu {

std::filesystem::path user_tuning_path() {
    if (const char* path = std::getenv("TILESCOPE_TUNING"); path && *path) return path;
    // The XDG base directory specification ignores a relative $XDG_DATA_HOME.
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data == '/')
        return std::filesystem::path(data) / "tilescope" / "tuned-shapes.ini";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/tmp") / ".local" / "share" / "tilescope" /
           "tuned-shapes.ini";
}

model::TuningTable load_tuning(const std::filesystem::path& path, std::string* warning) {
    std::ifstream in(path);
    if (!in) return {};
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = model::parse_tuning_table(text.str());
    if (auto* table = std::get_if<model::TuningTable>(&parsed)) return std::move(*table);
    if (warning) *warning = model::format_text("{}: {}", path.string(), std::get<std::string>(parsed));
    return {};
}

TunedChoice choose_tuned_variant(model::KernelKind rung, const std::string& gpu, const model::Problem& problem) {
    const std::int64_t size = std::max({problem.m, problem.n, problem.k});
    const std::filesystem::path path = user_tuning_path();
    std::string warning;
    if (const auto variant = model::pick_variant(load_tuning(path, &warning), gpu, size, rung))
        return {*variant, model::format_text("tuned on this machine ({})", path.string())};
    // A user's table that does not parse (a bad edit, or one written for other candidates)
    // is passed over, and the source says so wherever it is shown.
    const std::string passed_over = warning.empty() ? "" : "; ignored " + warning;
    const auto shipped = model::parse_tuning_table(model::kShippedTuningTable);
    if (const auto* table = std::get_if<model::TuningTable>(&shipped))
        if (const auto variant = model::pick_variant(*table, gpu, size, rung)) return {*variant, "shipped table" + passed_over};
    return {0, "default" + passed_over};
}

}  // namespace ts::gpu
