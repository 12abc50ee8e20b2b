#include "views/theatre/rungs/rung_canvas.hpp"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "model/format.hpp"
#include "model/kernel_trace.hpp"
#include "model/ladder_access.hpp"
#include "model/thread_map.hpp"
#include "views/theatre/bank_map.hpp"
#include "views/theatre/rungs/rung_frame.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/stage/stage_view.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;
using model::Operand;
using model::SubStep;
using namespace rung_theatre;

namespace rung_theatre {

RungFrame make_rung_frame(const AppState& state) {
    RungFrame l;
    l.s = model::ladder_shape(state.kernel);
    l.problem = state.problem;
    l.m = static_cast<int>(state.problem.m);
    l.n = static_cast<int>(state.problem.n);
    l.k = static_cast<int>(state.problem.k);
    l.block = state.theatre.block;
    l.block_row = l.block.y * l.s.bm;
    l.block_col = l.block.x * l.s.bn;
    l.steps = model::ladder_steps(l.s, l.k);
    l.timeline = theatre_timeline(state);
    l.step = current_step(state);
    l.thread = rung_focus_thread(state);
    l.warp = l.thread / kWarp;
    l.lane = l.thread % kWarp;
    if (state.theatre.traces.replay) l.trace = timeline_trace(state);
    return l;
}

}  // namespace rung_theatre

