#include "imgui_compat.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace ts::imgui_compat {

#if IMGUI_VERSION_NUM < 18700
static_assert(keys::kF1 == GLFW_KEY_F1 && keys::kF5 == GLFW_KEY_F5 && keys::kF6 == GLFW_KEY_F6 &&
              keys::kF7 == GLFW_KEY_F7 && keys::kF11 == GLFW_KEY_F11);
static_assert(keys::kRight == GLFW_KEY_RIGHT && keys::kLeft == GLFW_KEY_LEFT && keys::kDown == GLFW_KEY_DOWN &&
              keys::kUp == GLFW_KEY_UP);
static_assert(keys::kDelete == GLFW_KEY_DELETE && keys::kEscape == GLFW_KEY_ESCAPE && keys::kTab == GLFW_KEY_TAB);
static_assert(keys::kPageUp == GLFW_KEY_PAGE_UP && keys::kPageDown == GLFW_KEY_PAGE_DOWN &&
              keys::kHome == GLFW_KEY_HOME && keys::kEnd == GLFW_KEY_END);
static_assert(keys::kSpace == GLFW_KEY_SPACE && keys::kEnter == GLFW_KEY_ENTER && keys::kKeypadEnter == GLFW_KEY_KP_ENTER);
static_assert(keys::kEqual == GLFW_KEY_EQUAL && keys::kMinus == GLFW_KEY_MINUS && keys::kZero == GLFW_KEY_0 &&
              keys::kR == GLFW_KEY_R && keys::kL == GLFW_KEY_L && keys::kE == GLFW_KEY_E &&
              keys::kB == GLFW_KEY_B);
static_assert(keys::kKeypadAdd == GLFW_KEY_KP_ADD && keys::kKeypadSubtract == GLFW_KEY_KP_SUBTRACT);
#endif

Key digit_key(int digit) {
#if IMGUI_VERSION_NUM >= 18700
    return static_cast<ImGuiKey>(ImGuiKey_0 + digit);
#else
    return keys::kZero + digit;  // GLFW's digits are their ASCII codes
#endif
}

bool is_function_key(Key key) {
#if IMGUI_VERSION_NUM >= 18700
    return key >= ImGuiKey_F1 && key <= ImGuiKey_F12;
#else
    return key >= keys::kF1 && key <= keys::kF1 + 24;
#endif
}

bool key_pressed(Key key, bool repeat) { return key != keys::kNone && ImGui::IsKeyPressed(key, repeat); }

void want_capture_keyboard() {
#if IMGUI_VERSION_NUM >= 18900
    ImGui::SetNextFrameWantCaptureKeyboard(true);
#else
    ImGui::CaptureKeyboardFromApp(true);
#endif
}

float font_size(const ImFont* font) {
#if IMGUI_VERSION_NUM >= 19200
    return font->LegacySize * ImGui::GetStyle().FontScaleMain;
#else
    return font->FontSize;
#endif
}

float font_bake_scale(float scale) { return kFontsScaleAtDrawTime ? 1.0f : scale; }

void apply_font_scale([[maybe_unused]] float scale) {
#if IMGUI_VERSION_NUM >= 19200
    ImGui::GetStyle().FontScaleMain = scale;
#endif
}

void keep_font_scale([[maybe_unused]] ImGuiStyle& replacement) {
#if IMGUI_VERSION_NUM >= 19200
    replacement.FontScaleMain = ImGui::GetStyle().FontScaleMain;
    replacement.FontScaleDpi = ImGui::GetStyle().FontScaleDpi;
#endif
}

void set_key_down(ImGuiIO& io, Key key, bool down) {
#if IMGUI_VERSION_NUM >= 18700
    io.AddKeyEvent(key, down);
#else
    io.KeysDown[key] = down;
#endif
}

void set_modifiers(ImGuiIO& io, bool ctrl, bool shift, bool alt) {
#if IMGUI_VERSION_NUM >= 18900
    io.AddKeyEvent(ImGuiMod_Ctrl, ctrl);
    io.AddKeyEvent(ImGuiMod_Shift, shift);
    io.AddKeyEvent(ImGuiMod_Alt, alt);
#elif IMGUI_VERSION_NUM >= 18700
    io.AddKeyEvent(ImGuiKey_ModCtrl, ctrl);
    io.AddKeyEvent(ImGuiKey_ModShift, shift);
    io.AddKeyEvent(ImGuiKey_ModAlt, alt);
#else
    io.KeyCtrl = ctrl;
    io.KeyShift = shift;
    io.KeyAlt = alt;
#endif
}

