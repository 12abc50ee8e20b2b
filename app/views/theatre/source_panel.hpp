// source_panel.hpp — the real kernels (kernels/*.cu, embedded at build time) with the line
// the current sub-step executes highlighted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/format.hpp"
#include "model/kernel_config.hpp"
#include "model/kernel_trace.hpp"
#include "model/phase_timeline.hpp"

namespace ts::views {

// The text of kernels/<file> as it was when TileScope was built; empty if there is none.
std::string_view kernel_source(std::string_view file);

// The embedded file that defines `kind`'s kernel (found by its __global__ signature, so
// renumbering the files changes nothing), or an empty file name when none does.
struct KernelFile {
    std::string_view file;
    std::string_view text;
};
KernelFile kernel_file(model::KernelKind kind);

// The lines of `text`, without their line ends (the model's, for the theatre and its tests).
using model::split_lines;

// The first line at or after `from` that contains `needle`, or nullopt.
std::optional<int> find_line(const std::vector<std::string_view>& lines, std::string_view needle, int from = 0);

// `first`..`last` (inclusive, 0-based) lines of a file.
struct SourceLines {
    int first = 0;
    int last = 0;
};

// Where each sub-step lives in the kernel of `kind` (Naive or Tiled), found by the
// statement's text rather than by line number, so that editing the kernel's comments cannot
// move the highlight. The tiled load covers As and Bs. The naive kernel has only compute
// (its loop) and store: nullopt for the other sub-steps, and whenever a statement is missing.
std::optional<SourceLines> source_lines(model::KernelKind kind, const std::vector<std::string_view>& lines,
                                        model::SubStep sub);

// The kernel's __global__ function, from its template line to its closing brace; nullopt
// if the lines do not contain it.
std::optional<SourceLines> kernel_extent(model::KernelKind kind, const std::vector<std::string_view>& lines);

// A statement to flag: an experiment's missing barrier (theatre/block/race_overlay.hpp), drawn struck
// through in red with `note` after it.
struct SourceFlag {
    model::SubStep statement = model::SubStep::SyncAfterCompute;  // whose line: a barrier of the tiled kernel
    std::string note;                                              // "taken out in missing-second-sync"
};

// Lines `extent` of a kernel's file with line numbers, `current` highlighted (and scrolled into view
// when it moves off screen), `flagged_line` (−1: none) struck through in red with `note` after it.
void draw_source_lines(const std::vector<std::string_view>& lines, SourceLines extent,
                       std::optional<SourceLines> current, int flagged_line = -1, const std::string& note = {});

// Draws `kind`'s kernel with line numbers into the current window, highlighting `sub`'s
// lines; says so when the kernel has nothing to do in this sub-step. `flag`: a line to strike.
void draw_source_panel(model::KernelKind kind, model::SubStep sub, const SourceFlag* flag = nullptr);

// A learner's kernel recorded as the tiled rung (model/user_kernel/user_trace.hpp): its own source, the
// lines of this sub-step found by what they touch (the first line reading A[ to the last reading
// B[ for the loads, then the barrier, the first += after it, the next barrier, the store to C[).
void draw_user_source_panel(const model::KernelTrace& trace, model::SubStep sub);

}  // namespace ts::views
