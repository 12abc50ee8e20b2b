#include "views/theatre/theatre_paint.hpp"

#include <cfloat>

namespace ts::views {


void text_at(ImDrawList* draw, ImFont* font, ImVec2 pos, ImU32 colour, const std::string& text) {
    draw->AddText(font, imgui_compat::font_size(font), pos, colour, text.c_str());
}

float wrapped_text(ImDrawList* draw, ImVec2 at, ImU32 colour, const std::string& text, float width) {
    ImFont* font = small_font();
    const float size = imgui_compat::font_size(font);
    draw->AddText(font, size, at, colour, text.c_str(), nullptr, width);
    return font->CalcTextSizeA(size, FLT_MAX, width, text.c_str()).y;
}

Rect plate_rect(ImFont* font, float size, ImVec2 pos, const std::string& text) {
    const ImVec2 extent = font->CalcTextSizeA(size > 0.0f ? size : imgui_compat::font_size(font), FLT_MAX, 0.0f, text.c_str());
    return {{pos.x - 4.0f, pos.y - 2.0f}, {pos.x + extent.x + 4.0f, pos.y + extent.y + 2.0f}};
}

Rect plate_text(ImDrawList* draw, ImFont* font, ImVec2 pos, ImU32 colour, const std::string& text, float size) {
    const Rect plate = plate_rect(font, size, pos, text);
    draw->AddRectFilled(plate.min, plate.max, IM_COL32(255, 255, 255, 235), 3.0f);
    draw->AddText(font, size > 0.0f ? size : imgui_compat::font_size(font), pos, colour, text.c_str());
    return plate;
}

void draw_cell_grid(ImDrawList* draw, const Rect& area, int rows, int cols, ImU32 colour) {
    const Rect one = cells_rect(area, rows, cols, 0, 0, 1, 1);
    if (one.width() < 6.0f || one.height() < 6.0f) return;
    for (int i = 1; i < rows; ++i) {
        const float y = cells_rect(area, rows, cols, i, 0, i, 0).min.y;
        draw->AddLine({area.min.x, y}, {area.max.x, y}, colour);
    }
    for (int j = 1; j < cols; ++j) {
        const float x = cells_rect(area, rows, cols, 0, j, 0, j).min.x;
        draw->AddLine({x, area.min.y}, {x, area.max.y}, colour);
    }
}

void draw_matrix_cells(ImDrawList* draw, const Rect& area, int rows, int cols, const MatrixColours& palette) {
    draw->AddRectFilled(area.min, area.max, palette.fill);
    draw_cell_grid(draw, area, rows, cols, with_alpha(palette.line, 50));
    draw->AddRect(area.min, area.max, palette.line, 0.0f, 0, outline_width(2.0f));
}

namespace {
// Light fills that stay apart from A's blue, B's orange and C's green fills, and from each
// other; the strong ones are the same hues, dark.
constexpr ImU32 kWarpLight[] = {IM_COL32(186, 224, 255, 255), IM_COL32(255, 205, 225, 255),
                                IM_COL32(220, 205, 255, 255), IM_COL32(255, 236, 170, 255),
                                IM_COL32(190, 240, 230, 255), IM_COL32(255, 214, 190, 255),
                                IM_COL32(215, 235, 180, 255), IM_COL32(225, 225, 225, 255)};
constexpr ImU32 kWarpStrong[] = {IM_COL32(20, 110, 190, 255), IM_COL32(200, 40, 110, 255),
                                 IM_COL32(110, 70, 200, 255), IM_COL32(170, 125, 0, 255),
                                 IM_COL32(0, 140, 120, 255),  IM_COL32(205, 90, 30, 255),
                                 IM_COL32(90, 140, 20, 255),  IM_COL32(90, 90, 90, 255)};
}  // namespace

ImU32 warp_colour(int warp) { return kWarpLight[static_cast<unsigned>(warp) % 8]; }
ImU32 warp_colour_strong(int warp) { return kWarpStrong[static_cast<unsigned>(warp) % 8]; }

}  // namespace ts::views
