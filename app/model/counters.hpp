// counters.hpp — the hardware's own counters for one launch (read through CUPTI's range
// profiler by app/gpu/counters.cxx), and what the model predicts for each of them.
//
// The metric names are the ones Nsight Compute uses, so `ncu --metrics <name>` reads the
// same counter. This file knows nothing about CUPTI: the runner fills a CounterReport, the
// views and `tilescope-cli counters` show it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "device_limits.hpp"
#include "kernel_config.hpp"
#include "problem.hpp"

namespace ts::model {

enum class Counter {
    GlobalLoadRequests,   // warp-level global load instructions reaching L1
    GlobalLoadSectors,    // 32-byte sectors those requests asked L1 for
    L2Sectors,            // 32-byte sectors L2 served (reads and writes, every source)
    DramBytes,            // bytes read from and written to device memory
    SharedBankConflicts,  // extra shared-memory wavefronts caused by bank conflicts, loads and stores
    AchievedOccupancy,    // active warps per SM over the launch, % of the SM's maximum
};

inline constexpr Counter kAllCounters[] = {Counter::GlobalLoadRequests, Counter::GlobalLoadSectors,
                                           Counter::L2Sectors,          Counter::DramBytes,
                                           Counter::SharedBankConflicts, Counter::AchievedOccupancy};

struct CounterInfo {
    std::string_view label;    // "Global load requests"
    std::string_view unit;     // "requests", "sectors", "bytes", "%"
    // The Nsight Compute metric names whose sum is this counter (one or two).
    std::vector<std::string_view> metrics;
    std::string_view meaning;  // one sentence for a tooltip
};
const CounterInfo& counter_info(Counter counter);
// Every metric name of every counter, each once, in kAllCounters order (what CUPTI is asked for).
std::vector<std::string_view> all_counter_metrics();

struct CounterReading {
    Counter counter = Counter::GlobalLoadRequests;
    double measured = 0.0;
    std::optional<double> model;  // nullopt where the model makes no prediction (cuBLAS, say)
    std::string model_basis;      // how the model's number was obtained, one line
};

struct CounterReport {
    KernelConfig kernel;
    Problem problem;
    std::string device;                   // the GPU's name
    std::vector<CounterReading> readings;  // kAllCounters order
    // Every metric as CUPTI returned it, by Nsight Compute name, for comparing with ncu.
    std::vector<std::pair<std::string, double>> metrics;
    int passes = 0;                       // replays CUPTI needed to collect them all
    std::string note;                     // e.g. "L2 flushed before each pass", or empty
};

// The model's prediction for `counter` of one launch, or nullopt where it has none.
// `registers_per_thread`: what the compiled kernel takes (cudaFuncGetAttributes), for the
// occupancy; without it the model's estimate (occupancy.hpp).
struct CounterPrediction {
    double value = 0.0;
    std::string basis;
};
std::optional<CounterPrediction> predict_counter(Counter counter, const KernelConfig& config, const Problem& problem,
                                                 const DeviceLimits& limits,
                                                 std::optional<int> registers_per_thread = std::nullopt);

// Why predict_counter has nothing for `counter` of this kernel, in one line ("cuBLAS picks
// its own kernels ..."); empty where it has a prediction.
std::string why_no_prediction(Counter counter, const KernelConfig& config, const Problem& problem,
                              const DeviceLimits& limits);

// The counter's value from CUPTI's metrics (the sum of counter_info(counter).metrics), or
// nullopt when one of them is missing.
std::optional<double> counter_value(Counter counter, const std::vector<std::pair<std::string, double>>& metrics);

// One row of a report: the measured value beside the model's, or beside the reason there is
// no model value (in model_basis).
CounterReading make_reading(Counter counter, double measured, const KernelConfig& config, const Problem& problem,
                            const DeviceLimits& limits, std::optional<int> registers_per_thread = std::nullopt);

// measured / model, or nullopt when either is missing or the model says 0.
std::optional<double> counter_ratio(const CounterReading& reading);

// Why counters cannot be read without permission, and how to allow them: the words shown
// when CUPTI answers CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (names NVreg_RestrictProfilingToAdminUsers=0).
std::string counters_permission_help();

}  // namespace ts::model
