#include "stage_view.hpp"

#include <algorithm>
#include <cfloat>
#include <string>
#include <tuple>
#include <vector>

#include "example_values.hpp"
#include "model/format.hpp"
#include "model/thread_map.hpp"
#include "stage_layout.hpp"
#include "theme.hpp"

namespace ts::views {

using model::format;

namespace {
std::string phases(int count) { return format(count == 1 ? "{} phase" : "{} phases", count); }
}  // namespace

std::string c_cell_tooltip(const model::KernelConfig& config, const model::Problem& problem, model::Cell cell) {
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    if (!model::inside(cell.row, cell.col, m, n)) return {};
    // Short lines: the tooltip should cover as little of the matrices as it can.
    std::string text = format("C[{}][{}]: row {}, column {}\n", cell.row, cell.col, cell.row, cell.col);
    const auto thread = model::thread_of_cell(config, problem, cell);
    if (!thread) {
        text += "computed by cuBLAS, which picks its own kernels,\ngrids and tiles at run time: "
                "no thread to show";
    } else {
        text += format("computed by the thread with\nblockIdx (x={}, y={}), threadIdx (x={}, y={})\n",
                       thread->block.x, thread->block.y, thread->thread.x, thread->thread.y);
        text += format("warp {}, lane {} of its block\n", thread->warp, thread->lane);
        if (config.kind == model::KernelKind::RowPerThread)
            text += format("which computes all of row {}: this is step {}\n", cell.row, thread->step);
        if (config.kind == model::KernelKind::ColumnPerThread)
            text += format("which computes all of column {}: this is step {}\n", cell.col, thread->step);
        text += format("reads row {} of A and column {} of B\n", cell.row, cell.col);
        if (config.kind == model::KernelKind::Tiled)
            text += format("via shared memory, in {} of T = {}", phases(model::phase_count(k, config.tile)),
                           config.tile);
        else
            text += format("from global memory, {} elements each", k);
    }
    if (std::max({m, n, k}) <= kMaxValueSide)
        text += format("\nexample values:\nC[{}][{}] = Σ A[{}][k]·B[k][{}] = {}", cell.row, cell.col, cell.row,
                       cell.col, example_c(k, cell.row, cell.col));
    return text;
}

std::string kernel_sentence(const model::KernelConfig& config, const model::Problem& problem) {
    switch (config.kind) {
        case model::KernelKind::Naive:
            return format("Naive kernel, blocks of {}×{} threads: one thread per cell of C, threadIdx.x → column "
                          "(a warp reads neighbouring addresses).",
                          config.block_x, config.block_y);
        case model::KernelKind::NaiveRowFromX:
            return format("Naive-row kernel, blocks of {}×{} threads: one thread per cell of C, threadIdx.x → row "
                          "(a warp's addresses lie K apart).",
                          config.block_x, config.block_y);
        case model::KernelKind::RowPerThread:
            return format("Row-per-thread kernel, blocks of {} threads: each thread computes a whole row of C, "
                          "one cell after another.",
                          config.block_x);
        case model::KernelKind::ColumnPerThread:
            return format("Column-per-thread kernel, blocks of {} threads: each thread computes a whole column "
                          "of C, one cell after another.",
                          config.block_x);
        case model::KernelKind::Tiled:
            return format("Tiled kernel, T = {}: each block of {}×{} threads computes one {}×{} tile of C, "
                          "walking K in {}.",
                          config.tile, config.tile, config.tile, config.tile, config.tile,
                          phases(model::phase_count(static_cast<int>(problem.k), std::max(config.tile, 1))));
        case model::KernelKind::Cublas:
            return "cuBLAS, NVIDIA's GEMM: the line to measure against. It picks its own kernels, grids and tiles "
                   "at run time, so no threads are drawn.";
    }
    return {};
}

namespace {

ImVec2 operator+(ImVec2 a, ImVec2 b) { return {a.x + b.x, a.y + b.y}; }

// Highlights must stay visible when a cell is smaller than a pixel (4096 × 4096 in 500 px).
Rect at_least(Rect r, float size) {
    const float grow_x = std::max(0.0f, (size - r.width()) * 0.5f);
    const float grow_y = std::max(0.0f, (size - r.height()) * 0.5f);
    return {{r.min.x - grow_x, r.min.y - grow_y}, {r.max.x + grow_x, r.max.y + grow_y}};
}

ImU32 with_alpha(ImU32 colour, int alpha) {
    return (colour & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha) << IM_COL32_A_SHIFT);
}

// Thin lines between the cells, only while they are far enough apart to read as a grid;
// that also bounds their number by the size of the region.
void draw_cell_lines(ImDrawList* draw, const Rect& r, int rows, int cols, ImU32 colour) {
    const float cw = r.width() / static_cast<float>(cols), ch = r.height() / static_cast<float>(rows);
    if (cw < 6.0f || ch < 6.0f) return;
    for (int i = 1; i < rows; ++i) {
        const float y = r.min.y + ch * static_cast<float>(i);
        draw->AddLine({r.min.x, y}, {r.max.x, y}, colour);
    }
    for (int j = 1; j < cols; ++j) {
        const float x = r.min.x + cw * static_cast<float>(j);
        draw->AddLine({x, r.min.y}, {x, r.max.y}, colour);
    }
}

// Writes value(row, col) into every cell, in the body font if it fits, else the small one.
template <typename Value>
void draw_values(ImDrawList* draw, const Rect& r, int rows, int cols, Value value) {
    const float cw = r.width() / static_cast<float>(cols), ch = r.height() / static_cast<float>(rows);
    std::vector<std::string> texts;
    texts.reserve(static_cast<std::size_t>(rows) * cols);
    std::size_t widest = 1;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            texts.push_back(std::to_string(value(i, j)));
            widest = std::max(widest, texts.back().size());
        }
    const std::string sample(widest, '0');
    ImFont* font = nullptr;
    for (ImFont* candidate : {ImGui::GetFont(), small_font()}) {
        const ImVec2 size = candidate->CalcTextSizeA(candidate->FontSize, FLT_MAX, 0.0f, sample.c_str());
        if (size.x + 6.0f <= cw && size.y + 4.0f <= ch) {
            font = candidate;
            break;
        }
    }
    if (!font) return;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const std::string& text = texts[static_cast<std::size_t>(i) * cols + j];
            const ImVec2 size = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str());
            const ImVec2 pos{r.min.x + cw * (static_cast<float>(j) + 0.5f) - size.x * 0.5f,
                             r.min.y + ch * (static_cast<float>(i) + 0.5f) - size.y * 0.5f};
            draw->AddText(font, font->FontSize, pos, colours::kCellValue, text.c_str());
        }
}

