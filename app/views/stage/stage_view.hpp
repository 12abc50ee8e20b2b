// stage_view.hpp — the stage: A, B and C in the classic layout (B above C, A to the left
// of C), C divided into thread blocks, with ghost threads hatched and a tooltip that names
// the thread computing the hovered (or pinned) cell.
#pragma once

#include <optional>
#include <string>

#include "views/window/app_state.hpp"
#include "model/index_math.hpp"
#include "views/stage/stage_layout.hpp"

struct ImDrawList;

namespace ts::views {

// The tooltip of cell `cell` of C: the thread that computes it (blockIdx, threadIdx, warp,
// lane), straight from the model's thread map. Empty when the cell lies outside C.
std::string c_cell_tooltip(const model::KernelConfig& config, const model::Problem& problem, model::Cell cell);

// One line saying what a block of this kernel does.
std::string kernel_sentence(const model::KernelConfig& config, const model::Problem& problem);

// Draws the stage, with its title, the zoom controls and a line about the kernel, into the
// rest of the current window. Writes the stage's camera, the pinned cell and the picture's
// layout (as draw_stage_canvas() does); reads the problem and the kernel from `app`.
void draw_stage_view(StageCamera& camera, std::optional<model::Cell>& selected, PictureLayout& picture,
                     const AppState& app);

// Just the matrices, filling the rest of the current window: the region passed to
// layout_stage() starts at the cursor and spans the available content region. Clicking a
// cell of C pins it in `selected` (the window's pinned cell); clicking elsewhere in the stage
// releases it. The wheel, drags and arrow keys move `camera`. Where the picture's parts lie
// goes to `picture` (the window's PictureLayout). Returns where everything was drawn, zoom
// and pan applied, for overlays drawn on top (see StageGeometry).
StageGeometry draw_stage_canvas(StageCamera& camera, std::optional<model::Cell>& selected, PictureLayout& picture,
                                const AppState& app);

// Grey with diagonal lines: cells that exist for the threads but not in the matrix (ghost
// threads on the stage, zero padding in the theatre's tiles).
void draw_hatched(ImDrawList* draw, const Rect& r, float spacing = 9.0f);

}  // namespace ts::views
