#include "lesson_setup.hpp"

#include "lesson_keys.hpp"

namespace ts::lessons {

SettingsInForce settings_through(const Lesson& lesson, int index) {
    SettingsInForce settings;
    for (int i = 0; i <= index && i < static_cast<int>(lesson.steps.size()); ++i)
        for (const Setting& setting : lesson.steps[i].settings) {
            if (setting.value == "none")
                settings.erase(setting.key);
            else
                settings[setting.key] = setting;
        }
    return settings;
}

std::string value_of(const SettingsInForce& settings, const std::string& key, const std::string& fallback) {
    const auto found = settings.find(key);
    return found == settings.end() ? fallback : found->second.value;
}

cli::SetupOptions lesson_defaults() {
    cli::SetupOptions options;
    options.m = "12";
    options.n = "16";
    options.k = "8";
    options.tile = "4";
    return options;
}

std::variant<cli::Setup, std::string> resolve_lesson_setup(const SettingsInForce& settings) {
    const cli::SetupOptions defaults = lesson_defaults();
    cli::SetupOptions options;
    options.m = value_of(settings, "m", defaults.m);
    options.n = value_of(settings, "n", defaults.n);
    options.k = value_of(settings, "k", defaults.k);
    options.tile = value_of(settings, "tile", defaults.tile);
    options.kernel = value_of(settings, "kernel", defaults.kernel);
    options.block = value_of(settings, "block-size", defaults.block);
    options.dtype = value_of(settings, "dtype", defaults.dtype);
    auto setup = cli::resolve_setup(options);
    if (std::holds_alternative<cli::Setup>(setup)) return setup;

    // Only the tile width is out of CUDA's range: keep it, so the step can show why.
    cli::SetupOptions with_valid_tile = options;
    with_valid_tile.tile = "1";
    auto others = cli::resolve_setup(with_valid_tile);
    const auto tile = parse_whole(options.tile);
    if (auto* valid = std::get_if<cli::Setup>(&others); valid && tile && *tile <= kMaxLessonTile) {
        valid->kernel.tile = static_cast<int>(*tile);
        return *valid;
    }
    return setup;
}

}  // namespace ts::lessons
