// tiled_steps.hpp — the tiled kernel as a sequence of sub-steps a student can step through:
// in every phase the block loads a tile of A and of B, waits at a barrier, computes, waits
// again; at the very end each thread stores its cell of C. The theatre view plays these.
#pragma once

#include <optional>
#include <string_view>

#include "problem.hpp"
#include "tile_schedule.hpp"

namespace ts::model {

// In the kernel's order; Store happens once, after the last phase.
enum class SubStep { LoadTiles, SyncAfterLoad, Compute, SyncAfterCompute, Store };

inline constexpr int kSubStepsPerPhase = 4;

struct TiledStep {
    int phase = 0;  // the Store step carries the last phase
    SubStep sub = SubStep::LoadTiles;
    constexpr bool operator==(const TiledStep&) const = default;
};

// "load", "sync1", "compute", "sync2", "store": the --step flag's words.
std::string_view substep_name(SubStep sub);
std::optional<SubStep> parse_substep(std::string_view text);

// What the block does in this sub-step, for a title: "load tiles into shared memory".
std::string_view substep_title(SubStep sub);

// phases·4 + 1: four sub-steps per phase, then the store. `phases` >= 1.
int tiled_step_count(int phases);

// Index ↔ step. tiled_step_at clamps the index into [0, count); tiled_step_index clamps the
// phase into [0, phases), and any Store is the last index.
TiledStep tiled_step_at(int phases, int index);
int tiled_step_index(int phases, TiledStep step);

// How much of K every cell of C has accumulated while the block is at `step`: the phases
// whose compute has run. During LoadTiles and SyncAfterLoad of phase p that is the phases
// before p; from Compute of phase p on, phase p too.
KRange accumulated_at(const Problem& problem, int tile, TiledStep step);

}  // namespace ts::model
