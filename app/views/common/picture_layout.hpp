// picture_layout.hpp — where the last frame drew a view's picture: its canvas, the matrices on
// it and every label, as boxes in screen pixels. The stage and the theatre fill it as they draw;
// `tilescope --layout-report FILE` writes it out, and the tests check with it that a picture
// uses its canvas (the matrices' bounding box covers at least half of it) and that no two labels
// collide, at the projector's sizes as at a desk's (issue 26).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "imgui.h"
#include "model/problem.hpp"

namespace ts::views {

struct PictureBox {
    std::string name;  // "A", "label: B (K×N)  3 × 6"
    ImVec2 min{0.0f, 0.0f};
    ImVec2 max{0.0f, 0.0f};
    float area() const;
};

struct PictureLayout {
    // Whether anyone reads it (--layout-report): else the views' calls below keep nothing, so a
    // frame allocates nothing for it.
    bool wanted = false;
    std::string view;  // "stage", "theatre"; empty: no picture this frame
    ImVec2 canvas_min{0.0f, 0.0f}, canvas_max{0.0f, 0.0f};
    std::vector<PictureBox> matrices;
    std::vector<PictureBox> labels;

    // Starts the frame's picture over (`wanted` stays).
    void clear();
    // Starts it over as `view`'s picture on the canvas from `min` to `max`.
    void begin(std::string_view view, ImVec2 min, ImVec2 max);
    void add_matrix(std::string_view name, ImVec2 min, ImVec2 max);
    // A label named `kind` + `text` ("label: " and the label's words).
    void add_label(std::string_view kind, std::string_view text, ImVec2 min, ImVec2 max);
};

// The shape of A·B = C drawn as the stage and the theatre draw it (A left of C, B above it), in
// cells: K + N across, K + M down, plus `tile` each way where the shared tiles As and Bs stand
// beside A and above B.
ImVec2 product_picture_cells(const model::Problem& problem, float tile = 0.0f);

// The narrowest column of words beside a picture, in lines of text.
inline constexpr float kNarrowestWordsFonts = 13.0f;

// How wide a column the words about a picture (its title, what it shows) get beside it, or 0 to
// put them above it: beside where the view (`room`) is wide enough for the picture at its full
// height and still 13 lines of text, as with large text on a wide screen, where lines above the
// picture would leave it a strip. The picture's shape: `cells` (product_picture_cells), with two
// lines of the height for the names above and below. At most half the view.
float words_beside_width(ImVec2 room, ImVec2 cells);

// The same for a picture `picture_width` pixels wide at the view's full height, with the words up
// to `most` of the view: the tensor-core theatre's pictures, narrow and tall beside long words,
// where half the view would leave the picture a canvas wider than it can use.
float words_beside_picture(ImVec2 room, float picture_width, float most = 0.5f);

// The picture and its words side by side in `room`: `picture()` drawn in a fixed child window on
// the left, `words()` in a column `words_width` wide on the right (which may scroll: it holds
// nothing else), both the room's height.
void draw_picture_beside_words(ImVec2 room, float words_width, const std::function<void()>& picture,
                               const std::function<void()>& words);

// Above the picture, the share of the view's height (`room`) the picture keeps before the words
// fold under a line: what it needs to be as wide as the view, in its shape (`cells`, two lines for
// names), from a half to three quarters. Words above a picture that is short of height only shrink
// it; above one short of width they cost it nothing.
float picture_keeps(ImVec2 room, ImVec2 cells);

// The share of the canvas that the matrices' bounding box covers (the box clipped to the canvas):
// 0 without a canvas or matrices.
float matrices_cover(const PictureLayout& layout);

// The first two labels that overlap by more than `slack` pixels each way, or nullopt.
std::optional<std::pair<PictureBox, PictureBox>> colliding_labels(const PictureLayout& layout, float slack = 0.5f);

// The first matrix or label that reaches more than `slack` pixels past the canvas's edge (drawn
// cut off), or nullopt.
std::optional<PictureBox> clipped_box(const PictureLayout& layout, float slack = 0.5f);

// The layout as JSON text: {"view", "canvas": [x0, y0, x1, y1], "matrices": [{"name", "box"}],
// "labels": [...], "cover", "collision": "NAME and NAME" or "", "clipped": "NAME" or ""}.
std::string picture_layout_json(const PictureLayout& layout);

}  // namespace ts::views
