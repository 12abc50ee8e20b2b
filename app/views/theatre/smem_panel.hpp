// smem_panel.hpp — one block's shared-memory tile (As or Bs, T×T) in the current phase:
// which global element each slot holds, or 0 where the tile hangs over the matrix edge.
#pragma once

#include <vector>

#include "imgui.h"
#include "model/tile_schedule.hpp"
#include "views/stage_layout.hpp"

namespace ts::views {

struct SmemSlot {
    model::TileLoad load;  // thread, slot, global element and whether it is padding
    Rect rect;             // the slot in the panel
};

// The T×T slots of `operand` for `block` in `phase`, laid out over `panel` (row ty, column tx),
// in the model's load order. The padding flags are tile_loads' own.
std::vector<SmemSlot> smem_slots(const model::Problem& problem, int tile, model::Index2 block, int phase,
                                 model::Operand operand, const Rect& panel);

// Draws the slots: loaded ones in the operand's colour with their example value (when the
// problem is small enough to show values), padding grey and hatched with a grey "0".
// `lit_row`/`lit_col` (-1: none) outline the row or column one thread reads while computing.
void draw_smem_panel(ImDrawList* draw, const std::vector<SmemSlot>& slots, const Rect& panel, int tile,
                     model::Operand operand, bool show_values, int lit_row, int lit_col);

// Grey with diagonal hatching: the look of a padding slot, also used by the legend.
// Tiles are small: a denser hatch than the stage's keeps padding readable in them.
inline constexpr float kPaddingHatchSpacing = 6.0f;

}  // namespace ts::views