// Text centred on `centre_x` with its top at `top`, kept inside [min_x, max_x].
void draw_label(ImDrawList* draw, ImFont* font, float centre_x, float top, float min_x, float max_x, ImU32 colour,
                const std::string& text) {
    const ImVec2 size = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str());
    const float x = std::max(min_x, std::min(centre_x - size.x * 0.5f, max_x - size.x));
    draw->AddText(font, font->FontSize, {x, top}, colour, text.c_str());
}

struct Stage {
    const model::Problem& problem;
    const model::KernelConfig& config;
    BlockTiling tiling;
    StageLayout layout;
    Rect region;
    int m, n, k;
};

Rect block_rect(const Stage& s, int block_row, int block_col) {
    const BlockTiling& t = s.tiling;
    return cells_rect(s.layout.grid, t.grid_rows, t.grid_cols, block_row * t.rows_per_block,
                      block_col * t.cols_per_block, (block_row + 1) * t.rows_per_block,
                      (block_col + 1) * t.cols_per_block);
}

void draw_c(ImDrawList* draw, const Stage& s) {
    const StageLayout& l = s.layout;
    const BlockTiling& t = s.tiling;
    const float block_w = l.cell_w * static_cast<float>(t.cols_per_block);
    const float block_h = l.cell_h * static_cast<float>(t.rows_per_block);

    // Ghost threads first, so that the block lines run across them.
    draw_hatched(draw, {{l.c.max.x, l.grid.min.y}, l.grid.max});
    draw_hatched(draw, {{l.grid.min.x, l.c.max.y}, {l.c.max.x, l.grid.max.y}});

    // Alternate shades per block, while blocks are big enough to tell apart.
    draw->AddRectFilled(l.c.min, l.c.max, colours::kC.fill);
    if (block_w >= 6.0f && block_h >= 6.0f)
        for (int i = 0; i < t.block_rows(); ++i)
            for (int j = 0; j < t.block_cols(); ++j) {
                if ((i + j) % 2 == 0) continue;
                const Rect b = block_rect(s, i, j);
                draw->AddRectFilled(b.min, {std::min(b.max.x, l.c.max.x), std::min(b.max.y, l.c.max.y)},
                                    colours::kC.fill_alt);
            }
    draw_cell_lines(draw, l.c, s.m, s.n, with_alpha(colours::kC.line, 70));

    if (block_w >= 3.0f && block_h >= 3.0f) {
        for (int j = 1; j < t.block_cols(); ++j) {
            const float x = l.grid.min.x + block_w * static_cast<float>(j);
            draw->AddLine({x, l.grid.min.y}, {x, l.grid.max.y}, colours::kC.line, 2.0f);
        }
        for (int i = 1; i < t.block_rows(); ++i) {
            const float y = l.grid.min.y + block_h * static_cast<float>(i);
            draw->AddLine({l.grid.min.x, y}, {l.grid.max.x, y}, colours::kC.line, 2.0f);
        }
    }
    draw->AddRect(l.grid.min, l.grid.max, with_alpha(colours::kC.line, 120), 0.0f, 0, 1.0f);
    draw->AddRect(l.c.min, l.c.max, colours::kC.line, 0.0f, 0, 2.0f);
}

