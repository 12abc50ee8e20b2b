#include "smem_panel.hpp"

#include <algorithm>
#include <cfloat>
#include <string>

#include "views/example_values.hpp"
#include "views/stage_view.hpp"
#include "views/theme.hpp"

namespace ts::views {

std::vector<SmemSlot> smem_slots(const model::Problem& problem, int tile, model::Index2 block, int phase,
                                 model::Operand operand, const Rect& panel) {
    std::vector<SmemSlot> slots;
    for (const model::TileLoad& load : model::tile_loads(problem, tile, block, phase, operand))
        slots.push_back({load, cells_rect(panel, tile, tile, load.smem_row, load.smem_col, load.smem_row + 1,
                                          load.smem_col + 1)});
    return slots;
}

void draw_smem_panel(ImDrawList* draw, const std::vector<SmemSlot>& slots, const Rect& panel, int tile,
                     model::Operand operand, bool show_values, int lit_row, int lit_col) {
    const MatrixColours& palette = operand == model::Operand::A ? colours::kA : colours::kB;
    const float slot = panel.width() / static_cast<float>(tile);
    // Values only where a two-digit number fits in the body font, else the small one.
    ImFont* font = nullptr;
    for (ImFont* candidate : {ImGui::GetFont(), small_font()})
        if (!font && candidate->FontSize + 3.0f <= slot) font = candidate;

    for (const SmemSlot& s : slots) {
        if (s.load.padding) {
            draw_hatched(draw, s.rect, kPaddingHatchSpacing);
        } else {
            draw->AddRectFilled(s.rect.min, s.rect.max, palette.fill);
        }
        if (!font || (!show_values && !s.load.padding)) continue;
        const std::string text =
            s.load.padding ? "0"
                           : std::to_string(operand == model::Operand::A ? example_a(s.load.global_row, s.load.global_col)
                                                                         : example_b(s.load.global_row, s.load.global_col));
        const ImVec2 size = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str());
        const ImVec2 pos{(s.rect.min.x + s.rect.max.x - size.x) * 0.5f, (s.rect.min.y + s.rect.max.y - size.y) * 0.5f};
        draw->AddText(font, font->FontSize, pos, s.load.padding ? colours::kMuted : colours::kCellValue, text.c_str());
    }
    if (slot >= 5.0f)
        for (int i = 1; i < tile; ++i) {
            const float x = panel.min.x + slot * static_cast<float>(i);
            const float y = panel.min.y + slot * static_cast<float>(i);
            draw->AddLine({x, panel.min.y}, {x, panel.max.y}, (palette.line & 0x00FFFFFF) | 0x50000000);
            draw->AddLine({panel.min.x, y}, {panel.max.x, y}, (palette.line & 0x00FFFFFF) | 0x50000000);
        }
    draw->AddRect(panel.min, panel.max, palette.line, 0.0f, 0, 2.0f);
    const auto lit = [&](int r0, int c0, int r1, int c1) {
        const Rect r = cells_rect(panel, tile, tile, r0, c0, r1, c1);
        draw->AddRect(r.min, r.max, colours::kHighlight, 0.0f, 0, 2.5f);
    };
    if (lit_row >= 0) lit(lit_row, 0, lit_row + 1, tile);
    if (lit_col >= 0) lit(0, lit_col, tile, lit_col + 1);
}

}  // namespace ts::views
