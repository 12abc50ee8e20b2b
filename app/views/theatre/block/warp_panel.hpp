// warp_panel.hpp — one warp of the block and the global-memory access it makes in the
// current step: its 32 lanes' addresses and the 32-byte sectors they fall in, for the
// kernel's mapping (threadIdx.x → column) and for threadIdx.x → row, side by side, next to
// what the penalty measured on a GPU was.
#pragma once

#include <optional>
#include <string>

#include "model/index_math.hpp"
#include "model/memory_sectors.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// The warp shown: the inspected cell's thread's warp when that thread is in the theatre's
// block, else warp 0.
int shown_warp(const AppState& state, std::optional<model::Cell> cell);

// The access one warp makes in the current step: the tiled kernel's loads of this phase's
// tiles, or the naive kernel's reads at the step's first k. `what` says which, in words;
// `any` is false when the step reads nothing from global memory (the store, or a naive step
// past K).
struct WarpComparison {
    std::string what;
    bool any = true;
    model::WarpAccess a[2];  // [0]: coalesced (the kernel's), [1]: threadIdx.x as the row
    model::WarpAccess b[2];
};
WarpComparison compare_warp_access(const AppState& state, int warp);

// The lanes' addresses as runs: "0..7, 28..35, 56..63, 84..91", "417 (all 32 lanes)".
std::string lane_addresses(const model::WarpAccess& access);

// "not measured yet", or "naive-row took 6.3× the naive kernel's time (NVIDIA H200, …)".
std::string penalty_text(const std::optional<CoalescingPenalty>& penalty);

// The "Warp" tab.
void draw_warp_panel(const AppState& state, std::optional<model::Cell> cell);

}  // namespace ts::views
