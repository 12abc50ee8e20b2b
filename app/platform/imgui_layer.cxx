#include "imgui_layer.hpp"

#include <cfloat>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "imgui.h"
#include "imgui_compat.hpp"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"

namespace ts::platform::imgui_layer {

namespace {

// Who has the keys. At first the view: Space plays the theatre, the arrows pan or step, and
// ImGui's keyboard navigation is off so that it never takes them too. Tab hands the keys to
// the widgets (ImGui's navigation: Tab and the arrows move, Space and Enter press); Escape
// hands them back, unless it is closing a popup or ending a text edit. Called after
// ImGui::NewFrame(), so the widgets take the keys from the next frame on.
void hand_over_keys(ImGuiIO& io) {
    namespace keys = imgui_compat::keys;
    if (imgui_compat::key_pressed(keys::kTab, false) && !io.KeyCtrl) {
        io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    } else if (imgui_compat::key_pressed(keys::kEscape, false) && !io.WantTextInput &&
               !ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) {
        io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
    }
}

}  // namespace

bool init(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    // No imgui.ini in the working folder: the settings file holds ImGui's layout (app/window_settings.cxx).
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

void new_frame(bool follow_pointer, std::optional<ImVec2> display_size) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // After the backend has set the window's size, so that the offscreen size wins.
    if (display_size) {
        ImGui::GetIO().DisplaySize = *display_size;
        ImGui::GetIO().DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    }
    // After the backend has reported the pointer, so that "nowhere" wins.
    if (!follow_pointer) imgui_compat::set_mouse_position(ImGui::GetIO(), ImVec2(-FLT_MAX, -FLT_MAX));
    ImGui::NewFrame();
    hand_over_keys(ImGui::GetIO());
}

void render_draw_data() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void rebuild_fonts_texture() {
    // ImGui 1.92's backend keeps its textures up to date with the atlas by itself.
#if IMGUI_VERSION_NUM < 19200
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
#endif
}

void key_event(int key, bool down, int mods) {
    imgui_compat::send_glfw_key(ImGui::GetIO(), key, down, mods & GLFW_MOD_CONTROL, mods & GLFW_MOD_SHIFT,
                                mods & GLFW_MOD_ALT);
}

void char_event(unsigned character) { ImGui::GetIO().AddInputCharacter(character); }

void shutdown() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

}  // namespace ts::platform::imgui_layer
