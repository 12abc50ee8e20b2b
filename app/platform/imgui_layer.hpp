// imgui_layer.hpp — Dear ImGui's GLFW and OpenGL3 backends on one window. Kept in its own
// translation unit because imgui_impl_opengl3 brings its own GL loader and ours is glad;
// the two never meet in one file.
#pragma once

#include <optional>

#include "imgui.h"

struct GLFWwindow;

namespace ts::platform::imgui_layer {

// Creates the ImGui context and starts both backends on `window`, whose GL 3.3 context
// must be current. Returns false when a backend could not start.
bool init(GLFWwindow* window);
// follow_pointer false: ImGui sees the mouse nowhere, whatever GLFW reports. With
// `display_size`, the frame is laid out at that size in pixels instead of the window's (an
// offscreen frame).
void new_frame(bool follow_pointer, std::optional<ImVec2> display_size = std::nullopt);
void render_draw_data();
// Uploads the font atlas again after its fonts changed (between frames).
void rebuild_fonts_texture();
// A key (GLFW_KEY_*) going down or up, or a character typed, made up by TileScope (--keys).
void key_event(int key, bool down, int mods);
void char_event(unsigned character);
void shutdown();

}  // namespace ts::platform::imgui_layer
