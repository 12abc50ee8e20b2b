#include "views/theatre/block/smem_panel.hpp"

#include <algorithm>
#include <string>

#include "views/theatre/theatre_paint.hpp"
#include "views/common/example_values.hpp"
#include "views/stage/stage_view.hpp"
#include "views/common/theme.hpp"
#include "platform/imgui_compat.hpp"

namespace ts::views {

std::vector<SmemSlot> smem_slots(const std::vector<model::TileLoad>& loads, int tile, const Rect& panel) {
    std::vector<SmemSlot> slots;
    slots.reserve(loads.size());
    for (const model::TileLoad& load : loads)
        slots.push_back({load, cells_rect(panel, tile, tile, load.smem_row, load.smem_col, load.smem_row + 1,
                                          load.smem_col + 1)});
    return slots;
}

void draw_smem_panel(ImDrawList* draw, const std::vector<SmemSlot>& slots, const Rect& panel, int tile,
                     model::Operand operand, const SmemPanelStyle& style) {
    const MatrixColours& palette = operand == model::Operand::A ? colours::kA : colours::kB;
    const float slot = panel.width() / static_cast<float>(tile);
    // Values only where a two-digit number fits in the body font, else the small one.
    ImFont* font = nullptr;
    for (ImFont* candidate : {ImGui::GetFont(), small_font()})
        if (!font && imgui_compat::font_size(candidate) + 3.0f <= slot) font = candidate;
    // "pad" under the 0 once a slot holds two lines of small text.
    const bool say_pad = font && slot >= 2.2f * imgui_compat::font_size(small_font()) + 4.0f && text_width(small_font(), "pad") < slot;

    for (const SmemSlot& s : slots) {
        const int warp = model::warp_of(model::linear_thread(s.load.thread.x, s.load.thread.y, tile));
        if (s.load.padding)
            draw_hatched(draw, s.rect, kPaddingHatchSpacing);
        else
            draw->AddRectFilled(s.rect.min, s.rect.max, style.by_warp ? warp_colour(warp) : palette.fill);
        if (!font || (!style.show_values && !s.load.padding)) continue;
        const std::string text =
            s.load.padding ? "0"
                           : std::to_string(operand == model::Operand::A ? example_a(s.load.global_row, s.load.global_col)
                                                                         : example_b(s.load.global_row, s.load.global_col));
        const ImVec2 c = centre(s.rect);
        const float lift = s.load.padding && say_pad ? imgui_compat::font_size(small_font()) * 0.5f : 0.0f;
        // Loaded values sit on a plate, since the load lines end under them; a padding 0 has
        // no line and stays on its hatching, so it reads as padding at a glance.
        const ImVec2 at{c.x - text_width(font, text) * 0.5f, c.y - imgui_compat::font_size(font) * 0.5f - lift};
        if (s.load.padding)
            text_at(draw, font, at, colours::kCellValue, text);
        else
            plate_text(draw, font, at, colours::kCellValue, text);
        if (s.load.padding && say_pad)
            text_at(draw, small_font(), {c.x - text_width(small_font(), "pad") * 0.5f, c.y + 1.0f}, colours::kMuted,
                    "pad");
    }
    if (slot >= 5.0f)
        for (int i = 1; i < tile; ++i) {
            const Rect line = cells_rect(panel, tile, tile, i, i, i, i);
            draw->AddLine({line.min.x, panel.min.y}, {line.min.x, panel.max.y}, with_alpha(palette.line, 80));
            draw->AddLine({panel.min.x, line.min.y}, {panel.max.x, line.min.y}, with_alpha(palette.line, 80));
        }
    draw->AddRect(panel.min, panel.max, palette.line, 0.0f, 0, 2.0f);
    const auto lit = [&](int r0, int c0, int r1, int c1, float thickness) {
        const Rect r = cells_rect(panel, tile, tile, r0, c0, r1, c1);
        draw->AddRect(r.min, r.max, colours::kHighlight, 0.0f, 0, thickness);
    };
    if (style.lit_row >= 0) lit(style.lit_row, 0, style.lit_row + 1, tile, 2.5f);
    if (style.lit_col >= 0) lit(0, style.lit_col, tile, style.lit_col + 1, 2.5f);
    if (style.lit_slot >= 0 && style.lit_row >= 0) lit(style.lit_row, style.lit_slot, style.lit_row + 1, style.lit_slot + 1, 4.0f);
    if (style.lit_slot >= 0 && style.lit_col >= 0) lit(style.lit_slot, style.lit_col, style.lit_slot + 1, style.lit_col + 1, 4.0f);
}

}  // namespace ts::views
