// theatre_layout.hpp — where the theatre canvas puts A, B, C and the shared-memory tiles As
// and Bs, and where its captions go, as plain functions of the problem, the shown block, the
// canvas and the text sizes. At 2× and 3× on a projector text takes much of the canvas, so
// the tiles are sized with the matrices (a T×T tile of A looks the size of As), and every
// caption is placed only where it overlaps nothing already placed, in its longest form that
// fits, or left out.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "model/problem.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/stage/stage_layout.hpp"

namespace ts::views {

struct TheatreLayout {
    StageLayout stage;  // A, B and C
    Rect as_panel;      // As, left of A beside the block's rows (tiled kernel only)
    Rect bs_panel;      // Bs, above B over the block's columns (tiled kernel only)
    float name_line = 0.0f;  // the size to draw the names of A, B and C at
};

// `line`: the height of a heading line, which sets the gaps the names of A, B and C go in.
// Where the picture would not fit the canvas with them (very large text), the gaps and the
// names shrink, down to half a line.
TheatreLayout layout_theatre(const model::Problem& problem, const BlockTiling& tiling, const BlockStrips& strips,
                             int tile, bool naive, Rect region, float line);

// Captions placed one by one on a canvas: each goes at the first of its spots where, in the
// first of its forms (longest first) that fits, it stays on the canvas and overlaps nothing
// placed or occupied before it.
class CaptionPlacer {
public:
    explicit CaptionPlacer(Rect canvas) : m_canvas(canvas) {}
    void occupy(const Rect& r) { m_taken.push_back(r); }
    const Rect& canvas() const { return m_canvas; }

    // A spot turns a form's size into its top-left corner.
    using Spot = std::function<ImVec2(ImVec2 size)>;
    struct Placed {
        int form = -1;  // -1: it fits nowhere and is left out
        Rect rect;
    };
    Placed place(const std::vector<ImVec2>& forms, const std::vector<Spot>& spots);
    // Where none of a caption's spots has room: the free place for a box of `size` nearest
    // `anchor` (what it names), tried on square rings `step` apart around it out to the canvas's
    // far corner; taken like place()'s. nullopt: the canvas has no room left anywhere.
    std::optional<Rect> place_near(ImVec2 size, ImVec2 anchor, float step);
    // Every rectangle place() gave out, in order (for the picture's layout report).
    const std::vector<Rect>& placed() const { return m_placed; }

private:
    bool free(const Rect& r) const;
    // Gives `r` out: nothing placed later may overlap it.
    void take(const Rect& r);
    Rect m_canvas;
    std::vector<Rect> m_taken;
    std::vector<Rect> m_placed;
};

}  // namespace ts::views
