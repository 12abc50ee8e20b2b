// presenter.hpp — how the window presents itself: presenter mode for a projector, the font
// scale, the palette, full screen, and the key overlay. The views change these (keys, the
// Presenter checkbox); the platform applies them between frames (fonts, the window) and the
// settings file remembers them.
#pragma once

#include <optional>
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
    // Slide (F7): the view alone, without the window's bars above and below it or the panel's
    // handle, as an exported animation's frames show it.
    bool slide = false;
    // Whether the views' panels (their controls, left of the picture) are unfolded, once the user
    // has said so (the handle beside them, Ctrl+B); unset: by the view and the window's width
    // (side_column.hpp). `panels_shown`: as the last frame drew them, for Ctrl+B to turn over.
    std::optional<bool> panels_open;
    bool panels_shown = true;
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

// Whether the window's own bars (the view switcher's row, the status bar, the panel's handle) are
// drawn: not in slide mode, nor in a frame of an exported animation.
bool window_bars_shown(const AppState& state);

// "Presenter (F5)" and "Keys (F1)", on the line of the view switcher.
void draw_presenter_controls(Presentation& p);

}  // namespace ts::views
