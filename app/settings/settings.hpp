// settings.hpp — what TileScope remembers between runs: the window, presenter mode, the font
// scale, the palette, the last view, the theatre's open tab, the rungs the latency plot shows,
// and Dear ImGui's own layout.
// Plain C++ (no ImGui, no GL), so that reading, checking and writing have cpu tests.
//
// The file is text a person can edit, one `key = value` a line, '#' starts a comment:
//
//   window_width = 1600
//   palette = high-contrast
//   latency_rungs = warptile, tuned
//   [imgui]
//   ...Dear ImGui's own .ini text, kept as it is, to the end of the file
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/rung_info.hpp"

namespace ts::settings {

// The three colour schemes: the default one; high contrast (black on white, strong fills,
// thick outlines) for projectors; colour-blind safe (Okabe–Ito hues).
enum class Palette { Default, HighContrast, ColourBlind };

// "default", "high-contrast", "colour-blind"; "color-blind" is read too.
std::string_view palette_name(Palette palette);
std::optional<Palette> parse_palette(std::string_view text);

// The ladder's rungs as latency_rungs names them, in climbing order: the names of the latency
// view's rung checkboxes, in their order (model::kLabRungNames, from the table of rungs).
inline constexpr auto kLadderRungNames = model::kLabRungNames;

// The font scales Ctrl+= and Ctrl+- step through; --font-scale and the file take anything in
// [kMinFontScale, kMaxFontScale].
inline constexpr float kFontScales[] = {1.0f, 1.5f, 2.0f, 3.0f};
inline constexpr float kMinFontScale = 0.75f;
inline constexpr float kMaxFontScale = 4.0f;
// The next scale of kFontScales above (direction > 0) or below (direction < 0) `current`;
// `current` itself at either end.
float step_font_scale(float current, int direction);

struct Settings {
    int window_width = 1600;
    int window_height = 1000;
    std::optional<int> window_x;  // nullopt: where the window manager puts it
    std::optional<int> window_y;
    bool fullscreen = false;
    bool presenter = false;
    float font_scale = 1.0f;
    Palette palette = Palette::Default;
    std::string view = "stage";          // stage, latency, tuning, roofline, theatre, ladder, experiment
    std::string theatre_panel = "source";  // source, thread, warp
    // The ladder's rungs the latency plot shows, by name ("warptile", "tuned"; kLadderRungNames),
    // in the ladder's order; nullopt: not in the file, the latency view's own choice.
    std::optional<std::vector<std::string>> latency_rungs;
    // Where the GPU work runs: the last server typed in the window's GPU panel ("ssh://ana@gpu1",
    // "slurm:class"; empty: none), and whether it is the one in use (else this machine). --gpu
    // on the command line overrides both.
    std::string gpu_server;
    bool gpu_on_server = false;
    std::string imgui_layout;            // Dear ImGui's .ini text; empty: none

    bool operator==(const Settings&) const = default;
};

// Reads `text`; on the first problem returns "FILE:LINE: what is wrong", with `file` as given.
std::variant<Settings, std::string> parse(std::string_view text, const std::string& file);

// The file's text for `settings`, which parse() reads back equal.
std::string to_text(const Settings& settings);

struct Loaded {
    Settings settings;                  // the defaults unless the file was read whole
    std::optional<std::string> problem;  // what went wrong, for stderr and the status bar
};

// Reads `path`. A missing file is no problem: the defaults. A file that cannot be parsed is
// renamed to `path` + ".corrupt" (replacing an older one) and the defaults are used; the
// problem says where the error is and where the file went.
Loaded load(const std::filesystem::path& path);

// Writes `settings` to `path`, creating its folder; through a temporary file and a rename,
// so that a crash never leaves half a file. Returns why it failed, or nullopt.
std::optional<std::string> save(const std::filesystem::path& path, const Settings& settings);

// $XDG_CONFIG_HOME/tilescope/settings.ini, else $HOME/.config/tilescope/settings.ini; empty
// when neither variable is set. Pass the variables' values (null: unset).
std::filesystem::path default_path(const char* xdg_config_home, const char* home);

}  // namespace ts::settings
