#include "theatre_view.hpp"

#include <algorithm>
#include <cfloat>
#include <vector>

#include "model/format.hpp"
#include "phase_player.hpp"
#include "smem_panel.hpp"
#include "source_panel.hpp"
#include "views/example_values.hpp"
#include "views/stage_layout.hpp"
#include "views/stage_view.hpp"
#include "views/text.hpp"
#include "views/theme.hpp"

namespace ts::views {

using model::format;
using model::SubStep;

BlockStrips block_strips(const model::Problem& problem, int tile, model::Index2 block) {
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n);
    return {std::min(model::tiled_row(block.y, tile, 0), m), std::min(model::tiled_row(block.y, tile, tile), m),
            std::min(model::tiled_col(block.x, tile, 0), n), std::min(model::tiled_col(block.x, tile, tile), n)};
}

model::Index2 block_of_cell(int tile, model::Cell cell) { return {cell.col / tile, cell.row / tile}; }

model::Index2 block_grid(const model::Problem& problem, int tile) {
    return {model::ceil_div(static_cast<int>(problem.n), tile), model::ceil_div(static_cast<int>(problem.m), tile)};
}

std::string step_title(int phases, model::TiledStep step) {
    if (step.sub == SubStep::Store) return format("After all {} phases: {}", phases, model::substep_title(step.sub));
    return format("Phase {} of {} (phase = {} in the code): {}", step.phase + 1, phases, step.phase,
                  model::substep_title(step.sub));
}

std::optional<std::string> jump_theatre(AppState& state, std::optional<model::Index2> block, std::optional<int> phase,
                                        std::optional<model::SubStep> sub) {
    const int tile = state.kernel.tile;
    if (tile < 1 || tile > model::kMaxTile) return format("the theatre needs a tile width T of 1 to {}", model::kMaxTile);
    const model::Index2 grid = block_grid(state.problem, tile);
    const int phases = model::phase_count(static_cast<int>(state.problem.k), tile);
    if (block && (block->x < 0 || block->y < 0 || block->x >= grid.x || block->y >= grid.y))
        return format("block {},{} is outside the grid of {} × {} blocks (x, y count from 0)", block->x, block->y,
                      grid.x, grid.y);
    if (phase && (*phase < 0 || *phase >= phases))
        return format("phase {} does not exist: K = {} with T = {} has phases 0 to {}", *phase, state.problem.k, tile,
                      phases - 1);
    if (block) state.theatre.block = *block;
    model::TiledStep step = model::tiled_step_at(phases, state.theatre.player.step);
    if (phase) step.phase = *phase;
    if (sub) step.sub = *sub;
    state.theatre.player.step = model::tiled_step_index(phases, step);
    state.theatre.player.playing = false;
    return std::nullopt;
}

namespace {

ImU32 alpha(ImU32 colour, int a) { return (colour & ~IM_COL32_A_MASK) | (static_cast<ImU32>(a) << IM_COL32_A_SHIFT); }
ImVec2 centre(const Rect& r) { return {(r.min.x + r.max.x) * 0.5f, (r.min.y + r.max.y) * 0.5f}; }

void text_at(ImDrawList* draw, ImFont* font, ImVec2 pos, ImU32 colour, const std::string& text) {
    draw->AddText(font, font->FontSize, pos, colour, text.c_str());
}
float text_width(ImFont* font, const std::string& text) {
    return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str()).x;
}

// Everything one frame of the theatre needs, worked out once.
struct Scene {
    const model::Problem& problem;
    int m, n, k, tile, phases;
    model::Index2 block;
    model::TiledStep step;
    BlockStrips strips;
    StageLayout layout;
    Rect as_panel, bs_panel;
    bool small;  // values fit: the same rule as the stage
};

void draw_matrix(ImDrawList* draw, const Rect& r, int rows, int cols, const MatrixColours& palette) {
    draw->AddRectFilled(r.min, r.max, palette.fill);
    const float cw = r.width() / static_cast<float>(cols), ch = r.height() / static_cast<float>(rows);
    if (cw >= 6.0f && ch >= 6.0f) {
        for (int i = 1; i < rows; ++i)
            draw->AddLine({r.min.x, r.min.y + ch * i}, {r.max.x, r.min.y + ch * i}, alpha(palette.line, 50));
        for (int j = 1; j < cols; ++j)
            draw->AddLine({r.min.x + cw * j, r.min.y}, {r.min.x + cw * j, r.max.y}, alpha(palette.line, 50));
    }
    draw->AddRect(r.min, r.max, palette.line, 0.0f, 0, 2.0f);
}

