// stage_layout.hpp — where the stage view puts A, B and C, as plain functions of the
// problem and the region, so that the tests can check the layout without drawing it.
#pragma once

#include <optional>

#include "imgui.h"
#include "model/index_math.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"

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
std::optional<model::Cell> cell_at(const Rect& area, int rows, int cols, ImVec2 p);

// The pixel rectangle of cells [row0, row1) × [col0, col1) of a rows × cols matrix in `area`.
Rect cells_rect(const Rect& area, int rows, int cols, int row0, int col0, int row1, int col1);

}  // namespace ts::views
