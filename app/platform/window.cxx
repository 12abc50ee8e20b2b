#include "window.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <vector>

#include "imgui_layer.hpp"
#include "png_writer.hpp"

namespace ts::platform {

namespace {

// GLFW reports errors through a callback; the last one explains a failed call.
std::string g_last_glfw_error;

void remember_glfw_error(int /*code*/, const char* description) { g_last_glfw_error = description; }

std::string glfw_error_or(const char* fallback) {
    return g_last_glfw_error.empty() ? std::string(fallback) : g_last_glfw_error;
}

// A remembered position is used only if the window's corner lands in some monitor's work
// area: monitors come and go between runs, and a window off every screen cannot be moved back.
bool on_a_monitor(int x, int y) {
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    for (int i = 0; i < count; ++i) {
        int mx = 0, my = 0, mw = 0, mh = 0;
        glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
        if (x >= mx && y >= my && x < mx + mw - 40 && y < my + mh - 40) return true;
    }
    return false;
}

constexpr std::pair<int, int> kModifierKeys[] = {
    {GLFW_MOD_CONTROL, GLFW_KEY_LEFT_CONTROL}, {GLFW_MOD_SHIFT, GLFW_KEY_LEFT_SHIFT}, {GLFW_MOD_ALT, GLFW_KEY_LEFT_ALT}};

}  // namespace

std::variant<std::unique_ptr<Window>, std::string> Window::create(const WindowOptions& options) {
    glfwSetErrorCallback(remember_glfw_error);
    if (!glfwInit())
        return "cannot open a window: " + glfw_error_or("GLFW failed to start") +
               " (no display? run under xvfb-run, or use `tilescope bench` for the command line)";

    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // macOS accepts only forward-compatible core contexts
    const bool place = options.x && options.y && on_a_monitor(*options.x, *options.y);
    // Hidden until placed, so that it does not jump across the screen.
    glfwWindowHint(GLFW_VISIBLE, place ? GLFW_FALSE : GLFW_TRUE);
    GLFWwindow* handle = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
    if (!handle) {
        std::string why = "cannot create an OpenGL 3.3 window: " + glfw_error_or("unknown GLFW error");
        glfwTerminate();
        return why;
    }
    if (place) {
        glfwSetWindowPos(handle, *options.x, *options.y);
        glfwShowWindow(handle);
    }
    glfwMakeContextCurrent(handle);
    if (gladLoadGL(glfwGetProcAddress) == 0) {
        glfwDestroyWindow(handle);
        glfwTerminate();
        return std::string("cannot load the OpenGL 3.3 functions (glad)");
    }
    glfwSwapInterval(options.vsync ? 1 : 0);

    if (!imgui_layer::init(handle)) {
        glfwDestroyWindow(handle);
        glfwTerminate();
        return std::string("cannot start Dear ImGui's GLFW/OpenGL3 backends");
    }
    std::unique_ptr<Window> window(new Window(handle));

    // On a high-DPI monitor GLFW reports a content scale above 1; the fonts follow it.
    float scale_x = 1.0f, scale_y = 1.0f;
    glfwGetWindowContentScale(handle, &scale_x, &scale_y);
    window->m_content_scale = scale_x > 0.0f ? scale_x : 1.0f;
    window->m_font_scale = options.font_scale;
    LoadedFonts loaded = load_fonts(*ImGui::GetIO().Fonts, window->m_content_scale * options.font_scale);
    window->m_fonts = loaded.fonts;
    window->m_font_warning = loaded.warning;
    glfwGetWindowPos(handle, &window->m_windowed.x, &window->m_windowed.y);
    glfwGetWindowSize(handle, &window->m_windowed.width, &window->m_windowed.height);
    if (options.fullscreen) window->set_fullscreen(true);

    auto heatmaps = HeatmapRenderer::create();
    if (auto* renderer = std::get_if<std::unique_ptr<HeatmapRenderer>>(&heatmaps))
        window->m_heatmaps = std::move(*renderer);
    else
        window->m_heatmap_warning = std::get<std::string>(heatmaps) + "; large matrices are drawn without colours";
    return window;
}

Window::~Window() {
    m_heatmaps.reset();  // its textures and shaders, while the context still exists
    if (m_offscreen.framebuffer) glDeleteFramebuffers(1, &m_offscreen.framebuffer);
    if (m_offscreen.colour) glDeleteRenderbuffers(1, &m_offscreen.colour);
    imgui_layer::shutdown();
    glfwDestroyWindow(m_window);
    glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(m_window) != 0; }

bool Window::set_font_scale(float scale, bool with_content_scale) {
    LoadedFonts loaded = load_fonts(*ImGui::GetIO().Fonts, (with_content_scale ? m_content_scale : 1.0f) * scale);
    m_fonts = loaded.fonts;
    m_font_scale = scale;
    imgui_layer::rebuild_fonts_texture();
    return !loaded.warning;
}

bool Window::fullscreen() const { return glfwGetWindowMonitor(m_window) != nullptr; }

void Window::set_fullscreen(bool fullscreen) {
    if (fullscreen == this->fullscreen()) return;
    if (!fullscreen) {
        glfwSetWindowMonitor(m_window, nullptr, m_windowed.x, m_windowed.y, m_windowed.width, m_windowed.height,
                             GLFW_DONT_CARE);
        return;
    }
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!mode) return;  // no monitor to fill (a headless server): stay a window
    glfwSetWindowMonitor(m_window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

WindowPlacement Window::placement() const { return m_windowed; }

void Window::queue_keys(const std::vector<KeyPress>& keys) { m_queued_keys.insert(m_queued_keys.end(), keys.begin(), keys.end()); }

// Modifiers go down before the key and come up after it, as a hand presses them.
void Window::press_queued_key() {
    if (m_key_down) {
        const KeyPress& key = *m_key_down;
        imgui_layer::key_event(key.key, false, key.mods);
        for (const auto& [mod, code] : kModifierKeys)
            if (key.mods & mod) imgui_layer::key_event(code, false, 0);
        m_key_down.reset();
        return;
    }
    if (m_queued_keys.empty()) return;
    const KeyPress key = m_queued_keys.front();
    m_queued_keys.pop_front();
    for (const auto& [mod, code] : kModifierKeys)
        if (key.mods & mod) imgui_layer::key_event(code, true, key.mods);
    imgui_layer::key_event(key.key, true, key.mods);
    if (key.character) imgui_layer::char_event(key.character);
    m_key_down = key;
}

void Window::begin_frame(bool follow_pointer) {
    glfwPollEvents();
    press_queued_key();
    if (!fullscreen()) {
        glfwGetWindowPos(m_window, &m_windowed.x, &m_windowed.y);
        glfwGetWindowSize(m_window, &m_windowed.width, &m_windowed.height);
    }
    if (m_heatmaps) m_heatmaps->begin_frame();
    imgui_layer::new_frame(follow_pointer);
}

void Window::render(ImVec4 clear_colour) {
    int width = 0, height = 0;
    glfwGetFramebufferSize(m_window, &width, &height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);  // the window's own, after any offscreen frame
    glViewport(0, 0, width, height);
    glClearColor(clear_colour.x, clear_colour.y, clear_colour.z, clear_colour.w);
    glClear(GL_COLOR_BUFFER_BIT);
    imgui_layer::render_draw_data();
}

std::optional<std::string> Window::save_screenshot(const std::string& path) const {
    int width = 0, height = 0;
    glfwGetWindowSize(m_window, &width, &height);
    return save_region(path, ImVec2(0.0f, 0.0f), ImVec2(float(width), float(height)));
}

std::optional<std::string> Window::save_region(const std::string& path, ImVec2 min, ImVec2 max) const {
    int window_w = 0, window_h = 0, fb_w = 0, fb_h = 0;
    glfwGetWindowSize(m_window, &window_w, &window_h);
    glfwGetFramebufferSize(m_window, &fb_w, &fb_h);
    if (window_w <= 0 || window_h <= 0) return "screenshot: the window has no size";
    const float scale_x = float(fb_w) / float(window_w);
    const float scale_y = float(fb_h) / float(window_h);
    const int x0 = std::clamp(int(min.x * scale_x), 0, fb_w);
    const int x1 = std::clamp(int(max.x * scale_x + 0.5f), 0, fb_w);
    const int y0 = std::clamp(int(min.y * scale_y), 0, fb_h);
    const int y1 = std::clamp(int(max.y * scale_y + 0.5f), 0, fb_h);
    const int width = x1 - x0, height = y1 - y0;
    if (width <= 0 || height <= 0) return "screenshot: the region lies outside the window";
    std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * height * 3);
    // Rows are packed tightly: a width that is not a multiple of 4 must not get padding.
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    // OpenGL counts rows from the bottom of the framebuffer, ImGui from the top.
    glReadPixels(x0, fb_h - y1, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    if (const GLenum error = glGetError(); error != GL_NO_ERROR)
        return "screenshot: glReadPixels failed (OpenGL error " + std::to_string(error) + ")";
    return write_png(path, width, height, pixels);
}

void Window::present() { glfwSwapBuffers(m_window); }

void Window::begin_offscreen_frame(int width, int height) {
    // No events are polled: the on-screen frames take them, and an offscreen frame must not
    // depend on what the user does meanwhile.
    if (m_heatmaps) m_heatmaps->begin_frame();
    imgui_layer::new_frame(false, ImVec2(static_cast<float>(width), static_cast<float>(height)));
}

void Window::render_offscreen(ImVec4 clear_colour) {
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    const int width = static_cast<int>(size.x), height = static_cast<int>(size.y);
    if (width != m_offscreen.width || height != m_offscreen.height || !m_offscreen.framebuffer) {
        if (!m_offscreen.framebuffer) glGenFramebuffers(1, &m_offscreen.framebuffer);
        if (!m_offscreen.colour) glGenRenderbuffers(1, &m_offscreen.colour);
        glBindRenderbuffer(GL_RENDERBUFFER, m_offscreen.colour);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        glBindFramebuffer(GL_FRAMEBUFFER, m_offscreen.framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_offscreen.colour);
        const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        m_offscreen.error = status == GL_FRAMEBUFFER_COMPLETE
                                ? std::string()
                                : "this OpenGL cannot draw a " + std::to_string(width) + " × " + std::to_string(height) +
                                      " picture offscreen (framebuffer status " + std::to_string(status) + ")";
        m_offscreen.width = width;
        m_offscreen.height = height;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, m_offscreen.framebuffer);
    glViewport(0, 0, width, height);
    glClearColor(clear_colour.x, clear_colour.y, clear_colour.z, clear_colour.w);
    glClear(GL_COLOR_BUFFER_BIT);
    imgui_layer::render_draw_data();
}

std::variant<std::vector<unsigned char>, std::string> Window::read_offscreen() const {
    if (!m_offscreen.framebuffer) return std::string("no offscreen frame was drawn");
    if (!m_offscreen.error.empty()) return m_offscreen.error;
    const int width = m_offscreen.width, height = m_offscreen.height;
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    std::vector<unsigned char> bottom_up(row * height);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_offscreen.framebuffer);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);  // rows packed tightly, whatever the width
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottom_up.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    if (const GLenum error = glGetError(); error != GL_NO_ERROR)
        return "glReadPixels failed on the offscreen frame (OpenGL error " + std::to_string(error) + ")";
    // OpenGL counts rows from the bottom; pictures are written from the top.
    std::vector<unsigned char> top_down(bottom_up.size());
    for (int y = 0; y < height; ++y)
        std::copy_n(bottom_up.begin() + static_cast<std::ptrdiff_t>(row * (height - 1 - y)), row,
                    top_down.begin() + static_cast<std::ptrdiff_t>(row * y));
    return top_down;
}

void Window::finish() const { glFinish(); }

std::string Window::renderer() const {
    const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return name ? name : "an unknown OpenGL renderer";
}

}  // namespace ts::platform
