// window_settings.cxx — see window_settings.hpp.
#include "window_settings.hpp"

#include <algorithm>
#include <iostream>

#include "imgui.h"
#include "views/lab/lab_state.hpp"
#include "views/lab/latency_view.hpp"
#include "views/common/theme.hpp"

namespace ts::app {

settings::Settings merge(settings::Settings s, const Overrides& flags) {
    if (flags.width) s.window_width = *flags.width;
    if (flags.height) s.window_height = *flags.height;
    if (flags.fullscreen) s.fullscreen = true;
    if (flags.view) s.view = *flags.view;
    if (flags.panel) s.theatre_panel = *flags.panel;
    const views::Presentation p = presentation_for(s, flags);
    s.presenter = p.presenter;
    s.font_scale = p.font_scale;
    s.palette = p.palette;
    return s;
}

views::Presentation presentation_for(const settings::Settings& s, const Overrides& flags) {
    views::Presentation p;
    p.presenter = s.presenter;
    p.font_scale = s.font_scale;
    p.palette = s.palette;
    p.fullscreen = s.fullscreen || flags.fullscreen;
    if (flags.presenter) views::set_presenter(p, true);
    if (flags.font_scale) p.font_scale = *flags.font_scale;
    if (flags.palette) p.palette = *flags.palette;
    return p;
}

WindowSettings::WindowSettings(std::filesystem::path path) : m_path(std::move(path)) {
    if (m_path.empty()) return;
    settings::Loaded loaded = settings::load(m_path);
    m_loaded = loaded.settings;
    m_saved = m_loaded;
    m_problem = loaded.problem;
    if (m_problem) std::cerr << "tilescope: " << *m_problem << "\n";
}

void WindowSettings::start(platform::Window& window, views::Presentation& presentation, views::LatencyControls& latency,
                           const settings::Settings& opened_with) {
    if (!opened_with.imgui_layout.empty())
        ImGui::LoadIniSettingsFromMemory(opened_with.imgui_layout.c_str(), opened_with.imgui_layout.size());
    if (m_problem) {
        presentation.notice = *m_problem;
        presentation.notice_is_problem = true;
    }
    // The latency plot's rungs as the file left them; without the key, the view's own choice,
    // which is then not written until another setting changes.
    if (opened_with.latency_rungs) views::show_rungs(latency, *opened_with.latency_rungs);
    if (!m_saved.latency_rungs) m_saved.latency_rungs = views::shown_rung_names(latency);
    m_applied = presentation;
    views::apply_presentation_style(presentation);
    views::set_fonts({window.fonts().heading, window.fonts().small, window.fonts().code});
    // The window may have refused full screen (no monitor): say what it is.
    presentation.fullscreen = window.fullscreen();
    m_applied.fullscreen = presentation.fullscreen;
}

void WindowSettings::after_frame(platform::Window& window, views::Presentation& presentation,
                                 const views::AppState& app) {
    // An export draws in its own presentation and puts the user's back when done
    // (animation_export.hpp): neither is applied twice nor saved.
    if (app.exporting.running) return;
    views::Presentation& p = presentation;
    if (p.font_scale != m_applied.font_scale) {
        if (!window.set_font_scale(p.font_scale) && window.font_warning())
            p.notice = *window.font_warning();
        views::set_fonts({window.fonts().heading, window.fonts().small, window.fonts().code});
    }
    if (p.font_scale != m_applied.font_scale || p.palette != m_applied.palette || p.presenter != m_applied.presenter)
        views::apply_presentation_style(p);
    if (p.fullscreen != m_applied.fullscreen) {
        const bool wanted = p.fullscreen;
        window.set_fullscreen(wanted);
        p.fullscreen = window.fullscreen();
        if (wanted && !p.fullscreen) p.notice = "F11: no monitor to fill; staying a window";
    }
    m_applied = p;

    if (m_path.empty()) return;
    ImGuiIO& io = ImGui::GetIO();
    settings::Settings now = snapshot(window, app);
    // The window's size and place change with every drag: those wait for the exit.
    now.window_width = m_saved.window_width;
    now.window_height = m_saved.window_height;
    now.window_x = m_saved.window_x;
    now.window_y = m_saved.window_y;
    if (!io.WantSaveIniSettings) now.imgui_layout = m_saved.imgui_layout;
    io.WantSaveIniSettings = false;
    if (now != m_saved) save(window, presentation, app);
}

void WindowSettings::finish(const platform::Window& window, views::Presentation& presentation,
                            const views::AppState& app) {
    if (m_path.empty()) return;
    save(window, presentation, app);
}

settings::Settings WindowSettings::snapshot(const platform::Window& window, const views::AppState& app) const {
    settings::Settings s;
    const platform::WindowPlacement place = window.placement();
    s.window_width = std::clamp(place.width, 320, 16384);
    s.window_height = std::clamp(place.height, 240, 16384);
    s.window_x = place.x;
    s.window_y = place.y;
    const views::Presentation& p = app.presentation;
    s.fullscreen = p.fullscreen;
    s.presenter = p.presenter;
    s.font_scale = p.font_scale;
    s.palette = p.palette;
    s.view = views::view_name(app.view);
    s.theatre_panel = views::panel_name(app.theatre.panel);
    s.latency_rungs = views::shown_rung_names(app.lab.choices.latency);
    s.gpu_server = app.gpu_choice.server;
    s.gpu_on_server = app.gpu_choice.in_use != "local" && app.gpu_choice.in_use == app.gpu_choice.server;
    std::size_t size = 0;
    const char* layout = ImGui::SaveIniSettingsToMemory(&size);
    s.imgui_layout.assign(layout, size);
    return s;
}

void WindowSettings::save(const platform::Window& window, views::Presentation& presentation,
                          const views::AppState& app) {
    const settings::Settings s = snapshot(window, app);
    if (const auto why = settings::save(m_path, s)) {
        // Said once, not every time a setting changes: the folder stays unwritable.
        if (*why != m_last_save_error) {
            std::cerr << "tilescope: settings not saved: " << *why << "\n";
            presentation.notice = "settings not saved: " + *why;
            presentation.notice_is_problem = true;
        }
        m_last_save_error = *why;
        m_saved = s;  // not retried until something changes again
        return;
    }
    m_last_save_error.clear();
    m_saved = s;
}

}  // namespace ts::app