// A tab on the top edge of every block saying which blockIdx it is, when the blocks are
// wide enough for it; the tab straddles the edge so it never covers a cell's value.
void draw_block_tabs(ImDrawList* draw, const Stage& s) {
    if (!s.tiling.modelled) return;
    ImFont* font = small_font();
    const float pad = 4.0f;
    const float tab_h = font->FontSize + 2.0f;
    const float block_w = s.layout.cell_w * static_cast<float>(s.tiling.cols_per_block);
    const float block_h = s.layout.cell_h * static_cast<float>(s.tiling.rows_per_block);
    const float short_w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, "(00,00)").x + 2 * pad;
    if (block_w < short_w + 2 * pad || block_h < tab_h) return;
    const float long_w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, "blockIdx (00,00)").x + 2 * pad;
    const bool long_form = block_w >= long_w + 2 * pad;
    for (int i = 0; i < s.tiling.block_rows(); ++i)
        for (int j = 0; j < s.tiling.block_cols(); ++j) {
            const Rect b = block_rect(s, i, j);
            // The block's first cell always lies inside C, so the model knows its thread.
            const auto id = model::thread_of_cell(
                s.config, s.problem, {i * s.tiling.rows_per_block, j * s.tiling.cols_per_block});
            const std::string text = format(long_form ? "blockIdx ({},{})" : "({},{})", id->block.x, id->block.y);
            const float w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str()).x + 2 * pad;
            const ImVec2 min{b.min.x + pad, b.min.y - tab_h * 0.5f};
            draw->AddRectFilled(min, {min.x + w, min.y + tab_h}, colours::kC.line, 4.0f);
            draw->AddText(font, font->FontSize, {min.x + pad, min.y + 1.0f}, IM_COL32_WHITE, text.c_str());
        }
}

