// race_overlay.hpp — an experiment's stale read in the tiling theatre ("Show in the theatre"
// in the Experiments view, or --view theatre --experiment NAME with a recorded result): the
// theatre stands on the read's block, phase and k with the reader followed; the slot of As or
// Bs is marked red, the writer's and the reader's cells of C are outlined and joined to it,
// the caption above the canvas says what happened, and the Source tab strikes out the
// missing __syncthreads().
#pragma once

#include <optional>
#include <vector>

#include "imgui.h"
#include "views/theatre/source_panel.hpp"
#include "views/window/app_state.hpp"
#include "views/stage/stage_layout.hpp"
#include "views/theatre/block/theatre_layout.hpp"

namespace ts::views {

// Cases larger than this on a side are shown at a stand-in size (the caption says so).
inline constexpr int kMaxRaceSide = 128;

// The colours of the two threads of the race, in the canvas and in the caption.
inline constexpr ImU32 kRaceWriter = IM_COL32(215, 110, 0, 255);
inline constexpr ImU32 kRaceReader = IM_COL32(110, 40, 190, 255);
inline constexpr ImU32 kRaceSlot = IM_COL32(215, 25, 25, 255);

// The moment of `read` (from a run of `c`) as the theatre will show it: the problem, block,
// phase and k, the caption, and the note when the case is too large to draw.
RaceMoment race_moment(model::Experiment experiment, const model::ExperimentCase& c, const model::StaleRead& read);

// Opens the theatre on that moment: the tiled kernel at the moment's problem and T, the block,
// phase and k selected, the reader's cell pinned, the Source tab in front. Takes the whole
// window's state: it sets the view, the kernel, the problem, the pinned cell, the theatre and
// the experiments' race.
void show_race_in_theatre(AppState& state, const RaceMoment& moment);

// The race's problem and T are the theatre's: its caption stays while the user steps around.
bool race_applies(const AppState& state);
// The theatre stands on the race's block and phase: the canvas marks the slot and threads.
bool race_on_show(const AppState& state);

// What the caption's buttons ask for: the theatre view, which holds the whole window's state,
// does it (show_race_in_theatre; app.experiments.race reset; the Experiments view).
enum class RaceCaptionChoice { None, BackToTheRead, Hide, BackToTheExperiment };

// Above or beside the canvas: the explanation, the missing barrier, and buttons back to the
// moment or to hide it; the long part folds where it would leave under `keep` of the window's
// height below it. Nothing when no race applies. Returns the button pressed.
RaceCaptionChoice draw_race_caption(const AppState& app, float keep);

// Over the theatre's canvas (theatre_canvas.cxx calls it after the captions): the slot, the
// writer and the reader, when race_on_show; their labels where `placer` has room. Returns the
// labels it found no room for and drew over what was there (for the picture's report).
std::vector<Rect> draw_race_overlay(ImDrawList* draw, const AppState& state, const Rect& as_panel,
                                    const Rect& bs_panel, const Rect& c_area, CaptionPlacer& placer);

// The Source tab's flag on the barrier the experiment took out, while a race applies.
std::optional<SourceFlag> race_source_flag(const AppState& state);

}  // namespace ts::views