namespace {

constexpr ImU32 kCopying = IM_COL32(240, 160, 60, 255);
constexpr ImU32 kComputing = IM_COL32(60, 140, 215, 255);
constexpr ImU32 kFree = IM_COL32(225, 225, 225, 255);

// ---- The bank map of the access on show -------------------------------------------------------

struct ShownAccess {
    std::string what;                      // "As store (float4 of A, part 0)"
    std::vector<model::LaneAccess> here;   // this rung's layout
    std::vector<model::LaneAccess> there;  // the comparison's (empty: none)
    std::string there_label;
};

// The access of this sub-step that costs the most wavefronts (so a conflict, where there is
// one, is what the picture shows), and the same access in the comparison layout.
ShownAccess shown_access(const RungFrame& l) {
    ShownAccess best;
    int best_cost = -1;
    const auto consider = [&](std::string what, Operand operand, const auto& accesses_of) {
        const std::vector<model::LaneAccess> here = accesses_of(l.s);
        const model::BankMap map = model::bank_map(here);
        const int cost = map.wavefronts - map.ideal;
        if (cost <= best_cost) return;
        best_cost = cost;
        best = {std::move(what), here, {}, ""};
        if (const auto comparison = model::layout_comparison(l.s, operand)) {
            best.there = accesses_of(comparison->other);
            best.there_label = comparison->label;
        }
    };
    if (computing(l)) {
        const int k = shown_k(l);
        const auto reads = model::ladder_fragment_reads(l.s, l.thread, k);
        for (int r = 0; r < static_cast<int>(reads.size()); ++r)
            consider(format_text("read {} of k = {}: {}s, {} bit", r, k, reads[r].operand == Operand::A ? "A" : "B",
                                 32 * reads[r].width),
                     reads[r].operand,
                     [&](model::LadderShape shape) { return model::warp_fragment_accesses(shape, l.warp, k, r); });
    } else {
        for (const ThreadStore& store : thread_stores(l)) {
            const model::LadderLoad& load = store.load;
            consider(format_text("{}s store, load {}{}", load.operand == Operand::A ? "A" : "B", load.instruction,
                                 store.in_parts ? format_text(", value {} of the float4", store.part) : std::string()),
                     load.operand, [&](model::LadderShape shape) { return store.warp_accesses(shape, l.warp); });
        }
    }
    return best;
}

// ---- The pipeline -----------------------------------------------------------------------------

void draw_pipeline(ImDrawList* draw, const Rect& area, const RungFrame& l) {
    ImFont* font = small_font();
    const float line = imgui_compat::font_size(font) * 1.25f;
    const bool pipelined = l.s.stages > 1;
    const float title_h = wrapped_text(draw, area.min, colours::kC.text,
                                       pipelined ? format_text("Pipeline: {} stages of shared memory", l.s.stages)
                                                 : std::string("No pipeline: load, wait, compute, wait"),
                                       area.width());
    // Up to 12 K steps around the current one, one column each.
    const int shown = std::min(l.steps, 12);
    const int first = std::clamp(l.step.phase - shown / 2, 0, std::max(l.steps - shown, 0));
    const int rows = pipelined ? l.s.stages : 2;
    const float label_w = text_width(font, "stage 0 ");
    const float top = area.min.y + title_h + 2.0f;
    const float w = (area.width() - label_w) / static_cast<float>(std::max(shown, 1));
    const float h = std::min(line * 1.3f, (area.max.y - top - line * 3.5f) / static_cast<float>(rows));
    if (w < 6.0f || h < 6.0f) {
        // No room for the grid: the same in one sentence.
        wrapped_text(draw, {area.min.x, top}, colours::kMuted,
                     pipelined ? format_text("Step {} computes from stage {}; steps {}..{} are being copied.", l.step.phase,
                                             l.step.phase % l.s.stages, l.step.phase + 1,
                                             std::min(l.step.phase + l.s.stages - 1, l.steps - 1))
                               : std::string("Each step's loads wait for the last step's compute."),
                     area.width());
        return;
    }
    for (int row = 0; row < rows; ++row)
        text_at(draw, font, {area.min.x, top + h * static_cast<float>(row) + (h - line) * 0.5f}, colours::kMuted,
                pipelined ? format_text("stage {}", row) : std::string(row == 0 ? "load" : "compute"));
    for (int c = 0; c < shown; ++c) {
        const int pass = first + c;
        const float x = area.min.x + label_w + w * static_cast<float>(c);
        for (int row = 0; row < rows; ++row) {
            ImU32 fill = kFree;
            int held = -1;
            if (pipelined) {
                const model::StageState stage = model::pipeline_stages(l.s, l.steps, pass)[static_cast<std::size_t>(row)];
                fill = stage.use == model::StageUse::Computing ? kComputing
                       : stage.use == model::StageUse::Copying ? kCopying
                                                               : kFree;
                held = stage.k_step;
            } else {
                // One step at a time: its load, then its compute, never together.
                fill = row == 0 ? kCopying : kComputing;
                held = pass;
            }
            const float y = top + h * static_cast<float>(row);
            draw->AddRectFilled({x + 1, y + 1}, {x + w - 1, y + h - 1}, with_alpha(fill, pass == l.step.phase ? 255 : 120));
            if (held >= 0) {
                const std::string text = std::to_string(held);
                if (text_width(font, text) + 2.0f <= w)
                    text_at(draw, font, {x + (w - text_width(font, text)) * 0.5f, y + (h - line) * 0.5f + 1.0f},
                            IM_COL32(255, 255, 255, 255), text);
            }
        }
        if (pass == l.step.phase)
            draw->AddRect({x, top}, {x + w, top + h * static_cast<float>(rows)}, colours::kC.text, 0.0f, 0, 2.0f);
    }
    const float legend_y = top + h * static_cast<float>(rows) + 2.0f;
    wrapped_text(draw, {area.min.x, legend_y}, colours::kMuted,
            pipelined ? format_text("columns: the block's K steps; orange: copies of step n in flight (cp.async), blue: "
                                    "step n computed. Step {} computes while {} more are copied.",
                                    l.step.phase, std::max(std::min(l.s.stages - 1, l.steps - l.step.phase - 1), 0))
                      : std::string("columns: K steps; orange: step n loaded, blue: computed. While the block loads, its "
                                    "multiply-adds wait."),
            area.width());
}

// ---- Registers ---------------------------------------------------------------------------------

void draw_registers(ImDrawList* draw, const Rect& area, const RungFrame& l) {
    const int a_regs = l.s.tm * l.s.wm_iter, b_regs = l.s.tn * l.s.wn_iter;
    float y = area.min.y;
    y += wrapped_text(draw, {area.min.x, y}, colours::kC.text,
                      format_text("Thread {} (warp {}, lane {}): its registers", l.thread, l.warp, l.lane), area.width());
    const std::string what =
        computing(l) ? format_text("k = {}: {} + {} values in, {} multiply-adds", l.step.k >= 0 ? l.step.k : 0, a_regs,
                                   b_regs, a_regs * b_regs)
                     : format_text("{} sums, kept in registers all along", l.s.cells_per_thread());
    y += wrapped_text(draw, {area.min.x, y}, colours::kMuted, what, area.width());
    const float top = y + 4.0f;
    const float box = std::min({(area.width() - 4.0f) / static_cast<float>(b_regs + 1),
                                (area.max.y - top - 2.0f) / static_cast<float>(a_regs + 1), 26.0f});
    if (box < 3.0f) return;
    const float x0 = area.min.x, y0 = top;
    // The B fragment across the top, the A fragment down the left, their outer product below
    // and right: cell (i, j) adds a[i]·b[j].
    for (int j = 0; j < b_regs; ++j) {
        const float x = x0 + box * static_cast<float>(j + 1);
        draw->AddRectFilled({x + 1, y0 + 1}, {x + box - 1, y0 + box - 1}, computing(l) ? colours::kB.line : colours::kB.fill);
    }
    for (int i = 0; i < a_regs; ++i) {
        const float y = y0 + box * static_cast<float>(i + 1);
        draw->AddRectFilled({x0 + 1, y + 1}, {x0 + box - 1, y + box - 1}, computing(l) ? colours::kA.line : colours::kA.fill);
        for (int j = 0; j < b_regs; ++j) {
            const float x = x0 + box * static_cast<float>(j + 1);
            draw->AddRectFilled({x + 1, y + 1}, {x + box - 1, y + box - 1},
                                computing(l) ? colours::kC.line : colours::kC.fill_alt);
        }
    }
    // Sub-tile boundaries: a thread with several register tiles keeps their sums side by side.
    const ImU32 edge = colours::kC.text;
    for (int i = 1; i < l.s.wm_iter; ++i) {
        const float y = y0 + box * static_cast<float>(1 + i * l.s.tm);
        draw->AddLine({x0 + box, y}, {x0 + box * static_cast<float>(b_regs + 1), y}, edge, 2.0f);
    }
    for (int j = 1; j < l.s.wn_iter; ++j) {
        const float x = x0 + box * static_cast<float>(1 + j * l.s.tn);
        draw->AddLine({x, y0 + box}, {x, y0 + box * static_cast<float>(a_regs + 1)}, edge, 2.0f);
    }
}

// ---- The block: As, Bs and C -------------------------------------------------------------------

struct Picture {
    Rect as, bs, c;
    float cell = 1.0f;
};

// C at scale, one square cell per element. As and Bs are as tall (As) and wide (Bs) as C's
// rows and columns they feed, but their k is widened so that BK columns read as more than a
// sliver next to BN: a quarter of C's width at most, and never narrower than C's cells.
Picture place_picture(const RungFrame& l, const Rect& area) {
    const float line = imgui_compat::font_size(heading_font()) * 1.3f;
    const float gap = std::max(line, 8.0f);
    const float widen = std::max(1.0f, 0.22f * static_cast<float>(l.s.bn) / static_cast<float>(l.s.bk));
    const float k_cells = widen * static_cast<float>(l.s.bk);
    const float across = k_cells + static_cast<float>(l.s.bn), down = k_cells + static_cast<float>(l.s.bm);
    const float cell = std::max(1.0f, std::min((area.width() - gap) / across, (area.height() - 2.0f * gap) / down));
    Picture p;
    p.cell = cell;
    const float x0 = area.min.x, y0 = area.min.y + gap;
    const float k_w = cell * k_cells;
    p.bs = {{x0 + k_w + gap, y0}, {x0 + k_w + gap + cell * static_cast<float>(l.s.bn), y0 + k_w}};
    p.c = {{p.bs.min.x, p.bs.max.y + gap}, {p.bs.max.x, p.bs.max.y + gap + cell * static_cast<float>(l.s.bm)}};
    p.as = {{x0, p.c.min.y}, {x0 + k_w, p.c.max.y}};
    return p;
}

Rect tile_cells(const Rect& area, int rows, int cols, int r0, int c0, int r1, int c1) {
    return cells_rect(area, rows, cols, r0, c0, r1, c1);
}

// Slots whose element lies outside A or B (zeros are copied there) are hatched.
void draw_tiles(ImDrawList* draw, const Picture& p, const RungFrame& l) {
    draw_matrix_cells(draw, p.as, l.s.bm, l.s.bk, colours::kA);
    draw_matrix_cells(draw, p.bs, l.s.bk, l.s.bn, colours::kB);
    const int a_rows_inside = std::clamp(l.m - l.block_row, 0, l.s.bm);
    const int k_inside = std::clamp(l.k - l.step.phase * l.s.bk, 0, l.s.bk);
    const int b_cols_inside = std::clamp(l.n - l.block_col, 0, l.s.bn);
    if (a_rows_inside < l.s.bm)
        draw_hatched(draw, tile_cells(p.as, l.s.bm, l.s.bk, a_rows_inside, 0, l.s.bm, l.s.bk), 6.0f);
    if (k_inside < l.s.bk) {
        draw_hatched(draw, tile_cells(p.as, l.s.bm, l.s.bk, 0, k_inside, l.s.bm, l.s.bk), 6.0f);
        draw_hatched(draw, tile_cells(p.bs, l.s.bk, l.s.bn, k_inside, 0, l.s.bk, l.s.bn), 6.0f);
    }
    if (b_cols_inside < l.s.bn)
        draw_hatched(draw, tile_cells(p.bs, l.s.bk, l.s.bn, 0, b_cols_inside, l.s.bk, l.s.bn), 6.0f);
}

// Every load of the step, coloured by its thread's warp: the followed warp's strong, the
// followed thread's outlined, each as wide as the elements one instruction moves.
void draw_loads(ImDrawList* draw, const Picture& p, const RungFrame& l) {
    for (int t = 0; t < l.s.threads(); ++t) {
        const int warp = t / kWarp;
        const bool own_warp = warp == l.warp;
        for (model::LadderLoad load : model::ladder_thread_loads(l.s, t)) {
            const bool a = load.operand == Operand::A;
            // Replayed: the element the thread recorded, placed back in the tile.
            if (own_warp && l.trace)
                if (const auto recorded =
                        model::recorded_ladder_load(*l.trace, l.block, l.step.phase, load.operand, load.instruction, t)) {
                    if (recorded->loaded == model::RecordedLoad::kNotRecorded) continue;
                    load.row = a ? recorded->row - l.block_row : recorded->row - l.step.phase * l.s.bk;
                    load.col = a ? recorded->col - l.step.phase * l.s.bk : recorded->col - l.block_col;
                }
            const Rect& area = a ? p.as : p.bs;
            const int rows = a ? l.s.bm : l.s.bk, cols = a ? l.s.bk : l.s.bn;
            const Rect r = tile_cells(area, rows, cols, load.row, load.col, load.row + 1, load.col + load.width);
            draw->AddRectFilled(r.min, r.max, with_alpha(own_warp ? warp_colour_strong(warp) : warp_colour(warp),
                                                        own_warp ? 150 : 255));
            if (t == l.thread) {
                draw->AddRectFilled(r.min, r.max, colours::kHighlight);
                if (load.width > 1)  // the four slots of one instruction
                    for (int j = 1; j < load.width; ++j) {
                        const float x = tile_cells(area, rows, cols, load.row, load.col + j, load.row, load.col + j).min.x;
                        draw->AddLine({x, r.min.y}, {x, r.max.y}, IM_COL32(255, 255, 255, 200));
                    }
            }
        }
    }
}

// The fragments of the followed warp for this k (all of the step's k when the step is one
// piece), the followed thread's in the highlight colour.
void draw_fragments(ImDrawList* draw, const Picture& p, const RungFrame& l) {
    const int k_begin = l.step.k >= 0 ? l.step.k : 0, k_end = l.step.k >= 0 ? l.step.k + 1 : l.s.bk;
    for (int k = k_begin; k < k_end; ++k) {
        // The column k of As and row k of Bs the whole block reads.
        const Rect column = tile_cells(p.as, l.s.bm, l.s.bk, 0, k, l.s.bm, k + 1);
        const Rect row = tile_cells(p.bs, l.s.bk, l.s.bn, k, 0, k + 1, l.s.bn);
        draw->AddRect(column.min, column.max, colours::kA.text, 0.0f, 0, 1.5f);
        draw->AddRect(row.min, row.max, colours::kB.text, 0.0f, 0, 1.5f);
        for (int lane = 0; lane < kWarp; ++lane) {
            const int t = l.warp * kWarp + lane;
            if (t >= l.s.threads()) break;
            for (const model::FragmentRead& read : model::ladder_fragment_reads(l.s, t, k)) {
                const bool a = read.operand == Operand::A;
                const Rect r = a ? tile_cells(p.as, l.s.bm, l.s.bk, read.tile_row, k, read.tile_row + read.width, k + 1)
                                 : tile_cells(p.bs, l.s.bk, l.s.bn, k, read.tile_col, k + 1, read.tile_col + read.width);
                draw->AddRectFilled(r.min, r.max, t == l.thread ? colours::kHighlight : with_alpha(warp_colour_strong(l.warp), 120));
            }
        }
    }
}

// Every thread's register tiles in its warp's colour, warp tiles outlined, the followed
// warp's threads outlined and the followed thread filled.
void draw_block_tile(ImDrawList* draw, const Picture& p, const RungFrame& l) {
    const int bm = l.s.bm, bn = l.s.bn;
    draw->AddRectFilled(p.c.min, p.c.max, colours::kC.fill);
    for (int t = 0; t < l.s.threads(); ++t) {
        const int warp = t / kWarp;
        for (int i = 0; i < l.s.wm_iter; ++i)
            for (int j = 0; j < l.s.wn_iter; ++j) {
                const int r = model::ladder_tile_row(l.s, t, i), c = model::ladder_tile_col(l.s, t, j);
                const Rect tile = tile_cells(p.c, bm, bn, r, c, r + l.s.tm, c + l.s.tn);
                draw->AddRectFilled(tile.min, tile.max, warp == l.warp ? with_alpha(warp_colour_strong(warp), 110)
                                                                      : warp_colour(warp));
                if (tile.width() >= 5.0f && tile.height() >= 5.0f)
                    draw->AddRect(tile.min, tile.max, IM_COL32(255, 255, 255, 160));
                if (t == l.thread) draw->AddRectFilled(tile.min, tile.max, colours::kHighlight);
            }
    }
    // Warp tiles (10 on): each warp's share of the block.
    if (l.s.wm > 0)
        for (int wr = 0; wr < bm / l.s.warp_m(); ++wr)
            for (int wc = 0; wc < bn / l.s.warp_n(); ++wc) {
                const Rect w = tile_cells(p.c, bm, bn, wr * l.s.warp_m(), wc * l.s.warp_n(), (wr + 1) * l.s.warp_m(),
                                          (wc + 1) * l.s.warp_n());
                const int warp = wr * l.s.warps_per_row() + wc;
                draw->AddRect(w.min, w.max, warp_colour_strong(warp), 0.0f, 0, warp == l.warp ? 3.5f : 2.0f);
                plate_text(draw, small_font(), {w.min.x + 4.0f, w.min.y + 3.0f}, warp_colour_strong(warp),
                           format_text("warp {}", warp));
            }
    // Cells of the tile outside C: their threads compute them but never store them.
    const int rows_inside = std::clamp(l.m - l.block_row, 0, bm), cols_inside = std::clamp(l.n - l.block_col, 0, bn);
    if (rows_inside < bm) draw_hatched(draw, tile_cells(p.c, bm, bn, rows_inside, 0, bm, bn), 6.0f);
    if (cols_inside < bn) draw_hatched(draw, tile_cells(p.c, bm, bn, 0, cols_inside, rows_inside, bn), 6.0f);
    draw->AddRect(p.c.min, p.c.max, colours::kC.line, 0.0f, 0, outline_width(2.0f));
}

// Each label in its longest form that fits over its tile (presenter mode's large text leaves
// only the short ones).
void draw_labels(ImDrawList* draw, const Picture& p, const RungFrame& l) {
    ImFont* font = heading_font();
    const float h = imgui_compat::font_size(font) * 1.25f;
    const auto label = [&](const Rect& over, float room, ImU32 colour, std::initializer_list<std::string> forms) {
        for (const std::string& form : forms)
            if (text_width(font, form) <= room || &form == forms.end() - 1) {
                plate_text(draw, font, {over.min.x, over.min.y - h}, colour, form);
                return;
            }
    };
    const int k0 = l.step.phase * l.s.bk;
    label(p.bs, p.bs.width(), colours::kB.text,
          {format_text("Bs: rows {}..{} of B, columns {}..{}  ({}×{})", k0, k0 + l.s.bk - 1, l.block_col,
                       l.block_col + l.s.bn - 1, l.s.bk, l.s.bn),
           format_text("Bs ({}×{})", l.s.bk, l.s.bn), std::string("Bs")});
    label(p.as, p.c.min.x - p.as.min.x, colours::kA.text, {std::string("As")});
    label(p.c, p.c.width(), colours::kC.text,
          {format_text("C tile of block ({}, {}): rows {}..{}, columns {}..{}", l.block.x, l.block.y, l.block_row,
                       l.block_row + l.s.bm - 1, l.block_col, l.block_col + l.s.bn - 1),
           format_text("C, block ({}, {})", l.block.x, l.block.y), std::string("C")});
}

// The cell of C (or the element of As or Bs) under the mouse, with its formula.
void hover_tooltip(const Picture& p, const RungFrame& l, ImVec2 mouse) {
    if (const auto cell = cell_at(p.c, l.s.bm, l.s.bn, mouse)) {
        const int t = model::ladder_thread_of_tile_cell(l.s, cell->row, cell->col);
        const int group = t / l.s.group_threads(), lane = t % l.s.group_threads();
        const int sub_i = (cell->row % l.s.warp_m()) / l.s.sub_m(), sub_j = (cell->col % l.s.warp_n()) / l.s.sub_n();
        const int r = cell->row - model::ladder_tile_row(l.s, t, sub_i), c = cell->col - model::ladder_tile_col(l.s, t, sub_j);
        std::string text = format_text("C[{}][{}]: thread {} of block ({}, {}) (warp {}, lane {})", l.block_row + cell->row,
                                       l.block_col + cell->col, t, l.block.x, l.block.y, t / kWarp, t % kWarp);
        text += format_text("\nrow = blockIdx.y·BM + {}warp row + sub_i·{} + (lane / {})·TM + r\n    = {}·{} + {} + {}·{} + {}·{} + {} = {}",
                            l.s.wm > 0 ? format_text("{}·", l.s.warp_m()) : std::string("0·"), l.s.sub_m(),
                            l.s.threads_per_row(), l.block.y, l.s.bm,
                            (group / l.s.warps_per_row()) * l.s.warp_m(), sub_i, l.s.sub_m(),
                            lane / l.s.threads_per_row(), l.s.tm, r, l.block_row + cell->row);
        text += format_text("\ncol = blockIdx.x·BN + warp col + sub_j·{} + (lane % {})·TN + c\n    = {}·{} + {} + {}·{} + {}·{} + {} = {}",
                            l.s.sub_n(), l.s.threads_per_row(), l.block.x, l.s.bn,
                            (group % l.s.warps_per_row()) * l.s.warp_n(), sub_j, l.s.sub_n(),
                            lane % l.s.threads_per_row(), l.s.tn, c, l.block_col + cell->col);
        text += format_text("\nregister tile ({}, {}) of the thread's {}×{}, cell ({}, {}); sums[{}]", sub_i, sub_j,
                            l.s.wm_iter, l.s.wn_iter, r, c,
                            model::ladder_step_of_place(l.s, {sub_i, sub_j, r, c}));
        if (l.block_row + cell->row >= l.m || l.block_col + cell->col >= l.n) text += "\noutside C: computed, never stored";
        ImGui::SetTooltip("%s", text.c_str());
        return;
    }
    const auto element = [&](Operand operand, model::Cell cell) {
        const bool a = operand == Operand::A;
        const model::LoadOwner owner = model::ladder_load_owner(l.s, operand, cell.row, cell.col);
        const int width = a ? l.s.a_vec() : l.s.vec;
        const int slot = a ? model::ladder_as_slot(l.s, cell.row, cell.col) : model::row_major(cell.row, cell.col, l.s.bn);
        const int row = a ? a_row(l, cell.row) : b_row(l, cell.row), col = a ? a_col(l, cell.col) : b_col(l, cell.col);
        const bool inside = a ? model::inside(row, col, l.m, l.k) : model::inside(row, col, l.k, l.n);
        std::string text = format_text("{}s[{}][{}] ← {}[{}][{}]{}", a ? "A" : "B", cell.row, cell.col, a ? "A" : "B",
                                       row, col, inside ? "" : " — outside: 0 is copied");
        text += format_text("\nloaded by thread {} (warp {}), load i = {}: vector (thread + i·{})·{} = {} of the tile, "
                            "row-major",
                            owner.thread, owner.thread / kWarp, owner.instruction, l.s.threads(), width,
                            (owner.thread + owner.instruction * l.s.threads()) * width);
        if (a)
            text += l.s.as_transposed
                        ? format_text("\nstored transposed: slot = col·(BM + pad) + row = {}·{} + {} = {}", cell.col,
                                      l.s.as_row(), cell.row, slot)
                        : format_text("\nslot = row·(BK + pad) + col = {}·{} + {} = {}", cell.row, l.s.as_row(), cell.col, slot);
        else
            text += format_text("\nslot = row·BN + col = {}·{} + {} = {}", cell.row, l.s.bn, cell.col, slot);
        text += format_text("\nbank = slot mod 32 = {}", slot % 32);
        ImGui::SetTooltip("%s", text.c_str());
    };
    if (const auto cell = cell_at(p.as, l.s.bm, l.s.bk, mouse)) element(Operand::A, *cell);
    else if (const auto cell = cell_at(p.bs, l.s.bk, l.s.bn, mouse)) element(Operand::B, *cell);
}

}  // namespace

