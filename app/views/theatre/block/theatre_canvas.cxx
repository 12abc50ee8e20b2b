#include "views/theatre/block/theatre_canvas.hpp"

#include <algorithm>
#include <cfloat>
#include <vector>

#include "model/format.hpp"
#include "model/thread_map.hpp"
#include "views/theatre/block/smem_panel.hpp"
#include "views/theatre/block/theatre_layout.hpp"
#include "views/theatre/block/thread_inspector.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/common/example_values.hpp"
#include "views/stage/stage_view.hpp"
#include "views/common/theme.hpp"
#include "platform/imgui_compat.hpp"
#include "views/theatre/block/race_overlay.hpp"

namespace ts::views {

using model::format_text;
using model::SubStep;

model::Index2 focus_thread(const AppState& state, std::optional<model::Cell> cell) {
    if (!cell) return {0, 0};
    const auto id = model::thread_of_cell(played_config(state), state.problem, *cell);
    return id && id->block == state.theatre.block ? id->thread : model::Index2{0, 0};
}

namespace {

// Everything one frame of the canvas needs, worked out once.
struct Scene {
    const AppState& state;
    int m, n, k, tile;
    model::KernelConfig config;
    model::Timeline timeline;
    model::KernelStep step;
    model::KRange k_range;  // what the block works on in this step
    BlockStrips strips;
    StageLayout layout;
    Rect as_panel, bs_panel;
    bool small;    // values fit: the same rule as the stage
    bool by_warp;  // the Warp tab is open: threads coloured by warp
    Inspected inspect;
    model::Index2 focus;
};

int block_dim_x(const Scene& s) { return s.config.kind == model::KernelKind::Tiled ? s.tile : s.config.block_x; }

// A tile of A or B: the part inside the matrix filled, the part hanging over its edge
// hatched grey (those slots are loaded as 0), the whole tile outlined.
void draw_phase_tile(ImDrawList* draw, const Rect& area, int rows, int cols, int r0, int c0, int r1, int c1,
                     const MatrixColours& palette) {
    const Rect whole = cells_rect(area, rows, cols, r0, c0, r1, c1);
    const Rect inside = cells_rect(area, rows, cols, r0, c0, std::min(r1, rows), std::min(c1, cols));
    if (c1 > cols) draw_hatched(draw, {{area.max.x, whole.min.y}, whole.max}, kPaddingHatchSpacing);
    if (r1 > rows)
        draw_hatched(draw, {{whole.min.x, area.max.y}, {std::min(whole.max.x, area.max.x), whole.max.y}},
                     kPaddingHatchSpacing);
    draw->AddRectFilled(inside.min, inside.max, with_alpha(palette.line, 95));
    draw->AddRect(whole.min, whole.max, palette.text, 0.0f, 0, 2.5f);
}

void draw_matrices(ImDrawList* draw, const Scene& s) {
    const StageLayout& l = s.layout;
    draw_matrix_cells(draw, l.a, s.m, s.k, colours::kA);
    draw_matrix_cells(draw, l.b, s.k, s.n, colours::kB);
    draw_matrix_cells(draw, l.c, s.m, s.n, colours::kC);

    // The block's strips: the rows of A and the columns of B it will ever read.
    const BlockStrips& st = s.strips;
    const Rect a_strip = cells_rect(l.a, s.m, s.k, st.row_begin, 0, st.row_end, s.k);
    const Rect b_strip = cells_rect(l.b, s.k, s.n, 0, st.col_begin, s.k, st.col_end);
    draw->AddRectFilled(a_strip.min, a_strip.max, with_alpha(colours::kA.line, 45));
    draw->AddRectFilled(b_strip.min, b_strip.max, with_alpha(colours::kB.line, 45));

    if (s.step.sub != SubStep::Store) {
        if (s.timeline.naive) {
            // The k the block's threads read in this step, straight from global memory.
            if (s.k_range.begin < s.k_range.end) {
                draw_phase_tile(draw, l.a, s.m, s.k, st.row_begin, s.k_range.begin, st.row_end, s.k_range.end,
                                colours::kA);
                draw_phase_tile(draw, l.b, s.k, s.n, s.k_range.begin, st.col_begin, s.k_range.end, st.col_end,
                                colours::kB);
            }
        } else {
            // This phase's tiles, T×T even where they hang over an edge.
            const int t = s.tile, p = s.step.phase;
            draw_phase_tile(draw, l.a, s.m, s.k, st.row_begin, p * t, st.row_begin + t, (p + 1) * t, colours::kA);
            draw_phase_tile(draw, l.b, s.k, s.n, p * t, st.col_begin, (p + 1) * t, st.col_begin + t, colours::kB);
        }
    }
    if (s.small) {
        draw_cell_values(draw, l.a, s.m, s.k, 0, 0, s.m, s.k, colours::kCellValue, example_a);
        draw_cell_values(draw, l.b, s.k, s.n, 0, 0, s.k, s.n, colours::kCellValue, example_b);
    }
}

// The matrices' names: worked out before the captions are placed, so none lands on them, and
// drawn on plates after everything else, so no load line crosses them.
struct Name {
    ImVec2 at;
    float size;  // the layout's name line: the heading's size, less where the canvas is cramped
    ImU32 colour;
    std::string text;
};
Rect name_plate(const Name& name) { return plate_rect(heading_font(), name.size, name.at, name.text); }

// Each name starts at its matrix's left edge, moved left where it would run past the canvas's
// right one (large text over small matrices): left of B and under C lies nothing it could cover.
std::vector<Name> matrix_names(const Scene& s, float h, const Rect& canvas) {
    const StageLayout& l = s.layout;
    std::vector<Name> names{
        {{l.b.min.x, l.b.min.y - h * 1.3f}, h, colours::kB.text, format_text("B (K×N)  {} × {}", s.k, s.n)},
        {{l.a.min.x, l.a.min.y - h * 1.3f}, h, colours::kA.text, format_text("A (M×K)  {} × {}", s.m, s.k)},
        {{l.c.min.x, l.c.max.y + h * 0.3f}, h, colours::kC.text, format_text("C (M×N)  {} × {}", s.m, s.n)}};
    for (Name& name : names) {
        const float past = name_plate(name).max.x - canvas.max.x;
        if (past > 0.0f) name.at.x = std::max(canvas.min.x + 4.0f, name.at.x - past);
    }
    return names;
}

void draw_names(ImDrawList* draw, const std::vector<Name>& names) {
    for (const Name& name : names) plate_text(draw, heading_font(), name.at, name.colour, name.text, name.size);
}

// A caption of a heading line and small lines under it, drawn at `at`; `lines` of them, so
// a caption can drop its last lines where room is short.
struct Caption {
    std::string heading;
    ImU32 heading_colour;
    std::vector<std::pair<std::string, ImU32>> lines;  // small text and its colour
};

ImVec2 caption_size(const Caption& c, int lines) {
    float w = text_width(heading_font(), c.heading);
    float h = imgui_compat::font_size(heading_font()) * 1.15f;
    for (int i = 0; i < lines; ++i) {
        w = std::max(w, text_width(small_font(), c.lines[i].first));
        h += imgui_compat::font_size(small_font()) * 1.2f;
    }
    return {w, h};
}

void draw_caption(ImDrawList* draw, const Caption& c, int lines, ImVec2 at) {
    text_at(draw, heading_font(), at, c.heading_colour, c.heading);
    at.y += imgui_compat::font_size(heading_font()) * 1.15f;
    for (int i = 0; i < lines; ++i) {
        text_at(draw, small_font(), at, c.lines[i].second, c.lines[i].first);
        at.y += imgui_compat::font_size(small_font()) * 1.2f;
    }
}

// Places `caption` with all its lines, or fewer, at the first of `spots` with room; draws it
// there, or nowhere when even the heading alone has none.
void place_caption(ImDrawList* draw, CaptionPlacer& placer, const Caption& caption,
                   const std::vector<CaptionPlacer::Spot>& spots) {
    std::vector<ImVec2> forms;
    for (int lines = static_cast<int>(caption.lines.size()); lines >= 0; --lines)
        forms.push_back(caption_size(caption, lines));
    const CaptionPlacer::Placed placed = placer.place(forms, spots);
    if (placed.form >= 0)
        draw_caption(draw, caption, static_cast<int>(caption.lines.size()) - placed.form, placed.rect.min);
}

// The block's part of C: each cell fills from the bottom with the share of K it has summed;
// on the Warp tab each cell first takes its thread's warp colour. Returns its caption's plate,
// which the captions and labels placed after it keep clear of.
Rect draw_c_block(ImDrawList* draw, const Scene& s, CaptionPlacer& placer) {
    const StageLayout& l = s.layout;
    const BlockStrips& st = s.strips;
    const model::KRange acc = model::accumulated_at(s.state.problem, s.tile, s.step);
    const float share = static_cast<float>(acc.end - acc.begin) / static_cast<float>(s.k);
    const bool stored = s.step.sub == SubStep::Store;
    const model::CellRange block = model::cells_of_block(s.config, s.state.problem, s.state.theatre.block);
    for (int i = st.row_begin; i < st.row_end; ++i)
        for (int j = st.col_begin; j < st.col_end; ++j) {
            const Rect cell = cells_rect(l.c, s.m, s.n, i, j, i + 1, j + 1);
            if (s.by_warp) {
                const int linear = model::linear_thread(j - block.col_begin, i - block.row_begin, block_dim_x(s));
                draw->AddRectFilled(cell.min, cell.max, warp_colour(model::warp_of(linear)));
            }
            const float top = cell.max.y - cell.height() * share;
            draw->AddRectFilled({cell.min.x, top}, cell.max,
                                with_alpha(colours::kC.line, stored ? 200 : (s.by_warp ? 90 : 120)));
        }
    const Rect tile = cells_rect(l.c, s.m, s.n, st.row_begin, st.col_begin, st.row_end, st.col_end);
    if (s.small)
        draw_cell_values(draw, l.c, s.m, s.n, st.row_begin, st.col_begin, st.row_end, st.col_end,
                         colours::kCellValue, [&](int r, int c) {
                             std::int64_t sum = 0;
                             for (int kk = acc.begin; kk < acc.end; ++kk) sum += example_a(r, kk) * example_b(kk, c);
                             return sum;
                         });
    const bool barrier = s.step.sub == SubStep::SyncAfterLoad || s.step.sub == SubStep::SyncAfterCompute;
    draw->AddRect(tile.min, tile.max, barrier ? colours::kWarning : colours::kHighlight, 0.0f, 0, barrier ? 5.0f : 3.0f);

    std::string caption = acc.end == 0 ? std::string("sum: none of K yet")
                                       : format_text("sum: k 0..{} of {}", acc.end - 1, s.k);
    if (stored) caption = format_text("stored: all {} of K", s.k);
    if (barrier) caption += format_text("  ·  all {} threads wait here", s.tile * s.tile);
    ImFont* font = ImGui::GetFont();
    const float w = text_width(font, caption);
    // Under the tile, within C where it fits, and never past the canvas's right edge (the
    // clip rectangle is the canvas).
    const float right = std::min(std::max(l.c.min.x, l.c.max.x - w), draw->GetClipRectMax().x - w - 4.0f);
    const float left = std::max(std::min(l.c.min.x, right), draw->GetClipRectMin().x + 4.0f);
    const float x = std::max(std::min(centre(tile).x - w * 0.5f, right), left);
    // Under the tile; above it or inside its top where a name (C's, under the last row of blocks)
    // is there first; under it anyway, over what is there, where neither has room.
    const Rect plate = plate_rect(font, 0.0f, {0.0f, 0.0f}, caption);
    const float h = imgui_compat::font_size(font);
    std::vector<CaptionPlacer::Spot> spots;
    for (const ImVec2 spot : {ImVec2{x, tile.max.y + 4.0f}, ImVec2{x, tile.min.y - h - 6.0f}, ImVec2{x, tile.min.y + 4.0f}})
        spots.push_back([spot, plate](ImVec2) { return ImVec2{spot.x + plate.min.x, spot.y + plate.min.y}; });
    const CaptionPlacer::Placed placed = placer.place({ImVec2{plate.width(), plate.height()}}, spots);
    const ImVec2 pos = placed.form >= 0 ? ImVec2{placed.rect.min.x - plate.min.x, placed.rect.min.y - plate.min.y}
                                        : ImVec2{x, tile.max.y + 4.0f};
    const Rect drawn = plate_text(draw, font, pos, barrier ? colours::kWarning : colours::kC.text, caption);
    if (placed.form < 0) placer.occupy(drawn);
    return drawn;
}

ImVec2 cell_centre(const Rect& area, int rows, int cols, int r, int c) {
    return centre(cells_rect(area, rows, cols, r, c, r + 1, c + 1));
}

void draw_shared_memory(ImDrawList* draw, const Scene& s, CaptionPlacer& placer) {
    const StepSource& source = *s.state.theatre.source;
    const model::Index2 block = s.state.theatre.block;
    const auto as_slots = smem_slots(
        source.tile_loads(s.state.problem, s.tile, block, s.step.phase, model::Operand::A), s.tile, s.as_panel);
    const auto bs_slots = smem_slots(
        source.tile_loads(s.state.problem, s.tile, block, s.step.phase, model::Operand::B), s.tile, s.bs_panel);
    const bool compute = s.step.sub == SubStep::Compute;
    SmemPanelStyle a_style{s.small, compute ? s.focus.y : -1, -1, compute ? s.step.k : -1, s.by_warp};
    SmemPanelStyle b_style{s.small, -1, compute ? s.focus.x : -1, compute ? s.step.k : -1, s.by_warp};
    draw_smem_panel(draw, as_slots, s.as_panel, s.tile, model::Operand::A, a_style);
    draw_smem_panel(draw, bs_slots, s.bs_panel, s.tile, model::Operand::B, b_style);

    const auto padded = [](const std::vector<SmemSlot>& slots) {
        return std::count_if(slots.begin(), slots.end(), [](const SmemSlot& slot) { return slot.load.padding; });
    };
    const auto title = [&](const MatrixColours& palette, const char* name, const char* formula, long pads) {
        return Caption{format_text("{}  {}×{}, shared", name, s.tile, s.tile),
                       palette.text,
                       {{pads > 0 ? format_text("{} of {} slots are 0: padding (hatched)", pads, s.tile * s.tile)
                                  : std::string("no padding: all inside"),
                         pads > 0 ? colours::kCellValue : colours::kMuted},
                        {formula, colours::kMuted}}};
    };
    // Above the tile where there is room, else beside it; the padding count outlasts the
    // formula, which the Source tab also shows.
    const float gap = 0.3f * ImGui::GetFontSize();
    const Rect as = s.as_panel, bs = s.bs_panel;
    place_caption(draw, placer, title(colours::kA, "As", "As[ty][tx] = A[row][phase·T + tx]", padded(as_slots)),
                  {[&](ImVec2 size) { return ImVec2{as.min.x, as.min.y - size.y - gap}; },
                   [&](ImVec2) { return ImVec2{as.min.x, as.max.y + gap}; }});
    place_caption(draw, placer, title(colours::kB, "Bs", "Bs[ty][tx] = B[phase·T + ty][col]", padded(bs_slots)),
                  {[&](ImVec2 size) { return ImVec2{bs.min.x, bs.min.y - size.y - gap}; },
                   [&](ImVec2) { return ImVec2{bs.max.x + 2.0f * gap, bs.min.y}; },
                   [&](ImVec2 size) { return ImVec2{bs.min.x - 2.0f * gap - size.x, bs.min.y}; }});

    // One k at a time: the two slots this k multiplies, into the focus thread's cell.
    const model::Cell focus_cell{s.strips.row_begin + s.focus.y, s.strips.col_begin + s.focus.x};
    if (compute && s.step.k >= 0 && model::inside(focus_cell.row, focus_cell.col, s.m, s.n)) {
        const ImVec2 to = cell_centre(s.layout.c, s.m, s.n, focus_cell.row, focus_cell.col);
        draw->AddLine(centre(cells_rect(s.as_panel, s.tile, s.tile, s.focus.y, s.step.k, s.focus.y + 1, s.step.k + 1)),
                      to, colours::kHighlight, 2.5f);
        draw->AddLine(centre(cells_rect(s.bs_panel, s.tile, s.tile, s.step.k, s.focus.x, s.step.k + 1, s.focus.x + 1)),
                      to, colours::kHighlight, 2.5f);
    }
    // Each thread's load, from its global element to its slot: at most T² = 1024 lines per
    // tile. A padding slot gets no line: nothing is read from global memory for it.
    if (s.step.sub != SubStep::LoadTiles) return;
    const int lit_warp = model::warp_of(model::linear_thread(s.focus.x, s.focus.y, s.tile));
    const auto lines = [&](const std::vector<SmemSlot>& slots, const Rect& area, int rows, int cols, ImU32 colour) {
        for (const SmemSlot& slot : slots) {
            if (slot.load.padding) continue;
            // On the Warp tab only the shown warp's 32 loads are drawn: the one access the
            // tab counts sectors for.
            const int warp = model::warp_of(model::linear_thread(slot.load.thread.x, slot.load.thread.y, s.tile));
            if (s.by_warp && warp != lit_warp) continue;
            draw->AddLine(cell_centre(area, rows, cols, slot.load.global_row, slot.load.global_col), centre(slot.rect),
                          s.by_warp ? warp_colour_strong(warp) : colour, s.by_warp ? 2.0f : 1.0f);
        }
    };
    lines(as_slots, s.layout.a, s.m, s.k, with_alpha(colours::kA.text, 110));
    lines(bs_slots, s.layout.b, s.k, s.n, with_alpha(colours::kB.text, 110));
}

// The naive kernel has no shared memory: where As and Bs would be, say so; and draw the
// focus thread's reads of this step, from A and B straight into its cell.
void draw_global_reads(ImDrawList* draw, const Scene& s, CaptionPlacer& placer) {
    // The note goes in the corner above A and left of B when it has room there; the line
    // above the canvas says the same in short.
    const char* heading = "No shared memory";
    const char* body = "Every thread reads its own A[row][k] and B[k][col] from global memory, for every k: 2·K "
                       "loads per thread, and no thread shares what it read.";
    const Rect region = placer.canvas();
    const float wrap = std::max(s.layout.b.min.x - region.min.x - ImGui::GetFontSize(), 1.0f);
    ImFont* font = ImGui::GetFont();
    const ImVec2 body_size = font->CalcTextSizeA(imgui_compat::font_size(font), FLT_MAX, wrap, body);
    const float heading_h = imgui_compat::font_size(heading_font()) * 1.3f;
    const ImVec2 full{std::max(body_size.x, text_width(heading_font(), heading)), heading_h + body_size.y};
    const CaptionPlacer::Placed placed = placer.place({full}, {[&](ImVec2) { return region.min; }});
    if (placed.form == 0) {
        text_at(draw, heading_font(), placed.rect.min, colours::kMuted, heading);
        draw->AddText(font, imgui_compat::font_size(font), {placed.rect.min.x, placed.rect.min.y + heading_h}, colours::kMuted, body,
                      nullptr, wrap);
    }
    if (s.step.sub == SubStep::Store || s.k_range.begin >= s.k_range.end) return;
    if (s.by_warp) {
        // The shown warp's reads at this step's first k: one line per lane from the A and the
        // B element it reads into its cell (a broadcast is one element feeding all lanes).
        const int bdx = s.config.block_x, threads = s.config.block_x * s.config.block_y;
        const int warp = model::warp_of(model::linear_thread(s.focus.x, s.focus.y, bdx));
        for (int id = warp * model::kWarpSize; id < std::min(threads, (warp + 1) * model::kWarpSize); ++id) {
            const model::Cell lane{s.strips.row_begin + id / bdx, s.strips.col_begin + id % bdx};
            if (!model::inside(lane.row, lane.col, s.m, s.n)) continue;
            const ImVec2 to = cell_centre(s.layout.c, s.m, s.n, lane.row, lane.col);
            draw->AddLine(cell_centre(s.layout.a, s.m, s.k, lane.row, s.k_range.begin), to, warp_colour_strong(warp), 1.5f);
            draw->AddLine(cell_centre(s.layout.b, s.k, s.n, s.k_range.begin, lane.col), to, warp_colour_strong(warp), 1.5f);
        }
        return;
    }
    const model::Cell cell{s.strips.row_begin + s.focus.y, s.strips.col_begin + s.focus.x};
    if (!model::inside(cell.row, cell.col, s.m, s.n)) return;
    const ImVec2 to = cell_centre(s.layout.c, s.m, s.n, cell.row, cell.col);
    for (int kk = s.k_range.begin; kk < s.k_range.end; ++kk) {
        draw->AddLine(cell_centre(s.layout.a, s.m, s.k, cell.row, kk), to, with_alpha(colours::kA.text, 150), 1.5f);
        draw->AddLine(cell_centre(s.layout.b, s.k, s.n, kk, cell.col), to, with_alpha(colours::kB.text, 150), 1.5f);
    }
}

void outline(ImDrawList* draw, Rect r, float thickness) {
    const float grow = std::max(0.0f, 3.0f - std::min(r.width(), r.height())) * 0.5f;
    draw->AddRect({r.min.x - grow, r.min.y - grow}, {r.max.x + grow, r.max.y + grow}, colours::kHighlight, 0.0f, 0,
                  emphasis_width(thickness));
}

// The inspected cell and what its thread reads in this step; or the inspected element of
// A or B and the part of C whose threads load it.
void draw_inspection(ImDrawList* draw, const Scene& s) {
    const StageLayout& l = s.layout;
    if (const auto c = s.inspect.c) {
        if (s.k_range.begin < s.k_range.end) {
            outline(draw, cells_rect(l.a, s.m, s.k, c->row, s.k_range.begin, c->row + 1, s.k_range.end), 2.0f);
            outline(draw, cells_rect(l.b, s.k, s.n, s.k_range.begin, c->col, s.k_range.end, c->col + 1), 2.0f);
        }
        outline(draw, cells_rect(l.c, s.m, s.n, c->row, c->col, c->row + 1, c->col + 1), 3.0f);
    }
    const bool tiled = !s.timeline.naive;
    if (const auto a = s.inspect.a) {
        outline(draw, cells_rect(l.a, s.m, s.k, a->row, a->col, a->row + 1, a->col + 1), 3.0f);
        // Tiled: every block in its row of blocks loads it; naive: every thread of its row.
        const int r0 = tiled ? a->row / s.tile * s.tile : a->row;
        outline(draw, cells_rect(l.c, s.m, s.n, r0, 0, std::min(tiled ? r0 + s.tile : r0 + 1, s.m), s.n), 2.0f);
        if (tiled && a->col / s.tile == s.step.phase && r0 == s.strips.row_begin)
            outline(draw, cells_rect(s.as_panel, s.tile, s.tile, a->row % s.tile, a->col % s.tile, a->row % s.tile + 1,
                                     a->col % s.tile + 1),
                    3.0f);
    }
    if (const auto b = s.inspect.b) {
        outline(draw, cells_rect(l.b, s.k, s.n, b->row, b->col, b->row + 1, b->col + 1), 3.0f);
        const int c0 = tiled ? b->col / s.tile * s.tile : b->col;
        outline(draw, cells_rect(l.c, s.m, s.n, 0, c0, s.m, std::min(tiled ? c0 + s.tile : c0 + 1, s.n)), 2.0f);
        if (tiled && b->row / s.tile == s.step.phase && c0 == s.strips.col_begin)
            outline(draw, cells_rect(s.bs_panel, s.tile, s.tile, b->row % s.tile, b->col % s.tile, b->row % s.tile + 1,
                                     b->col % s.tile + 1),
                    3.0f);
    }
}

// The legend, in the canvas's top-left corner when that is free: on a cramped canvas (large
// fonts on a projector) it would cover the matrices it explains, so it is left out.
void draw_legend(ImDrawList* draw, CaptionPlacer& placer, const Scene& s) {
    ImFont* font = small_font();
    const float box = imgui_compat::font_size(font);
    const float gap = box * 0.6f;
    struct Row {
        ImU32 fill, border;  // the swatch; both 0: hatched, as padding is drawn
        std::string text;
    };
    std::vector<Row> rows;
    rows.push_back({with_alpha(colours::kA.line, 45), colours::kA.line, "the block's rows of A (all phases)"});
    rows.push_back({with_alpha(colours::kB.line, 45), colours::kB.line, "the block's columns of B"});
    rows.push_back({with_alpha(colours::kA.line, 95), colours::kA.text,
                    s.timeline.naive ? "the k read in this step" : "this phase's tile of A / of B"});
    if (!s.timeline.naive) rows.push_back({0, 0, "padding: outside, loaded as 0"});
    rows.push_back({with_alpha(colours::kC.line, 120), colours::kC.line, "the block's C: filled = share of K summed"});
    if (s.by_warp)
        for (int w = 0; w < std::min(4, model::ceil_div(s.tile * s.tile, model::kWarpSize)); ++w)
            rows.push_back({warp_colour(w), warp_colour_strong(w), format_text("threads of warp {}", w)});

    float width = text_width(heading_font(), "Legend");
    for (const Row& row : rows) width = std::max(width, box + gap + text_width(font, row.text));
    const ImVec2 size{width, imgui_compat::font_size(heading_font()) + gap + static_cast<float>(rows.size()) * (box + gap)};
    const CaptionPlacer::Placed placed = placer.place({size}, {[&](ImVec2) { return placer.canvas().min; }});
    if (placed.form < 0) return;
    ImVec2 at = placed.rect.min;
    text_at(draw, heading_font(), at, colours::kCellValue, "Legend");
    at.y += imgui_compat::font_size(heading_font()) + gap;
    for (const Row& row : rows) {
        const Rect swatch{at, {at.x + box, at.y + box}};
        if (row.fill == 0 && row.border == 0) {
            draw_hatched(draw, swatch, kPaddingHatchSpacing);
        } else {
            draw->AddRectFilled(swatch.min, swatch.max, row.fill);
            draw->AddRect(swatch.min, swatch.max, row.border);
        }
        text_at(draw, font, {at.x + box + gap, at.y}, colours::kCellValue, row.text);
        at.y += box + gap;
    }
}

}  // namespace

void draw_theatre_canvas(TheatreState& theatre, std::optional<model::Cell>& selected, PictureLayout& picture,
                         const AppState& app, const Rect& region, bool hovering, bool clicked) {
    const int tile = app.kernel.tile;
    const float line = imgui_compat::font_size(heading_font());
    const model::KernelConfig config = played_config(app);
    const model::Timeline timeline = theatre_timeline(app);
    const model::KernelStep step = model::step_at(timeline, theatre.player.step);

    Scene s{app,
            static_cast<int>(app.problem.m),
            static_cast<int>(app.problem.n),
            static_cast<int>(app.problem.k),
            tile,
            config,
            timeline,
            step,
            step_k_range(timeline, app.problem, step),
            block_strips(config, app.problem, theatre.block),
            {},
            {},
            {},
            std::max({app.problem.m, app.problem.n, app.problem.k}) <= kMaxValueSide,
            theatre.panel == TheatrePanel::Warp,
            {},
            {}};
    // Shared memory gets a band left of A and above B, so every load line is short and none
    // crosses C. Where the tiles go follows the shown block, which a click may change.
    float name_line = line;
    const auto lay_out = [&] {
        const TheatreLayout layout = layout_theatre(app.problem, block_tiling(config, app.problem), s.strips, tile,
                                                    timeline.naive, region, line);
        s.layout = layout.stage;
        s.as_panel = layout.as_panel;
        s.bs_panel = layout.bs_panel;
        name_line = layout.name_line;
    };
    lay_out();

    const ImVec2 mouse = ImGui::GetIO().MousePos;
    theatre.hovered = {};
    if (hovering) {
        theatre.hovered.c = cell_at(s.layout.c, s.m, s.n, mouse);
        theatre.hovered.a = cell_at(s.layout.a, s.m, s.k, mouse);
        theatre.hovered.b = cell_at(s.layout.b, s.k, s.n, mouse);
    }
    if (clicked) {
        if (theatre.hovered.c) {
            theatre.block = block_of_cell(config, app.problem, *theatre.hovered.c);
            selected = theatre.hovered.c;
            theatre.pinned_a.reset();
            theatre.pinned_b.reset();
        } else if (theatre.hovered.a || theatre.hovered.b) {
            selected.reset();
            theatre.pinned_a = theatre.hovered.a;
            theatre.pinned_b = theatre.hovered.b;
        }
        s.strips = block_strips(config, app.problem, theatre.block);
        lay_out();
    }
    s.inspect = inspected(app);
    s.focus = focus_thread(app, s.inspect.c);

    // Captions go only where nothing is: not on the names, and (after the block's sum, which is
    // drawn on C) not on the matrices or the tiles.
    CaptionPlacer captions(region);
    const std::vector<Name> names = matrix_names(s, name_line, region);
    for (const Name& name : names) captions.occupy(name_plate(name));

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    draw_matrices(draw, s);
    const Rect c_caption = draw_c_block(draw, s, captions);
    for (const Rect& r : {s.layout.a, s.layout.b, s.layout.grid}) captions.occupy(r);
    if (!timeline.naive) {
        captions.occupy(s.as_panel);
        captions.occupy(s.bs_panel);
    }
    if (timeline.naive)
        draw_global_reads(draw, s, captions);
    else
        draw_shared_memory(draw, s, captions);
    draw_inspection(draw, s);
    draw_names(draw, names);
    const std::vector<Rect> crowded =
        timeline.naive ? std::vector<Rect>{} : draw_race_overlay(draw, app, s.as_panel, s.bs_panel, s.layout.c, captions);
    draw_legend(draw, captions, s);
    draw->PopClipRect();

    // What was drawn where, for --layout-report and the tests: the matrices, their shared tiles,
    // the names and every caption the placer gave room to (the legend among them).
    start_picture(picture, "theatre", region, s.layout);
    if (picture.wanted) {
        if (!timeline.naive) {
            picture.add_matrix("As", s.as_panel.min, s.as_panel.max);
            picture.add_matrix("Bs", s.bs_panel.min, s.bs_panel.max);
        }
        for (const Name& name : names) {
            const Rect plate = name_plate(name);
            picture.add_label("name: ", name.text, plate.min, plate.max);
        }
        picture.add_label("caption: ", "the block's sum", c_caption.min, c_caption.max);
        // The block's sum is the first caption placed, when the placer had room for it: named above.
        const auto& placed = captions.placed();
        const bool sum_placed = !placed.empty() && placed.front().min.y <= c_caption.max.y &&
                                placed.front().max.y >= c_caption.min.y && placed.front().min.x <= c_caption.max.x &&
                                placed.front().max.x >= c_caption.min.x;
        for (std::size_t i = sum_placed ? 1 : 0; i < placed.size(); ++i)
            picture.add_label("caption", "", placed[i].min, placed[i].max);
        for (const Rect& r : crowded) picture.add_label("race label (no room: drawn over)", "", r.min, r.max);
    }

    // The full report follows the mouse; the Thread tab keeps the pinned one.
    draw_hover_tooltip(app, theatre.hovered);
}

}  // namespace ts::views
