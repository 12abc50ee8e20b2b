// theme.hpp — colours and fonts shared by every view, so that A, B and C look the same in
// the stage drawing, the labels and the panels.
#pragma once

#include "imgui.h"

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

namespace colours {
inline constexpr MatrixColours kA{IM_COL32(214, 230, 250, 255), IM_COL32(214, 230, 250, 255),
                                  IM_COL32(45, 105, 180, 255), IM_COL32(25, 75, 140, 255)};
inline constexpr MatrixColours kB{IM_COL32(252, 226, 196, 255), IM_COL32(252, 226, 196, 255),
                                  IM_COL32(200, 110, 20, 255), IM_COL32(145, 70, 5, 255)};
inline constexpr MatrixColours kC{IM_COL32(214, 240, 218, 255), IM_COL32(176, 224, 188, 255),
                                  IM_COL32(40, 135, 80, 255), IM_COL32(25, 100, 60, 255)};
inline constexpr ImU32 kGhostFill = IM_COL32(232, 232, 232, 255);
inline constexpr ImU32 kGhostHatch = IM_COL32(165, 165, 165, 255);
inline constexpr ImU32 kHighlight = IM_COL32(205, 30, 110, 255);  // the hovered cell and what it reads
inline constexpr ImU32 kCellValue = IM_COL32(30, 30, 30, 255);
inline constexpr ImU32 kMuted = IM_COL32(105, 105, 105, 255);
inline constexpr ImU32 kError = IM_COL32(195, 30, 30, 255);
inline constexpr ImU32 kPass = IM_COL32(25, 130, 45, 255);
inline constexpr ImU32 kWarning = IM_COL32(170, 95, 0, 255);
inline constexpr ImU32 kBackground = IM_COL32(248, 248, 246, 255);
}  // namespace colours

// The fonts the views draw with. The platform layer loads them; a member left null means
// ImGui's current font (as in the tests, which run without the platform).
struct Fonts {
    ImFont* heading = nullptr;
    ImFont* small = nullptr;
};
void set_fonts(const Fonts& fonts);
ImFont* heading_font();  // never null
ImFont* small_font();    // never null

// A light style: dark text on a near-white background survives projectors far better
// than ImGui's dark default.
void apply_style(ImGuiStyle& style);

// A panel title in the heading font.
void heading(const char* text);
// Wrapped text in one colour (errors, check results).
void coloured_text_wrapped(ImU32 colour, const char* text);

}  // namespace ts::views
