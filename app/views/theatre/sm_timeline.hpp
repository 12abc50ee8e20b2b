// sm_timeline.hpp — the theatre's "SMs" tab: which SM ran each block of a trace and
// when, one row per SM, so that blocks running side by side and the waves that follow each
// other are seen rather than told. The tab holds the summary; the timeline itself is drawn
// across the top of the stage, where it has room. Click a block to show it in the theatre.
#pragma once

#include <optional>
#include <string>

#include "model/kernel_trace.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// The tab: what the trace says in sentences, or how to get one.
void draw_sm_summary(const AppState& state);
// Whether a trace fits the problem on show, so that there is a timeline to draw.
bool has_sm_timeline(const AppState& state);
// The timeline at the cursor, the window's width and `height` pixels tall; a click on a block
// of the played kernel shows it (theatre.block, app.theatre's).
void draw_sm_timeline(TheatreState& theatre, const AppState& app, float height);

// One sentence for the header while a trace is replayed: "As recorded on the NVIDIA
// H200: block (3, 2) ran on SM 17 (wave 1); phase 4 took 0.12 µs, 250 cycles". nullopt
// without a fitting trace of the played kernel.
std::optional<std::string> recorded_block_line(const AppState& state);

// The summary above the timeline: blocks, SMs used, most at once, waves, span.
std::string timeline_summary(const model::KernelTrace& trace, const model::SmTimeline& timeline);

// Blocks that ran at the same time on one SM go to separate lanes of its row: lane[i] for
// timeline.blocks[i], and the lanes each SM needs.
struct SmLanes {
    std::vector<int> lane;
    int lanes_per_sm = 1;  // the most any SM needed
};
SmLanes assign_lanes(const model::SmTimeline& timeline);

}  // namespace ts::views
