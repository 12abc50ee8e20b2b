// experiment_results.hpp — the Experiments view's right-hand column: what the model knows
// before any run (the out-of-bounds accesses, the bank map of the As store), then each case's
// outcome (its summary, heat map and numbers, or the measured slow-down) and what the
// instrumented run saw. Internal to the view (experiment_view.cxx draws the panel beside it
// and calls draw_experiment_results); a file of its own because it only shows results, while
// the panel is where the student chooses, guesses and runs.
#pragma once

#include <optional>

#include "views/window/app_state.hpp"

namespace ts::views {

// The results of `experiment`, the model's part first, into the current window. Writes the
// experiments' state ("Run this case again"); returns the stale read whose "Show in the theatre"
// was clicked, for the view to put the theatre on it.
std::optional<RaceMoment> draw_experiment_results(ExperimentState& experiments, const AppState& app,
                                                  model::Experiment experiment);

// Shared by the panel and the results.
// Whether the variant can break C (all but bank-conflicts, which only slows the kernel down).
inline bool breaks_tiled(model::Experiment e) { return e != model::Experiment::BankConflicts; }
// Whether an instrumented run watches its shared memory for stale reads.
inline bool watches_shared_memory(model::Experiment e) {
    return e == model::Experiment::MissingFirstSync || e == model::Experiment::MissingSecondSync;
}
inline bool usable_gpu(const AppState& state) { return state.device && state.device->usable; }

}  // namespace ts::views
