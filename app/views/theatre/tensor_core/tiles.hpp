// tiles.hpp — the tensor-core rungs in the theatre, fourth picture: the order a persistent
// launch (18 persistent, 19 tc-tuned) walks C's tiles, and what each round keeps in L2.
//
// C is drawn as its grid of cluster tiles (bm·cluster_m rows by bn columns; a thin line splits
// each into its CTAs' tiles). A slider picks a round: the tiles its clusters take together are
// coloured by cluster and numbered, earlier rounds greyed (done), later ones left open. The
// panels of A (left) and B (top) the round reads are lit, and under the picture their bytes
// against L2's 50 MiB, beside what the plain row-by-row order would read in the same round:
// the reason for the kernels' order, in numbers from model::round_footprint. Hover a tile for its
// rows, columns, cluster and round. Everything comes from model/tensor_core/tile_order.hpp, which calls
// the persistent_tile the kernels call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/tensor_core/tile_order.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// The SMs the picture's launch assumes: the GPU's where a Hopper GPU is in use, else an H100's 132
// (the persistent rungs run on sm_90a only). `source` says which, in words.
int tile_order_sm_count(const AppState& state, std::string& source);

// The problem the picture orders the tiles of: the one on show, or, where all its tiles go in one
// round (a single tile at the stage's 12×16×8), kShownTileProblem, so that the order has tiles to
// order; `note` says so ("" when the problem is the one on show). The problem on show stays as it
// is (the stage, the trace, the other tabs).
inline constexpr std::int64_t kShownTileProblem = 4096;
struct TileProblem {
    model::Problem problem;
    std::string note;
};
TileProblem shown_tile_problem(const AppState& state);

// The launch the picture shows for the rung and shown_tile_problem; nullopt for a rung that does
// not walk tiles persistently.
std::optional<model::PersistentLaunch> shown_tile_launch(const AppState& state);

// "Round 1 of 4 reads 8 panels of A and 8 of B: 32 MiB, …" for the round and order given.
std::string round_words(const model::WgmmaShape& s, const model::Problem& p, const model::PersistentLaunch& launch,
                        int round, bool plain);

// The words beside or above the picture (persistent and tc-tuned; other rungs say what they do):
// the size shown where it is not the problem on show, the launch, the round and the order to show,
// and the round's footprint; paragraphs fold where they would leave the picture less than `keep`.
// The round and the order are theatre.tile_round and tile_order_plain (`theatre` is app.theatre).
void draw_tc_tiles_words(TheatreState& theatre, const AppState& app, float keep);
// How wide the picture is when it is `height` pixels high.
float tc_tiles_width(const AppState& state, float height);

// C's tiles for a round, in the current window's remaining area, reported in `picture` (app.picture).
void draw_tc_tiles(TheatreState& theatre, PictureLayout& picture, const AppState& app);

}  // namespace ts::views