void draw_rung_canvas(std::optional<model::Cell>& selected, const AppState& app, const Rect& region, bool hovering,
                      bool clicked) {
    const RungFrame l = make_rung_frame(app);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    // The block, and three panels: registers, banks, pipeline. On a wide canvas (the usual
    // case, and presenter mode's large text leaves little height) the panels stand in a column
    // right of the block; on a tall one, in a row under it.
    const float line = imgui_compat::font_size(small_font()) * 1.25f;
    const float gap = line;
    const bool wide = region.width() > region.height() * 1.25f;
    Rect picture_area, registers, banks, pipeline;
    if (wide) {
        const float picture_w = std::min(region.height() * 1.1f, region.width() * 0.58f);
        picture_area = {region.min, {region.min.x + picture_w, region.max.y}};
        const float x0 = picture_area.max.x + gap, h = region.height();
        registers = {{x0, region.min.y}, {region.max.x, region.min.y + h * 0.22f}};
        banks = {{x0, registers.max.y + gap * 0.5f}, {region.max.x, region.min.y + h * 0.75f}};
        pipeline = {{x0, banks.max.y + gap * 0.5f}, region.max};
    } else {
        const float bottom_h = std::clamp(region.height() * 0.4f, line * 9.0f, line * 16.0f);
        picture_area = {region.min, {region.max.x, region.max.y - bottom_h}};
        const float y0 = region.max.y - bottom_h + gap * 0.5f;
        const float w = region.width();
        registers = {{region.min.x, y0}, {region.min.x + w * 0.2f, region.max.y}};
        banks = {{registers.max.x + gap, y0}, {region.min.x + w * 0.62f, region.max.y}};
        pipeline = {{banks.max.x + gap, y0}, region.max};
    }
    const Picture p = place_picture(l, picture_area);
    draw_tiles(draw, p, l);
    draw_block_tile(draw, p, l);
    if (loading(l)) draw_loads(draw, p, l);
    if (computing(l)) draw_fragments(draw, p, l);
    draw_labels(draw, p, l);

    draw_registers(draw, registers, l);
    // This rung's layout above, the comparison's below.
    const ShownAccess access = shown_access(l);
    if (!access.here.empty()) {
        const bool two = !access.there.empty();
        const float half = two ? (banks.height() - gap * 0.5f) * 0.5f : banks.height();
        draw_bank_map(draw, {banks.min, {banks.max.x, banks.min.y + half}}, access.here,
                      format_text("Banks of warp {}, {}", l.warp, access.what));
        if (two)
            draw_bank_map(draw, {{banks.min.x, banks.min.y + half + gap * 0.5f}, banks.max}, access.there,
                          format_text("The same {}", access.there_label));
    }
    draw_pipeline(draw, pipeline, l);
    draw->PopClipRect();

    if (!hovering) return;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    hover_tooltip(p, l, mouse);
    // Cells outside C have no place to pin; their threads are reached through a cell inside.
    if (clicked)
        if (const auto cell = cell_at(p.c, l.s.bm, l.s.bn, mouse);
            cell && l.block_row + cell->row < l.m && l.block_col + cell->col < l.n)
            selected = model::Cell{l.block_row + cell->row, l.block_col + cell->col};
}

}  // namespace ts::views
