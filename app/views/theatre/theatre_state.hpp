// theatre_state.hpp — what the tiling theatre remembers between frames: the block on show
// and where the phase player stands.
#pragma once

#include "model/index_math.hpp"
#include "phase_player.hpp"

namespace ts::views {

struct TheatreState {
    model::Index2 block;  // blockIdx.x (column of tiles), blockIdx.y (row of tiles)
    PhasePlayer player;
};

}  // namespace ts::views