void set_mouse_position(ImGuiIO& io, ImVec2 position) {
#if IMGUI_VERSION_NUM >= 18700
    io.AddMousePosEvent(position.x, position.y);
#else
    io.MousePos = position;
#endif
}

void set_mouse_button(ImGuiIO& io, int button, bool down) {
#if IMGUI_VERSION_NUM >= 18700
    io.AddMouseButtonEvent(button, down);
#else
    io.MouseDown[button] = down;
#endif
}

void add_mouse_wheel(ImGuiIO& io, float notches) {
#if IMGUI_VERSION_NUM >= 18700
    io.AddMouseWheelEvent(0.0f, notches);
#else
    io.MouseWheel += notches;
#endif
}

#if IMGUI_VERSION_NUM >= 18700
namespace {
// GLFW's key codes → ImGui's names, for the keys --keys can press (platform/key_names.cxx).
ImGuiKey from_glfw(int key) {
    if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return static_cast<ImGuiKey>(ImGuiKey_A + (key - GLFW_KEY_A));
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return static_cast<ImGuiKey>(ImGuiKey_0 + (key - GLFW_KEY_0));
    if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12) return static_cast<ImGuiKey>(ImGuiKey_F1 + (key - GLFW_KEY_F1));
    switch (key) {
    case GLFW_KEY_PAGE_UP: return ImGuiKey_PageUp;
    case GLFW_KEY_PAGE_DOWN: return ImGuiKey_PageDown;
    case GLFW_KEY_HOME: return ImGuiKey_Home;
    case GLFW_KEY_END: return ImGuiKey_End;
    case GLFW_KEY_LEFT: return ImGuiKey_LeftArrow;
    case GLFW_KEY_RIGHT: return ImGuiKey_RightArrow;
    case GLFW_KEY_UP: return ImGuiKey_UpArrow;
    case GLFW_KEY_DOWN: return ImGuiKey_DownArrow;
    case GLFW_KEY_ENTER: return ImGuiKey_Enter;
    case GLFW_KEY_KP_ENTER: return ImGuiKey_KeypadEnter;
    case GLFW_KEY_ESCAPE: return ImGuiKey_Escape;
    case GLFW_KEY_SPACE: return ImGuiKey_Space;
    case GLFW_KEY_TAB: return ImGuiKey_Tab;
    case GLFW_KEY_BACKSPACE: return ImGuiKey_Backspace;
    case GLFW_KEY_DELETE: return ImGuiKey_Delete;
    case GLFW_KEY_INSERT: return ImGuiKey_Insert;
    case GLFW_KEY_EQUAL: return ImGuiKey_Equal;
    case GLFW_KEY_MINUS: return ImGuiKey_Minus;
    case GLFW_KEY_SLASH: return ImGuiKey_Slash;
    case GLFW_KEY_KP_ADD: return ImGuiKey_KeypadAdd;
    case GLFW_KEY_KP_SUBTRACT: return ImGuiKey_KeypadSubtract;
    case GLFW_KEY_LEFT_CONTROL: return ImGuiKey_LeftCtrl;
    case GLFW_KEY_LEFT_SHIFT: return ImGuiKey_LeftShift;
    case GLFW_KEY_LEFT_ALT: return ImGuiKey_LeftAlt;
    default: return ImGuiKey_None;
    }
}
}  // namespace
#endif

void send_glfw_key(ImGuiIO& io, int glfw_key, bool down, bool ctrl, bool shift, bool alt) {
    set_modifiers(io, ctrl, shift, alt);
#if IMGUI_VERSION_NUM >= 18700
    if (const ImGuiKey key = from_glfw(glfw_key); key != ImGuiKey_None) io.AddKeyEvent(key, down);
#else
    if (glfw_key >= 0 && glfw_key < static_cast<int>(IM_ARRAYSIZE(io.KeysDown))) io.KeysDown[glfw_key] = down;
#endif
}

}  // namespace ts::imgui_compat
