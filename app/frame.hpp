// frame.hpp — one frame of the window, the same wherever it is drawn: the interactive window,
// a screenshot, the lesson walk, --frame-time and an exported animation's offscreen frames.
//
//     begin the frame (on screen, or offscreen at the export's size)
//     exchange with the runner        (results in, requests out; not for an export's frames)
//     before_draw()                   (the automation's hooks, where a path has them)
//     draw the main view
//     after_draw()
//     render
//
// What comes after the render (a screenshot, present(), the settings) is the caller's.
#pragma once

#include <functional>
#include <optional>

#include "gpu/runner.hpp"
#include "platform/window.hpp"
#include "views/window/app_state.hpp"

namespace ts::app {

// ImGui sizes windows and tables from the previous frame, so a new layout needs a few frames
// before it is drawn where it will stay.
constexpr int kSettleFrames = 3;

// An exported animation's frame size, in pixels.
struct OffscreenSize {
    int width = 0, height = 0;
};

struct FrameSteps {
    // The runner to exchange with before drawing; null: draw the state as it stands (an
    // export's frames, which must not change under it).
    gpu::Runner* runner = nullptr;
    // Whether ImGui follows the real pointer: only while a person drives the window, so that
    // pictures do not depend on where the pointer happens to be.
    bool follow_pointer = false;
    // Draw offscreen at this size (an exported animation) instead of into the window.
    std::optional<OffscreenSize> offscreen{};
    std::function<void()> before_draw{};  // after the exchange, before the views are drawn
    std::function<void()> after_draw{};   // after the views are drawn, before rendering
};

void draw_frame(platform::Window& window, views::AppState& state, const FrameSteps& steps);

}  // namespace ts::app
