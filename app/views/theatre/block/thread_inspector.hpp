// thread_inspector.hpp — who does what, in numbers. For a cell of C: the thread computing
// it, with the index formulas filled in (row = blockIdx.y·blockDim.y + threadIdx.y =
// 1·8 + 3 = 11), and the elements it reads in the current step with their row-major
// addresses. For an element of A or B: which blocks and threads load it, in which phase.
#pragma once

#include <optional>
#include <string>

#include "model/index_math.hpp"
#include "model/tile_schedule.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// "412..419" for neighbours, "453, 481, …, 649 (28 apart)" for a stride, one address alone.
std::string address_run(std::int64_t first, std::int64_t stride, int count);

// The thread behind C[cell] and what it does in the theatre's current step. Empty outside C.
std::string thread_report(const AppState& state, model::Cell cell);

// Who loads A[element] (operand A) or B[element], in which phase, and how often so far.
// Empty outside the matrix.
std::string element_report(const AppState& state, model::Operand operand, model::Cell element);

// The hovered report in a tooltip that follows the mouse, with how to pin it: B's element over
// A's over C's thread, where more than one is hovered. Nothing when none has a report.
void draw_hover_tooltip(const AppState& state, const Inspected& hovered);

// The "Thread" tab: the inspected cell's report, else the element's, else how to pick one.
void draw_thread_panel(const AppState& state, const Inspected& inspected);

}  // namespace ts::views
