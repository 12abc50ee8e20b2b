// stage_paint.hpp — the cells of the stage's matrices: small matrices as grids of cells,
// large ones as heat maps (stage_heatmap.hpp); the ghost threads' hatching; cell values
// once the cells are big enough to read them; and the heat maps' colour legend. Whatever is
// drawn one cell or one block at a time is drawn only where the stage is visible, so the
// cost follows the screen and not the matrix.
#pragma once

#include <optional>

#include "imgui.h"
#include "model/index_math.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"
#include "views/stage/stage_layout.hpp"

namespace ts::views {

// One frame of the stage, zoom and pan applied.
struct StageScene {
    const model::Problem& problem;
    const model::KernelConfig& config;
    BlockTiling tiling;
    StageLayout layout;                // on screen
    Rect region;
    int m, n, k;
    std::optional<model::Cell> shown;  // the hovered or pinned cell of C: its block is lit
    // The matrices' names' size: the heading font's, smaller on a canvas too short for it (large
    // text on a small screen), so that the names and the margins they need leave the matrices room.
    float label_size = 0.0f;
};

// A, B and C: fills or heat maps, cell and block lines, hatching, outlines and values.
void draw_matrices(ImDrawList* draw, const StageScene& s);

// The heat maps' legend in the region's top-left corner: which colour is which value.
// Returns where it went; nothing (an empty Rect at the corner) when no matrix is a heat map.
Rect draw_heatmap_legend(ImDrawList* draw, const StageScene& s);

}  // namespace ts::views
