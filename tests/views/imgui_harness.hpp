// imgui_harness.hpp — an ImGui context without a window or renderer, for drawing views in
// tests and reading back what a user would see.
#pragma once

#include <cfloat>
#include <functional>
#include <string>

#include "imgui.h"

namespace ts::test {

class ImGuiHarness {
public:
    explicit ImGuiHarness(ImVec2 display = ImVec2(1600, 1000));
    ~ImGuiHarness();
    ImGuiHarness(const ImGuiHarness&) = delete;
    ImGuiHarness& operator=(const ImGuiHarness&) = delete;

    // Runs one frame with `body` inside an undecorated window covering the display, whose
    // content starts at content_origin(). Returns the text the widgets wrote, tooltips
    // included, as captured by ImGui's logging: what a user reads (text drawn directly with
    // ImDrawList is not included).
    // `mouse_down`: the left button is held during this frame.
    std::string frame(const std::function<void()>& body, ImVec2 mouse = ImVec2(-FLT_MAX, -FLT_MAX),
                      bool mouse_down = false);

    // Runs one frame of a view that fills the display itself (draw_main_view).
    void bare_frame(const std::function<void()>& body, ImVec2 mouse = ImVec2(-FLT_MAX, -FLT_MAX),
                    bool mouse_down = false);

    // Whether a tooltip was open in the last frame.
    bool tooltip_open() const;

    static ImVec2 content_origin() { return ImVec2(0, 0); }

private:
    ImGuiContext* m_context = nullptr;
};

}  // namespace ts::test
