// window_settings.hpp — the settings file on the window: reads it at start (the command line wins
// over it), applies presenter mode, the font scale, the palette and full screen whenever the
// views change them, keeps the latency plot's rungs, and writes the file when a setting
// changes and on exit.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "platform/window.hpp"
#include "settings/settings.hpp"
#include "views/window/app_state.hpp"

namespace ts::app {

// What the command line says about the same things; set members win over the file.
struct Overrides {
    bool presenter = false;  // --presenter: on, at 2× and high contrast unless said otherwise
    std::optional<float> font_scale;
    std::optional<settings::Palette> palette;
    bool fullscreen = false;
    std::optional<int> width, height;
    std::optional<std::string> view;   // --view
    std::optional<std::string> panel;  // --panel
};

// `file` with the command line applied: what the window opens with.
settings::Settings merge(settings::Settings file, const Overrides& flags);
// The presentation those settings ask for. With --presenter, presenter mode is switched on
// from the file's scale and palette, as F5 would.
views::Presentation presentation_for(const settings::Settings& settings, const Overrides& flags);

class WindowSettings {
public:
    // Reads `path` (empty: no settings file, nothing read or written). Problems go to stderr
    // and, through start(), to the status bar.
    explicit WindowSettings(std::filesystem::path path);

    // The settings read (defaults when there was no file or it was corrupt).
    const settings::Settings& loaded() const { return m_loaded; }

    // Once the window and the state exist, before the first frame: ImGui's layout, the style
    // and palette, the problem reading the file if there was one, and the latency plot's rungs.
    void start(platform::Window& window, views::Presentation& presentation, views::LatencyControls& latency,
               const settings::Settings& opened_with);
    // After every frame: applies what the views changed to the presentation and saves when a
    // setting changed (not every frame: the window's size and place are saved on exit). Reads
    // the rest of the state for the settings it keeps (the view, the theatre's panel, the rungs).
    void after_frame(platform::Window& window, views::Presentation& presentation, const views::AppState& app);
    // On exit: saves everything, the window's place included.
    void finish(const platform::Window& window, views::Presentation& presentation, const views::AppState& app);

private:
    settings::Settings snapshot(const platform::Window& window, const views::AppState& app) const;
    // A file that cannot be written is said once, in the presentation's notice.
    void save(const platform::Window& window, views::Presentation& presentation, const views::AppState& app);

    std::filesystem::path m_path;
    settings::Settings m_loaded;
    std::optional<std::string> m_problem;
    settings::Settings m_saved;        // what the file holds now, window place aside
    views::Presentation m_applied;     // what the window shows
    std::string m_last_save_error;
};

}  // namespace ts::app
