// naive_vs_tiled.hpp — the naive and the tiled kernel side by side, in lockstep through the
// tiled kernel's sub-steps (the naive loop cut into chunks of T): A and B shaded by how many
// times each element has been read from global memory so far, C by how much of K it holds,
// and the running counters of each, so the reuse factor T is seen, not just stated.
#pragma once

#include <cstdint>
#include <string>

#include "model/phase_timeline.hpp"
#include "views/window/app_state.hpp"
#include "views/stage/stage_layout.hpp"

namespace ts::views {

struct SideBySideCounts {
    model::TrafficSoFar naive;
    model::TrafficSoFar tiled;
    std::int64_t naive_reads_a = 0;  // how often each A element will have been read at the end: N
    std::int64_t tiled_reads_a = 0;  // grid.x
    std::int64_t naive_reads_b = 0;  // M
    std::int64_t tiled_reads_b = 0;  // grid.y
};
SideBySideCounts side_by_side_counts(const AppState& state);

// "naive 80,640 vs tiled 10,800: 7.5× fewer global loads so far".
std::string comparison_sentence(const SideBySideCounts& counts);

// Draws both kernels into `region`; hovering an element of A or B sets theatre.hovered
// (app.theatre's; its report names both kernels' counts), a click pins it. Every text is wrapped
// to its half and measured first, and lines the region has no room for are shortened or left
// out, so nothing overlaps at any font scale; the matrices get the rest of the region.
void draw_naive_vs_tiled(TheatreState& theatre, const AppState& app, const Rect& region, bool hovering, bool clicked);

}  // namespace ts::views
