// counter_reads.hpp — the hardware counters read this session (RequestKind::Counters), kept
// per kernel and size in the lab's state, so that switching views, or kernels and back, loses
// no reading. The counters panel asks for them; the roofline plots what they measured.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "gpu/runner.hpp"
#include "model/counters.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"

namespace ts::views {

// What is known of one kernel at one size: the latest reading, the latest failure, and
// whether a request is on its way.
struct CounterRead {
    std::optional<model::CounterReport> report;  // the latest reading that came back
    std::string error;    // why the latest request failed, as the runner said it; empty: it did not
    bool pending = false;  // queued or running
};

// Keyed by counters_key().
using CounterReads = std::map<std::string, CounterRead>;

// "tiled T=32 float 2048×2048×2048": one key per kernel, dtype and size (and batch, when > 1).
std::string counters_key(const model::KernelConfig& kernel, const model::Problem& problem);

// The request "Read the counters (one launch)" sends.
gpu::RunRequest counters_request(const model::KernelConfig& kernel, const model::Problem& problem);

// Whether `error` is CUPTI refusing for lack of permission (its text names
// NVreg_RestrictProfilingToAdminUsers): something the user can change, not a failure.
bool is_permission_error(const std::string& error);

// A finished Counters result, kept under its key: a reading replaces the last one and clears
// the error; a failure keeps the last reading and says why. Superseded results are left to
// the newer request of the same key.
void take_counters_result(CounterReads& reads, const gpu::RunResult& result);

}  // namespace ts::views
