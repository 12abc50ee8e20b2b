// experiment.hpp — `tilescope experiment NAME`: break a kernel on purpose (model/experiment.hpp)
// and run the broken variant N times on the GPU, at the default cases or at one size: how many
// runs came out wrong, where in C (a heat map), the largest error, NaN cells, stores past C;
// what an instrumented launch saw in shared memory (the missing-sync experiments); the
// slow-down (bank-conflicts). --json saves every run and report.
//
// `tilescope experiment accumulator [--dtype fp8|bf16|fp16|all] [--json FILE]` is of another kind:
// it breaks nothing, it measures how many mantissa bits the tensor cores' accumulator keeps
// (model/accumulator.hpp), inside one wgmma and across k-steps, and how the error of a long sum
// grows with K, never promoted and promoted every 128 of K. H100/H200 only (wgmma is sm_90a).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "model/accumulator.hpp"
#include "model/experiment.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

struct ExperimentOptions {
    std::string name;  // missing-first-sync, missing-second-sync, no-bounds-check, bank-conflicts
    std::string runs = std::to_string(model::kDefaultExperimentRuns);  // --runs N
    std::string size;  // --size M or MxNxK; empty: model::default_experiment_cases
    std::string tile;  // --tile T (8, 16 or 32; the tiled experiments); empty: 16, or the default cases' own
    std::string json;  // --json FILE; empty: not saved
    std::string dtype = "all";  // --dtype: the accumulator experiment's input types (fp8, bf16, fp16, all)
};

// The name that runs the accumulator experiment instead of a broken kernel.
inline constexpr const char* kAccumulatorExperimentName = "accumulator";

CLI::App* add_experiment_command(CLI::App& app, ExperimentOptions& options);

// 0: every case ran (a wrong C is what the experiment is for); 1: the GPU failed on a case or
// the JSON could not be saved; 2: bad arguments or no usable GPU.
int run_experiment(const ExperimentOptions& options, std::ostream& out, std::ostream& err);

// The pieces of the report, tested without a GPU.

// How often each part of C came out wrong, at most 32 rows × 64 characters, framed, with a
// legend: ' ' never, then . : - = + * # % @ for up to 1/9, 2/9, … of the runs (a character
// covering several bins shows the worst of them).
std::string heat_map_text(const model::WrongCellMap& map, int runs, std::int64_t m, std::int64_t n);

// Everything printed for one case after its progress line: the counts, the heat map, the
// summary, and the stale reads (missing-sync) or where the stray accesses go (no-bounds-check).
std::string experiment_report(const model::ExperimentRun& run, const std::optional<model::StaleReadReport>& stale);

// The accumulator experiment's report: per type the identity check, the bits kept inside one wgmma
// and across k-steps and how they are cut, the error-vs-K table (never promoted against promoted
// every 128), then the method and why promotion bounds the error.
std::string accumulator_report_text(const model::AccumulatorReport& report);

}  // namespace ts::cli
