// rung_frame.hpp — what one frame of the rung theatre works out once and hands to its
// drawing (rung_canvas.cxx) and to its words and tabs (rung_text.cxx): the rung's shape,
// the problem, the block on show, the step and the followed thread. Internal to the rung
// theatre; the rest of the app sees rung_canvas.hpp.
#pragma once

#include <algorithm>
#include <vector>

#include "model/kernel_trace.hpp"
#include "model/ladder.hpp"
#include "model/ladder_access.hpp"
#include "model/phase_timeline.hpp"
#include "views/window/app_state.hpp"

namespace ts::views::rung_theatre {

inline constexpr int kWarp = 32;

// Everything one frame needs, worked out once.
struct RungFrame {
    model::LadderShape s;
    model::Problem problem;
    int m = 0, n = 0, k = 0;
    model::Index2 block;
    int block_row = 0, block_col = 0;  // the block's first cell of C
    int steps = 1;
    model::Timeline timeline;
    model::KernelStep step;
    int thread = 0, warp = 0, lane = 0;
    // A trace of this rung and problem from the GPU, when one is loaded and replay is on:
    // the followed warp's loads are drawn where the GPU's threads wrote them down.
    const model::KernelTrace* trace = nullptr;
};

RungFrame make_rung_frame(const AppState& state);

inline bool loading(const RungFrame& l) { return l.step.sub == model::SubStep::LoadTiles; }
inline bool computing(const RungFrame& l) { return l.step.sub == model::SubStep::Compute; }
// The k of the step that the fragments are drawn for: the one-k step's, else the first.
inline int shown_k(const RungFrame& l) { return std::max(l.step.k, 0); }

// Which element of A (row, col) an element (r, c) of the block's A tile is in this step.
inline int a_row(const RungFrame& l, int r) { return l.block_row + r; }
inline int a_col(const RungFrame& l, int c) { return l.step.phase * l.s.bk + c; }
inline int b_row(const RungFrame& l, int r) { return l.step.phase * l.s.bk + r; }
inline int b_col(const RungFrame& l, int c) { return l.block_col + c; }

// One 32-bit store of the followed thread into As or Bs in a K step: its load, and for a load
// stored in parts (model::stored_in_parts) which value of it.
struct ThreadStore {
    model::LadderLoad load;
    bool in_parts = false;
    int part = 0;

    // The same store by the 32 lanes of `warp`, in the layout of `shape`.
    std::vector<model::LaneAccess> warp_accesses(model::LadderShape shape, int warp) const {
        return model::warp_store_accesses(shape, warp, load.operand, load.instruction, part);
    }
};

// The followed thread's stores of one K step, in the order of its loads.
inline std::vector<ThreadStore> thread_stores(const RungFrame& l) {
    std::vector<ThreadStore> stores;
    for (const model::LadderLoad& load : model::ladder_thread_loads(l.s, l.thread)) {
        const bool in_parts = model::stored_in_parts(l.s, load);
        for (int part = 0; part < (in_parts ? load.width : 1); ++part) stores.push_back({load, in_parts, part});
    }
    return stores;
}

}  // namespace ts::views::rung_theatre
