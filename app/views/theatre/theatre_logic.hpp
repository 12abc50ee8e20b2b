// theatre_logic.hpp — the theatre's decisions, without drawing: which kernel and which
// timeline are played, which cells the chosen block covers, what the flags may jump to, and
// the sentences that explain each step. The tests check these directly.
#pragma once

#include <optional>
#include <string>

#include "model/index_math.hpp"
#include "model/kernel_config.hpp"
#include "model/phase_timeline.hpp"
#include "model/problem.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// The theatre plays the naive and the tiled kernel and the ladder's rungs; nullopt for those,
// else why not.
std::optional<std::string> theatre_error(const AppState& state);

// The kernel played: the tiled one with T×T blocks, or the naive one with its own block
// shape. Side by side, the tiled one leads (its blocks and its timeline).
model::KernelConfig played_config(const AppState& state);
bool plays_naive(const AppState& state);
// A rung of the ladder (06 on) plays in its own canvas (rungs/rung_canvas.hpp): one block, its
// warps and threads, the K steps of BK.
bool plays_rung(const AppState& state);
// The K step the timeline walks: T, or the rung's BK.
int played_tile(const AppState& state);

// The naive kernel's k loop is cut into chunks of the tiled kernel's T, so the two line up.
model::Timeline theatre_timeline(const AppState& state);
model::KernelStep current_step(const AppState& state);

// What the block touches, in cells clipped to the matrices: its rows of A (all of K), its
// columns of B (all of K) and its part of C.
struct BlockStrips {
    int row_begin = 0, row_end = 0;  // rows of A and of C
    int col_begin = 0, col_end = 0;  // columns of B and of C
};
BlockStrips block_strips(const model::KernelConfig& config, const model::Problem& problem, model::Index2 block);

// blockIdx of the block computing `cell` (inside C), and the grid's size in blocks.
model::Index2 block_of_cell(const model::KernelConfig& config, const model::Problem& problem, model::Cell cell);
model::Index2 block_grid(const model::KernelConfig& config, const model::Problem& problem);

// The k indices the block works on in `step`: this phase's tile (loads), the k already
// taken in a one-k step, all of the phase otherwise; [begin, end) clipped to K.
model::KRange step_k_range(const model::Timeline& timeline, const model::Problem& problem, model::KernelStep step);

// "Phase 2 of 5 (phase = 1 in the code): load tiles into shared memory".
// `brief`: without "(phase = 0 in the code)", for large text on a small screen.
std::string step_title(const model::Timeline& timeline, model::KernelStep step, bool brief = false);

// One paragraph on what every thread of the block does in this step; `focus` is the
// thread (threadIdx) whose k loop is drawn.
std::string step_detail(const AppState& state, model::KernelStep step, model::Index2 focus);

// Puts the theatre at block (bx, by), phase `phase` (from 0), sub-step `sub` and k loop
// index `k` (which switches to one k per step), as --select-block, --phase, --step and
// --k-step ask; a reason when one is out of range for the app's problem, tile and kernel.
// Unset arguments keep their current value. Writes `theatre` (app.theatre) only.
std::optional<std::string> jump_theatre(TheatreState& theatre, const AppState& app, std::optional<model::Index2> block,
                                        std::optional<int> phase, std::optional<model::SubStep> sub,
                                        std::optional<int> k = std::nullopt);

// Pins the element of A (or B) the --hover-a (--hover-b) flag names; a reason when it lies
// outside the app's matrix.
std::optional<std::string> pin_element(TheatreState& theatre, const AppState& app, model::Operand operand,
                                       model::Cell cell);

// What to inspect: what the mouse is over, else what is pinned (state.selected for C).
Inspected inspected(const AppState& state);

// Keeps the block, the batch index and the player inside the app's problem after an edit, and
// lets go of pinned cells (`selected`, the pinned cell of C, among them) that fell outside it.
void clamp_theatre(TheatreState& theatre, std::optional<model::Cell>& selected, const AppState& app);

}  // namespace ts::views
