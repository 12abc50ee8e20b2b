// kernel_editor.hpp — the kernel editor's text: the source in a fixed-width face with line
// numbers, the lines the compiler spoke of marked in the gutter and tinted (red for an error,
// amber for a warning; so too the lines where the last trace found a race or a bank
// conflict), and a clicked message's line brought into view with the cursor on it.
//
// Dear ImGui's multiline text field does the editing. It is made as tall as the text, inside a
// scrolling child that also holds the gutter, so that every line's place is known and the marks
// are drawn under the text; the child follows the cursor as it moves.
#pragma once

#include <string>

#include "imgui.h"
#include "views/kernel/kernel_state.hpp"

namespace ts::views {

// A text field over a std::string (ImGui 1.86 has no std::string overloads of its own).
bool input_string(const char* label, std::string& text, ImGuiInputTextFlags flags = 0);

// The source, `size` big. True when the text changed this frame (source_changed is called).
bool draw_kernel_editor(KernelEditorState& state, ImVec2 size);

// The byte offset at which `line` (from 1) of `text` starts: its end when there are fewer lines.
int line_start_offset(const std::string& text, int line);

}  // namespace ts::views
