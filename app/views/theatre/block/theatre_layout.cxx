#include "views/theatre/block/theatre_layout.hpp"

#include <algorithm>
#include <cmath>

namespace ts::views {

namespace {

float middle(float a, float b) { return (a + b) * 0.5f; }

// v kept in [lo, hi]; where the two cross, hi wins: the canvas's far edge.
float keep_within(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

}  // namespace

namespace {

TheatreLayout layout_at(const model::Problem& problem, const BlockTiling& tiling, const BlockStrips& strips, int tile,
                        bool naive, Rect region, float line) {
    TheatreLayout layout;
    layout.name_line = line;
    if (naive) {
        // No shared memory: A, B and C get the whole canvas.
        layout.stage = layout_stage(problem, tiling, region, line);
        return layout;
    }
    // As takes a band left of A and Bs a band above B, each `side` wide, plus a gap for the
    // load lines (and, above B, B's name). layout_stage() keeps its own margins: half a line
    // on the left and 1.6 lines above B, which the gaps include.
    const float gap_x = 1.5f * line, gap_y = 1.8f * line;
    const float shorter = std::min(region.width(), region.height());
    const float largest = 0.3f * shorter;
    // A tile should look T cells wide; but never so small that its T×T slots blur (6 px
    // each) or its name has nothing to stand on.
    const float smallest = std::min(largest, std::max(4.0f * line, 6.0f * static_cast<float>(tile)));
    const auto stage_for = [&](float side) {
        const Rect stage{{region.min.x + side + gap_x - 0.5f * line, region.min.y + side + gap_y - 1.6f * line},
                         region.max};
        return layout_stage(problem, tiling, stage, line);
    };
    // The side depends on the cells and the cells on the side: a few damped rounds settle it.
    float side = std::clamp(0.22f * shorter, smallest, largest);
    for (int round = 0; round < 8; ++round) {
        const StageLayout trial = stage_for(side);
        const float cell = std::min({trial.cell_w, trial.cell_h, trial.k_cell});
        side = middle(side, std::clamp(static_cast<float>(tile) * cell, smallest, largest));
    }
    layout.stage = stage_for(side);
    const StageLayout& s = layout.stage;

    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    const Rect a_strip = cells_rect(s.a, m, k, strips.row_begin, 0, strips.row_end, k);
    const Rect b_strip = cells_rect(s.b, k, n, 0, strips.col_begin, k, strips.col_end);
    // Beside the block's strips, so the load lines run straight; kept on the canvas.
    const float as_x = std::max(region.min.x, s.a.min.x - gap_x - side);
    const float as_y = keep_within(middle(a_strip.min.y, a_strip.max.y) - side * 0.5f, s.a.min.y - 0.5f * side,
                                  region.max.y - side);
    const float bs_x = keep_within(middle(b_strip.min.x, b_strip.max.x) - side * 0.5f, s.b.min.x - 0.5f * side,
                                  region.max.x - side);
    const float bs_y = std::max(region.min.y, s.b.min.y - gap_y - side);
    layout.as_panel = {{as_x, as_y}, {as_x + side, as_y + side}};
    layout.bs_panel = {{bs_x, bs_y}, {bs_x + side, bs_y + side}};
    return layout;
}

bool within(const Rect& r, const Rect& region) {
    constexpr float e = 0.5f;
    return r.min.x >= region.min.x - e && r.min.y >= region.min.y - e && r.max.x <= region.max.x + e &&
           r.max.y <= region.max.y + e;
}

// Everything on the canvas, the names above B and below C included.
bool fits(const TheatreLayout& l, const Rect& region) {
    const StageLayout& s = l.stage;
    const Rect names{{s.a.min.x, s.b.min.y - 1.3f * l.name_line}, {s.grid.max.x, s.c.max.y + 1.3f * l.name_line}};
    return within(names, region) && within(s.a, region) && within(s.grid, region) &&
           (l.as_panel.width() == 0.0f || (within(l.as_panel, region) && within(l.bs_panel, region)));
}

}  // namespace

TheatreLayout layout_theatre(const model::Problem& problem, const BlockTiling& tiling, const BlockStrips& strips,
                             int tile, bool naive, Rect region, float line) {
    // At 3× on a 1080p projector the canvas is about ten heading lines tall: the names and
    // gaps, sized in lines, would push the matrices off it. Then they shrink, down to half.
    TheatreLayout layout;
    for (const float scale : {1.0f, 0.85f, 0.7f, 0.6f, 0.5f}) {
        layout = layout_at(problem, tiling, strips, tile, naive, region, line * scale);
        if (fits(layout, region)) break;
    }
    return layout;
}

bool CaptionPlacer::free(const Rect& r) const {
    if (r.min.x < m_canvas.min.x || r.min.y < m_canvas.min.y || r.max.x > m_canvas.max.x || r.max.y > m_canvas.max.y)
        return false;
    return std::none_of(m_taken.begin(), m_taken.end(), [&](const Rect& t) {
        return r.min.x < t.max.x && t.min.x < r.max.x && r.min.y < t.max.y && t.min.y < r.max.y;
    });
}

CaptionPlacer::Placed CaptionPlacer::place(const std::vector<ImVec2>& forms, const std::vector<Spot>& spots) {
    for (int form = 0; form < static_cast<int>(forms.size()); ++form)
        for (const Spot& spot : spots) {
            const ImVec2 at = spot(forms[form]);
            const Rect rect{{std::floor(at.x), std::floor(at.y)},
                            {std::floor(at.x) + forms[form].x, std::floor(at.y) + forms[form].y}};
            if (!free(rect)) continue;
            take(rect);
            return {form, rect};
        }
    return {};
}

void CaptionPlacer::take(const Rect& r) {
    m_taken.push_back(r);
    m_placed.push_back(r);
}

std::optional<Rect> CaptionPlacer::place_near(ImVec2 size, ImVec2 anchor, float step) {
    step = std::max(step, 4.0f);
    const float reach = std::max({anchor.x - m_canvas.min.x, m_canvas.max.x - anchor.x, anchor.y - m_canvas.min.y,
                                  m_canvas.max.y - anchor.y});
    const int rings = static_cast<int>(std::ceil(reach / step)) + 1;
    for (int ring = 0; ring <= rings; ++ring) {
        // Of a ring's places (the box centred on each), the one nearest the anchor wins.
        std::optional<Rect> best;
        int best_distance = 0;
        const auto consider = [&](int i, int j) {
            const int distance = i * i + j * j;
            if (best && distance >= best_distance) return;
            const float x = std::floor(anchor.x + static_cast<float>(i) * step - size.x * 0.5f);
            const float y = std::floor(anchor.y + static_cast<float>(j) * step - size.y * 0.5f);
            const Rect rect{{x, y}, {x + size.x, y + size.y}};
            if (!free(rect)) return;
            best = rect;
            best_distance = distance;
        };
        // The ring's edge only: its top and bottom rows, then the two columns between them.
        for (int i = -ring; i <= ring; ++i) {
            consider(i, -ring);
            if (ring > 0) consider(i, ring);
        }
        for (int j = -ring + 1; j <= ring - 1; ++j) {
            consider(-ring, j);
            consider(ring, j);
        }
        if (best) {
            take(*best);
            return best;
        }
    }
    return std::nullopt;
}

}  // namespace ts::views
