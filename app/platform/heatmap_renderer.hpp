// heatmap_renderer.hpp — the OpenGL side of the stage's heat maps (heatmap_painter.hpp):
// one R32F texture of values per matrix, rebuilt only when its key changes, and a shader
// (shaders/heatmap.vert, shaders/heatmap.frag, embedded at build time) that colours it and
// draws the cell and block lines, called from ImGui's draw list through a callback.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "heatmap_painter.hpp"

namespace ts::platform {

class HeatmapRenderer final : public HeatmapPainter {
public:
    // Compiles the shaders; needs the window's OpenGL context current. Returns why not when
    // they do not compile or the GPU's textures are smaller than kMaxTextureSide.
    static std::variant<std::unique_ptr<HeatmapRenderer>, std::string> create();
    ~HeatmapRenderer() override;
    HeatmapRenderer(const HeatmapRenderer&) = delete;
    HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;

    // Call before the views draw: forgets the previous frame's quads, which ImGui has drawn.
    void begin_frame();
    void paint(ImDrawList* draw, const HeatmapQuad& quad) override;

    // Times a texture was built (and uploaded) since start: the tests check it is not per frame.
    std::uint64_t uploads() const { return m_uploads; }

private:
    struct Texture {
        std::string key;
        unsigned id = 0;
        int cols = 0, rows = 0;          // texels
        int box_cols = 1, box_rows = 1;  // cells per texel
        std::uint64_t last_used = 0;     // frame
    };
    // What one callback draws: copied, so that later frames cannot change it.
    struct Quad {
        HeatmapRenderer* renderer;
        unsigned texture;
        float texture_cells[2];
        HeatmapQuad quad;
    };

    HeatmapRenderer() = default;
    Texture& texture_for(const HeatmapQuad& quad);
    void draw(const Quad& quad, const ImVec4& clip_rect) const;
    static void draw_callback(const ImDrawList* list, const ImDrawCmd* command);

    unsigned m_program = 0;
    unsigned m_vertex_array = 0;
    std::vector<Texture> m_textures;
    std::deque<Quad> m_quads;  // this frame's; a deque keeps their addresses
    std::uint64_t m_frame = 0;
    std::uint64_t m_uploads = 0;
};

}  // namespace ts::platform
