// recorded_source.hpp — the theatre's events as a GPU recorded them (kernel_trace.hpp): the
// loads each thread wrote down in the instrumented naive and tiled kernels, replayed "as
// recorded on <GPU>". A kernel without a trace that fits is played from the model, and
// the label says so.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "model/kernel_trace.hpp"
#include "model/recorded_reads.hpp"
#include "views/theatre/step_source.hpp"

namespace ts::views {

class RecordedSource final : public StepSource {
public:
    // Either trace may be null; a trace without loads adds only its SMs and clocks, which
    // this class does not use.
    RecordedSource(std::shared_ptr<const model::KernelTrace> naive, std::shared_ptr<const model::KernelTrace> tiled);

    std::string_view label() const override { return m_label; }
    std::string_view description() const override { return m_description; }
    std::vector<model::TileLoad> tile_loads(const model::Problem& problem, int tile, model::Index2 block, int phase,
                                            model::Operand operand) const override;
    model::TrafficSoFar traffic(model::KernelKind kind, const model::Problem& problem, int tile,
                                model::KernelStep step) const override;
    std::int64_t element_reads(model::KernelKind kind, const model::Problem& problem, int tile, model::KernelStep step,
                               model::Operand operand, int row, int col) const override;

private:
    struct Recorded {
        std::shared_ptr<const model::KernelTrace> trace;
        std::optional<model::RecordedReads> reads;
    };
    // The trace of `kind` if it holds loads for exactly this problem and T.
    const Recorded* fitting(model::KernelKind kind, const model::Problem& problem, int tile) const;

    Recorded m_naive;
    Recorded m_tiled;
    std::string m_label;
    std::string m_description;
};

}  // namespace ts::views
