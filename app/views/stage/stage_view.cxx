#include "views/stage/stage_view.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "views/common/example_values.hpp"
#include "views/common/picture_layout.hpp"
#include "views/common/text.hpp"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/thread_map.hpp"
#include "views/stage/stage_layout.hpp"
#include "views/stage/stage_paint.hpp"
#include "views/window/shortcuts.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {
std::string phases(int count) { return format_text(count == 1 ? "{} phase" : "{} phases", count); }

std::string_view rung_title(model::KernelKind kind) {
    switch (kind) {
        case model::KernelKind::RegTile1d: return "Register-tiled (1-D)";
        case model::KernelKind::RegTile2d: return "Register-tiled (2-D)";
        case model::KernelKind::Vectorized: return "Vectorized";
        case model::KernelKind::ConflictFree: return "Conflict-free";
        case model::KernelKind::Warptile: return "Warp-tiled";
        case model::KernelKind::Pipelined: return "Pipelined";
        default: return "Tuned";
    }
}
}  // namespace

std::string c_cell_tooltip(const model::KernelConfig& config, const model::Problem& problem, model::Cell cell) {
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    if (!model::inside(cell.row, cell.col, m, n)) return {};
    // Short lines: the tooltip should cover as little of the matrices as it can.
    std::string text = format_text("C[{}][{}]: row {}, column {}\n", cell.row, cell.col, cell.row, cell.col);
    const auto thread = model::thread_of_cell(config, problem, cell);
    if (!thread) {
        text += "computed by cuBLAS, which picks its own kernels,\ngrids and tiles at run time: "
                "no thread to show";
    } else {
        text += format_text("computed by the thread with\nblockIdx (x={}, y={}), threadIdx (x={}, y={})\n",
                       thread->block.x, thread->block.y, thread->thread.x, thread->thread.y);
        text += format_text("warp {}, lane {} of its block\n", thread->warp, thread->lane);
        if (config.kind == model::KernelKind::RowPerThread)
            text += format_text("which computes all of row {}: this is step {}\n", cell.row, thread->step);
        if (config.kind == model::KernelKind::ColumnPerThread)
            text += format_text("which computes all of column {}: this is step {}\n", cell.col, thread->step);
        text += format_text("reads row {} of A and column {} of B\n", cell.row, cell.col);
        if (config.kind == model::KernelKind::Tiled)
            text += format_text("via shared memory, in {} of T = {}", phases(model::phase_count(k, config.tile)),
                           config.tile);
        else if (const model::LadderShape s = model::ladder_shape(config); model::is_ladder(config.kind))
            text += format_text("via shared memory, in {} K steps of {};\nthis is cell {} of the {} it computes",
                                model::ladder_steps(s, k), s.bk, thread->step + 1, s.cells_per_thread());
        else
            text += format_text("from global memory, {} elements each", k);
    }
    text += format_text("\nexample values:\nC[{}][{}] = Σ A[{}][k]·B[k][{}] = {}", cell.row, cell.col, cell.row, cell.col,
                   example_c(k, cell.row, cell.col));
    return text;
}

std::string kernel_sentence(const model::KernelConfig& config, const model::Problem& problem) {
    if (model::is_ladder(config.kind)) {
        const model::LadderShape s = model::ladder_shape(config);
        const int tiles = s.wm_iter * s.wn_iter;
        return format_text("{} kernel: blocks of {} threads each compute a {}×{} tile of C; each thread computes "
                           "{}{}×{} cells from registers, walking K {} at a time{}.",
                           rung_title(config.kind), s.threads(), s.bm, s.bn, tiles > 1 ? format_text("{} tiles of ", tiles) : "",
                           s.tm, s.tn, s.bk, s.stages > 1 ? format_text(", {} steps in flight", s.stages) : "");
    }
    if (model::is_tensor_core(config.kind))
        return format_text("{}: a tensor-core rung (BF16 or FP16 in, FP32 accumulation). Its warps share whole "
                           "fragments of A, B and C, so the stage draws no thread per cell; `tilescope-cli bench "
                           "--kernel tc-ladder` measures it.",
                           model::kernel_name(config.kind));
    switch (config.kind) {
        case model::KernelKind::Naive:
            return format_text("Naive kernel, blocks of {}×{} threads: one thread per cell of C, threadIdx.x → column "
                          "(a warp reads neighbouring addresses).",
                          config.block_x, config.block_y);
        case model::KernelKind::NaiveRowFromX:
            return format_text("Naive-row kernel, blocks of {}×{} threads: one thread per cell of C, threadIdx.x → row "
                          "(a warp's addresses lie K apart).",
                          config.block_x, config.block_y);
        case model::KernelKind::RowPerThread:
            return format_text("Row-per-thread kernel, blocks of {} threads: each thread computes a whole row of C, "
                          "one cell after another.",
                          config.block_x);
        case model::KernelKind::ColumnPerThread:
            return format_text("Column-per-thread kernel, blocks of {} threads: each thread computes a whole column "
                          "of C, one cell after another.",
                          config.block_x);
        case model::KernelKind::Tiled:
            return format_text("Tiled kernel, T = {}: each block of {}×{} threads computes one {}×{} tile of C, "
                          "walking K in {}.",
                          config.tile, config.tile, config.tile, config.tile, config.tile,
                          phases(model::phase_count(static_cast<int>(problem.k), std::max(config.tile, 1))));
        case model::KernelKind::Cublas:
            return "cuBLAS, NVIDIA's GEMM: the line to measure against. It picks its own kernels, grids and tiles "
                   "at run time, so no threads are drawn.";
        default:
            break;
    }
    return {};
}

