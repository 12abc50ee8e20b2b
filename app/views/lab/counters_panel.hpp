// counters_panel.hpp — the hardware's own counters for one launch, beside the model's counts
// (issue #14): a kernel from the roofline's, a button that reads them through the GPU worker
// (RequestKind::Counters, CUPTI's range profiler), and a table of counter | measured | model |
// ratio. Shown in the lab's side panel under the roofline and the ladder. Without a GPU the
// button says why not; when CUPTI needs permission the panel says how to give it.
#pragma once

#include <string>
#include <vector>

#include "views/window/app_state.hpp"
#include "model/counters.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"

namespace ts::views {

// The kernels the panel offers: those the roofline places (the naive kernels with the lab's
// block shape, tiled T=8 and T=16, then every rung of the ladder from tiled T=32 to tuned).
std::vector<model::KernelConfig> counters_kernels(const LabState& lab);
// Whether `kernel` is one of them (a lesson step's kernel then becomes the panel's).
bool offers_counters_for(const LabState& lab, const model::KernelConfig& kernel);

// How a ratio measured / model reads: near 1 in the text colour, further off in the warning
// colour, a factor of 2 or more off in the error colour.
ImU32 ratio_colour(double ratio);

// A counter's value in its unit, short enough for the table: "33.6 M", "1.07 GiB", "48.2 %".
std::string counter_value_text(model::Counter counter, double value);

// Why the read button cannot be pressed now (no GPU, still probing, a read under way), or
// nullopt.
std::optional<std::string> why_no_counters(const AppState& app, const model::KernelConfig& kernel,
                                           const model::Problem& problem);

// The panel, for the lab's counters kernel at `problem` (the roofline's size, or the
// ladder's). Writes the panel's kernel and readings, and queues the read.
void draw_counters_panel(LabState& lab, const AppState& app, const model::Problem& problem);
// What the panel's button does: one Counters request for `kernel` at `problem` (also --run's).
void read_counters_now(LabState& lab, const model::KernelConfig& kernel, const model::Problem& problem);

}  // namespace ts::views