template <typename Value>
void draw_values(ImDrawList* draw, const Rect& area, int rows, int cols, int r0, int c0, int r1, int c1,
                 ImU32 colour, Value value) {
    const Rect one = cells_rect(area, rows, cols, 0, 0, 1, 1);
    ImFont* font = nullptr;
    for (ImFont* candidate : {ImGui::GetFont(), small_font()})
        if (!font && text_width(candidate, "00") + 4.0f <= one.width() && candidate->FontSize + 2.0f <= one.height())
            font = candidate;
    if (!font) return;
    for (int i = r0; i < r1; ++i)
        for (int j = c0; j < c1; ++j) {
            const std::string text = std::to_string(value(i, j));
            const ImVec2 c = centre(cells_rect(area, rows, cols, i, j, i + 1, j + 1));
            text_at(draw, font, {c.x - text_width(font, text) * 0.5f, c.y - font->FontSize * 0.5f}, colour, text);
        }
}

// This phase's tile in A or B: the part inside the matrix filled, the part hanging over
// its edge hatched grey (those slots are loaded as 0), the whole tile outlined.
void draw_phase_tile(ImDrawList* draw, const Rect& area, int rows, int cols, int r0, int c0, int r1, int c1,
                     const MatrixColours& palette) {
    const Rect whole = cells_rect(area, rows, cols, r0, c0, r1, c1);
    const Rect inside = cells_rect(area, rows, cols, r0, c0, std::min(r1, rows), std::min(c1, cols));
    if (r1 > rows || c1 > cols) {
        if (c1 > cols) draw_hatched(draw, {{area.max.x, whole.min.y}, whole.max}, kPaddingHatchSpacing);
        if (r1 > rows) draw_hatched(draw, {{whole.min.x, area.max.y}, {std::min(whole.max.x, area.max.x), whole.max.y}},
                                  kPaddingHatchSpacing);
    }
    draw->AddRectFilled(inside.min, inside.max, alpha(palette.line, 95));
    draw->AddRect(whole.min, whole.max, palette.text, 0.0f, 0, 2.5f);
}

void draw_matrices(ImDrawList* draw, const Scene& s) {
    const StageLayout& l = s.layout;
    draw_matrix(draw, l.a, s.m, s.k, colours::kA);
    draw_matrix(draw, l.b, s.k, s.n, colours::kB);
    draw_matrix(draw, l.c, s.m, s.n, colours::kC);

    // The block's strips: the rows of A and the columns of B it will ever read.
    const BlockStrips& st = s.strips;
    const Rect a_strip = cells_rect(l.a, s.m, s.k, st.row_begin, 0, st.row_end, s.k);
    const Rect b_strip = cells_rect(l.b, s.k, s.n, 0, st.col_begin, s.k, st.col_end);
    draw->AddRectFilled(a_strip.min, a_strip.max, alpha(colours::kA.line, 45));
    draw->AddRectFilled(b_strip.min, b_strip.max, alpha(colours::kB.line, 45));

    // This phase's tiles (the Store step shows the last phase's, still in shared memory).
    const int t = s.tile, p = s.step.phase;
    draw_phase_tile(draw, l.a, s.m, s.k, st.row_begin, p * t, st.row_begin + t, (p + 1) * t, colours::kA);
    draw_phase_tile(draw, l.b, s.k, s.n, p * t, st.col_begin, (p + 1) * t, st.col_begin + t, colours::kB);
    if (s.small) {
        draw_values(draw, l.a, s.m, s.k, 0, 0, s.m, s.k, colours::kCellValue, example_a);
        draw_values(draw, l.b, s.k, s.n, 0, 0, s.k, s.n, colours::kCellValue, example_b);
    }
    // Labels above B and A, as on the stage.
    ImFont* font = heading_font();
    text_at(draw, font, {l.b.min.x, l.b.min.y - font->FontSize * 1.3f}, colours::kB.text,
            format("B (K×N)  {} × {}", s.k, s.n));
    text_at(draw, font, {l.a.min.x, l.a.min.y - font->FontSize * 1.3f}, colours::kA.text,
            format("A (M×K)  {} × {}", s.m, s.k));
    text_at(draw, font, {l.c.min.x, l.c.max.y + font->FontSize * 0.3f}, colours::kC.text,
            format("C (M×N)  {} × {}", s.m, s.n));
}

