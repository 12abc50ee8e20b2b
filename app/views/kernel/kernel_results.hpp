// kernel_results.hpp — what the learner's kernel did on the GPU, under the editor: each check
// size with its runs (right, or wrong with the Experiments view's heat map of where C came out
// wrong, NaN cells, stores past C, or the worker's sentence), and the measurement beside the rung.
#pragma once

#include "views/kernel/kernel_state.hpp"

namespace ts::views {

// Draws them from the editor's state alone; true when "Show in the theatre" under a
// tiled-shaped trace was clicked, for the view to put it there (the theatre's problem and T
// become the trace's).
bool draw_kernel_results(const KernelEditorState& editor);

}  // namespace ts::views
