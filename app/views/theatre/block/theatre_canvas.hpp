// theatre_canvas.hpp — the theatre's picture of one kernel: A (left), B (above) and C as on
// the stage; the chosen block's strip of A rows and B columns; this phase's tiles flying
// into shared memory (As, Bs) with zero padding where a tile hangs over an edge, or, for the
// naive kernel, one thread's reads straight from global memory; C filling with its share of
// K; the inspected thread or element outlined; threads coloured by warp on the Warp tab.
#pragma once

#include "views/theatre/block/thread_inspector.hpp"
#include "views/window/app_state.hpp"
#include "views/stage/stage_layout.hpp"

namespace ts::views {

// The thread whose k loop is drawn: the inspected cell's when it lies in the theatre's
// block, else thread (0, 0).
model::Index2 focus_thread(const AppState& state, std::optional<model::Cell> cell);

// Draws into `region` of the current window, which the caller has covered with an item
// (an InvisibleButton) so that hovering and clicking reach it. Clicking a cell of C picks
// its block and pins it (`selected`, app.selected); clicking A or B pins that element. Sets
// theatre.hovered (app.theatre's), and reports what it drew where to `picture` (app.picture).
void draw_theatre_canvas(TheatreState& theatre, std::optional<model::Cell>& selected, PictureLayout& picture,
                         const AppState& app, const Rect& region, bool hovering, bool clicked);

}  // namespace ts::views
