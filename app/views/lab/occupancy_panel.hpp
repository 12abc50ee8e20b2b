// occupancy_panel.hpp — beside the lab's plots: how many blocks of the chosen kernel fit on
// one SM and why, from the occupancy model with this GPU's limits or a preset's. A launch
// the GPU would refuse (T = 64, 64×32 naive) is explained instead.
#pragma once

#include "views/window/app_state.hpp"
#include "model/device_limits.hpp"

namespace ts::views {

// The GPU's limits when one is usable, else the preset picked in the panel.
model::DeviceLimits occupancy_limits(const AppState& app);

// Writes the panel's choices and queues CUDA's answer about the compiled kernel.
void draw_occupancy_panel(LabState& lab, const AppState& app);

}  // namespace ts::views
