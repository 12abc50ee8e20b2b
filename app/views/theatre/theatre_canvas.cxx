#include "theatre_canvas.hpp"

#include <algorithm>
#include <vector>

#include "model/format.hpp"
#include "model/thread_map.hpp"
#include "smem_panel.hpp"
#include "theatre_logic.hpp"
#include "theatre_paint.hpp"
#include "views/example_values.hpp"
#include "views/stage_view.hpp"
#include "views/theme.hpp"

namespace ts::views {

using model::format;
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

// The matrices' names go on plates after everything else, so load lines never cross them.
void draw_names(ImDrawList* draw, const Scene& s) {
    const StageLayout& l = s.layout;
    ImFont* font = heading_font();
    plate_text(draw, font, {l.b.min.x, l.b.min.y - font->FontSize * 1.3f}, colours::kB.text,
               format("B (K×N)  {} × {}", s.k, s.n));
    plate_text(draw, font, {l.a.min.x, l.a.min.y - font->FontSize * 1.3f}, colours::kA.text,
               format("A (M×K)  {} × {}", s.m, s.k));
    plate_text(draw, font, {l.c.min.x, l.c.max.y + font->FontSize * 0.3f}, colours::kC.text,
               format("C (M×N)  {} × {}", s.m, s.n));
}

// The block's part of C: each cell fills from the bottom with the share of K it has summed;
// on the Warp tab each cell first takes its thread's warp colour.
void draw_c_block(ImDrawList* draw, const Scene& s) {
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

    std::string caption = acc.end == 0 ? format("sum: nothing of K yet ({} to go)", s.k)
                                       : format("sum: k 0..{} of {}", acc.end - 1, s.k);
    if (stored) caption = format("stored: all {} of K", s.k);
    if (barrier) caption += format("  ·  all {} threads wait here", s.tile * s.tile);
    ImFont* font = ImGui::GetFont();
    const float w = text_width(font, caption);
    const ImVec2 pos{std::clamp(centre(tile).x - w * 0.5f, l.c.min.x, std::max(l.c.min.x, l.c.max.x - w)),
                     tile.max.y + 4.0f};
    plate_text(draw, font, pos, barrier ? colours::kWarning : colours::kC.text, caption);
}

ImVec2 cell_centre(const Rect& area, int rows, int cols, int r, int c) {
    return centre(cells_rect(area, rows, cols, r, c, r + 1, c + 1));
}

void draw_shared_memory(ImDrawList* draw, const Scene& s) {
    const StepSource& source = *s.state.theatre.source;
    const model::Index2 block = s.state.theatre.block;
    const auto as = smem_slots(source.tile_loads(s.state.problem, s.tile, block, s.step.phase, model::Operand::A),
                               s.tile, s.as_panel);
    const auto bs = smem_slots(source.tile_loads(s.state.problem, s.tile, block, s.step.phase, model::Operand::B),
                               s.tile, s.bs_panel);
    const bool compute = s.step.sub == SubStep::Compute;
    SmemPanelStyle a_style{s.small, compute ? s.focus.y : -1, -1, compute ? s.step.k : -1, s.by_warp};
    SmemPanelStyle b_style{s.small, -1, compute ? s.focus.x : -1, compute ? s.step.k : -1, s.by_warp};
    draw_smem_panel(draw, as, s.as_panel, s.tile, model::Operand::A, a_style);
    draw_smem_panel(draw, bs, s.bs_panel, s.tile, model::Operand::B, b_style);

    const auto padded = [](const std::vector<SmemSlot>& slots) {
        return std::count_if(slots.begin(), slots.end(), [](const SmemSlot& slot) { return slot.load.padding; });
    };
    const float line = ImGui::GetFontSize();
    const auto titles = [&](const Rect& panel, const MatrixColours& palette, const char* name, const char* formula,
                            long pads) {
        text_at(draw, heading_font(), {panel.min.x, panel.min.y - line * 3.8f}, palette.text,
                format("{}  {}×{}, shared", name, s.tile, s.tile));
        text_at(draw, small_font(), {panel.min.x, panel.min.y - line * 2.4f}, colours::kMuted, formula);
        text_at(draw, small_font(), {panel.min.x, panel.min.y - line * 1.3f}, pads > 0 ? colours::kCellValue : colours::kMuted,
                pads > 0 ? format("{} of {} slots are 0: padding (hatched)", pads, s.tile * s.tile)
                         : std::string("no padding: all inside"));
    };
    titles(s.as_panel, colours::kA, "As", "As[ty][tx] = A[row][phase·T + tx]", padded(as));
    titles(s.bs_panel, colours::kB, "Bs", "Bs[ty][tx] = B[phase·T + ty][col]", padded(bs));

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
    lines(as, s.layout.a, s.m, s.k, with_alpha(colours::kA.text, 110));
    lines(bs, s.layout.b, s.k, s.n, with_alpha(colours::kB.text, 110));
}

// The naive kernel has no shared memory: where As and Bs would be, say so; and draw the
// focus thread's reads of this step, from A and B straight into its cell.
void draw_global_reads(ImDrawList* draw, const Scene& s) {
    const Rect note{s.as_panel.min, {s.as_panel.max.x, s.as_panel.min.y + 4.0f * ImGui::GetFontSize()}};
    text_at(draw, heading_font(), {note.min.x, note.min.y - ImGui::GetFontSize() * 2.6f}, colours::kMuted,
            "No shared memory");
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), note.min, colours::kMuted,
                  "Every thread reads its own A[row][k] and B[k][col] from global memory, for every k: 2·K loads "
                  "per thread, and no thread shares what it read.",
                  nullptr, s.as_panel.width());
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

