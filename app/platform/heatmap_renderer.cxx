#include "heatmap_renderer.hpp"

#include <glad/gl.h>

#include <algorithm>

#include "heatmap_shaders.hpp"  // generated from shaders/ by CMake

namespace ts::platform {

namespace {

// Textures kept besides those of the current frame: one for each of A, B and C, so that
// switching views and back does not rebuild them, as long as together they stay under a
// budget: three 4096² float textures with their mipmaps would hold a quarter of a GiB after
// the user has gone back to a small problem.
constexpr std::size_t kKeptTextures = 3;
constexpr std::int64_t kKeptTextureBytes = std::int64_t{64} << 20;

// R32F with its mipmap chain: a third more than the base level.
std::int64_t texture_bytes(int cols, int rows) { return std::int64_t{cols} * rows * 4 * 4 / 3; }

std::string shader_log(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    return log;
}

std::variant<GLuint, std::string> compile(GLenum stage, const char* name, const char* source) {
    const GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok == GL_TRUE) return shader;
    std::string why = std::string("heat-map shader ") + name + " does not compile: " + shader_log(shader);
    glDeleteShader(shader);
    return why;
}

void set_colour(GLint location, ImU32 colour) {
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
    glUniform3f(location, c.x, c.y, c.z);
}

GLint uniform(GLuint program, const char* name) { return glGetUniformLocation(program, name); }

}  // namespace

std::variant<std::unique_ptr<HeatmapRenderer>, std::string> HeatmapRenderer::create() {
    GLint max_side = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_side);
    if (max_side < kMaxTextureSide)
        return "heat maps need " + std::to_string(kMaxTextureSide) + "² textures; this OpenGL allows " +
               std::to_string(max_side) + "²";

    auto vertex = compile(GL_VERTEX_SHADER, "heatmap.vert", kHeatmapVertexShader);
    if (auto* why = std::get_if<std::string>(&vertex)) return *why;
    auto fragment = compile(GL_FRAGMENT_SHADER, "heatmap.frag", kHeatmapFragmentShader);
    if (auto* why = std::get_if<std::string>(&fragment)) {
        glDeleteShader(std::get<GLuint>(vertex));
        return *why;
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, std::get<GLuint>(vertex));
    glAttachShader(program, std::get<GLuint>(fragment));
    glLinkProgram(program);
    glDeleteShader(std::get<GLuint>(vertex));
    glDeleteShader(std::get<GLuint>(fragment));
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        glDeleteProgram(program);
        return std::string("heat-map shaders do not link");
    }

    std::unique_ptr<HeatmapRenderer> renderer(new HeatmapRenderer());
    renderer->m_program = program;
    // A core profile draws nothing without a vertex array, even one with no buffers.
    glGenVertexArrays(1, &renderer->m_vertex_array);
    return renderer;
}

HeatmapRenderer::~HeatmapRenderer() {
    for (const Texture& texture : m_textures) glDeleteTextures(1, &texture.id);
    glDeleteVertexArrays(1, &m_vertex_array);
    glDeleteProgram(m_program);
}

void HeatmapRenderer::begin_frame() {
    m_quads.clear();
    ++m_frame;
}

HeatmapRenderer::Texture& HeatmapRenderer::texture_for(const HeatmapQuad& quad) {
    const auto found = std::find_if(m_textures.begin(), m_textures.end(),
                                    [&](const Texture& t) { return t.key == quad.key; });
    if (found != m_textures.end()) {
        found->last_used = m_frame;
        return *found;
    }
    // Drop the least recently used textures that this frame does not draw.
    for (;;) {
        std::size_t old = 0;
        std::int64_t old_bytes = 0;
        auto oldest = m_textures.end();
        for (auto t = m_textures.begin(); t != m_textures.end(); ++t) {
            if (t->last_used == m_frame) continue;
            ++old;
            old_bytes += texture_bytes(t->cols, t->rows);
            if (oldest == m_textures.end() || t->last_used < oldest->last_used) oldest = t;
        }
        if (old == 0 || (old < kKeptTextures && old_bytes <= kKeptTextureBytes)) break;
        glDeleteTextures(1, &oldest->id);
        m_textures.erase(oldest);
    }

    // The only place the values reach the GPU: once per new key, never per frame.
    const HeatmapImage image = quad.image();
    Texture texture{quad.key, 0, image.cols, image.rows, image.box_cols, image.box_rows, m_frame};
    glGenTextures(1, &texture.id);
    glBindTexture(GL_TEXTURE_2D, texture.id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, image.cols, image.rows, 0, GL_RED, GL_FLOAT, image.texels.data());
    // Mipmaps are box means: a pixel covering many cells shows their mean (over the
    // power-of-two box that matches its size), not one cell picked at random, which would
    // draw patterns that are not in the matrix. Nearest rather than trilinear: it averages
    // as well, and trilinear made a frame a fifth slower on a CPU renderer (llvmpipe).
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);  // zoomed in: flat cells
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    ++m_uploads;
    m_textures.push_back(std::move(texture));
    return m_textures.back();
}

