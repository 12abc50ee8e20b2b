// imgui_compat.hpp — the differences between the Dear ImGui versions the supported systems
// ship (Debian 12: 1.86; Debian 13 and Ubuntu 24.04: 1.90; Debian unstable and Ubuntu 26.04:
// 1.92), in one place, so that the views are written once:
// - keys: 1.86 indexes them by the backend's codes (GLFW_KEY_*) and has no names for function
//   keys; 1.87 and later name every key (ImGuiKey_F1) and queue key events;
// - fonts: before 1.92 a font is a bitmap baked at one size; 1.92 rasterises glyphs at
//   whatever size is drawn (ImFont::FontSize became LegacySize, style.FontScaleMain scales);
// - a few renamed functions.
// The backends' side (GLFW key callbacks, the font texture) is in imgui_layer.cxx.
#pragma once

#include "imgui.h"

namespace ts::imgui_compat {

#if IMGUI_VERSION_NUM >= 18700
using Key = ImGuiKey;
#else
using Key = int;
#endif

// Every key TileScope answers to, as the running ImGui names it.
namespace keys {
#if IMGUI_VERSION_NUM >= 18700
inline constexpr Key kNone = ImGuiKey_None;
inline constexpr Key kF1 = ImGuiKey_F1, kF5 = ImGuiKey_F5, kF6 = ImGuiKey_F6, kF7 = ImGuiKey_F7,
                     kF11 = ImGuiKey_F11;
inline constexpr Key kRight = ImGuiKey_RightArrow, kLeft = ImGuiKey_LeftArrow, kDown = ImGuiKey_DownArrow,
                     kUp = ImGuiKey_UpArrow;
inline constexpr Key kDelete = ImGuiKey_Delete, kEscape = ImGuiKey_Escape, kTab = ImGuiKey_Tab;
inline constexpr Key kPageUp = ImGuiKey_PageUp, kPageDown = ImGuiKey_PageDown, kHome = ImGuiKey_Home,
                     kEnd = ImGuiKey_End;
inline constexpr Key kSpace = ImGuiKey_Space, kEnter = ImGuiKey_Enter, kKeypadEnter = ImGuiKey_KeypadEnter;
inline constexpr Key kEqual = ImGuiKey_Equal, kMinus = ImGuiKey_Minus, kZero = ImGuiKey_0, kR = ImGuiKey_R, kL = ImGuiKey_L,
                     kE = ImGuiKey_E, kB = ImGuiKey_B;
inline constexpr Key kKeypadSubtract = ImGuiKey_KeypadSubtract, kKeypadAdd = ImGuiKey_KeypadAdd;
#else
// GLFW's codes, which ImGui 1.86's GLFW backend writes into io.KeysDown (imgui_compat.cxx
// checks them against GLFW_KEY_*).
inline constexpr Key kNone = -1;
inline constexpr Key kF1 = 290, kF5 = 294, kF6 = 295, kF7 = 296, kF11 = 300;
inline constexpr Key kRight = 262, kLeft = 263, kDown = 264, kUp = 265;
inline constexpr Key kDelete = 261, kEscape = 256, kTab = 258;
inline constexpr Key kPageUp = 266, kPageDown = 267, kHome = 268, kEnd = 269;
inline constexpr Key kSpace = 32, kEnter = 257, kKeypadEnter = 335;
inline constexpr Key kEqual = 61, kMinus = 45, kZero = 48, kR = 82, kL = 76, kE = 69, kB = 66;
inline constexpr Key kKeypadSubtract = 333, kKeypadAdd = 334;
#endif
}  // namespace keys

// The digit keys 0..9 of the main keyboard (not the keypad).
Key digit_key(int digit);
bool is_function_key(Key key);

// Pressed this frame (or, with `repeat`, repeating while held). Call after ImGui::NewFrame().
bool key_pressed(Key key, bool repeat = true);

// Keeps the keyboard from the application for the next frame, as a modal list does.
void want_capture_keyboard();

// The height in pixels a font draws at now (before 1.92: its baked size; 1.92: the size it
// was added at, times the global scale).
float font_size(const ImFont* font);

// Crisp text at `scale` (1, 1.5, 2, 3 × the monitor's content scale). Before 1.92 fonts must
// be baked again at the new size: add them at size × font_bake_scale(scale) after clearing the
// atlas, then upload the texture (imgui_layer). 1.92 adds them once at their 1× size and
// scales at draw time: font_bake_scale() is 1 and apply_font_scale() sets the global scale.
inline constexpr bool kFontsScaleAtDrawTime = IMGUI_VERSION_NUM >= 19200;
float font_bake_scale(float scale);
void apply_font_scale(float scale);
// Before `replacement` replaces the current style: on 1.92 the font scale lives in the style,
// so it is carried over (elsewhere this does nothing).
void keep_font_scale(ImGuiStyle& replacement);

// A key or the modifiers going down or up, as a backend reports them, taking effect at the
// next ImGui::NewFrame(): for tests that drive the views without a window or backend.
void set_key_down(ImGuiIO& io, Key key, bool down);
void set_modifiers(ImGuiIO& io, bool ctrl, bool shift, bool alt);
// The same for the mouse. 1.87+ queues these after what the backend reported this frame, so
// they win (hiding the pointer from ImGui works this way too).
void set_mouse_position(ImGuiIO& io, ImVec2 position);
void set_mouse_button(ImGuiIO& io, int button, bool down);
void add_mouse_wheel(ImGuiIO& io, float notches);

// A key press made up by TileScope itself (--keys), given by its GLFW code. It bypasses the
// GLFW backend, whose 1.87+ versions read the modifiers from the real keyboard.
void send_glfw_key(ImGuiIO& io, int glfw_key, bool down, bool ctrl, bool shift, bool alt);

}  // namespace ts::imgui_compat
