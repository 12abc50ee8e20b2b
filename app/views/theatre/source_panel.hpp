// source_panel.hpp — the real tiled kernel (kernels/05_tiled.cu, embedded at build time)
// with the line the current sub-step executes highlighted.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "model/tiled_steps.hpp"

namespace ts::views {

// The text of kernels/<file> as it was when TileScope was built; empty if there is none.
std::string_view kernel_source(std::string_view file);

// The lines of `text`, without their line ends.
std::vector<std::string_view> split_lines(std::string_view text);

// The first line at or after `from` that contains `needle`, or nullopt.
std::optional<int> find_line(const std::vector<std::string_view>& lines, std::string_view needle, int from = 0);

// Where each sub-step lives in the tiled kernel, found by the statement's text rather than
// by line number, so that editing the kernel's comments cannot move the highlight.
// `first`..`last` (inclusive, 0-based) are the executed lines; the load covers As and Bs.
struct SourceLines {
    int first = 0;
    int last = 0;
};
std::optional<SourceLines> tiled_source_lines(const std::vector<std::string_view>& lines, model::SubStep sub);

// The tiled kernel's function, from its template line to its closing brace; nullopt if the
// embedded source does not contain it.
std::optional<SourceLines> tiled_kernel_extent(const std::vector<std::string_view>& lines);

// Draws the kernel with line numbers into the current window, highlighting `sub`'s lines.
void draw_source_panel(model::SubStep sub);

}  // namespace ts::views
