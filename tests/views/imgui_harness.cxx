#include "imgui_harness.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "imgui_internal.h"

namespace ts::test {

ImGuiHarness::ImGuiHarness(ImVec2 display) {
    m_context = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
    // NewFrame() requires a built font atlas; without a renderer nobody uploads it.
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
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
    ImGui::GetIO().MousePos = mouse;
    ImGui::GetIO().MouseDown[0] = mouse_down;
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
