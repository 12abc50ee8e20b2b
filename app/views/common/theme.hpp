// theme.hpp — colours and fonts shared by every view, so that A, B and C look the same in
// the stage drawing, the labels and the panels.
#pragma once

#include "imgui.h"
#include "model/rung_info.hpp"
#include "settings/settings.hpp"

namespace ts::views {

// One hue per matrix: A blue, B orange, C green. `fill_alt` shades every other thread
// block of C; `line` draws outlines and grid lines; `text` is for labels on the panel
// background.
struct MatrixColours {
    ImU32 fill;
    ImU32 fill_alt;
    ImU32 line;
    ImU32 text;
};

// Every colour the views draw with. Three schemes exist (settings::Palette); the one in use
// can change between frames, and the views read it through colours::kA etc.
struct ColourScheme {
    MatrixColours a, b, c;
    ImU32 ghost_fill, ghost_hatch;
    ImU32 highlight;  // the hovered cell and what it reads
    ImU32 cell_value, muted, error, pass, warning, background;
    ImU32 text;          // ImGui's text
    float outline = 1.0f;  // multiplies the width of matrix outlines
};

// The default scheme: A blue, B orange, C green on near-white.
inline constexpr ColourScheme kDefaultScheme{
    {IM_COL32(214, 230, 250, 255), IM_COL32(214, 230, 250, 255), IM_COL32(45, 105, 180, 255), IM_COL32(25, 75, 140, 255)},
    {IM_COL32(252, 226, 196, 255), IM_COL32(252, 226, 196, 255), IM_COL32(200, 110, 20, 255), IM_COL32(145, 70, 5, 255)},
    {IM_COL32(214, 240, 218, 255), IM_COL32(176, 224, 188, 255), IM_COL32(40, 135, 80, 255), IM_COL32(25, 100, 60, 255)},
    IM_COL32(232, 232, 232, 255),
    IM_COL32(165, 165, 165, 255),
    IM_COL32(205, 30, 110, 255),
    IM_COL32(30, 30, 30, 255),
    IM_COL32(105, 105, 105, 255),
    IM_COL32(195, 30, 30, 255),
    IM_COL32(25, 130, 45, 255),
    IM_COL32(170, 95, 0, 255),
    IM_COL32(248, 248, 246, 255),
    IM_COL32(20, 20, 20, 255),
    1.0f};

const ColourScheme& colour_scheme(settings::Palette palette);

// `colour` with its alpha replaced (0 transparent … 255 opaque).
inline ImU32 with_alpha(ImU32 colour, int alpha) {
    return (colour & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha) << IM_COL32_A_SHIFT);
}

namespace detail {
inline ColourScheme g_scheme = kDefaultScheme;  // the one in use: set_palette() changes it
}

// The scheme in use, under the names the views have always used. They are references, so
// a palette switch shows in the next frame without any view knowing about it.
namespace colours {
inline const MatrixColours& kA = detail::g_scheme.a;
inline const MatrixColours& kB = detail::g_scheme.b;
inline const MatrixColours& kC = detail::g_scheme.c;
inline const ImU32& kGhostFill = detail::g_scheme.ghost_fill;
inline const ImU32& kGhostHatch = detail::g_scheme.ghost_hatch;
inline const ImU32& kHighlight = detail::g_scheme.highlight;
inline const ImU32& kCellValue = detail::g_scheme.cell_value;
inline const ImU32& kMuted = detail::g_scheme.muted;
inline const ImU32& kError = detail::g_scheme.error;
inline const ImU32& kPass = detail::g_scheme.pass;
inline const ImU32& kWarning = detail::g_scheme.warning;
inline const ImU32& kBackground = detail::g_scheme.background;
}  // namespace colours

// Switches the scheme colours:: reads, and whether highlights are drawn for the back row of
// a lecture room (presenter mode). Call between frames, then apply_style() again.
void set_palette(settings::Palette palette, bool presenter = false);
settings::Palette current_palette();

