// presenter.hpp — how the window presents itself: presenter mode for a projector, the font
// scale, the palette, full screen, and the key overlay. The views change these (keys, the
// Presenter checkbox); the platform applies them between frames (fonts, the window) and the
// settings file remembers them.
#pragma once

#include <string>

#include "settings/settings.hpp"

namespace ts::views {

struct AppState;

struct Presentation {
    bool presenter = false;
    float font_scale = 1.0f;
    settings::Palette palette = settings::Palette::Default;
    bool fullscreen = false;
    bool help_open = false;  // the list of keys (F1)
    // What presenter mode switched from, to go back to when it is switched off.
    float ordinary_font_scale = 1.0f;
    settings::Palette ordinary_palette = settings::Palette::Default;
    // The latest thing to tell the user that has no place in a view: a settings file that
    // could not be read or written, a key that cannot act now. Shown in the status bar.
    std::string notice;
    bool notice_is_problem = false;  // shown in the error colour
};

// Presenter mode makes the text at least this much larger.
inline constexpr float kPresenterFontScale = 2.0f;

// On: text at least 2×, high contrast unless another palette than the default was chosen,
// thick highlights. Off: back to the scale and palette from before.
void set_presenter(Presentation& p, bool on);
// default → high contrast → colour-blind safe → default.
void next_palette(Presentation& p);

// Makes the palette the views draw with p's, and ImGui's style sizes p.font_scale times the
// 1× ones (the platform rebuilds the fonts at that scale). Call between frames.
void apply_presentation_style(const Presentation& p);

// "Presenter (F5)" and "Keys (F1)", on the line of the view switcher.
void draw_presenter_controls(AppState& state);

}  // namespace ts::views
