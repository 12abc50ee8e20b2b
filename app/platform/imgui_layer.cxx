#include "imgui_layer.hpp"

#include <cfloat>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"

namespace ts::platform::imgui_layer {

namespace {

// Before ImGui::NewFrame() counts this frame's key durations: down now, up the frame before.
bool went_down(const ImGuiIO& io, int key) { return io.KeysDown[key] && io.KeysDownDuration[key] < 0.0f; }

// Who has the keys. At first the view: Space plays the theatre, the arrows pan or step, and
// ImGui's keyboard navigation is off so that it never takes them too. Tab hands the keys to
// the widgets (ImGui's navigation: Tab and the arrows move, Space and Enter press); Escape
// hands them back, unless it is closing a popup or ending a text edit.
void hand_over_keys(ImGuiIO& io) {
    if (went_down(io, GLFW_KEY_TAB) && !io.KeyCtrl) {
        io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    } else if (went_down(io, GLFW_KEY_ESCAPE) && !io.WantTextInput &&
               !ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) {
        io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
    }
}

}  // namespace

bool init(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    // No imgui.ini in the working folder: the settings file holds ImGui's layout (platform/session.cxx).
    ImGui::GetIO().IniFilename = nullptr;
    if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) {
        ImGui::DestroyContext();
        return false;
    }
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        return false;
    }
    return true;
}

void new_frame(bool follow_pointer) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // ImGui 1.86's GLFW backend writes the pointer straight into io; overwrite it before
    // ImGui::NewFrame() reads it.
    if (!follow_pointer) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    hand_over_keys(ImGui::GetIO());
    ImGui::NewFrame();
}

void render_draw_data() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void rebuild_fonts_texture() {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

// The backend's own callbacks, which it installed on the window: what GLFW calls for a key.
void key_event(GLFWwindow* window, int key, bool down, int mods) {
    ImGui_ImplGlfw_KeyCallback(window, key, 0, down ? GLFW_PRESS : GLFW_RELEASE, mods);
}

void char_event(GLFWwindow* window, unsigned character) { ImGui_ImplGlfw_CharCallback(window, character); }

void shutdown() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

}  // namespace ts::platform::imgui_layer
