// trace_file.hpp — a kernel trace (model::KernelTrace) as a JSON file, so a replay
// recorded on a GPU can be shown on a machine without one (`tilescope --trace FILE`).
//
//   {"format": "tilescope-trace", "format_version": 1, "kernel": "tiled", "block_x": 8,
//    "block_y": 8, "tile": 8, "m": 40, "n": 28, "k": 36, "device": "NVIDIA H200", ...,
//    "block_sm": [...], "clocks": [start_ns, end_ns, start_cycles, end_cycles, ...],
//    "loads": [row, col, slot, loaded, ...]}
//
// clocks and loads are flat lists, four numbers per record, in kernel_trace.hpp's slot order.
// "kernel" is naive, tiled, regtile-2d, warptile, mma, wgmma or warp-specialized (the rungs' shapes are fixed;
// their block_x, block_y and tile are stored but mean nothing). An mma trace has no loads; its
// "fragment_words" are warp 0's 16 halves a lane after its first ldmatrix of A and B, and its
// clocks the blocks' K steps. A wgmma trace has no loads; its
// "stage_words" are stage 0 of block (0, 0) after its first TMA copies, one 16-bit word each
// (model/tensor_core/stage_record.hpp), and its clocks the blocks' K steps. A warp-specialized trace
// adds "role_clocks": three cycle counts (wait start, ready, done) per block, role and K step.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

#include "model/kernel_trace.hpp"

namespace ts::record {

inline constexpr std::string_view kTraceFormat = "tilescope-trace";
inline constexpr int kTraceFormatVersion = 1;

std::string trace_to_json(const model::KernelTrace& trace);
// The trace in `text`, or an error that starts with `source`. A file whose lists do not fit
// its grid is refused here, not when the player reaches the missing block.
std::variant<model::KernelTrace, std::string> parse_trace(std::string_view text, std::string_view source);
std::variant<model::KernelTrace, std::string> load_trace(const std::filesystem::path& file);

}  // namespace ts::record
