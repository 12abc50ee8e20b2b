// accumulator_panel.hpp — the Experiments view's measurement of the tensor cores' accumulator
// (model/accumulator.hpp): how many mantissa bits they keep when they add FP8, BF16 or FP16
// products, inside one wgmma and across k-steps, and the error of a long sum with K, never
// promoted against promoted every 128 of K (a plot). One Run asks the GPU (RequestKind::Accumulator);
// without an H100 or H200 the button is disabled and says why, and the text explains the method.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gpu/runner.hpp"
#include "model/accumulator.hpp"
#include "views/common/plot.hpp"

namespace ts::views {

struct AccumulatorPanelState {
    std::string dtype = "all";                   // "fp8", "bf16", "fp16" or "all"
    bool submit = false;                         // Run was clicked: the main loop submits the request
    std::uint64_t in_flight = 0;                 // the request's id once submitted
    std::optional<model::AccumulatorReport> report;
    std::string error;                           // why the last run failed, or empty
    Plot plot;                                   // relative error against K, rebuilt from `report`
};

// The main loop's part (app_state.cxx): the request to submit once Run was clicked, and a finished
// result, taken when it is this panel's (true).
std::optional<gpu::RunRequest> next_accumulator_request(AccumulatorPanelState& state);
void accumulator_submitted(AccumulatorPanelState& state, std::uint64_t id);
bool take_accumulator_result(AccumulatorPanelState& state, const gpu::RunResult& result);

// Keeps `report` and rebuilds the plot from it: for each type, never promoted and promoted every
// 128 (max relative error), both axes log.
void show_accumulator_report(AccumulatorPanelState& state, model::AccumulatorReport report);

// The whole panel into the current window: the method, the type, Run (disabled with the reason when
// `why_no_gpu` is set), then the answer per type, the plot and why promotion bounds the error.
void draw_accumulator_panel(AccumulatorPanelState& state, const std::optional<std::string>& why_no_gpu);

}  // namespace ts::views
