// rung_canvas.hpp — the theatre for the ladder's rungs (06 on): one block of the rung at
// its real size. Bs above and As left of the block's tile of C (As drawn as A's tile, BM×BK,
// whatever its layout in shared memory), every thread's register tiles coloured by warp, the
// warp tiles outlined; the inspected thread's loads (a float4 is one box four slots wide) or
// its fragments for this k; and under the picture its registers and outer product, the banks
// of its warp's shared-memory access against the layout the rung's fix is measured with,
// and the pipeline's stages.
//
// Three files: rung_canvas.cxx draws the canvas, rung_text.cxx the words beside it (the
// step's title and detail, the counts, the Thread and Warp tabs), bank_map.cxx the bank map
// both use; rung_frame.hpp is what they share.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"

#include "model/ladder.hpp"
#include "model/ladder_access.hpp"
#include "model/phase_timeline.hpp"
#include "views/theatre/bank_map.hpp"
#include "views/window/app_state.hpp"
#include "views/stage/stage_layout.hpp"

namespace ts::views {

// The thread of the theatre's block that is followed: the one owning the selected cell of C
// when it lies in the block, else thread 0.
int rung_focus_thread(const AppState& state);

// "K step 2 of 4 (step = 1 in the code): load tiles into shared memory, k = 3 of 8".
std::string rung_step_title(const AppState& state, model::KernelStep step);
// What every thread of the block does in this step, with the followed thread's numbers.
std::string rung_step_detail(const AppState& state, model::KernelStep step);
// The block's counts for one K step, from the model.
std::string rung_counts_line(const AppState& state);

// The Thread tab: the followed thread's cells, loads and fragment reads, with the index
// formulas filled in; the Warp tab: its warp's bank map for every access of this step.
void draw_rung_thread_panel(const AppState& state);
void draw_rung_warp_panel(const AppState& state);

// Draws into `region`, covered by the caller's InvisibleButton. Clicking a cell of C follows
// its thread: pins it as `selected` (app.selected).
void draw_rung_canvas(std::optional<model::Cell>& selected, const AppState& app, const Rect& region, bool hovering,
                      bool clicked);

// The problem a rung opens with: two blocks by two of it, and enough K steps to fill its
// pipeline and drain it again, so one screen shows a whole block and every stage's work.
model::Problem rung_textbook_problem(model::KernelConfig config);

}  // namespace ts::views
