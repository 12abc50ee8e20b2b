// frame_time.hpp — --frame-time N: how long a frame of the current view takes to draw.
#pragma once

#include "gpu/runner.hpp"
#include "platform/window.hpp"
#include "views/window/app_state.hpp"

namespace ts::app {

// The settling frames, which also build the stage's heat-map textures, are not counted; the
// N after them are drawn without vsync, each waited for on the GPU before the next starts.
// Prints their median and 90th percentile, the renderer, how soon the first frame was shown
// and whether the GPU probe (in the worker) had answered by then: the window must never wait
// for it. The exit status: 0.
int time_frames(platform::Window& window, gpu::Runner& runner, views::AppState& state, int frames);

}  // namespace ts::app