namespace {

// Highlights must stay visible when a cell is smaller than a pixel (4096 × 4096 in 500 px).
Rect at_least(Rect r, float size) {
    const float grow_x = std::max(0.0f, (size - r.width()) * 0.5f);
    const float grow_y = std::max(0.0f, (size - r.height()) * 0.5f);
    return {{r.min.x - grow_x, r.min.y - grow_y}, {r.max.x + grow_x, r.max.y + grow_y}};
}


// Text centred on `centre_x` with its top at `top`, kept inside [min_x, max_x].
// A label centred on `centre_x`, kept between min_x and max_x; its box goes into `picture`.
void draw_label(ImDrawList* draw, ImFont* font, float font_size, float centre_x, float top, float min_x, float max_x,
                ImU32 colour, const std::string& text, PictureLayout& picture) {
    const ImVec2 size = font->CalcTextSizeA(font_size, FLT_MAX, 0.0f, text.c_str());
    const float x = std::max(min_x, std::min(centre_x - size.x * 0.5f, max_x - size.x));
    draw->AddText(font, font_size, {x, top}, colour, text.c_str());
    picture.add_label("label: ", text, {x, top}, {x + size.x, top + size.y});
}

// A tab on the top edge of every visible block saying which blockIdx it is, when the blocks
// are wide enough for it; the tab straddles the edge so it never covers a cell's value.
// Zoomed in, a block whose top or left edge lies off the stage keeps its tab at the stage's
// edge, so every block on screen says which it is.
void draw_block_tabs(ImDrawList* draw, const StageScene& s, PictureLayout& picture) {
    const BlockTiling& t = s.tiling;
    if (!t.modelled) return;
    ImFont* font = small_font();
    const float pad = 4.0f;
    const float tab_h = imgui_compat::font_size(font) + 2.0f;
    const float block_w = s.layout.cell_w * static_cast<float>(t.cols_per_block);
    const float block_h = s.layout.cell_h * static_cast<float>(t.rows_per_block);
    if (block_w < text_width(font, "(00,00)") + 4 * pad || block_h < tab_h) return;
    const bool long_form = block_w >= text_width(font, "blockIdx (00,00)") + 4 * pad;
    // A tab hangs half its height above its block, so the blocks just below the region count.
    const Rect reach{s.region.min, {s.region.max.x, s.region.max.y + tab_h}};
    const model::CellRange blocks = visible_cells(s.layout.grid, t.block_rows(), t.block_cols(), reach);
    for (int i = blocks.row_begin; i < blocks.row_end; ++i)
        for (int j = blocks.col_begin; j < blocks.col_end; ++j) {
            const Rect b = cells_rect(s.layout.grid, t.block_rows(), t.block_cols(), i, j, i + 1, j + 1);
            // The block's first cell always lies inside C, so the model knows its thread.
            const auto id = model::thread_of_cell(s.config, s.problem, {i * t.rows_per_block, j * t.cols_per_block});
            const std::string text = format_text(long_form ? "blockIdx ({},{})" : "({},{})", id->block.x, id->block.y);
            const float w = text_width(font, text.c_str()) + 2 * pad;
            const ImVec2 min{std::max(b.min.x, s.region.min.x) + pad,
                             std::max(b.min.y - tab_h * 0.5f, s.region.min.y + 2.0f)};
            if (min.x + w > b.max.x || min.y + tab_h > b.max.y) continue;  // what shows of the block is too small
            draw->AddRectFilled(min, {min.x + w, min.y + tab_h}, colours::kC.line, 4.0f);
            picture.add_label("tab: ", text, min, {min.x + w, min.y + tab_h});
            draw->AddText(font, imgui_compat::font_size(font), {min.x + pad, min.y + 1.0f}, IM_COL32_WHITE, text.c_str());
        }
}

void draw_labels(ImDrawList* draw, const StageScene& s, PictureLayout& picture) {
    const StageLayout& l = s.layout;
    ImFont* font = heading_font();
    const float line = s.label_size;
    const float min_x = s.region.min.x + 2.0f, max_x = s.region.max.x - 2.0f;
    draw_label(draw, font, line, (l.b.min.x + l.b.max.x) * 0.5f, l.b.min.y - 1.35f * line, min_x, max_x,
               colours::kB.text, format_text("B (K×N)  {} × {}", s.k, s.n), picture);
    draw_label(draw, font, line, (l.a.min.x + l.a.max.x) * 0.5f, l.a.min.y - 1.45f * line, min_x, max_x,
               colours::kA.text, format_text("A (M×K)  {} × {}", s.m, s.k), picture);

    // C's name, and a note when the grid hangs over C (what the hatching is) or is unknown.
    const std::string c_label = format_text("C (M×N)  {} × {}", s.m, s.n);
    std::string note;
    if (!s.tiling.modelled)
        note = model::is_tensor_core(s.config.kind) ? "   a tensor-core rung: no thread per cell drawn"
                                                    : "   cuBLAS picks its own blocks: none drawn";
    else if (s.tiling.grid_rows > s.m || s.tiling.grid_cols > s.n)
        note = format_text("   hatched: ghost threads (the grid covers {} × {})", s.tiling.grid_rows, s.tiling.grid_cols);
    ImFont* small = small_font();
    // The note shrinks with the name.
    const float small_size = imgui_compat::font_size(small) * line / imgui_compat::font_size(font);
    const float label_w = font->CalcTextSizeA(line, FLT_MAX, 0.0f, c_label.c_str()).x;
    const float note_w = small->CalcTextSizeA(small_size, FLT_MAX, 0.0f, note.c_str()).x;
    const float top = l.grid.max.y + 0.35f * line;
    const float x = std::max(min_x, std::min((l.c.min.x + l.c.max.x - label_w) * 0.5f, max_x - label_w - note_w));
    draw->AddText(font, line, {x, top}, colours::kC.text, c_label.c_str());
    draw->AddText(small, small_size, {x + label_w, top + line - small_size}, colours::kMuted, note.c_str());
    picture.add_label("label: ", c_label + note, {x, top}, {x + label_w + note_w, top + line});

    // Say so when the blocks are too small to draw, rather than leave C looking empty.
    const float block_w = l.cell_w * static_cast<float>(s.tiling.cols_per_block);
    const float block_h = l.cell_h * static_cast<float>(s.tiling.rows_per_block);
    if (block_w < 3.0f || block_h < 3.0f) {
        ImFont* body = ImGui::GetFont();
        draw_label(draw, body, imgui_compat::font_size(body), (l.c.min.x + l.c.max.x) * 0.5f, (l.c.min.y + l.c.max.y) * 0.5f - imgui_compat::font_size(body),
                   l.c.min.x, l.c.max.x, colours::kC.text,
                   format_text("{} × {} blocks of {}×{} cells:\ntoo small to draw one by one (zoom in)",
                          s.tiling.block_cols(), s.tiling.block_rows(), s.tiling.cols_per_block,
                          s.tiling.rows_per_block),
                   picture);
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
    draw->AddRect(r.min, r.max, colours::kHighlight, 0.0f, 0, emphasis_width(thickness));
}

// The cell, its block and the other cells its thread computes (from the model's thread
// map), and the row of A and column of B it reads.
void highlight_c_cell(ImDrawList* draw, const StageScene& s, model::Cell cell) {
    const StageLayout& l = s.layout;
    const auto c_range = [&](const model::CellRange& r) {
        return cells_rect(l.grid, s.tiling.grid_rows, s.tiling.grid_cols, r.row_begin, r.col_begin, r.row_end,
                          r.col_end);
    };
    if (const auto thread = model::thread_of_cell(s.config, s.problem, cell)) {
        outline(draw, c_range(model::cells_of_block(s.config, s.problem, thread->block)), 2.0f, false);
        const auto own = model::cells_of_thread(s.config, s.problem, thread->block, thread->thread);
        if (own.size() > 1 || (own.size() == 1 && own[0].count() > 1))
            for (const model::CellRange& tile : own) outline(draw, c_range(tile), 2.0f);
    }
    outline(draw, cells_rect(l.a, s.m, s.k, cell.row, 0, cell.row + 1, s.k), 2.5f);
    outline(draw, cells_rect(l.b, s.k, s.n, 0, cell.col, s.k, cell.col + 1), 2.5f);
    outline(draw, cells_rect(l.c, s.m, s.n, cell.row, cell.col, cell.row + 1, cell.col + 1), 3.0f);
}

// Tooltips for what lies under the mouse outside C: ghost threads, and cells of A and B.
void hover_outside_c(ImDrawList* draw, const StageScene& s, ImVec2 mouse) {
    const StageLayout& l = s.layout;
    if (l.grid.contains(mouse)) {
        show_tooltip(format_text("Ghost threads. The grid is rounded up to whole blocks, so it covers {} × {} cells\n"
                            "for a {} × {} C. These threads run, but their bounds check (row < M && col < N)\n"
                            "fails, so they compute and store nothing.",
                            s.tiling.grid_rows, s.tiling.grid_cols, s.m, s.n));
    } else if (const auto a = cell_at(l.a, s.m, s.k, mouse)) {
        outline(draw, cells_rect(l.a, s.m, s.k, a->row, a->col, a->row + 1, a->col + 1), 3.0f);
        show_tooltip(format_text("A[{}][{}]: row {}, column {} = {}\nread by every thread of row {} of C", a->row, a->col,
                            a->row, a->col, example_a(a->row, a->col), a->row));
    } else if (const auto b = cell_at(l.b, s.k, s.n, mouse)) {
        outline(draw, cells_rect(l.b, s.k, s.n, b->row, b->col, b->row + 1, b->col + 1), 3.0f);
        show_tooltip(format_text("B[{}][{}]: row {}, column {} = {}\nread by every thread of column {} of C", b->row,
                            b->col, b->row, b->col, example_b(b->row, b->col), b->col));
    }
}

// A pinned cell keeps its tooltip, so a teacher can point at the screen while talking about
// it. The tooltip goes where it covers nothing: into the empty corner above A and left of B
// (below the heat maps' legend), or right of C. Where neither has room (large text) its first
// three lines, which name the thread, go beside the cell, kept on the stage; the mouse still
// shows the rest.
void show_pinned_tooltip(const StageScene& s, model::Cell pinned, const Rect& legend) {
    const std::string full = c_cell_tooltip(s.config, s.problem, pinned) + "\n(pinned: click elsewhere to release)";
    std::size_t end = full.find('\n');  // the end of the first line, then of the second and third
    for (int line = 1; line < 3 && end != std::string::npos; ++line) end = full.find('\n', end + 1);
    const std::string brief = full.substr(0, end);
    const ImVec2 padding = ImGui::GetStyle().WindowPadding;
    const auto box_of = [&](const std::string& text) {
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        return ImVec2{size.x + 2.0f * padding.x, size.y + 2.0f * padding.y};
    };
    const ImVec2 corner(s.region.min.x + padding.x, std::max(s.layout.b.min.y, legend.max.y + padding.y));
    const float a_label_top = s.layout.a.min.y - 1.6f * s.label_size;
    const ImVec2 right_of_c(s.layout.grid.max.x + padding.x, s.layout.c.min.y);
    for (const std::string* text : {&full, &brief}) {
        const ImVec2 box = box_of(*text);
        const bool fits_corner = corner.x + box.x + padding.x < s.layout.b.min.x && corner.y + box.y < a_label_top;
        const bool fits_right = right_of_c.x + box.x <= s.region.max.x && right_of_c.y + box.y <= s.region.max.y;
        if (fits_corner || fits_right) {
            ImGui::SetNextWindowPos(fits_corner ? corner : right_of_c);
            show_tooltip(*text);
            return;
        }
    }
    // Beside the cell, opening towards the middle of the stage, and kept on the stage: with
    // large text it would otherwise cover the lesson card and the panels on the left.
    const ImVec2 box = box_of(brief);
    const Rect cell =
        at_least(cells_rect(s.layout.c, s.m, s.n, pinned.row, pinned.col, pinned.row + 1, pinned.col + 1), 3.0f);
    const bool right = cell.min.x > (s.region.min.x + s.region.max.x) * 0.5f;
    const bool low = cell.min.y > (s.region.min.y + s.region.max.y) * 0.5f;
    const float x = right ? cell.min.x - 8.0f - box.x : cell.max.x + 8.0f;
    const float y = low ? cell.min.y - 8.0f - box.y : cell.max.y + 8.0f;
    ImGui::SetNextWindowPos(ImVec2(std::max(s.region.min.x, std::min(x, s.region.max.x - box.x)),
                                   std::max(s.region.min.y, std::min(y, s.region.max.y - box.y))));
    show_tooltip(brief);
}

// The mouse wheel zooms about the pointer; dragging with any button pans (the left one only
// past ImGui's drag threshold, so that a click still pins a cell); the arrow keys pan and
// + and - zoom about the middle while no widget has the keys. Returns whether the camera
// moved.
bool steer_camera(StageCamera& camera, const StageGeometry& g, bool hovered, bool active) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 middle{(g.region.min.x + g.region.max.x) * 0.5f, (g.region.min.y + g.region.max.y) * 0.5f};
    constexpr float kStep = 1.25f;  // one notch of the wheel, one key press
    StageCamera next = camera;
    if (hovered && io.MouseWheel != 0.0f)
        next = zoom_about(next, g.region.min, io.MousePos, next.zoom * std::pow(kStep, io.MouseWheel));
    if (active && (ImGui::IsMouseDragging(ImGuiMouseButton_Left) || ImGui::IsMouseDown(ImGuiMouseButton_Right) ||
                   ImGui::IsMouseDown(ImGuiMouseButton_Middle))) {
        next.pan.x += io.MouseDelta.x;
        next.pan.y += io.MouseDelta.y;
    }
    // Shift and Alt with the arrows move the pinned cell (shortcuts.cxx), so they do not pan.
    if (view_has_plain_keys()) {
        const float step_x = 0.1f * g.region.width(), step_y = 0.1f * g.region.height();
        if (imgui_compat::key_pressed(keys::kLeft)) next.pan.x += step_x;
        if (imgui_compat::key_pressed(keys::kRight)) next.pan.x -= step_x;
        if (imgui_compat::key_pressed(keys::kUp)) next.pan.y += step_y;
        if (imgui_compat::key_pressed(keys::kDown)) next.pan.y -= step_y;
        for (const ImWchar c : io.InputQueueCharacters) {
            if (c == '+' || c == '=') next = zoom_about(next, g.region.min, middle, next.zoom * kStep);
            if (c == '-') next = zoom_about(next, g.region.min, middle, next.zoom / kStep);
        }
    }
    next = clamp_camera(next, g.home, g.region);
    const bool moved = next.zoom != camera.zoom || next.pan.x != camera.pan.x || next.pan.y != camera.pan.y;
    camera = next;
    return moved;
}

// "3.5×" below 10, "240×" above.
std::string zoom_text(float zoom) {
    char text[32];
    std::snprintf(text, sizeof text, zoom < 10.0f ? "%.1f×" : "%.0f×", zoom);
    return text;
}

// The zoom and a "Reset view" button, right-aligned on the current line, once the view is
// zoomed or panned: before, there is nothing to reset, and the line is the picture's.
void draw_camera_controls(StageCamera& camera) {
    if (camera.zoom == 1.0f && camera.pan.x == 0.0f && camera.pan.y == 0.0f) return;
    const std::string zoom = "zoom " + zoom_text(camera.zoom);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::CalcTextSize(zoom.c_str()).x + style.ItemSpacing.x +
                        ImGui::CalcTextSize("Reset view").x + 2.0f * style.FramePadding.x;
    // Beside the heading when it fits (large text leaves no room), else below it.
    ImGui::SameLine();
    const float right = ImGui::GetWindowContentRegionMax().x - width;
    if (ImGui::GetCursorPosX() > right)
        ImGui::NewLine();
    else
        ImGui::SameLine(right);
    ImGui::AlignTextToFramePadding();
    ImGui::PushStyleColor(ImGuiCol_Text, colours::kMuted);
    ImGui::TextUnformatted(zoom.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::Button("Reset view")) camera = StageCamera{};
}

// The stage's words: its title, the zoom, and what the kernel on show does, above the picture in
// `room`, or (`beside`) in a column of their own right of it, where they need not fold.
void draw_stage_words(StageCamera& camera, const AppState& app, ImVec2 room, bool beside) {
    heading("Stage: A · B = C");
    draw_camera_controls(camera);
    // At a projector the picture needs the room more than the hints do: the presenter talks
    // through them, and the keys list (F1) keeps them. The words fold where they would crowd the
    // picture (large text on a small screen).
    const float keep = beside ? 0.0f : picture_keeps(room, product_picture_cells(app.problem));
    if (app.presentation.presenter) {
        folding_muted_text(kernel_sentence(app.kernel, app.problem), "The kernel on show", keep);
    } else {
        const char* hint = model::is_modelled(app.kernel.kind) ? " Hover over a cell of C to see the thread that "
                                                                  "computes it; click to pin it."
                                                                : "";
        folding_muted_text(kernel_sentence(app.kernel, app.problem) + hint + " Scroll to zoom, drag to pan.",
                           "The kernel on show", keep);
    }
}

}  // namespace