void draw_legend(ImDrawList* draw, ImVec2 at, float width, const Scene& s) {
    ImFont* font = small_font();
    const float box = font->FontSize;
    const float gap = box * 0.6f;
    float y = at.y;
    const auto row = [&](auto swatch, const char* text) {
        swatch(Rect{{at.x, y}, {at.x + box, y + box}});
        draw->PushClipRect({at.x, y}, {at.x + width, y + box * 3}, true);
        text_at(draw, font, {at.x + box + gap, y}, colours::kCellValue, text);
        draw->PopClipRect();
        y += box + gap;
    };
    const auto filled = [&](ImU32 fill, ImU32 border) {
        return [=](const Rect& r) {
            draw->AddRectFilled(r.min, r.max, fill);
            draw->AddRect(r.min, r.max, border);
        };
    };
    text_at(draw, heading_font(), {at.x, y}, colours::kCellValue, "Legend");
    y += heading_font()->FontSize + gap;
    row(filled(with_alpha(colours::kA.line, 45), colours::kA.line), "the block's rows of A (all phases)");
    row(filled(with_alpha(colours::kB.line, 45), colours::kB.line), "the block's columns of B");
    row(filled(with_alpha(colours::kA.line, 95), colours::kA.text),
        s.timeline.naive ? "the k read in this step" : "this phase's tile of A / of B");
    if (!s.timeline.naive)
        row([&](const Rect& r) { draw_hatched(draw, r, kPaddingHatchSpacing); }, "padding: outside, loaded as 0");
    row(filled(with_alpha(colours::kC.line, 120), colours::kC.line), "the block's C: filled = share of K summed");
    if (s.by_warp)
        for (int w = 0; w < std::min(4, model::ceil_div(s.tile * s.tile, model::kWarpSize)); ++w)
            row(filled(warp_colour(w), warp_colour_strong(w)), format("threads of warp {}", w).c_str());
}

}  // namespace

