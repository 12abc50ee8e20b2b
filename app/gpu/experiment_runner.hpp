// experiment_runner.hpp — RequestKind::Experiment: N launches of an experiment's broken
// variant (kernels/experiments/), each checked against one reference, and for the missing-sync
// experiments an instrumented launch that records stale shared-memory reads.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "model/experiment.hpp"
#include "runner.hpp"

namespace ts::gpu {

// Fills result.experiment (and result.stale_reads for missing-first-sync and
// missing-second-sync when model::watchable(problem)). request.kernel and request.problem are
// the case; request.runs the launches; request.seed the inputs. Throws CudaError; a fault
// (an illegal address) loses the context, which the supervisor answers by restarting the worker.
//
// Every launch runs on A, B and C with guard zones of model::guard_elements() on both sides,
// filled with model::kGuardPoisonBits; C's own cells are filled before each launch with
// kUnwrittenBits (guarded_runs.hpp). C's guard zones are compared after each launch (stray_writes) and restored.
// bank-conflicts also times the broken variant and the real conflict-free rung
// (kExperimentTimedLaunches cold-L2 launches each, medians in broken_ms and real_ms).
void run_experiment(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result);

inline constexpr int kExperimentTimedLaunches = 30;

// ---- The instrumented launch (kernels/experiments/05_tiled_missing_sync_watched.cu) ------

// Which barriers of the tiled kernel the watched kernel keeps; BothKept is the control.
enum class WatchedBarriers { FirstMissing, SecondMissing, BothKept };

// Instrumented launches until one saw a stale read.
inline constexpr int kMaxWatchedLaunches = 20;

struct WatchOutcome {
    // report.experiment: missing-first-sync for FirstMissing and for the control,
    // missing-second-sync for SecondMissing.
    model::StaleReadReport report;
    // With check_c: whether C of the last launch was within the real check's tolerance of
    // the product of the watched inputs, and what the check said.
    bool c_right = false;
    std::string c_summary;
};

// Up to `max_launches` launches of the watched kernel with `barriers` on `c` (a tiled case,
// T = 8, 16 or 32, model::watchable), stopping after the first that saw a stale read. The
// report keeps up to kMaxStaleReads / 2 of phase 0's stale reads, then up to as many of the
// later phases' (phase 0's alone, without the first barrier, would fill it); within each,
// the reads whose clocks tell the story (store after the read, or before it for the next
// phase's value) come first. Each record's value_phase, writer and write_clock are worked
// out here: value_phase is the phase whose element of this slot `got` is, among those another
// phase of the block can leave there (the one before without the first barrier, the one after
// without the second), else −1;
// write_clock is the writer's store in value_phase when that is later than the read's phase,
// else its store in the read's phase (0 for blocks past the clock buffer: at most 16 Mi
// store clocks are kept). Throws CudaError, std::invalid_argument for a case it cannot watch.
WatchOutcome watch_shared_memory(WatchedBarriers barriers, const model::ExperimentCase& c, int max_launches,
                                 bool check_c, cudaStream_t stream);

}  // namespace ts::gpu
