// frame.cxx — see frame.hpp.
#include "frame.hpp"

#include "imgui.h"
#include "views/common/theme.hpp"
#include "views/window/main_view.hpp"

namespace ts::app {

void draw_frame(platform::Window& window, views::AppState& state, const FrameSteps& steps) {
    if (steps.offscreen)
        window.begin_offscreen_frame(steps.offscreen->width, steps.offscreen->height);
    else
        window.begin_frame(steps.follow_pointer);
    if (steps.runner) views::exchange_with_runner(state, *steps.runner, ImGui::GetTime());
    if (steps.before_draw) steps.before_draw();
    views::draw_main_view(state);
    if (steps.after_draw) steps.after_draw();
    const ImVec4 background = ImGui::ColorConvertU32ToFloat4(views::colours::kBackground);
    if (steps.offscreen)
        window.render_offscreen(background);
    else
        window.render(background);
}

}  // namespace ts::app
