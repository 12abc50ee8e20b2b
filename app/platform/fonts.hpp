// fonts.hpp — the fonts TileScope draws with: DejaVu Sans (fonts-dejavu-core) at sizes
// that stay readable on a projector.
#pragma once

#include <optional>
#include <string>

#include "imgui.h"

namespace ts::platform {

struct FontSet {
    ImFont* body = nullptr;     // everything, and ImGui's default font
    ImFont* heading = nullptr;  // panel titles and matrix names
    ImFont* small = nullptr;    // labels inside the stage drawing
    ImFont* code = nullptr;     // source text: the kernel editor (DejaVu Sans Mono; body when missing)
};

struct LoadedFonts {
    FontSet fonts;
    std::optional<std::string> warning;  // set when DejaVu Sans was missing
};

// Clears `atlas` and adds the fonts, body first so that it becomes ImGui's default, drawn at
// `scale` (the monitor's content scale times the presenter's text size; 1 on ordinary
// screens): baked at that size, or on ImGui 1.92 scaled as they are drawn (imgui_compat). When DejaVu Sans is missing every slot
// gets ImGui's built-in font and the warning says what to install.
LoadedFonts load_fonts(ImFontAtlas& atlas, float scale);

}  // namespace ts::platform
