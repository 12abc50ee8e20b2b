#include "views/stage/stage_layout.hpp"

#include <algorithm>
#include <cmath>

#include "model/launch_geometry.hpp"
#include "model/thread_map.hpp"

namespace ts::views {

BlockTiling block_tiling(const model::KernelConfig& config, const model::Problem& problem) {
    BlockTiling tiling;
    const model::LaunchGeometry launch = model::plan_launch(config, problem);
    if (!launch.modelled) {
        tiling.modelled = false;
        tiling.rows_per_block = tiling.grid_rows = static_cast<int>(problem.m);
        tiling.cols_per_block = tiling.grid_cols = static_cast<int>(problem.n);
        return tiling;
    }
    // The first block's cells give a block's shape; the last block's end is the grid's.
    const model::Index2 last_block{static_cast<int>(launch.grid.x) - 1, static_cast<int>(launch.grid.y) - 1};
    const model::CellRange first = model::cells_of_block(config, problem, {0, 0});
    const model::CellRange last = model::cells_of_block(config, problem, last_block);
    tiling.rows_per_block = first.row_end - first.row_begin;
    tiling.cols_per_block = first.col_end - first.col_begin;
    tiling.grid_rows = last.row_end;
    tiling.grid_cols = last.col_end;
    return tiling;
}

namespace {

// Pixels per cell so that d1 + d2 cells fill `avail`, where a dimension that would be
// thinner than `min_extent` is widened to it (a 4-wide C beside K = 16384 stays visible).
float fit_scale(float avail, float d1, float d2, float min_extent) {
    avail = std::max(avail, 1.0f);
    const float s = avail / (d1 + d2);
    const bool thin1 = d1 * s < min_extent, thin2 = d2 * s < min_extent;
    if (thin1 && !thin2) return std::max(avail - min_extent, 1.0f) / d2;
    if (thin2 && !thin1) return std::max(avail - min_extent, 1.0f) / d1;
    return s;
}

}  // namespace

StageLayout layout_stage(const model::Problem& problem, const BlockTiling& tiling, Rect region, float line_height) {
    const float k = static_cast<float>(problem.k);
    const float grid_rows = static_cast<float>(tiling.grid_rows);
    const float grid_cols = static_cast<float>(tiling.grid_cols);

    // Margins, in lines of text: B's name above B; A's name (left) and the block labels of
    // C's first block row (right) between B and C; C's name below; room on the right of C
    // so nothing touches the window edge.
    const float top = 1.6f * line_height, between_y = 1.8f * line_height, bottom = 1.8f * line_height;
    const float left = 0.5f * line_height, between_x = 1.0f * line_height, right = 1.0f * line_height;
    const float min_extent = 2.5f * line_height;
    // A cell at most a quarter of the region's shorter side (and never under 4 lines of text): a
    // small example such as PMPP's 4 × 6 fills the canvas at a projector, and a 1 × 1 problem
    // still shows its neighbours' room.
    const float max_cell = std::max(4.0f * line_height, 0.25f * std::min(region.width(), region.height()));

    const float avail_w = region.width() - left - between_x - right;
    const float avail_h = region.height() - top - between_y - bottom;
    const float scale = std::min({fit_scale(avail_w, k, grid_cols, min_extent),
                                  fit_scale(avail_h, k, grid_rows, min_extent), max_cell});
    const float k_extent = std::max(k * scale, min_extent);
    const float cols_extent = std::max(grid_cols * scale, min_extent);
    const float rows_extent = std::max(grid_rows * scale, min_extent);

    // Centre the picture when it is smaller than the region.
    const float total_w = left + k_extent + between_x + cols_extent + right;
    const float total_h = top + k_extent + between_y + rows_extent + bottom;
    const float x0 = region.min.x + left + std::max(0.0f, (region.width() - total_w) * 0.5f);
    const float y0 = region.min.y + top + std::max(0.0f, (region.height() - total_h) * 0.5f);

    StageLayout layout;
    layout.cell_w = cols_extent / grid_cols;
    layout.cell_h = rows_extent / grid_rows;
    layout.k_cell = k_extent / k;
    const float c_x = x0 + k_extent + between_x;
    const float c_y = y0 + k_extent + between_y;
    const float c_w = layout.cell_w * static_cast<float>(problem.n);
    const float c_h = layout.cell_h * static_cast<float>(problem.m);
    layout.b = {{c_x, y0}, {c_x + c_w, y0 + k_extent}};
    layout.a = {{x0, c_y}, {x0 + k_extent, c_y + c_h}};
    layout.c = {{c_x, c_y}, {c_x + c_w, c_y + c_h}};
    layout.grid = {{c_x, c_y}, {c_x + cols_extent, c_y + rows_extent}};
    return layout;
}

std::optional<model::Cell> cell_at(const Rect& area, int rows, int cols, ImVec2 p) {
    if (!area.contains(p) || rows <= 0 || cols <= 0) return std::nullopt;
    const int row = static_cast<int>((p.y - area.min.y) / area.height() * static_cast<float>(rows));
    const int col = static_cast<int>((p.x - area.min.x) / area.width() * static_cast<float>(cols));
    return model::Cell{std::clamp(row, 0, rows - 1), std::clamp(col, 0, cols - 1)};
}

Rect cells_rect(const Rect& area, int rows, int cols, int row0, int col0, int row1, int col1) {
    const float cw = area.width() / static_cast<float>(cols);
    const float ch = area.height() / static_cast<float>(rows);
    return {{area.min.x + cw * static_cast<float>(col0), area.min.y + ch * static_cast<float>(row0)},
            {area.min.x + cw * static_cast<float>(col1), area.min.y + ch * static_cast<float>(row1)}};
}

namespace {

// Cells [begin, end) of `count` along one axis that overlap [lo, hi), where cell i spans
// [start + i·size, start + (i + 1)·size). In double: zoomed in, `start` lies millions of
// pixels away and the quotient would not fit an int.
std::pair<int, int> overlapping(float lo, float hi, float start, float size, int count) {
    const double first = std::floor((static_cast<double>(lo) - start) / size);
    const double last = std::ceil((static_cast<double>(hi) - start) / size);
    return {static_cast<int>(std::clamp(first, 0.0, static_cast<double>(count))),
            static_cast<int>(std::clamp(last, 0.0, static_cast<double>(count)))};
}

}  // namespace

ImVec2 centre(const Rect& r) { return {(r.min.x + r.max.x) * 0.5f, (r.min.y + r.max.y) * 0.5f}; }

model::CellRange visible_cells(const Rect& area, int rows, int cols, const Rect& visible) {
    if (rows <= 0 || cols <= 0 || area.width() <= 0.0f || area.height() <= 0.0f) return {};
    const auto [row_begin, row_end] = overlapping(visible.min.y, visible.max.y, area.min.y,
                                                  area.height() / static_cast<float>(rows), rows);
    const auto [col_begin, col_end] = overlapping(visible.min.x, visible.max.x, area.min.x,
                                                  area.width() / static_cast<float>(cols), cols);
    return {row_begin, row_end, col_begin, col_end};
}

ImVec2 to_screen(const StageCamera& camera, ImVec2 origin, ImVec2 home) {
    return {origin.x + (home.x - origin.x) * camera.zoom + camera.pan.x,
            origin.y + (home.y - origin.y) * camera.zoom + camera.pan.y};
}

ImVec2 to_home(const StageCamera& camera, ImVec2 origin, ImVec2 screen) {
    return {origin.x + (screen.x - origin.x - camera.pan.x) / camera.zoom,
            origin.y + (screen.y - origin.y - camera.pan.y) / camera.zoom};
}

Rect to_screen(const StageCamera& camera, ImVec2 origin, const Rect& home) {
    return {to_screen(camera, origin, home.min), to_screen(camera, origin, home.max)};
}

StageLayout to_screen(const StageCamera& camera, ImVec2 origin, const StageLayout& home) {
    StageLayout screen = home;
    screen.a = to_screen(camera, origin, home.a);
    screen.b = to_screen(camera, origin, home.b);
    screen.c = to_screen(camera, origin, home.c);
    screen.grid = to_screen(camera, origin, home.grid);
    screen.cell_w = home.cell_w * camera.zoom;
    screen.cell_h = home.cell_h * camera.zoom;
    screen.k_cell = home.k_cell * camera.zoom;
    return screen;
}

StageCamera look_at(ImVec2 origin, ImVec2 home, ImVec2 target, float zoom) {
    StageCamera camera;
    camera.zoom = zoom;
    camera.pan = {target.x - origin.x - (home.x - origin.x) * zoom, target.y - origin.y - (home.y - origin.y) * zoom};
    return camera;
}

StageCamera zoom_about(const StageCamera& camera, ImVec2 origin, ImVec2 fixed, float zoom) {
    return look_at(origin, to_home(camera, origin, fixed), fixed, zoom);
}

float max_zoom(const StageLayout& home) {
    const float smallest = std::min({home.cell_w, home.cell_h, home.k_cell});
    return smallest > 0.0f ? std::max(1.0f, kMaxCellPixels / smallest) : 1.0f;
}

StageCamera clamp_camera(const StageCamera& camera, const StageLayout& home, const Rect& region) {
    const float zoom = std::clamp(camera.zoom, kMinZoom, max_zoom(home));
    StageCamera clamped = zoom == camera.zoom ? camera : zoom_about(camera, region.min, centre(region), zoom);
    // At least `margin` pixels of the stage's bounding box stay inside the region.
    const Rect bounds = to_screen(clamped, region.min, Rect{{home.a.min.x, home.b.min.y}, home.grid.max});
    const float margin = 0.2f * std::min(region.width(), region.height());
    if (bounds.max.x < region.min.x + margin) clamped.pan.x += region.min.x + margin - bounds.max.x;
    if (bounds.min.x > region.max.x - margin) clamped.pan.x -= bounds.min.x - (region.max.x - margin);
    if (bounds.max.y < region.min.y + margin) clamped.pan.y += region.min.y + margin - bounds.max.y;
    if (bounds.min.y > region.max.y - margin) clamped.pan.y -= bounds.min.y - (region.max.y - margin);
    return clamped;
}

StageGeometry stage_geometry(const model::Problem& problem, const model::KernelConfig& config,
                             const StageCamera& camera, Rect region, float line_height) {
    StageGeometry g;
    g.region = region;
    g.tiling = block_tiling(config, problem);
    g.home = layout_stage(problem, g.tiling, region, line_height);
    g.camera = camera;
    if (const auto& request = camera.request) {
        ImVec2 point = centre(region);
        const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n);
        if (request->centre && model::inside(request->centre->row, request->centre->col, m, n)) {
            const model::Cell c = *request->centre;
            point = centre(cells_rect(g.home.c, m, n, c.row, c.col, c.row + 1, c.col + 1));
        }
        g.camera = look_at(region.min, point, centre(region), request->zoom);
    }
    g.camera = clamp_camera(g.camera, g.home, region);
    g.layout = to_screen(g.camera, region.min, g.home);
    return g;
}

void start_picture(PictureLayout& picture, const char* view, const Rect& canvas, const StageLayout& layout) {
    picture.begin(view, canvas.min, canvas.max);
    picture.add_matrix("A", layout.a.min, layout.a.max);
    picture.add_matrix("B", layout.b.min, layout.b.max);
    picture.add_matrix("C", layout.c.min, layout.c.max);
}

}  // namespace ts::views
