// wrong_map.hpp — the Experiments view's heat map over C: how often each cell came out wrong
// over a case's N runs, white where never, dark red where every run, with its legend. Apart
// from the rest of the results because it is a picture with its own cost: its image is built
// from the run's bins (max-pooled down to the texels drawn) once per result, not per frame.
#pragma once

#include "imgui.h"

#include "model/experiment.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "views/experiments/experiment_state.hpp"

namespace ts::views {

// The texel value the heat map gives a bin wrong in `wrong` of `runs` runs: 0 when never, else
// from 0.35 (one run) up to 1 (every run), so that a cell wrong once still stands out from the
// white of the cells never wrong.
float wrong_share_value(int wrong, int runs);

// The heat map's texture: the bins max-pooled down to at most `max_side` texels a side (a
// cell wrong in any run of a texel's bins keeps the texel's colour: a mean would wash single
// wrong cells out), each texel the value wrong_share_value gives.
HeatmapImage wrong_map_image(const model::WrongCellMap& map, int runs, int max_side);
// How many times wrong_map_image has run: a frame that changes no result builds no image (the
// tests check it).
int wrong_map_images_built();

// The heat map of `outcome`'s run over C, its longer side `side` pixels, under its caption.
void draw_wrong_map(const ExperimentOutcome& outcome, float side);
// 0 runs (white), then 1 run … N runs as the map shades them, `width` wide.
void draw_wrong_map_legend(int runs, float width);

}  // namespace ts::views
