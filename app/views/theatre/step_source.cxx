#include "views/theatre/step_source.hpp"

namespace ts::views {

namespace {

class ModelSource final : public StepSource {
public:
    std::string_view label() const override { return "model"; }
    std::string_view description() const override {
        return "computed from the kernels' index math, with every block of the grid advancing in lockstep (a GPU "
               "runs blocks in any order; the totals are the same)";
    }
    std::vector<model::TileLoad> tile_loads(const model::Problem& problem, int tile, model::Index2 block, int phase,
                                            model::Operand operand) const override {
        return model::tile_loads(problem, tile, block, phase, operand);
    }
    model::TrafficSoFar traffic(model::KernelKind kind, const model::Problem& problem, int tile,
                                model::KernelStep step) const override {
        return model::traffic_so_far(kind, problem, tile, step);
    }
    std::int64_t element_reads(model::KernelKind kind, const model::Problem& problem, int tile, model::KernelStep step,
                               model::Operand operand, int row, int col) const override {
        return model::element_reads_so_far(kind, problem, tile, step, operand, row, col);
    }
};

}  // namespace

const StepSource& model_source() {
    static const ModelSource source;
    return source;
}

}  // namespace ts::views
