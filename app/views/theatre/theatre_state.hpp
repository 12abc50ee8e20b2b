// theatre_state.hpp — what the tiling theatre remembers between frames: the block on show,
// where the phase player stands, how the kernel is played, and what is pinned for inspection.
#pragma once

#include <optional>
#include <string_view>

#include "model/index_math.hpp"
#include "phase_player.hpp"
#include "step_source.hpp"

namespace ts::views {

// The tabs under the player: the kernel's source, the pinned thread or element, its warp.
enum class TheatrePanel { Source, Thread, Warp };

// "source", "thread", "warp": the --panel flag's words.
std::string_view panel_name(TheatrePanel panel);
std::optional<TheatrePanel> parse_panel(std::string_view text);

// Cells under inspection: a cell of C (its thread), or an element of A or B (who loads it).
struct Inspected {
    std::optional<model::Cell> c;
    std::optional<model::Cell> a;
    std::optional<model::Cell> b;
    bool any() const { return c || a || b; }
};

struct TheatreState {
    model::Index2 block;  // blockIdx.x (column of blocks), blockIdx.y (row of blocks)
    PhasePlayer player;
    bool each_k = false;        // the k loop one k per step instead of one step
    bool side_by_side = false;  // naive and tiled, in lockstep, with running counters
    TheatrePanel panel = TheatrePanel::Source;  // the open tab, as the tab bar reports it
    std::optional<TheatrePanel> open_panel;      // a tab to bring to the front (--panel)
    int batch_z = 0;            // which matrix of a batched (bmm) stack: blockIdx.z
    // An element of A or B pinned by a click (or --hover-a, --hover-b): who loads it, when.
    std::optional<model::Cell> pinned_a;
    std::optional<model::Cell> pinned_b;
    // What the mouse was over in the last frame: the panel left of the canvas is drawn first.
    Inspected hovered;
    // Where the events come from: the model now; a replay recorded on the GPU later.
    const StepSource* source = &model_source();
};

}  // namespace ts::views
