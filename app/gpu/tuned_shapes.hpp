// tuned_shapes.hpp — where the tuned rungs' table lives, and which candidate a request runs.
//
// The user's table ($TILESCOPE_TUNING, else $XDG_DATA_HOME/tilescope/tuned-shapes.ini, else
// ~/.local/share/tilescope/tuned-shapes.ini), written by `tilescope-cli tune`, is consulted
// first; then the table shipped in the model (model::kShippedTuningTable). No CUDA here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "model/problem.hpp"
#include "model/tuning_table.hpp"

namespace ts::gpu {

std::filesystem::path user_tuning_path();

// The table in `path`, or an empty one when there is none. A file that does not parse is
// ignored, and `warning` says why (with its path), so a bad edit never stops a launch.
model::TuningTable load_tuning(const std::filesystem::path& path, std::string* warning = nullptr);

struct TunedChoice {
    int variant = 0;
    // "tuned on this machine (PATH)", "shipped table" or "default"; the last two name a
    // user's table that was passed over: "shipped table; ignored PATH: line 2: …".
    std::string source;
};

// The candidate the tuned rung `rung` (tuned or tc-tuned) runs for `problem` on the GPU named
// `gpu`: its largest side picks the row.
TunedChoice choose_tuned_variant(model::KernelKind rung, const std::string& gpu, const model::Problem& problem);

}  // namespace ts::gpu