void HeatmapRenderer::paint(ImDrawList* draw, const HeatmapQuad& quad) {
    if (quad.rows <= 0 || quad.cols <= 0 || quad.grid_rows <= 0 || quad.grid_cols <= 0) return;
    const Texture& texture = texture_for(quad);
    m_quads.push_back({this,
                       texture.id,
                       {static_cast<float>(texture.cols * texture.box_cols),
                        static_cast<float>(texture.rows * texture.box_rows)},
                       quad});
    draw->AddCallback(draw_callback, &m_quads.back());
    // Hands the GL state back to ImGui's renderer for whatever the list draws next.
    draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void HeatmapRenderer::draw_callback(const ImDrawList* /*list*/, const ImDrawCmd* command) {
    const auto* quad = static_cast<const Quad*>(command->UserCallbackData);
    quad->renderer->draw(*quad, command->ClipRect);
}

void HeatmapRenderer::draw(const Quad& q, const ImVec4& clip) const {
    const HeatmapQuad& h = q.quad;
    // Only the visible part of the quad: zoomed in, the matrix may be millions of pixels wide.
    const float x0 = std::max(h.min.x, clip.x), y0 = std::max(h.min.y, clip.y);
    const float x1 = std::min(h.max.x, clip.z), y1 = std::min(h.max.y, clip.w);
    if (x1 <= x0 || y1 <= y0) return;
    // Cell coordinates in double: far from the matrix's corner, floats would lose the cell.
    const double cell_w = (static_cast<double>(h.max.x) - h.min.x) / h.grid_cols;
    const double cell_h = (static_cast<double>(h.max.y) - h.min.y) / h.grid_rows;
    const auto cell_x = [&](float x) { return static_cast<float>((x - static_cast<double>(h.min.x)) / cell_w); };
    const auto cell_y = [&](float y) { return static_cast<float>((y - static_cast<double>(h.min.y)) / cell_h); };

    // ImGui's renderer sets no scissor for callbacks: this draw's is its clip rect, in
    // framebuffer pixels counted from the bottom.
    const ImDrawData* data = ImGui::GetDrawData();
    const ImVec2 scale = data->FramebufferScale;
    const float fb_height = data->DisplaySize.y * scale.y;
    glScissor(static_cast<GLint>((clip.x - data->DisplayPos.x) * scale.x),
              static_cast<GLint>(fb_height - (clip.w - data->DisplayPos.y) * scale.y),
              static_cast<GLsizei>((clip.z - clip.x) * scale.x), static_cast<GLsizei>((clip.w - clip.y) * scale.y));

    glUseProgram(m_program);
    glBindVertexArray(m_vertex_array);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, q.texture);
    glUniform1i(uniform(m_program, "u_values"), 0);
    glUniform4f(uniform(m_program, "u_display"), data->DisplayPos.x, data->DisplayPos.y, data->DisplaySize.x,
                data->DisplaySize.y);
    glUniform4f(uniform(m_program, "u_rect"), x0, y0, x1, y1);
    glUniform4f(uniform(m_program, "u_cells"), cell_x(x0), cell_y(y0), cell_x(x1), cell_y(y1));
    glUniform2f(uniform(m_program, "u_texture_cells"), q.texture_cells[0], q.texture_cells[1]);
    glUniform2f(uniform(m_program, "u_size"), static_cast<float>(h.cols), static_cast<float>(h.rows));
    glUniform2f(uniform(m_program, "u_range"), h.low, h.high);
    set_colour(uniform(m_program, "u_low"), h.low_colour);
    set_colour(uniform(m_program, "u_high"), h.high_colour);
    set_colour(uniform(m_program, "u_line"), h.line_colour);
    set_colour(uniform(m_program, "u_selected_colour"), h.selected_colour);
    glUniform2f(uniform(m_program, "u_cell_px"), static_cast<float>(cell_w), static_cast<float>(cell_h));
    glUniform2f(uniform(m_program, "u_block"), static_cast<float>(h.block_cols), static_cast<float>(h.block_rows));
    glUniform2f(uniform(m_program, "u_selected"), static_cast<float>(h.selected_block_col),
                static_cast<float>(h.selected_block_row));
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

}  // namespace ts::platform