// The block's tile of C: each cell fills from the bottom with the share of K it has summed.
void draw_c_tile(ImDrawList* draw, const Scene& s) {
    const StageLayout& l = s.layout;
    const BlockStrips& st = s.strips;
    const model::KRange acc = model::accumulated_at(s.problem, s.tile, s.step);
    const float share = static_cast<float>(acc.end - acc.begin) / static_cast<float>(s.k);
    const bool stored = s.step.sub == SubStep::Store;
    for (int i = st.row_begin; i < st.row_end; ++i)
        for (int j = st.col_begin; j < st.col_end; ++j) {
            const Rect cell = cells_rect(l.c, s.m, s.n, i, j, i + 1, j + 1);
            const float top = cell.max.y - cell.height() * share;
            draw->AddRectFilled({cell.min.x, top}, cell.max, alpha(colours::kC.line, stored ? 200 : 120));
        }
    const Rect tile = cells_rect(l.c, s.m, s.n, st.row_begin, st.col_begin, st.row_end, st.col_end);
    if (s.small)
        draw_values(draw, l.c, s.m, s.n, st.row_begin, st.col_begin, st.row_end, st.col_end, colours::kCellValue,
                    [&](int r, int c) {
                        std::int64_t sum = 0;
                        for (int kk = acc.begin; kk < acc.end; ++kk) sum += example_a(r, kk) * example_b(kk, c);
                        return sum;
                    });
    const bool barrier = s.step.sub == SubStep::SyncAfterLoad || s.step.sub == SubStep::SyncAfterCompute;
    draw->AddRect(tile.min, tile.max, barrier ? colours::kWarning : colours::kHighlight, 0.0f, 0, barrier ? 5.0f : 3.0f);

    // The caption sits on a white plate under the tile so it reads over any fill.
    ImFont* font = ImGui::GetFont();
    std::string caption = acc.end == 0 ? format("sum: nothing of K yet ({} to go)", s.k)
                                       : format("sum: k {}..{} of {}", acc.begin, acc.end - 1, s.k);
    if (stored) caption = format("stored: all {} of K", s.k);
    if (barrier) caption += format("  ·  all {} threads wait here", s.tile * s.tile);
    const float w = text_width(font, caption);
    const ImVec2 pos{std::clamp(centre(tile).x - w * 0.5f, l.c.min.x, std::max(l.c.min.x, l.c.max.x - w)),
                     tile.max.y + 4.0f};
    draw->AddRectFilled({pos.x - 4, pos.y - 2}, {pos.x + w + 4, pos.y + font->FontSize + 2}, IM_COL32(255, 255, 255, 235), 3.0f);
    text_at(draw, font, pos, barrier ? colours::kWarning : colours::kC.text, caption);
}

// The thread whose k loop is drawn: the pinned cell's when it lies in this block, else (0,0).
model::Index2 focus_thread(const AppState& state, int tile, model::Index2 block) {
    if (state.selected && block_of_cell(tile, *state.selected) == block)
        return {state.selected->col - block.x * tile, state.selected->row - block.y * tile};
    return {0, 0};
}

// One sentence on what every thread of the block does in this step.
std::string step_detail(const model::Problem& problem, int tile, model::TiledStep step, model::Index2 focus) {
    const int threads = tile * tile;
    const int k_begin = model::phase_k_begin(step.phase, tile);
    const int k_end = model::phase_k_end(step.phase, tile, static_cast<int>(problem.k));
    switch (step.sub) {
        case SubStep::LoadTiles:
            return format("Each of the {} threads copies one element of A into As and one of B into Bs (the lines): "
                          "columns {}..{} of A, rows {}..{} of B. A slot whose element lies outside the matrix "
                          "gets 0 (grey).",
                          threads, k_begin, k_begin + tile - 1, k_begin, k_begin + tile - 1);
        case SubStep::SyncAfterLoad:
            return format("No thread may read As or Bs until all {} have written their slot.", threads);
        case SubStep::Compute:
            return format("Every thread runs its k loop over the tile; thread (tx={}, ty={}) adds As[{}][i]·Bs[i][{}] "
                          "for i = 0..{}: k {}..{} of its dot product (padding adds 0).",
                          focus.x, focus.y, focus.y, focus.x, tile - 1, k_begin, k_end - 1);
        case SubStep::SyncAfterCompute:
            return format("No thread may overwrite As or Bs with the next phase's tiles until all {} are done "
                          "reading them.",
                          threads);
        case SubStep::Store:
            return "Each thread inside C writes its sum to global memory once; ghost threads (outside C) write "
                   "nothing.";
    }
    return {};
}

