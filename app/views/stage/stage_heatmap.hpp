// stage_heatmap.hpp — large matrices on the stage as heat maps: one colour per cell, read
// from a texture of the matrix's values and coloured by a shader. The views stay free of
// OpenGL: they describe what to draw (HeatmapQuad) and hand it to the HeatmapPainter that
// the platform layer provides (platform/heatmap_renderer.hpp; app/run_window.cxx registers it). The painter keeps
// one texture per matrix, rebuilt only when the values change, and draws it through an
// ImDrawList callback, so a 4096² matrix costs a frame about what a 16² one does.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "imgui.h"
#include "model/problem.hpp"
#include "platform/heatmap_painter.hpp"

namespace ts::views {

// The heat map's description and painter interface live in the platform layer, below the views.
using platform::HeatmapImage;
using platform::HeatmapPainter;
using platform::HeatmapQuad;
using platform::kMaxTextureSide;

// A matrix with more rows or columns than this is a heat map; a smaller one is a grid of
// cells, with their values once the cells are big enough for text.
inline constexpr int kMaxGridSide = 64;
inline bool is_heatmap(int rows, int cols) { return rows > kMaxGridSide || cols > kMaxGridSide; }



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


// The colour a heat map gives `value`: low_colour to high_colour, linearly in between (as
// the shader mixes them, and as ImGui shades the legend's gradient).
ImU32 heat_colour(const HeatmapQuad& quad, double value);


// Registered once the window's OpenGL context is up. With none (the views' tests, or an
// OpenGL that cannot draw heat maps) the stage fills heat maps with a flat colour.
void set_heatmap_painter(HeatmapPainter* painter);
HeatmapPainter* heatmap_painter();

}  // namespace ts::views
