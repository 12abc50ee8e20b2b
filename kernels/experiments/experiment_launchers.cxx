// The one entry point the experiment runner calls for an experiment's broken variant.
#include "kernels/experiments/experiment_launchers.hpp"

namespace ts::kernels {

cudaError_t launch_experiment(model::Experiment experiment, const model::KernelConfig& config,
                              const model::Problem& problem, Operands<float> operands, cudaStream_t stream) {
    switch (experiment) {
        case model::Experiment::MissingFirstSync:
            return launch_tiled_missing_first_sync(config, problem, operands, stream);
        case model::Experiment::MissingSecondSync:
            return launch_tiled_missing_second_sync(config, problem, operands, stream);
        case model::Experiment::NoBoundsCheck: return launch_tiled_no_bounds_check(config, problem, operands, stream);
        case model::Experiment::BankConflicts: return launch_conflict_free_unpadded(config, problem, operands, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace ts::kernels
