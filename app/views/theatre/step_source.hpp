// step_source.hpp — where the theatre's events come from: which thread loads which element
// into which shared-memory slot, and how much every block has read so far.
//
// Today the model computes them from the same index math the kernels run. A replay
// recorded on the GPU (each thread logging its loads from an instrumented kernel) will
// implement this interface too; the theatre names its source on screen, so a picture
// computed by the model is never mistaken for one measured on a device.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/kernel_config.hpp"
#include "model/phase_timeline.hpp"
#include "model/problem.hpp"
#include "model/tile_schedule.hpp"

namespace ts::views {

class StepSource {
public:
    virtual ~StepSource() = default;

    // One word for the UI: "model".
    virtual std::string_view label() const = 0;
    // What the label means, in a sentence.
    virtual std::string_view description() const = 0;

    // The T×T loads of `operand` by `block` in `phase` (model::tile_loads' contract).
    virtual std::vector<model::TileLoad> tile_loads(const model::Problem& problem, int tile, model::Index2 block,
                                                    int phase, model::Operand operand) const = 0;

    // Counters of the whole grid and the reads of one element once `step` has run
    // (model::traffic_so_far and model::element_reads_so_far).
    virtual model::TrafficSoFar traffic(model::KernelKind kind, const model::Problem& problem, int tile,
                                        model::KernelStep step) const = 0;
    virtual std::int64_t element_reads(model::KernelKind kind, const model::Problem& problem, int tile,
                                       model::KernelStep step, model::Operand operand, int row, int col) const = 0;
};

// The model's events: exact, computed, with every block of the grid in lockstep.
const StepSource& model_source();

}  // namespace ts::views
