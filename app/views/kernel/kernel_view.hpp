// kernel_view.hpp — your own kernel (--view kernel, Ctrl+8, issue 25): an editor for a matmul
// kernel with TileScope's fixed signature, started from the empty kernel or a rung's own; its
// launch as expressions of M, N and K; Compile (NVRTC in the GPU worker, no GPU needed), Run checks
// (five sizes, every cell against the reference, guard zones) and Measure (beside a rung). Errors
// are listed with line and column and marked in the editor; a click on one puts the cursor there.
// Files live in $XDG_DATA_HOME/tilescope/kernels/; unsaved edits are kept in a draft that the next
// start restores after a crash.
//
// kernel_view.cxx draws the panel and lays the view out; kernel_editor.cxx the text;
// kernel_results.cxx what came back from the GPU; kernel_state.cxx holds what they share.
#pragma once

#include "views/window/app_state.hpp"
#include "views/window/side_column.hpp"

namespace ts::views {

// The whole view, down to `bottom_reserve` above the window's bottom. It writes the editor's state,
// and for "Plot beside the rungs" the lab's latency view and the current view; through `edits` its
// side column. True when "Show in the theatre" was clicked: the window then opens the recorded trace
// there (draw_main_view).
bool draw_kernel_view(KernelEditorState& editor, LabState& lab, ViewId& view, const ColumnEdits& edits,
                      const AppState& app, float bottom_reserve);

// --kernel-file NAME: open it (a path, or a name in the kernels folder) in the editor at start.
// The reason when it cannot be read.
std::optional<std::string> open_kernel_flag(KernelEditorState& editor, const std::string& file);

}  // namespace ts::views