void draw_labels(ImDrawList* draw, const Stage& s) {
    const StageLayout& l = s.layout;
    ImFont* font = heading_font();
    const float line = font->FontSize;
    const float min_x = s.region.min.x + 2.0f, max_x = s.region.max.x - 2.0f;
    draw_label(draw, font, (l.b.min.x + l.b.max.x) * 0.5f, l.b.min.y - 1.35f * line, min_x, max_x,
               colours::kB.text, format("B (K×N)  {} × {}", s.k, s.n));
    draw_label(draw, font, (l.a.min.x + l.a.max.x) * 0.5f, l.a.min.y - 1.45f * line, min_x, max_x,
               colours::kA.text, format("A (M×K)  {} × {}", s.m, s.k));

    // C's name, and a note when the grid hangs over C (what the hatching is) or is unknown.
    const std::string c_label = format("C (M×N)  {} × {}", s.m, s.n);
    std::string note;
    if (!s.tiling.modelled)
        note = "   cuBLAS picks its own blocks: none drawn";
    else if (s.tiling.grid_rows > s.m || s.tiling.grid_cols > s.n)
        note = format("   hatched: ghost threads (the grid covers {} × {})", s.tiling.grid_rows, s.tiling.grid_cols);
    ImFont* small = small_font();
    const float label_w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, c_label.c_str()).x;
    const float note_w = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0.0f, note.c_str()).x;
    const float top = l.grid.max.y + 0.35f * line;
    const float x = std::max(min_x, std::min((l.c.min.x + l.c.max.x - label_w) * 0.5f, max_x - label_w - note_w));
    draw->AddText(font, font->FontSize, {x, top}, colours::kC.text, c_label.c_str());
    draw->AddText(small, small->FontSize, {x + label_w, top + line - small->FontSize}, colours::kMuted, note.c_str());

    // Say so when the blocks are too small to draw, rather than leave C looking empty.
    const float block_w = l.cell_w * static_cast<float>(s.tiling.cols_per_block);
    const float block_h = l.cell_h * static_cast<float>(s.tiling.rows_per_block);
    if (block_w < 3.0f || block_h < 3.0f) {
        ImFont* body = ImGui::GetFont();
        draw_label(draw, body, (l.c.min.x + l.c.max.x) * 0.5f, (l.c.min.y + l.c.max.y) * 0.5f - body->FontSize,
                   l.c.min.x, l.c.max.x, colours::kC.text,
                   format("{} × {} blocks of {}×{} cells:\ntoo small to draw one by one", s.tiling.block_cols(),
                          s.tiling.block_rows(), s.tiling.cols_per_block, s.tiling.rows_per_block));
    }
}

void show_tooltip(const std::string& text) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(text.c_str());
    ImGui::EndTooltip();
}

// `filled`: tint the inside too. Blocks get only an outline, so that the tints of the cells
// inside them stay readable.
void outline(ImDrawList* draw, Rect r, float thickness, bool filled = true) {
    r = at_least(r, 3.0f);
    if (filled) draw->AddRectFilled(r.min, r.max, with_alpha(colours::kHighlight, 45));
    draw->AddRect(r.min, r.max, colours::kHighlight, 0.0f, 0, thickness);
}

// The cell, its block and the other cells its thread computes (from the model's thread
// map), and the row of A and column of B it reads.
void highlight_c_cell(ImDrawList* draw, const Stage& s, model::Cell cell) {
    const StageLayout& l = s.layout;
    const auto c_range = [&](const model::CellRange& r) {
        return cells_rect(l.grid, s.tiling.grid_rows, s.tiling.grid_cols, r.row_begin, r.col_begin, r.row_end,
                          r.col_end);
    };
    if (const auto thread = model::thread_of_cell(s.config, s.problem, cell)) {
        outline(draw, c_range(model::cells_of_block(s.config, s.problem, thread->block)), 2.0f, false);
        const model::CellRange own = model::cells_of_thread(s.config, s.problem, thread->block, thread->thread);
        if (own.count() > 1) outline(draw, c_range(own), 2.0f);
    }
    outline(draw, cells_rect(l.a, s.m, s.k, cell.row, 0, cell.row + 1, s.k), 2.5f);
    outline(draw, cells_rect(l.b, s.k, s.n, 0, cell.col, s.k, cell.col + 1), 2.5f);
    outline(draw, cells_rect(l.c, s.m, s.n, cell.row, cell.col, cell.row + 1, cell.col + 1), 3.0f);
}

