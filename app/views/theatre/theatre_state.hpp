// theatre_state.hpp — what the tiling theatre remembers between frames: the block on show,
// where the phase player stands, how the kernel is played, and what is pinned for inspection.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/index_math.hpp"
#include "model/kernel_trace.hpp"
#include "views/theatre/phase_player.hpp"
#include "views/theatre/recorded_source.hpp"
#include "views/theatre/step_source.hpp"

namespace ts::views {

// The tabs under the player: the kernel's source, the pinned thread or element, its warp,
// and which SM ran each block (from a trace).
// Fragments, Smem, Stages and Tiles are the tensor-core rungs' pictures (their theatre has no player tabs).
enum class TheatrePanel { Source, Thread, Warp, Sms, Fragments, Smem, Stages, Tiles };

// "source", "thread", "warp", "sms", "fragments", "smem", "stages", "tiles": the --panel flag's words.
std::string_view panel_name(TheatrePanel panel);
std::optional<TheatrePanel> parse_panel(std::string_view text);

// Cells under inspection: a cell of C (its thread), or an element of A or B (who loads it).
struct Inspected {
    std::optional<model::Cell> c;
    std::optional<model::Cell> a;
    std::optional<model::Cell> b;
    bool any() const { return c || a || b; }
};

// Traces from the GPU (theatre_traces.hpp): the latest of each kernel, and whether
// the player replays them.
struct TheatreTraces {
    std::shared_ptr<const model::KernelTrace> naive;
    std::shared_ptr<const model::KernelTrace> tiled;
    // The latest trace of a ladder rung (regtile-2d or warptile; model::recorded_ladder_load
    // reads its loads). Not part of replay_source, which replays the naive and tiled kernels.
    std::shared_ptr<const model::KernelTrace> rung;
    // The latest trace of each recorded tensor-core rung: wgmma's first stage as TMA wrote it
    // (tensor_core/smem.hpp), warp-specialized's role clocks (tensor_core/stages.hpp). tensor_core_trace finds one.
    std::vector<std::shared_ptr<const model::KernelTrace>> tensor_cores;
    std::shared_ptr<const RecordedSource> replay_source;  // built from naive and tiled
    bool replay = true;             // false: show the model even where a trace fits
    bool requested = false;         // "Trace on GPU" was pressed; the main loop submits
    std::vector<std::uint64_t> pending;  // Record requests in flight
    double pending_since = 0.0;     // ImGui time of the submit
    std::string error;              // why the last trace failed; empty when it did not
};

struct TheatreState {
    model::Index2 block;  // blockIdx.x (column of blocks), blockIdx.y (row of blocks)
    PhasePlayer player;
    bool each_k = false;        // the k loop one k per step instead of one step
    bool side_by_side = false;  // naive and tiled, in lockstep, with running counters
    // Whether the sizes and kernel controls are unfolded; nullopt until someone clicks: then
    // they are folded during a lesson (its steps set them) and unfolded otherwise.
    std::optional<bool> controls_open;
    TheatrePanel panel = TheatrePanel::Source;  // the open tab, as the tab bar reports it
    std::optional<TheatrePanel> open_panel;      // a tab to bring to the front (--panel)
    int scroll_to_tabs = 0;     // frames left in which the side panel scrolls its tabs into view
    int batch_z = 0;            // which matrix of a batched (bmm) stack: blockIdx.z
    // The tensor-core rungs' fragments: the lane (mma) or thread (wgmma) pinned by a click, or -1.
    int pinned_lane = -1;
    // Their shared-memory picture: B's tile rather than A's, and the chunk column whose 8-row read
    // is outlined.
    bool smem_b = false;
    int smem_chunk = 0;
    int ring_step = 0;  // the K step the ring of stages picture reads its barriers and copies at
    int tc_substep = 0;  // the statement of that K step their Source tab lights (tensor_core/source_tab.hpp)
    int ring_block = 0;  // the block (launch order) whose recorded roles the Stages tab draws
    // The persistent rungs' order of tiles: the round on show, and the plain row-by-row order in
    // place of the kernel's grouped one.
    int tile_round = 0;
    bool tile_order_plain = false;
    // An element of A or B pinned by a click (or --hover-a, --hover-b): who loads it, when.
    std::optional<model::Cell> pinned_a;
    std::optional<model::Cell> pinned_b;
    // What the mouse was over in the last frame: the panel left of the canvas is drawn first.
    Inspected hovered;
    TheatreTraces traces;
    // The height of the words above the picture, the most any step has taken, for each layout
    // (kernel, problem, view's size, font) seen lately: the picture stays put as steps change,
    // also while an export's offscreen frames take turns with the window's own.
    std::map<std::string, float> text_heights;
    // Where the events come from: the model, or traces.replay_source when a trace
    // fits the problem on show (choose_theatre_source decides, every frame).
    const StepSource* source = &model_source();
};

}  // namespace ts::views
