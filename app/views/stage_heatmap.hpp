// stage_heatmap.hpp — large matrices on the stage as heat maps: one colour per cell, read
// from a texture of the matrix's values and coloured by a shader. The views stay free of
// OpenGL: they describe what to draw (HeatmapQuad) and hand it to the HeatmapPainter that
// the platform layer provides (platform/heatmap_renderer.hpp; main.cpp registers it). The painter keeps
// one texture per matrix, rebuilt only when the values change, and draws it through an
// ImDrawList callback, so a 4096² matrix costs a frame about what a 16² one does.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "imgui.h"
#include "model/problem.hpp"

namespace ts::views {

// A matrix with more rows or columns than this is a heat map; a smaller one is a grid of
// cells, with their values once the cells are big enough for text.
inline constexpr int kMaxGridSide = 64;
inline bool is_heatmap(int rows, int cols) { return rows > kMaxGridSide || cols > kMaxGridSide; }

// The largest texture side. 4096² floats are 64 MiB; a larger matrix is averaged down to
// this on the CPU, once per change of the values.
inline constexpr int kMaxTextureSide = 4096;

// The values of a matrix as a texture holds them. Each texel is the mean of a box of
// box_rows × box_cols cells (1 × 1: the cell itself); the boxes of the last row and column
// of texels may be cut short by the matrix's edge and average fewer cells.
struct HeatmapImage {
    int rows = 0;  // texels
    int cols = 0;
    int box_rows = 1;
    int box_cols = 1;
    std::vector<float> texels;  // rows × cols, top row first
};

// Writes row `row` of a matrix (one value per column) into `out`.
using RowValues = std::function<void(int row, std::span<float> out)>;

// A rows × cols matrix as a texture with no side longer than `max_side`.
HeatmapImage heatmap_image(int rows, int cols, int max_side, const RowValues& row_values);

// The stage's matrices and their example values (example_values.hpp).
enum class StageMatrix { A, B, C };

struct ValueRange {
    double min = 0.0;
    double max = 0.0;
};

int rows_of(StageMatrix which, const model::Problem& problem);
int cols_of(StageMatrix which, const model::Problem& problem);
void example_row(StageMatrix which, const model::Problem& problem, int row, std::span<float> out);
ValueRange example_range(StageMatrix which, const model::Problem& problem);
// Names the values: the same key, the same values (the painter keeps textures by it).
std::string example_key(StageMatrix which, const model::Problem& problem);

// One heat map to draw: an area of grid_rows × grid_cols cells on screen, of which the
// top-left rows × cols hold values (the rest, C's ghost threads, is left to what is drawn
// underneath), with lines between the cells once they are 6 px apart and between blocks
// once those are 3 px apart.
struct HeatmapQuad {
    std::string key;
    std::function<HeatmapImage()> image;  // called only for a key the painter has no texture of
    ImVec2 min, max;                      // on screen; zoomed in, far larger than the clip rect
    int rows = 0, cols = 0;
    int grid_rows = 0, grid_cols = 0;
    float low = 0.0f, high = 1.0f;        // values drawn in low_colour and high_colour
    ImU32 low_colour = 0, high_colour = 0;
    ImU32 line_colour = 0;
    int block_rows = 0, block_cols = 0;   // block size in cells; 0: no block lines
    int selected_block_row = -1, selected_block_col = -1;  // tinted in selected_colour; -1: none
    ImU32 selected_colour = 0;
};

// The colour a heat map gives `value`: low_colour to high_colour, linearly in between (as
// the shader mixes them, and as ImGui shades the legend's gradient).
ImU32 heat_colour(const HeatmapQuad& quad, double value);

class HeatmapPainter {
public:
    virtual ~HeatmapPainter() = default;
    // Adds to `draw`, at this point of its order, what draws `quad` inside the current clip rect.
    virtual void paint(ImDrawList* draw, const HeatmapQuad& quad) = 0;
};

// Registered once the window's OpenGL context is up. With none (the views' tests, or an
// OpenGL that cannot draw heat maps) the stage fills heat maps with a flat colour.
void set_heatmap_painter(HeatmapPainter* painter);
HeatmapPainter* heatmap_painter();

}  // namespace ts::views