void draw_stage_view(StageCamera& camera, std::optional<model::Cell>& selected, PictureLayout& picture,
                     const AppState& app) {
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float words_width = words_beside_width(room, product_picture_cells(app.problem));
    if (words_width <= 0.0f) {
        draw_stage_words(camera, app, room, false);
        draw_stage_canvas(camera, selected, picture, app);
        return;
    }
    draw_picture_beside_words(room, words_width, [&] { draw_stage_canvas(camera, selected, picture, app); },
                              [&] { draw_stage_words(camera, app, room, true); });
}

StageGeometry draw_stage_canvas(StageCamera& camera, std::optional<model::Cell>& selected, PictureLayout& picture,
                                const AppState& app) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::GetContentRegionAvail();
    const Rect region{origin, {origin.x + size.x, origin.y + size.y}};
    StageGeometry g;
    g.region = region;
    if (size.x < 80.0f || size.y < 80.0f) return g;  // collapsed window: nothing sensible to draw
    // An invisible button over the whole stage: hovering it is hovering the stage, any
    // button drags it, and a left click that is no drag pins a cell of C (or, anywhere
    // else, releases the pinned one).
    const bool pressed = ImGui::InvisibleButton(
        "##stage", size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
    const bool hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    const bool clicked = pressed && ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
                         io.MouseDragMaxDistanceSqr[0] < io.MouseDragThreshold * io.MouseDragThreshold;

    // The names and their margins take about 5 lines of the height: at most a third of it.
    const float line = std::min(imgui_compat::font_size(heading_font()), std::max(size.y / 15.0f, 10.0f));
    g = stage_geometry(app.problem, app.kernel, camera, region, line);
    camera = g.camera;
    if (steer_camera(camera, g, hovered, ImGui::IsItemActive()))
        g = stage_geometry(app.problem, app.kernel, camera, region, line);

    StageScene s{app.problem,
                 app.kernel,
                 g.tiling,
                 g.layout,
                 region,
                 static_cast<int>(app.problem.m),
                 static_cast<int>(app.problem.n),
                 static_cast<int>(app.problem.k),
                 std::nullopt,
                 line};
    const ImVec2 mouse = io.MousePos;
    const auto hovered_cell = hovered ? cell_at(s.layout.c, s.m, s.n, mouse) : std::nullopt;
    if (clicked) selected = hovered_cell;
    if (selected && !model::inside(selected->row, selected->col, s.m, s.n))
        selected.reset();  // C shrank under it
    // The hovered cell wins over the pinned one.
    s.shown = hovered_cell ? hovered_cell : selected;

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    draw_matrices(draw, s);
    // Highlights go under the block tabs and labels.
    if (s.shown) highlight_c_cell(draw, s, *s.shown);
    start_picture(picture, "stage", region, s.layout);
    draw_block_tabs(draw, s, picture);
    draw_labels(draw, s, picture);
    const Rect legend = draw_heatmap_legend(draw, s);

    if (hovered_cell)
        show_tooltip(c_cell_tooltip(app.kernel, app.problem, *hovered_cell) + "\n(click to pin)");
    else if (selected && !app.picture_without_tooltips)
        show_pinned_tooltip(s, *selected, legend);
    if (hovered && !hovered_cell) hover_outside_c(draw, s, mouse);
    draw->PopClipRect();
    return g;
}

}  // namespace ts::views
