// stages.hpp — the tensor-core rungs in the theatre, third picture: the ring of stages, who
// fills it and who drains it, for the TMA rungs (16–19).
//
// A Gantt chart of the first K steps of a block: on the producer's row each TMA copy from its
// issue to the moment its bytes complete full[stage]; on each consumer warpgroup's row its
// wgmmas on that stage, then the arrival on empty[stage] that lets the producer refill it. Bars
// are coloured by stage. The times are the model's, in units of one K step of wgmmas, with a copy
// taking kCopyLatencySteps of them to land and (for the persistent rungs) C's epilogue
// kEpilogueSteps between two tiles: an illustration of order and overlap, said so on screen, not
// a measurement. Where the warp-specialized rung was recorded on the problem on show
// (17_warp_specialized_recorded.cu), the chart is drawn from the trace's clocks instead
// (recorded_ring), in SM cycles. Under the chart, at the chosen K step:
// each stage's two mbarriers (phase bit, expected bytes, arrivals) from model::stage_step, and
// the TMA boxes the step's copies bring, from model::tma_box.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/tensor_core/pipeline.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

inline constexpr double kCopyLatencySteps = 3.0;  // a copy lands three K steps of wgmmas after its issue
inline constexpr double kIssueSteps = 0.25;       // one thread issues one K step's copies
inline constexpr double kEpilogueSteps = 2.0;     // a persistent block's C between two tiles

struct RingBar {
    int row = 0;    // 0: the producer (copies); 1, 2, ...: consumer warpgroups (wgmmas)
    int step = 0;   // the K step, counted over every tile the block takes
    int stage = 0;  // the stage it fills or reads
    double start = 0, end = 0;
    bool epilogue = false;  // a consumer's C after a tile's last K step
    bool waiting = false;   // a role waiting on the stage's barrier (recorded only)
};
struct RingSchedule {
    std::vector<std::string> rows;
    std::vector<RingBar> bars;
    int steps = 0, steps_per_tile = 0;
    double span = 0;
    bool recorded = false;  // from a trace's clocks (cycles), not the model's order (K steps)
};

// The first `tiles` tiles of `steps_per_tile` K steps each of a block of shape `s`: copies issued
// as soon as their stage is released (by every consumer: a block barrier for 16, which has no
// producer warpgroup), wgmmas as soon as their stage has landed and the consumer is free.
RingSchedule ring_schedule(const model::WgmmaShape& s, int steps_per_tile, int tiles);

// Block `block`'s first `max_steps` K steps as a warp-specialized trace saw them, in SM cycles
// from the block's first stamp: each copy from the producer's arming it to the first consumer
// seeing the stage full (its landing lies inside), each consumer's wait and its wgmmas. Empty when
// the trace holds no role clocks.
RingSchedule recorded_ring(const model::KernelTrace& trace, int block, int max_steps);

// "full[1]: waits for phase 0 · expects 49,152 bytes from 1 arrival and the copies" and the like:
// the ring's barriers as a consumer reaches K step `step`, one line per stage.
std::vector<std::string> barrier_lines(const model::WgmmaShape& s, int step);
// One line per TMA copy of K step `k_step` of block (0, 0) into stage `stage` (B's slabs in one
// copy where N allows, model::b_slab_runs): operand, box, source coordinates, destination, bytes,
// issuer.
std::vector<std::string> box_lines(const model::WgmmaShape& s, int k_step, int stage, std::int64_t n);

// A timeline reads left to right: the chart takes the tab's width, with its controls above it and
// its words under it. draw_tc_stages draws all three for state.kernel.kind (16–19; the mma rungs
// say what they do instead): the size shown where it is not the problem on show, the trace's
// line and the K step to read; the chart, its rows from the font's height up to twice that, in at
// most kStagesChartShare of the rest of the tab (the picture, reported in `picture`, app.picture);
// then, in the whole lines left (at least one), scrolling, how the chart is timed and the chosen K
// step's barriers and copies. The K step and block read are theatre.ring_step and ring_block
// (`theatre` is app.theatre).
inline constexpr float kStagesChartShare = 0.75f;
void draw_tc_stages(TheatreState& theatre, PictureLayout& picture, const AppState& app);

}  // namespace ts::views
