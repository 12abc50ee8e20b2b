#include "imgui_harness.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "imgui_internal.h"
#include "platform/imgui_compat.hpp"

namespace ts::test {

ImGuiHarness::ImGuiHarness(ImVec2 display) {
    m_context = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
#if IMGUI_VERSION_NUM >= 18700
    // Every event of a frame takes effect in that frame, as the tests expect.
    io.ConfigInputTrickleEventQueue = false;
#endif
    // NewFrame() requires a built font atlas; without a renderer nobody uploads it.
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    // One empty frame of the harness window first, as a real app has drawn many before the
    // user acts: ImGui 1.87+ gives a window that appears keyboard-navigation focus on its
    // first item in the frame after, and a click in that frame would count as a nav press.
    frame([] {});
}

ImGuiHarness::~ImGuiHarness() { ImGui::DestroyContext(m_context); }

std::string ImGuiHarness::frame(const std::function<void()>& body, ImVec2 mouse, bool mouse_down) {
    // ImGui logs to a file rather than its buffer here: End() of any top-level window,
    // tooltips included, stops logging and clears the buffer, but what reached the file
    // stays, so a tooltip's text can be read back.
    const std::filesystem::path log =
        std::filesystem::temp_directory_path() / ("tilescope_views_test_" + std::to_string(getpid()) + ".txt");
    std::filesystem::remove(log);
    bare_frame(
        [&] {
            ImGui::SetNextWindowPos(ImVec2(0, 0));
            ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
            ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
            ImGui::Begin("harness", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
            ImGui::PopStyleVar();
            ImGui::LogToFile(-1, log.c_str());
            body();
            ImGui::End();
        },
        mouse, mouse_down);
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    in.close();
    std::filesystem::remove(log);
    return text.str();
}

void ImGuiHarness::bare_frame(const std::function<void()>& body, ImVec2 mouse, bool mouse_down) {
    imgui_compat::set_mouse_position(ImGui::GetIO(), mouse);
    imgui_compat::set_mouse_button(ImGui::GetIO(), 0, mouse_down);
    ImGui::NewFrame();
    body();
    ImGui::Render();
}

bool ImGuiHarness::tooltip_open() const {
    for (ImGuiWindow* window : GImGui->Windows)
        if ((window->Flags & ImGuiWindowFlags_Tooltip) && window->Active) return true;
    return false;
}

}  // namespace ts::test
