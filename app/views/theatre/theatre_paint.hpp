// theatre_paint.hpp — drawing helpers the theatre's canvases share: matrices as cells,
// example values, captions on plates, and one colour per warp. Cells map to pixels through
// stage_layout's cells_rect() only.
#pragma once

#include <string>

#include "imgui.h"
#include "platform/imgui_compat.hpp"
#include "views/stage/stage_layout.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

void text_at(ImDrawList* draw, ImFont* font, ImVec2 pos, ImU32 colour, const std::string& text);
// Small text wrapped at `width`; returns its height.
float wrapped_text(ImDrawList* draw, ImVec2 at, ImU32 colour, const std::string& text, float width);

// Text on a white plate, so it reads over any fill, at `size` (0: the font's own); returns
// the plate. plate_rect() is the plate alone, for placing text before it is drawn.
Rect plate_rect(ImFont* font, float size, ImVec2 pos, const std::string& text);
Rect plate_text(ImDrawList* draw, ImFont* font, ImVec2 pos, ImU32 colour, const std::string& text,
                float size = 0.0f);

// Lines between the cells of a rows × cols matrix, while cells are 6 px or more apart.
void draw_cell_grid(ImDrawList* draw, const Rect& area, int rows, int cols, ImU32 colour);

// A rows × cols matrix in its palette's fill, with its cell grid and outline.
void draw_matrix_cells(ImDrawList* draw, const Rect& area, int rows, int cols, const MatrixColours& palette);

// value(row, col) in every cell of [r0, r1) × [c0, c1), in the body font if it fits, else
// the small one, else not at all.
template <typename Value>
void draw_cell_values(ImDrawList* draw, const Rect& area, int rows, int cols, int r0, int c0, int r1, int c1,
                      ImU32 colour, Value value) {
    const Rect one = cells_rect(area, rows, cols, 0, 0, 1, 1);
    ImFont* font = nullptr;
    for (ImFont* candidate : {ImGui::GetFont(), small_font()})
        if (!font && text_width(candidate, "00") + 4.0f <= one.width() && imgui_compat::font_size(candidate) + 2.0f <= one.height())
            font = candidate;
    if (!font) return;
    for (int i = r0; i < r1; ++i)
        for (int j = c0; j < c1; ++j) {
            const std::string text = std::to_string(value(i, j));
            const ImVec2 c = centre(cells_rect(area, rows, cols, i, j, i + 1, j + 1));
            text_at(draw, font, {c.x - text_width(font, text) * 0.5f, c.y - imgui_compat::font_size(font) * 0.5f}, colour, text);
        }
}

// Warps 0, 1, 2, … in distinct light hues that repeat every eight warps; `strong` is the
// same hue dark enough for lines and text.
ImU32 warp_colour(int warp);
ImU32 warp_colour_strong(int warp);

}  // namespace ts::views
