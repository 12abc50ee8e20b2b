// heatmap_painter.hpp — what a heat map to draw is (HeatmapQuad, with the texture image it is
// made from) and the interface that draws one (HeatmapPainter). The views describe heat maps
// with ImGui alone and never touch OpenGL; the platform's HeatmapRenderer implements the
// painter with a texture and a shader (heatmap_renderer.hpp), and run_window.cxx hands it to the
// views (views/stage/stage_heatmap.hpp: set_heatmap_painter). Living here, below the views,
// it lets every dependency point down: views → platform, never back.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "imgui.h"

namespace ts::platform {

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

// Draws heat maps; the platform layer provides one once its OpenGL context is up.
class HeatmapPainter {
public:
    virtual ~HeatmapPainter() = default;
    // Adds to `draw`, at this point of its order, what draws `quad` inside the current clip rect.
    virtual void paint(ImDrawList* draw, const HeatmapQuad& quad) = 0;
};

}  // namespace ts::platform
