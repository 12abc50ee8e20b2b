// bank_map.hpp — one warp's shared-memory access as the 32 banks see it: which lane asks for
// which word, phase by phase, and where a bank must serve two words one after the other. The
// rung theatre draws it for the followed warp, the Experiments view for bank-conflicts' As
// stores; it needs no rung, only the accesses (model/ladder_access.hpp), hence a file of its
// own apart from rungs/rung_canvas.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"

#include "model/ladder_access.hpp"
#include "views/stage/stage_layout.hpp"

namespace ts::views {

// A bank serving two different words to one phase of a warp's access, in the bank map.
inline constexpr ImU32 kBankConflictColour = IM_COL32(205, 30, 30, 255);

// "2 wavefronts where 1 would do: 2-way conflict", or "1 wavefront: no conflict".
std::string bank_summary(const model::BankMap& map);
// A warp's shared-memory access drawn into `area` under `title` (small text): 32 bank columns,
// one row per 128-byte line of shared memory the access touches, each word a box in its
// phase's colour with its lane, a bank serving two words in one phase outlined in red. The
// Experiments view draws bank-conflicts' As stores with it too.
void draw_bank_map(ImDrawList* draw, const Rect& area, const std::vector<model::LaneAccess>& accesses,
                   const std::string& title);

}  // namespace ts::views
