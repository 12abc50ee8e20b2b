// stage_layout.hpp — where the stage view puts A, B and C, as plain functions of the
// problem, the region and the camera (zoom and pan), so that the tests can check the layout
// without drawing it.
#pragma once

#include <optional>

#include "imgui.h"
#include "model/index_math.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"
#include "model/thread_map.hpp"
#include "views/common/picture_layout.hpp"

namespace ts::views {

struct Rect {
    ImVec2 min;
    ImVec2 max;
    float width() const { return max.x - min.x; }
    float height() const { return max.y - min.y; }
    bool contains(ImVec2 p) const { return p.x >= min.x && p.y >= min.y && p.x < max.x && p.y < max.y; }
};

// How the grid of thread blocks tiles C, read off the model's thread map: each block covers
// rows_per_block × cols_per_block cells, and the whole grid covers grid_rows × grid_cols
// cells, which is more than M × N when the sizes are not multiples of the block (the rest
// are ghost threads). For a kernel the model cannot see into (cuBLAS) `modelled` is false
// and C counts as one block with no ghosts.
struct BlockTiling {
    bool modelled = true;
    int rows_per_block = 1;
    int cols_per_block = 1;
    int grid_rows = 1;
    int grid_cols = 1;
    int block_rows() const { return grid_rows / rows_per_block; }
    int block_cols() const { return grid_cols / cols_per_block; }
};
BlockTiling block_tiling(const model::KernelConfig& config, const model::Problem& problem);

// The classic picture: B above C, A to the left of C, cells square, scaled to fit `region`
// with room for one line of text (`line_height`) above B, between the rows and below C.
// A dimension too small to see next to a huge one is widened to a few lines of text.
struct StageLayout {
    Rect a;       // M × K
    Rect b;       // K × N
    Rect c;       // M × N
    Rect grid;    // C plus the ghost-thread overhang: everything the grid of blocks covers
    float cell_w = 0.0f;  // one column of C and B
    float cell_h = 0.0f;  // one row of C and A
    float k_cell = 0.0f;  // one step along K: a column of A, a row of B
};
StageLayout layout_stage(const model::Problem& problem, const BlockTiling& tiling, Rect region, float line_height);

// The cell of a rows × cols matrix drawn in `area` that contains `p`, or nullopt.
ImVec2 centre(const Rect& r);

std::optional<model::Cell> cell_at(const Rect& area, int rows, int cols, ImVec2 p);

// The pixel rectangle of cells [row0, row1) × [col0, col1) of a rows × cols matrix in `area`.
Rect cells_rect(const Rect& area, int rows, int cols, int row0, int col0, int row1, int col1);

// The cells of a rows × cols matrix drawn in `area` that overlap `visible` (empty when none):
// what is drawn one cell or one block at a time is drawn only there, so a zoomed-in 16384²
// matrix costs what the screen holds, not what the matrix holds.
model::CellRange visible_cells(const Rect& area, int rows, int cols, const Rect& visible);

// The stage's zoom and pan. layout_stage() gives the home view, where everything fits the
// region; the camera scales that picture by `zoom` about the region's top-left corner
// (`origin`), then shifts it by `pan` pixels. Zoom 1 and no pan is the home view.
struct StageCamera {
    float zoom = 1.0f;
    ImVec2 pan{0.0f, 0.0f};
    // --zoom and --center know no pixels: the next draw turns this into zoom and pan (at
    // `zoom`, with the centre of cell `centre` of C, or the middle of the region, in the
    // middle of the region) and clears it.
    struct Request {
        float zoom = 1.0f;
        std::optional<model::Cell> centre;
    };
    std::optional<Request> request;
};

ImVec2 to_screen(const StageCamera& camera, ImVec2 origin, ImVec2 home);
ImVec2 to_home(const StageCamera& camera, ImVec2 origin, ImVec2 screen);
Rect to_screen(const StageCamera& camera, ImVec2 origin, const Rect& home);
StageLayout to_screen(const StageCamera& camera, ImVec2 origin, const StageLayout& home);

// The camera at `zoom` with screen point `fixed` staying where it is: the mouse wheel
// zooms about the pointer.
StageCamera zoom_about(const StageCamera& camera, ImVec2 origin, ImVec2 fixed, float zoom);

// The camera at `zoom` that shows home point `home` at screen point `target`.
StageCamera look_at(ImVec2 origin, ImVec2 home, ImVec2 target, float zoom);

// How far one may zoom: out to half the home view; in until the smallest cell on the stage
// is kMaxCellPixels wide, whatever the matrix size.
inline constexpr float kMinZoom = 0.5f;
inline constexpr float kMaxCellPixels = 240.0f;
float max_zoom(const StageLayout& home);

// `camera` with its zoom clamped to [kMinZoom, max_zoom(home)] (about the region's centre)
// and its pan kept so that part of the stage stays in `region`: it cannot be lost off screen.
StageCamera clamp_camera(const StageCamera& camera, const StageLayout& home, const Rect& region);

// Where the stage is on screen in a frame, zoom and pan applied. Overlays drawn on the
// stage map cells to pixels with cells_rect(layout.c, M, N, ...) (layout.a, layout.b alike)
// and pixels to cells with cell_at(): both follow the camera because the rectangles do.
struct StageGeometry {
    Rect region;          // the canvas; the stage draws nothing outside it
    BlockTiling tiling;
    StageLayout home;     // zoom 1, no pan
    StageLayout layout;   // on screen: to_screen(camera, region.min, home)
    StageCamera camera;   // the camera the layout was made with (request resolved, clamped)
};
// `line_height` as for layout_stage(). A pending camera.request is resolved here.
StageGeometry stage_geometry(const model::Problem& problem, const model::KernelConfig& config,
                             const StageCamera& camera, Rect region, float line_height);

// Starts `picture` over for a view that lays A, B and C out as the stage does (the stage, the
// theatre): its canvas and the three matrices; the view adds its labels (and tiles) as it draws.
void start_picture(PictureLayout& picture, const char* view, const Rect& canvas, const StageLayout& layout);

}  // namespace ts::views
