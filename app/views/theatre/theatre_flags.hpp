// theatre_flags.hpp — the command-line flags that put the theatre in any state a screenshot
// needs, as plain values (app/gui_options.cxx binds them to the parser), and their checks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "views/window/app_state.hpp"

namespace ts::views {

struct TheatreFlags {
    std::vector<int> select_block;  // --select-block BX,BY; empty: the --select cell's block, or (0, 0)
    std::optional<int> phase;       // --phase P, from 0 (the tensor-core rungs: their K step)
    std::string step;               // --step load|sync1|compute|sync2|store
    std::optional<int> k_step;      // --k-step I: one k per step, stopped at the tile loop's i = I
    bool side_by_side = false;      // --side-by-side: naive and tiled in lockstep
    std::string panel;              // --panel source|thread|warp
    std::vector<int> hover_a;       // --hover-a ROW,COL: pin an element of A
    std::vector<int> hover_b;       // --hover-b ROW,COL
    std::optional<int> batch_z;     // --batch-z Z: show matrix Z of the stack (batch grows to Z + 1)
    std::optional<int> statement;   // --statement S: the tensor-core rungs' lit statement, from 1
    std::optional<int> round;       // --round R: the persistent rungs' round of tiles on show, from 1
    bool row_by_row = false;        // --row-by-row: their tiles in the plain order, not the kernels'
    bool record = false;            // --record: record the problem on show on the GPU at start
    std::vector<std::string> traces;  // --trace FILE...: traces to replay
};

// The theatre's tab as the settings file left it (--panel already merged in): shown, and
// opened at start; a name that is no tab keeps the default.
void open_saved_panel(TheatreState& theatre, const std::string& panel);

// Applies the flags to `theatre` (app.theatre; the app's problem and kernel are already set); a
// reason, in the flags' own words, when one does not fit the problem. --batch-z also grows
// `problem` (app.problem) to hold the matrix it names. A --trace file that cannot be read is
// not such a reason: its message goes to `warnings` and the theatre, and the model plays.
std::optional<std::string> apply_theatre_flags(TheatreState& theatre, model::Problem& problem, const AppState& app,
                                               const TheatreFlags& flags, std::vector<std::string>* warnings = nullptr);

}  // namespace ts::views