void draw_theatre_canvas(AppState& state, const Rect& region, bool hovering, bool clicked) {
    TheatreState& theatre = state.theatre;
    const int tile = state.kernel.tile;
    const float line = heading_font()->FontSize;
    const model::KernelConfig config = played_config(state);
    const model::Timeline timeline = theatre_timeline(state);
    const model::KernelStep step = model::step_at(timeline, theatre.player.step);

    // Shared memory gets a band left of A and above B, so every load line is short and none
    // crosses C; the corner between the bands holds the legend.
    const float band = std::clamp(std::min(region.width(), region.height()) * 0.26f, 120.0f, 260.0f);
    const float label = 4.0f * line;
    const Rect stage{{region.min.x + band + line, region.min.y + band + label}, region.max};
    Scene s{state,
            static_cast<int>(state.problem.m),
            static_cast<int>(state.problem.n),
            static_cast<int>(state.problem.k),
            tile,
            config,
            timeline,
            step,
            step_k_range(timeline, state.problem, step),
            block_strips(config, state.problem, theatre.block),
            layout_stage(state.problem, block_tiling(config, state.problem), stage, line),
            {},
            {},
            std::max({state.problem.m, state.problem.n, state.problem.k}) <= kMaxValueSide,
            theatre.panel == TheatrePanel::Warp,
            {},
            {}};
    const float panel = band - line;
    const Rect a_strip = cells_rect(s.layout.a, s.m, s.k, s.strips.row_begin, 0, s.strips.row_end, s.k);
    const Rect b_strip = cells_rect(s.layout.b, s.k, s.n, 0, s.strips.col_begin, s.k, s.strips.col_end);
    const float as_x = std::max(region.min.x, s.layout.a.min.x - 2.0f * line - panel);
    const float as_y = std::clamp(centre(a_strip).y - panel * 0.5f, stage.min.y, region.max.y - panel);
    const float bs_x = std::clamp(centre(b_strip).x - panel * 0.5f, stage.min.x, region.max.x - panel);
    const float bs_y = std::max(region.min.y + label, s.layout.b.min.y - 1.8f * line - panel);
    s.as_panel = {{as_x, as_y}, {as_x + panel, as_y + panel}};
    s.bs_panel = {{bs_x, bs_y}, {bs_x + panel, bs_y + panel}};

    const ImVec2 mouse = ImGui::GetIO().MousePos;
    theatre.hovered = {};
    if (hovering) {
        theatre.hovered.c = cell_at(s.layout.c, s.m, s.n, mouse);
        theatre.hovered.a = cell_at(s.layout.a, s.m, s.k, mouse);
        theatre.hovered.b = cell_at(s.layout.b, s.k, s.n, mouse);
    }
    if (clicked) {
        if (theatre.hovered.c) {
            theatre.block = block_of_cell(config, state.problem, *theatre.hovered.c);
            state.selected = theatre.hovered.c;
            theatre.pinned_a.reset();
            theatre.pinned_b.reset();
        } else if (theatre.hovered.a || theatre.hovered.b) {
            state.selected.reset();
            theatre.pinned_a = theatre.hovered.a;
            theatre.pinned_b = theatre.hovered.b;
        }
        s.strips = block_strips(config, state.problem, theatre.block);
    }
    s.inspect = inspected(state);
    s.focus = focus_thread(state, s.inspect.c);

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    draw_matrices(draw, s);
    draw_c_block(draw, s);
    if (timeline.naive)
        draw_global_reads(draw, s);
    else
        draw_shared_memory(draw, s);
    draw_inspection(draw, s);
    draw_names(draw, s);
    // The legend only where it fits above the As panel: on a cramped canvas (large fonts on a
    // projector) it would cover the matrices it explains.
    const float legend_height = line + 8.0f * small_font()->FontSize * 1.6f;
    if (region.min.y + legend_height < s.as_panel.min.y)
        draw_legend(draw, region.min, std::min(s.bs_panel.min.x, s.layout.b.min.x) - region.min.x - line, s);
    draw->PopClipRect();

    // The full report follows the mouse; the Thread tab keeps the pinned one.
    std::string tip;
    if (theatre.hovered.c) tip = thread_report(state, *theatre.hovered.c);
    if (theatre.hovered.a) tip = element_report(state, model::Operand::A, *theatre.hovered.a);
    if (theatre.hovered.b) tip = element_report(state, model::Operand::B, *theatre.hovered.b);
    if (!tip.empty()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 38.0f);
        ImGui::TextUnformatted((tip + "\n(click to pin)").c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace ts::views