// Tooltips for what lies under the mouse outside C: ghost threads, and cells of A and B.
void hover_outside_c(ImDrawList* draw, const Stage& s, ImVec2 mouse) {
    const StageLayout& l = s.layout;
    const bool small = std::max({s.m, s.n, s.k}) <= kMaxValueSide;
    if (l.grid.contains(mouse)) {
        show_tooltip(format("Ghost threads. The grid is rounded up to whole blocks, so it covers {} × {} cells\n"
                            "for a {} × {} C. These threads run, but their bounds check (row < M && col < N)\n"
                            "fails, so they compute and store nothing.",
                            s.tiling.grid_rows, s.tiling.grid_cols, s.m, s.n));
    } else if (const auto a = cell_at(l.a, s.m, s.k, mouse)) {
        outline(draw, cells_rect(l.a, s.m, s.k, a->row, a->col, a->row + 1, a->col + 1), 3.0f);
        std::string text = format("A[{}][{}]: row {}, column {}", a->row, a->col, a->row, a->col);
        if (small) text += format(" = {}", example_a(a->row, a->col));
        show_tooltip(text + format("\nread by every thread of row {} of C", a->row));
    } else if (const auto b = cell_at(l.b, s.k, s.n, mouse)) {
        outline(draw, cells_rect(l.b, s.k, s.n, b->row, b->col, b->row + 1, b->col + 1), 3.0f);
        std::string text = format("B[{}][{}]: row {}, column {}", b->row, b->col, b->row, b->col);
        if (small) text += format(" = {}", example_b(b->row, b->col));
        show_tooltip(text + format("\nread by every thread of column {} of C", b->col));
    }
}

// A pinned cell keeps its tooltip, so a teacher can point at the screen while talking about
// it. The tooltip goes into the empty corner above A and left of B when it fits there,
// else beside the cell, opening towards the middle of the stage.
void show_pinned_tooltip(const Stage& s, model::Cell pinned) {
    const std::string text = c_cell_tooltip(s.config, s.problem, pinned) + "\n(pinned: click elsewhere to release)";
    const ImVec2 padding = ImGui::GetStyle().WindowPadding;
    const ImVec2 text_size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 corner(s.region.min.x + padding.x, s.layout.b.min.y);
    const float a_label_top = s.layout.a.min.y - 1.6f * heading_font()->FontSize;
    const bool fits_corner = corner.x + text_size.x + 3.0f * padding.x < s.layout.b.min.x &&
                             corner.y + text_size.y + 2.0f * padding.y < a_label_top;
    if (fits_corner) {
        ImGui::SetNextWindowPos(corner);
    } else {
        const Rect cell = at_least(cells_rect(s.layout.c, s.m, s.n, pinned.row, pinned.col, pinned.row + 1,
                                              pinned.col + 1),
                                   3.0f);
        const bool right = cell.min.x > (s.region.min.x + s.region.max.x) * 0.5f;
        const bool low = cell.min.y > (s.region.min.y + s.region.max.y) * 0.5f;
        ImGui::SetNextWindowPos(ImVec2(right ? cell.min.x - 8.0f : cell.max.x + 8.0f,
                                       low ? cell.min.y - 8.0f : cell.max.y + 8.0f),
                                ImGuiCond_Always, ImVec2(right ? 1.0f : 0.0f, low ? 1.0f : 0.0f));
    }
    show_tooltip(text);
}

}  // namespace