void draw_shared_memory(ImDrawList* draw, const Scene& s, model::Index2 focus) {
    const auto as = smem_slots(s.problem, s.tile, s.block, s.step.phase, model::Operand::A, s.as_panel);
    const auto bs = smem_slots(s.problem, s.tile, s.block, s.step.phase, model::Operand::B, s.bs_panel);
    const bool compute = s.step.sub == SubStep::Compute;
    draw_smem_panel(draw, as, s.as_panel, s.tile, model::Operand::A, true, compute ? focus.y : -1, -1);
    draw_smem_panel(draw, bs, s.bs_panel, s.tile, model::Operand::B, true, -1, compute ? focus.x : -1);

    ImFont* font = ImGui::GetFont();
    const float line = font->FontSize;
    text_at(draw, heading_font(), {s.as_panel.min.x, s.as_panel.min.y - line * 2.6f}, colours::kA.text,
            format("As  {}×{}, shared", s.tile, s.tile));
    text_at(draw, small_font(), {s.as_panel.min.x, s.as_panel.min.y - line * 1.2f}, colours::kMuted,
            "As[ty][tx] = A[row][phase·T + tx]");
    text_at(draw, heading_font(), {s.bs_panel.min.x, s.bs_panel.min.y - line * 2.6f}, colours::kB.text,
            format("Bs  {}×{}, shared", s.tile, s.tile));
    text_at(draw, small_font(), {s.bs_panel.min.x, s.bs_panel.min.y - line * 1.2f}, colours::kMuted,
            "Bs[ty][tx] = B[phase·T + ty][col]");

    // Each thread's load, from its global element to its slot: at most T² = 1024 lines per
    // tile. A padding slot gets no line: nothing is read from global memory for it.
    if (s.step.sub != SubStep::LoadTiles) return;
    const auto lines = [&](const std::vector<SmemSlot>& slots, const Rect& area, int rows, int cols, ImU32 colour) {
        for (const SmemSlot& slot : slots) {
            if (slot.load.padding) continue;
            const Rect from = cells_rect(area, rows, cols, slot.load.global_row, slot.load.global_col,
                                         slot.load.global_row + 1, slot.load.global_col + 1);
            draw->AddLine(centre(from), centre(slot.rect), colour, 1.0f);
        }
    };
    lines(as, s.layout.a, s.m, s.k, alpha(colours::kA.text, 110));
    lines(bs, s.layout.b, s.k, s.n, alpha(colours::kB.text, 110));
}

void draw_legend(ImDrawList* draw, ImVec2 at, float width) {
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
    row(filled(alpha(colours::kA.line, 45), colours::kA.line), "the block's rows of A (all phases)");
    row(filled(alpha(colours::kB.line, 45), colours::kB.line), "the block's columns of B");
    row(filled(alpha(colours::kA.line, 95), colours::kA.text), "this phase's tile of A / of B");
    row([&](const Rect& r) { draw_hatched(draw, r, kPaddingHatchSpacing); }, "padding: outside the matrix, loaded as 0");
    row(filled(alpha(colours::kC.line, 120), colours::kC.line), "the block's tile of C: filled = share of K summed");
    row(filled(IM_COL32_WHITE, colours::kHighlight), "one thread's k loop (compute step)");
}

}  // namespace

