// experiment_view.hpp — "break it on purpose" (--view experiment, Ctrl+7, --experiment NAME):
// four variants of the real kernels with one thing taken out (a barrier, the bounds checks,
// the padding of As). The student picks one, reads what it removes, commits to a guess, runs
// it N times on the GPU per case and reads the answer: a heat map over C of how often each
// cell came out wrong, the counts, and what an instrumented run saw — which thread wrote a
// slot of shared memory while which other thread was still reading it, shown in the theatre
// on request. Without a GPU it says why and still shows what the model knows: the texts, the
// out-of-bounds accesses worked out from the indices, the bank map of the As store, and any
// recorded results (assets/experiments/*.json), faded and labelled with their GPU and date.
//
// experiment_view.cxx draws the panel and holds the entry points; experiment_results.cxx the
// results column, wrong_map.cxx its heat map over C.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "views/window/app_state.hpp"
#include "views/experiments/wrong_map.hpp"  // wrong_share_value, which the tests check
#include "imgui.h"

namespace ts::views {

// The answers offered before a run: "every run", "some runs", "never" for the three that may
// break C; four sizes of slow-down for bank-conflicts.
std::span<const std::string_view> prediction_choices(model::Experiment experiment);

// Which choice the outcomes on hand bear out, or nullopt before any ran: for the first three
// the wrong runs over all cases (all of every case: "every run"; none: "never"), for
// bank-conflicts the largest measured slow-down.
std::optional<int> observed_choice(const ExperimentPage& page, model::Experiment experiment);

// --experiment NAME: the Experiments view on `experiment`; with `in_theatre` (--view theatre)
// the theatre on the most telling stale read of its results (the recorded ones, at start).
// A note when there is none to show: the theatre then opens as it would without the flag.
std::optional<std::string> open_experiment(AppState& state, model::Experiment experiment, bool in_theatre);

// The whole view: the panel (choice, texts, guess, cases, Run) on the left, the results on
// the right, down to `bottom_reserve` above the window's bottom.
void draw_experiment_view(AppState& state, float bottom_reserve);

}  // namespace ts::views