void draw_stage_view(AppState& state) {
    heading("Stage: A · B = C");
    ImGui::PushStyleColor(ImGuiCol_Text, colours::kMuted);
    const char* hint = model::is_modelled(state.kernel.kind) ? " Hover over a cell of C to see the thread that "
                                                                "computes it; click to pin it."
                                                              : "";
    ImGui::TextWrapped("%s%s", kernel_sentence(state.kernel, state.problem).c_str(), hint);
    ImGui::PopStyleColor();
    draw_stage_canvas(state);
}

void draw_stage_canvas(AppState& state) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::GetContentRegionAvail();
    if (size.x < 80.0f || size.y < 80.0f) return;  // collapsed window: nothing sensible to draw
    // An invisible button over the whole stage: hovering it is hovering the stage, and a
    // click on it pins a cell of C (or, anywhere else, releases the pinned one).
    const bool clicked = ImGui::InvisibleButton("##stage", size);
    const bool hovered = ImGui::IsItemHovered();

    const Rect region{origin, origin + size};
    const BlockTiling tiling = block_tiling(state.kernel, state.problem);
    const Stage s{state.problem,
                  state.kernel,
                  tiling,
                  layout_stage(state.problem, tiling, region, heading_font()->FontSize),
                  region,
                  static_cast<int>(state.problem.m),
                  static_cast<int>(state.problem.n),
                  static_cast<int>(state.problem.k)};

    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const auto hovered_cell = hovered ? cell_at(s.layout.c, s.m, s.n, mouse) : std::nullopt;
    if (clicked) state.selected = hovered_cell;
    if (state.selected && !model::inside(state.selected->row, state.selected->col, s.m, s.n))
        state.selected.reset();  // C shrank under it

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    for (const auto& [rect, rows, cols, palette] :
         {std::tuple{s.layout.a, s.m, s.k, colours::kA}, std::tuple{s.layout.b, s.k, s.n, colours::kB}}) {
        draw->AddRectFilled(rect.min, rect.max, palette.fill);
        draw_cell_lines(draw, rect, rows, cols, with_alpha(palette.line, 90));
        draw->AddRect(rect.min, rect.max, palette.line, 0.0f, 0, 2.0f);
    }
    draw_c(draw, s);
    if (std::max({s.m, s.n, s.k}) <= kMaxValueSide) {
        draw_values(draw, s.layout.a, s.m, s.k, example_a);
        draw_values(draw, s.layout.b, s.k, s.n, example_b);
        draw_values(draw, s.layout.c, s.m, s.n, [k = s.k](int r, int c) { return example_c(k, r, c); });
    }
    // The hovered cell wins over the pinned one; both go under the block tabs and labels.
    if (const auto shown = hovered_cell ? hovered_cell : state.selected) highlight_c_cell(draw, s, *shown);
    draw_block_tabs(draw, s);
    draw_labels(draw, s);

    if (hovered_cell)
        show_tooltip(c_cell_tooltip(state.kernel, state.problem, *hovered_cell) + "\n(click to pin)");
    else if (state.selected)
        show_pinned_tooltip(s, *state.selected);
    if (hovered && !hovered_cell) hover_outside_c(draw, s, mouse);
    draw->PopClipRect();
}

void draw_hatched(ImDrawList* draw, const Rect& r, float spacing) {
    if (r.width() < 0.5f || r.height() < 0.5f) return;
    draw->AddRectFilled(r.min, r.max, colours::kGhostFill);
    draw->PushClipRect(r.min, r.max, true);
    for (float t = 0.0f; t < r.width() + r.height(); t += spacing)
        draw->AddLine({r.min.x + t, r.min.y}, {r.min.x + t - r.height(), r.max.y}, colours::kGhostHatch);
    draw->PopClipRect();
}

}  // namespace ts::views
