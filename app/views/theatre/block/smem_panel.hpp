// smem_panel.hpp — one block's shared-memory tile (As or Bs, T×T) in the current phase:
// which global element each slot holds, or 0 where the tile hangs over the matrix edge.
#pragma once

#include <vector>

#include "imgui.h"
#include "model/tile_schedule.hpp"
#include "views/stage/stage_layout.hpp"

namespace ts::views {

struct SmemSlot {
    model::TileLoad load;  // thread, slot, global element and whether it is padding
    Rect rect;             // the slot in the panel
};

// The T×T slots of `loads` (one tile's, as StepSource::tile_loads gives them) laid out over
// `panel`: slot [ty][tx] at row ty, column tx.
std::vector<SmemSlot> smem_slots(const std::vector<model::TileLoad>& loads, int tile, const Rect& panel);

struct SmemPanelStyle {
    bool show_values = true;           // example values (small problems only)
    int lit_row = -1, lit_col = -1;    // the row (As) or column (Bs) one thread reads in its k loop
    int lit_slot = -1;                 // one k per step: the slot of this k along that row or column
    bool by_warp = false;              // tint each slot with the warp of the thread that loads it
};

// Draws the slots: loaded ones in the operand's colour (or their warp's) with their example
// value, padding grey and hatched with "0" (and "pad" when there is room).
void draw_smem_panel(ImDrawList* draw, const std::vector<SmemSlot>& slots, const Rect& panel, int tile,
                     model::Operand operand, const SmemPanelStyle& style);

// Grey with diagonal hatching: the look of a padding slot, also used by the legend.
// Tiles are small: a denser hatch than the stage's keeps padding readable in them.
inline constexpr float kPaddingHatchSpacing = 6.0f;

}  // namespace ts::views