void draw_theatre_view(AppState& state, float bottom_reserve) {
    TheatreState& theatre = state.theatre;
    const int tile = state.kernel.tile;
    const bool tile_ok = tile >= 1 && tile <= model::kMaxTile;
    const int phases = tile_ok ? model::phase_count(static_cast<int>(state.problem.k), tile) : 1;
    const int count = model::tiled_step_count(phases);
    if (tile_ok) {
        const model::Index2 grid = block_grid(state.problem, tile);
        theatre.block = {std::clamp(theatre.block.x, 0, grid.x - 1), std::clamp(theatre.block.y, 0, grid.y - 1)};
    }
    handle_player_keys(theatre.player, count);
    tick(theatre.player, count, ImGui::GetIO().DeltaTime);
    const model::TiledStep step = model::tiled_step_at(phases, theatre.player.step);

    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32_WHITE);
    ImGui::BeginChild("##theatre_panel", ImVec2(ImGui::GetFontSize() * 30.0f, -bottom_reserve), true);
    heading("Tiling theatre");
    muted_text(format("One block of the tiled kernel (T = {}), step by step. Click a tile of C to pick the block; "
                      "the pinned cell's thread is the one whose k loop is drawn.",
                      tile));
    ImGui::Spacing();
    draw_player_controls(theatre.player, phases);
    ImGui::Spacing();
    ImGui::Separator();
    // The kernel's long comment lines scroll sideways; the text above them wraps.
    ImGui::BeginChild("##theatre_source", ImVec2(0.0f, 0.0f), false, ImGuiWindowFlags_HorizontalScrollbar);
    draw_source_panel(step.sub);
    ImGui::EndChild();
    ImGui::EndChild();
    ImGui::PopStyleColor();

    ImGui::SameLine();
    ImGui::BeginChild("##theatre", ImVec2(0.0f, -bottom_reserve), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    if (!tile_ok) {
        coloured_text_wrapped(colours::kError, format("The theatre shows tiles of T = 1 to {}: T = {} cannot launch "
                                                      "(T×T threads would exceed 1024 per block).",
                                                      model::kMaxTile, tile)
                                                   .c_str());
        ImGui::EndChild();
        return;
    }
    ImGui::PushFont(heading_font());
    ImGui::TextUnformatted(format("Block ({}, {}): {}", theatre.block.x, theatre.block.y, step_title(phases, step)).c_str());
    ImGui::PopFont();
    muted_text(step_detail(state.problem, tile, step, focus_thread(state, tile, theatre.block)));

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::GetContentRegionAvail();
    if (size.x < 200.0f || size.y < 200.0f) {
        ImGui::EndChild();
        return;
    }
    const bool clicked = ImGui::InvisibleButton("##theatre_canvas", size);
    const Rect region{origin, {origin.x + size.x, origin.y + size.y}};
    const float line = heading_font()->FontSize;

    // Shared memory gets a band left of A and above B, so every load line is short and none
    // crosses C; the corner between the bands holds the legend.
    const float band = std::clamp(std::min(size.x, size.y) * 0.26f, 120.0f, 260.0f);
    const float label = 2.8f * line;
    const Rect stage{{region.min.x + band + line, region.min.y + band + label}, region.max};
    const model::KernelConfig tiled{model::KernelKind::Tiled, tile, tile, tile};
    const BlockTiling tiling = block_tiling(tiled, state.problem);
    Scene s{state.problem,
            static_cast<int>(state.problem.m),
            static_cast<int>(state.problem.n),
            static_cast<int>(state.problem.k),
            tile,
            phases,
            theatre.block,
            step,
            block_strips(state.problem, tile, theatre.block),
            layout_stage(state.problem, tiling, stage, line),
            {},
            {},
            std::max({state.problem.m, state.problem.n, state.problem.k}) <= kMaxValueSide};
    const float panel = band - line;
    const Rect a_strip = cells_rect(s.layout.a, s.m, s.k, s.strips.row_begin, 0, s.strips.row_end, s.k);
    const Rect b_strip = cells_rect(s.layout.b, s.k, s.n, 0, s.strips.col_begin, s.k, s.strips.col_end);
    const float as_x = std::max(region.min.x, s.layout.a.min.x - 2.0f * line - panel);
    const float as_y = std::clamp(centre(a_strip).y - panel * 0.5f, stage.min.y, region.max.y - panel);
    const float bs_x = std::clamp(centre(b_strip).x - panel * 0.5f, stage.min.x, region.max.x - panel);
    const float bs_y = std::max(region.min.y + label, s.layout.b.min.y - 1.6f * line - panel);
    s.as_panel = {{as_x, as_y}, {as_x + panel, as_y + panel}};
    s.bs_panel = {{bs_x, bs_y}, {bs_x + panel, bs_y + panel}};

    if (clicked)
        if (const auto cell = cell_at(s.layout.c, s.m, s.n, ImGui::GetIO().MousePos)) {
            theatre.block = block_of_cell(tile, *cell);
            state.selected = cell;
        }

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    draw_matrices(draw, s);
    draw_c_tile(draw, s);
    draw_shared_memory(draw, s, focus_thread(state, tile, theatre.block));
    draw_legend(draw, {region.min.x, region.min.y}, std::min(s.bs_panel.min.x, s.layout.b.min.x) - region.min.x - line);
    draw->PopClipRect();
    ImGui::EndChild();
}

}  // namespace ts::views
