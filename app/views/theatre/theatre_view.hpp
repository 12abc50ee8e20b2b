// theatre_view.hpp — the tiling theatre: one block of the tiled kernel, phase by phase.
// A (left), B (above) and C (below right) as on the stage; the chosen block's strip of A
// rows and B columns; the tiles of this phase flying into shared memory (As, Bs); the
// barriers; the k loop; the store; and the kernel's own source with the current line lit.
#pragma once

#include <optional>
#include <string>

#include "model/index_math.hpp"
#include "model/problem.hpp"
#include "model/tiled_steps.hpp"
#include "views/app_state.hpp"

namespace ts::views {

// What the chosen block touches, in cells clipped to the matrices: its rows of A (all of K),
// its columns of B (all of K) and its tile of C.
struct BlockStrips {
    int row_begin = 0, row_end = 0;  // rows of A and of C
    int col_begin = 0, col_end = 0;  // columns of B and of C
};
BlockStrips block_strips(const model::Problem& problem, int tile, model::Index2 block);

// The block whose tile of C holds `cell`.
model::Index2 block_of_cell(int tile, model::Cell cell);

// Number of blocks along x (columns of C) and y (rows of C).
model::Index2 block_grid(const model::Problem& problem, int tile);

// "Phase 2 of 5 (phase = 1 in the code): load tiles into shared memory".
std::string step_title(int phases, model::TiledStep step);

// Puts the theatre at block (bx, by), phase `phase` (from 0) and sub-step `sub`, as the
// --select-block, --phase and --step flags ask; a reason when one is out of range for the
// state's problem and tile. Unset arguments keep their current value.
std::optional<std::string> jump_theatre(AppState& state, std::optional<model::Index2> block, std::optional<int> phase,
                                        std::optional<model::SubStep> sub);

// The view: the player and source on the left, the theatre on the right, above `bottom_reserve`.
void draw_theatre_view(AppState& state, float bottom_reserve);

}  // namespace ts::views