// Line widths. outline_width(): a matrix's outline (thicker in high contrast). emphasis_width():
// the hovered or pinned thread's cells and the row of A and column of B it reads, thicker
// still in presenter mode so that the back row sees them.
float outline_width(float base);
float emphasis_width(float base);

// The fonts the views draw with. The platform layer loads them; a member left null means
// ImGui's current font (as in the tests, which run without the platform).
struct Fonts {
    ImFont* heading = nullptr;
    ImFont* small = nullptr;
    ImFont* code = nullptr;
};
void set_fonts(const Fonts& fonts);
ImFont* heading_font();  // never null
ImFont* small_font();    // never null
ImFont* code_font();     // never null: fixed width where DejaVu Sans Mono is installed

// A light style: dark text on a near-white background survives projectors far better
// than ImGui's dark default. In the colours of the scheme in use, at 1× sizes.
void apply_style(ImGuiStyle& style);

// A panel title in the heading font, wrapped at the window's edge.
void heading(const char* text);
// Wrapped text in one colour (errors, check results).
void coloured_text_wrapped(ImU32 colour, const char* text);

// ---- The kernels' colours ------------------------------------------------------------------
// The same in every palette: a kernel keeps its colour when the scheme changes.

// A kernel's curve in the latency plot, by its colour role (model::RungInfo::colour): warm red and
// purple for the naive kernels, the tiled kernel's darkest blue (T = 32), a hue of its own for
// each rung (none of the blues of T, the naive kernels' red and purple or cuBLAS's grey, dark
// enough to read on white when faded), cuBLAS grey.
constexpr ImU32 rung_curve_colour(model::RungColour role) {
    using model::RungColour;
    switch (role) {
        case RungColour::Naive: return IM_COL32(205, 60, 40, 255);
        case RungColour::NaiveRowFromX: return IM_COL32(150, 60, 170, 255);
        case RungColour::Tiled: return IM_COL32(10, 50, 120, 255);
        case RungColour::Teal: return IM_COL32(40, 160, 140, 255);
        case RungColour::Olive: return IM_COL32(140, 150, 30, 255);
        case RungColour::Mustard: return IM_COL32(215, 165, 0, 255);
        case RungColour::Orange: return IM_COL32(235, 115, 15, 255);
        case RungColour::Wine: return IM_COL32(150, 30, 90, 255);
        case RungColour::Rose: return IM_COL32(225, 95, 130, 255);
        case RungColour::Green: return IM_COL32(20, 120, 50, 255);
        case RungColour::Brown: return IM_COL32(165, 115, 55, 255);
        case RungColour::Violet: return IM_COL32(120, 80, 170, 255);
        case RungColour::Cerulean: return IM_COL32(0, 140, 190, 255);
        case RungColour::Magenta: return IM_COL32(190, 60, 160, 255);
        case RungColour::Moss: return IM_COL32(90, 125, 40, 255);
        case RungColour::DarkBrown: return IM_COL32(95, 40, 20, 255);
        case RungColour::Crimson: return IM_COL32(200, 30, 60, 255);
        case RungColour::Amber: return IM_COL32(240, 170, 0, 255);
        case RungColour::Indigo: return IM_COL32(75, 60, 200, 255);
        case RungColour::Cublas: return IM_COL32(60, 60, 60, 255);
        case RungColour::None: break;
    }
    return IM_COL32(120, 120, 120, 255);
}

// The curve colour of a shipped kernel's row (model::kRungTable holds them in KernelKind's order).
constexpr ImU32 kernel_curve_colour(model::KernelKind kind) {
    const auto row = static_cast<std::size_t>(kind);
    return rung_curve_colour(row < std::size(model::kRungTable) ? model::kRungTable[row].colour : model::RungColour::None);
}

// A kernel's bar on the ladder view and its point on the roofline, by its place on its ladder:
// the FP32 ladder from the tiled kernel in its curve's blue up through greens darkening, the tensor
// cores' through warm colours darkening; cuBLAS in its curve's grey, anything else a neutral grey.
ImU32 rung_bar_colour(const model::RungInfo& row);

}  // namespace ts::views
