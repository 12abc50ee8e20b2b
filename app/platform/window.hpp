// window.hpp — the application window: GLFW, an OpenGL 3.3 core context, Dear ImGui.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include <deque>
#include <vector>

#include "fonts.hpp"
#include "heatmap_renderer.hpp"
#include "imgui.h"
#include "key_names.hpp"

struct GLFWwindow;

namespace ts::platform {

struct WindowOptions {
    int width = 1600;
    int height = 1000;
    std::string title = "TileScope";
    // false: frames follow as fast as they are drawn, so --lab-benchmark times the work and
    // not the display's refresh.
    bool vsync = true;
    std::optional<int> x, y;  // where on the desktop; nullopt: where the window manager puts it
    bool fullscreen = false;  // on the primary monitor
    float font_scale = 1.0f;  // presenter mode's; the monitor's content scale multiplies it
};

// Where and how large the window is when it is not full screen: what the settings remember.
struct WindowPlacement {
    int x = 0, y = 0, width = 0, height = 0;
};

class Window {
public:
    // The window, or why there is none in words a user can act on (no display, no
    // OpenGL 3.3). Never exits the process.
    static std::variant<std::unique_ptr<Window>, std::string> create(const WindowOptions& options);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    const FontSet& fonts() const { return m_fonts; }
    // Rebuilds the fonts at `scale` times their size from DejaVu Sans, so that they stay crisp
    // (ImGui's FontGlobalScale would stretch the 1× bitmaps), and uploads them again. Call
    // between frames; fonts() then holds new pointers. Returns false when DejaVu Sans is missing.
    // With `with_content_scale` false the monitor's content scale is left out: an exported
    // animation's text is the same size on every machine.
    bool set_font_scale(float scale, bool with_content_scale = true);
    float font_scale() const { return m_font_scale; }

    // Full screen on the primary monitor at its current video mode, or back to the window's
    // last size and place.
    void set_fullscreen(bool fullscreen);
    bool fullscreen() const;
    // The windowed size and place, also while full screen (the one it returns to).
    WindowPlacement placement() const;

    // Presses keys as if typed, one per frame from the next begin_frame(): each goes down on
    // one frame and up on the next, through the same GLFW callbacks a real key takes.
    void queue_keys(const std::vector<KeyPress>& keys);
    bool keys_pending() const { return !m_queued_keys.empty() || m_key_down.has_value(); }
    // Set when the preferred font was missing and ImGui's built-in one is used instead.
    const std::optional<std::string>& font_warning() const { return m_font_warning; }

    // The stage's heat maps, for views::set_heatmap_painter(); null when this OpenGL cannot
    // draw them (heatmap_warning() says why), and the stage then fills them flat.
    HeatmapRenderer* heatmap_painter() const { return m_heatmaps.get(); }
    const std::optional<std::string>& heatmap_warning() const { return m_heatmap_warning; }

    bool should_close() const;
    // Handles window events and starts an ImGui frame. With follow_pointer false ImGui sees
    // no mouse at all, so that screenshots do not depend on where the pointer happens to be.
    void begin_frame(bool follow_pointer);
    // Clears the back buffer and draws the ImGui frame into it.
    void render(ImVec4 clear_colour);
    // Saves the back buffer as a PNG: call after render() and before present().
    std::optional<std::string> save_screenshot(const std::string& path) const;
    // The same for the part of the window inside [min, max), in ImGui's coordinates (a
    // plot's "Save PNG"): scaled to the framebuffer, clipped to the window.
    std::optional<std::string> save_region(const std::string& path, ImVec2 min, ImVec2 max) const;
    void present();

    // Offscreen frames, for an exported animation: drawn at width × height pixels whatever the
    // window's size, into a framebuffer of their own, with ImGui seeing no pointer. The window's
    // next begin_frame() draws on screen again.
    void begin_offscreen_frame(int width, int height);
    void render_offscreen(ImVec4 clear_colour);
    // The offscreen frame just rendered: width × height × 3 bytes, RGB, rows top-down; or why
    // it could not be read.
    std::variant<std::vector<unsigned char>, std::string> read_offscreen() const;
    // Waits until the GPU has drawn all it was given, so that --frame-time counts whole frames.
    void finish() const;
    // What draws: OpenGL's renderer string, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    std::string renderer() const;

private:
    explicit Window(GLFWwindow* window) : m_window(window) {}

    void press_queued_key();

    GLFWwindow* m_window = nullptr;
    FontSet m_fonts;
    float m_content_scale = 1.0f;
    float m_font_scale = 1.0f;
    WindowPlacement m_windowed;  // kept up to date while windowed; restored after full screen
    std::deque<KeyPress> m_queued_keys;
    std::optional<KeyPress> m_key_down;  // pressed last frame, released this one
    std::optional<std::string> m_font_warning;
    std::unique_ptr<HeatmapRenderer> m_heatmaps;
    // The offscreen framebuffer and its colour buffer, made at the first offscreen frame and
    // remade when the size changes; 0: none yet.
    struct Offscreen {
        unsigned framebuffer = 0, colour = 0;
        int width = 0, height = 0;
        std::string error;  // why it could not be made
    } m_offscreen;
    std::optional<std::string> m_heatmap_warning;
};

}  // namespace ts::platform
