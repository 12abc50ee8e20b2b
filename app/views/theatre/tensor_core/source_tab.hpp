// source_tab.hpp — the tensor-core rungs in the theatre, their Source tab: the kernel as compiled,
// stepped through one statement of the K loop at a time, the statement lit.
//
// Each rung's K step is a short protocol: who copies the tiles, who waits for what, who
// multiplies, who lets the stage go. The sub-steps below name those statements (found in the
// embedded source by their text, as the FP32 rungs' are), and for the K step chosen (the Stages
// tab's slider: TheatreState::ring_step) the words under the step list fill in the numbers the
// model gives for it: which stage, which round, the phase bit a wait names, the bytes a barrier
// expects, how many instructions issue.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/kernel_config.hpp"
#include "views/theatre/source_panel.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// What a statement does, for the words under the step list.
enum class TcAction {
    CopyStep,       // cp.async copies of this K step (13, 14)
    CopyFirst,      // cp.async copies of the first stages, before the loop (15)
    CopyAhead,      // cp.async copies of K step k + stages − 1 into the stage just freed (15)
    WaitOwnCopies,  // cp.async.wait_group 0
    WaitStage,      // cp.async.wait_group stages − 2
    BarrierWhole,   // __syncthreads: the tiles are whole
    BarrierRead,    // __syncthreads: every warp is done reading
    Fragments,      // wmma fragments loaded and multiplied, or ldmatrix then mma
    WmmaMultiply,   // wmma::mma_sync
    StoreC,         // C from registers
    FillRing,       // TMA copies of the first stages (16)
    TakeTile,       // a persistent cluster's next tile
    WaitFree,       // mbarrier wait on empty[stage]
    ArmAndCopy,     // mbarrier.arrive.expect_tx, TMA copies
    WaitFull,       // mbarrier wait on full[stage]
    Wgmmas,         // wgmma.mma_async on the stage
    WaitWgmmas,     // wgmma.wait_group 0
    BarrierStage,   // __syncthreads before thread 0 refills (16)
    Refill,         // TMA copies of K step k + stages (16)
    Release,        // mbarrier arrive on empty[stage]
    StageC,         // C through shared memory and TMA stores
    Promote,        // 21: the K step's products, times their two scales, into the FP32 sums
};

struct TcSubStep {
    std::string_view label;   // "wait: stage full"
    std::string_view who;     // "each consumer", "every thread", "the producer"
    std::string_view needle;  // the statement's text in the kernel, searched from the one before
    TcAction action;
};

// The sub-steps of `kind`'s kernel (13–19) in the order they run; empty for other kinds.
std::span<const TcSubStep> tc_substeps(model::KernelKind kind);

// The problem the Source and Stages tabs walk the K loop of: the one on show, or, where its K loop
// runs once or never refills its ring (no more K steps than stages; a single K step at the
// stage's 12×16×8) and no trace of it is replayed, the same M and N with K long enough for
// kShownKSteps K steps, so that the ring fills and turns. `note` says so ("" when the problem is
// the one on show); the problem on show stays as it is (the stage, the trace, the SMs tab).
inline constexpr int kShownKSteps = 8;
struct TcShownProblem {
    model::Problem problem;
    std::string note;
};
TcShownProblem tc_k_loop_problem(const AppState& state);

// K steps of block (0, 0) of the rung and tc_k_loop_problem (1 where K is empty).
int tc_k_steps(const AppState& state);

// The line of sub-step `index` in `lines` (the kernel's file), each searched after the one before
// it from the kernel's signature; nullopt where a statement is missing.
std::optional<SourceLines> tc_substep_lines(model::KernelKind kind, const std::vector<std::string_view>& lines,
                                            int index);

// What sub-step `index` does at K step `k_step` of block (0, 0) of the problem on show, with the
// model's numbers in.
std::string tc_substep_words(const AppState& state, int index, int k_step);

// Moves the lit statement `by` positions, on into the next K step past the last statement (or
// back into the previous one), within K steps 0 .. k_steps − 1 of `statements` each.
void step_statement(TheatreState& theatre, int statements, int k_steps, int by);

// The tab: the step list, the words, and the kernel with the statement lit; Right and Left step
// (theatre.ring_step and tc_substep; `theatre` is app.theatre).
void draw_tc_source(TheatreState& theatre, const AppState& app);

}  // namespace ts::views
