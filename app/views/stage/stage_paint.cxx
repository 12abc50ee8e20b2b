#include "views/stage/stage_paint.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "views/common/example_values.hpp"
#include "views/common/text.hpp"
#include "model/format.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "views/stage/stage_view.hpp"
#include "views/common/theme.hpp"
#include "platform/imgui_compat.hpp"

namespace ts::views {

namespace {

Rect intersect(const Rect& a, const Rect& b) {
    return {{std::max(a.min.x, b.min.x), std::max(a.min.y, b.min.y)},
            {std::min(a.max.x, b.max.x), std::min(a.max.y, b.max.y)}};
}

bool is_empty(const Rect& r) { return r.width() <= 0.0f || r.height() <= 0.0f; }

// Example values are whole numbers; anything else gets three significant digits.
std::string number(double value) {
    if (value == std::floor(value) && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

// Thin lines between the cells, only while they are far enough apart to read as a grid,
// and only the visible ones.
void draw_cell_lines(ImDrawList* draw, const Rect& r, int rows, int cols, const Rect& visible, ImU32 colour) {
    const float cw = r.width() / static_cast<float>(cols), ch = r.height() / static_cast<float>(rows);
    if (cw < 6.0f || ch < 6.0f) return;
    const model::CellRange span = visible_cells(r, rows, cols, visible);
    if (span.empty()) return;
    const Rect v = intersect(r, visible);
    for (int i = std::max(1, span.row_begin); i <= std::min(span.row_end, rows - 1); ++i) {
        const float y = r.min.y + ch * static_cast<float>(i);
        draw->AddLine({v.min.x, y}, {v.max.x, y}, colour);
    }
    for (int j = std::max(1, span.col_begin); j <= std::min(span.col_end, cols - 1); ++j) {
        const float x = r.min.x + cw * static_cast<float>(j);
        draw->AddLine({x, v.min.y}, {x, v.max.y}, colour);
    }
}

// Writes each visible cell's value, in the body font if the widest value fits a cell, else
// the small one, else not at all: so text appears as one zooms in, whatever the matrix size.
template <typename Value, typename Colour>
void draw_values(ImDrawList* draw, const Rect& area, int rows, int cols, const Rect& visible, ValueRange range,
                 Value value, Colour colour) {
    const float cw = area.width() / static_cast<float>(cols), ch = area.height() / static_cast<float>(rows);
    const std::string widest(std::max(number(range.min).size(), number(range.max).size()), '0');
    ImFont* font = nullptr;
    for (ImFont* candidate : {ImGui::GetFont(), small_font()}) {
        if (text_width(candidate, widest) + 6.0f <= cw && imgui_compat::font_size(candidate) + 4.0f <= ch) {
            font = candidate;
            break;
        }
    }
    if (!font) return;
    const model::CellRange span = visible_cells(area, rows, cols, visible);
    for (int i = span.row_begin; i < span.row_end; ++i)
        for (int j = span.col_begin; j < span.col_end; ++j) {
            const double v = value(i, j);
            const std::string text = number(v);
            const ImVec2 pos{area.min.x + cw * (static_cast<float>(j) + 0.5f) - text_width(font, text) * 0.5f,
                             area.min.y + ch * (static_cast<float>(i) + 0.5f) - imgui_compat::font_size(font) * 0.5f};
            draw->AddText(font, imgui_compat::font_size(font), pos, colour(v), text.c_str());
        }
}

struct Matrix {
    StageMatrix which;
    Rect area;
    int rows, cols;
    MatrixColours palette;
};

std::vector<Matrix> matrices(const StageScene& s) {
    return {{StageMatrix::A, s.layout.a, s.m, s.k, colours::kA},
            {StageMatrix::B, s.layout.b, s.k, s.n, colours::kB},
            {StageMatrix::C, s.layout.c, s.m, s.n, colours::kC}};
}

double example_value(const StageScene& s, StageMatrix which, int row, int col) {
    switch (which) {
        case StageMatrix::A: return example_a(row, col);
        case StageMatrix::B: return example_b(row, col);
        case StageMatrix::C: return static_cast<double>(example_c(s.k, row, col));
    }
    return 0.0;
}

// The heat map of matrix `x`, covering `area` of grid_rows × grid_cols cells (C's includes
// the ghost threads' overhang, for its block lines).
HeatmapQuad heatmap_quad(const StageScene& s, const Matrix& x, const Rect& area, int grid_rows, int grid_cols) {
    const ValueRange range = example_range(x.which, s.problem);
    HeatmapQuad q;
    q.key = example_key(x.which, s.problem);
    q.image = [which = x.which, problem = s.problem, rows = x.rows, cols = x.cols] {
        return heatmap_image(rows, cols, kMaxTextureSide,
                             [&](int row, std::span<float> out) { example_row(which, problem, row, out); });
    };
    q.min = area.min;
    q.max = area.max;
    q.rows = x.rows;
    q.cols = x.cols;
    q.grid_rows = grid_rows;
    q.grid_cols = grid_cols;
    q.low = static_cast<float>(range.min);
    q.high = static_cast<float>(range.max);
    q.low_colour = x.palette.fill;
    q.high_colour = x.palette.line;
    q.line_colour = x.palette.text;
    q.selected_colour = colours::kHighlight;
    if (x.which == StageMatrix::C && s.tiling.modelled) {
        q.block_rows = s.tiling.rows_per_block;
        q.block_cols = s.tiling.cols_per_block;
        if (s.shown) {
            q.selected_block_row = s.shown->row / s.tiling.rows_per_block;
            q.selected_block_col = s.shown->col / s.tiling.cols_per_block;
        }
    }
    return q;
}

// The cells of a heat map: the painter's texture, or without one (the tests) a flat fill.
void paint_heatmap(ImDrawList* draw, const StageScene& s, const Matrix& x, const Rect& area, int grid_rows,
                   int grid_cols) {
    if (HeatmapPainter* painter = heatmap_painter()) {
        painter->paint(draw, heatmap_quad(s, x, area, grid_rows, grid_cols));
        return;
    }
    const Rect v = intersect(x.area, s.region);
    if (!is_empty(v)) draw->AddRectFilled(v.min, v.max, x.palette.fill);
}

Rect block_rect(const StageScene& s, int block_row, int block_col) {
    const BlockTiling& t = s.tiling;
    return cells_rect(s.layout.grid, t.grid_rows, t.grid_cols, block_row * t.rows_per_block,
                      block_col * t.cols_per_block, (block_row + 1) * t.rows_per_block,
                      (block_col + 1) * t.cols_per_block);
}

// C as a grid of cells: alternate shades per block while the blocks are big enough to tell
// apart, then the block lines. Only for small C, so the loops over blocks stay short.
void draw_c_grid(ImDrawList* draw, const StageScene& s) {
    const StageLayout& l = s.layout;
    const BlockTiling& t = s.tiling;
    const float block_w = l.cell_w * static_cast<float>(t.cols_per_block);
    const float block_h = l.cell_h * static_cast<float>(t.rows_per_block);
    draw->AddRectFilled(l.c.min, l.c.max, colours::kC.fill);
    if (block_w >= 6.0f && block_h >= 6.0f)
        for (int i = 0; i < t.block_rows(); ++i)
            for (int j = 0; j < t.block_cols(); ++j) {
                if ((i + j) % 2 == 0) continue;
                const Rect b = block_rect(s, i, j);
                draw->AddRectFilled(b.min, {std::min(b.max.x, l.c.max.x), std::min(b.max.y, l.c.max.y)},
                                    colours::kC.fill_alt);
            }
    draw_cell_lines(draw, l.c, s.m, s.n, s.region, with_alpha(colours::kC.line, 70));
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
}

// Dark text on light cells, white on dark ones.
ImU32 text_on(ImU32 background) {
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(background);
    return 0.299f * c.x + 0.587f * c.y + 0.114f * c.z < 0.55f ? IM_COL32_WHITE : colours::kCellValue;
}

}  // namespace

void draw_matrices(ImDrawList* draw, const StageScene& s) {
    const StageLayout& l = s.layout;
    // Ghost threads first, so that C's block lines run across them.
    draw_hatched(draw, {{l.c.max.x, l.grid.min.y}, l.grid.max});
    draw_hatched(draw, {{l.grid.min.x, l.c.max.y}, {l.c.max.x, l.grid.max.y}});

    for (const Matrix& x : matrices(s)) {
        const bool heat = is_heatmap(x.rows, x.cols);
        const bool c = x.which == StageMatrix::C;
        if (heat) {
            paint_heatmap(draw, s, x, c ? l.grid : x.area, c ? s.tiling.grid_rows : x.rows,
                          c ? s.tiling.grid_cols : x.cols);
        } else if (c) {
            draw_c_grid(draw, s);
        } else {
            draw->AddRectFilled(x.area.min, x.area.max, x.palette.fill);
            draw_cell_lines(draw, x.area, x.rows, x.cols, s.region, with_alpha(x.palette.line, 90));
        }
        if (c) draw->AddRect(l.grid.min, l.grid.max, with_alpha(colours::kC.line, 120), 0.0f, 0, 1.0f);
        draw->AddRect(x.area.min, x.area.max, x.palette.line, 0.0f, 0, outline_width(2.0f));

        const auto value = [&](int row, int col) { return example_value(s, x.which, row, col); };
        const ValueRange range = example_range(x.which, s.problem);
        if (heat) {
            const HeatmapQuad ramp = heatmap_quad(s, x, x.area, x.rows, x.cols);
            draw_values(draw, x.area, x.rows, x.cols, s.region, range, value,
                        [&](double v) { return text_on(heat_colour(ramp, v)); });
        } else {
            draw_values(draw, x.area, x.rows, x.cols, s.region, range, value,
                        [](double) { return colours::kCellValue; });
        }
    }
}

Rect draw_heatmap_legend(ImDrawList* draw, const StageScene& s) {
    const ImVec2 corner{s.region.min.x + 8.0f, s.region.min.y + 8.0f};
    std::vector<Matrix> shown;
    for (const Matrix& x : matrices(s))
        if (is_heatmap(x.rows, x.cols)) shown.push_back(x);
    if (shown.empty() || !heatmap_painter()) return {corner, corner};

    ImFont* font = small_font();
    const float line = imgui_compat::font_size(font) + 6.0f, pad = 8.0f, bar_w = 90.0f;
    struct Row {
        Matrix x;
        std::string low, high, note;
    };
    std::vector<Row> rows;
    bool sub_pixel = false;
    for (const Matrix& x : shown) {
        const ValueRange range = example_range(x.which, s.problem);
        const int box_rows = model::ceil_div(x.rows, kMaxTextureSide), box_cols = model::ceil_div(x.cols, kMaxTextureSide);
        std::string note;
        if (box_rows > 1 || box_cols > 1)
            note = model::format_text("  texels: means of {}×{} cells", box_rows, box_cols);
        rows.push_back({x, number(range.min), number(range.max), note});
        sub_pixel = sub_pixel || x.area.width() < static_cast<float>(x.cols) || x.area.height() < static_cast<float>(x.rows);
    }
    const std::string title = "Colour = example value";
    const std::string footer = "Cells smaller than a pixel: their mean.";
    const float name_w = text_width(font, "C  ");
    float low_w = 0.0f, rest_w = 0.0f;
    for (const Row& r : rows) {
        low_w = std::max(low_w, text_width(font, r.low));
        rest_w = std::max(rest_w, text_width(font, " " + r.high + r.note));
    }
    float width = name_w + low_w + 4.0f + bar_w + rest_w;
    width = std::max({width, text_width(font, title), sub_pixel ? text_width(font, footer) : 0.0f});
    const float height = line * static_cast<float>(rows.size() + 1 + (sub_pixel ? 1 : 0));
    const Rect box{corner, {corner.x + width + 2.0f * pad, corner.y + height + 2.0f * pad}};
    draw->AddRectFilled(box.min, box.max, IM_COL32(255, 255, 255, 235), 4.0f);
    draw->AddRect(box.min, box.max, with_alpha(colours::kMuted, 120), 4.0f);

    ImVec2 at{box.min.x + pad, box.min.y + pad};
    draw->AddText(font, imgui_compat::font_size(font), at, colours::kMuted, title.c_str());
    for (const Row& r : rows) {
        at.y += line;
        const char* name = r.x.which == StageMatrix::A ? "A" : r.x.which == StageMatrix::B ? "B" : "C";
        draw->AddText(font, imgui_compat::font_size(font), at, r.x.palette.text, name);
        const float low_x = at.x + name_w + low_w - text_width(font, r.low);
        draw->AddText(font, imgui_compat::font_size(font), {low_x, at.y}, colours::kCellValue, r.low.c_str());
        // ImGui shades the bar linearly between the corner colours, as the shader mixes them.
        const ImVec2 bar_min{at.x + name_w + low_w + 4.0f, at.y + 1.0f};
        const ImVec2 bar_max{bar_min.x + bar_w, at.y + imgui_compat::font_size(font)};
        draw->AddRectFilledMultiColor(bar_min, bar_max, r.x.palette.fill, r.x.palette.line, r.x.palette.line,
                                      r.x.palette.fill);
        draw->AddText(font, imgui_compat::font_size(font), {bar_max.x, at.y}, colours::kCellValue, (" " + r.high).c_str());
        draw->AddText(font, imgui_compat::font_size(font), {bar_max.x + text_width(font, " " + r.high), at.y}, colours::kMuted,
                      r.note.c_str());
    }
    if (sub_pixel) draw->AddText(font, imgui_compat::font_size(font), {at.x, at.y + line}, colours::kMuted, footer.c_str());
    return box;
}

void draw_hatched(ImDrawList* draw, const Rect& r, float spacing) {
    // Only the part inside the clip rect: zoomed in, a ghost strip can be millions of pixels
    // long. The lines keep their places relative to r, so they move with it.
    const Rect v = intersect(r, {draw->GetClipRectMin(), draw->GetClipRectMax()});
    if (!(v.width() >= 0.5f && v.height() >= 0.5f)) return;  // empty, or not a number
    draw->AddRectFilled(v.min, v.max, colours::kGhostFill);
    // Each line is x + y = r.min.x + r.min.y + i·spacing; the part of it inside v is cut here,
    // not by a clip rect: a clip rect is a draw call of its own, and a 32-wide tile in the
    // theatre hatches up to two thousand padding slots. On llvmpipe each draw call bins some
    // 37 KiB, so such a frame filled half a dozen 36 MiB scenes, which llvmpipe keeps
    // allocated (up to 64 of them) until it reuses them: resident memory that never came back.
    const double base = static_cast<double>(r.min.x) + r.min.y;
    const double first = std::ceil((static_cast<double>(v.min.x) + v.min.y - base) / spacing);
    for (double i = first; base + i * spacing <= static_cast<double>(v.max.x) + v.max.y; i += 1.0) {
        const double sum = base + i * spacing;
        // Where the line enters and leaves v: x from the bottom edge (or the left) to the top
        // edge (or the right).
        const double x0 = std::max<double>(v.min.x, sum - v.max.y);
        const double x1 = std::min<double>(v.max.x, sum - v.min.y);
        if (!(x1 > x0)) continue;  // touches a corner only
        draw->AddLine({static_cast<float>(x1), static_cast<float>(sum - x1)},
                      {static_cast<float>(x0), static_cast<float>(sum - x0)}, colours::kGhostHatch);
    }
}

}  // namespace ts::views
