// sample_stats.hpp — what a list of timed samples says (median, spread, noise), and when the
// measurement engine (measure.hpp) may stop taking more. Plain C++, no CUDA, so both are
// tested on machines without a GPU.
#pragma once

#include <span>
#include <string_view>

namespace ts::gpu {

struct SampleStats {
    int count = 0;
    double median = 0.0;
    double p20 = 0.0;       // 20th and 80th percentile, linearly interpolated (numpy's default)
    double p80 = 0.0;
    double mean = 0.0;
    double min = 0.0;
    double max = 0.0;
    double sum = 0.0;
    double noise = 0.0;     // relative noise: sample standard deviation / mean (0.005 = 0.5 %)
};

// All zero for no samples; noise 0 for one sample.
SampleStats summarize(std::span<const double> samples);

// The value below which `fraction` (0..1) of the samples lie, interpolating linearly
// between neighbours of the sorted samples. `sorted` must be sorted and not empty.
double percentile(std::span<const double> sorted, double fraction);

// The rules that end a measurement. Times are in seconds, like the wall clock they meet.
struct StopRule {
    int min_samples = 10;      // always taken, whatever the budget says
    bool adaptive = true;      // false: stop after exactly min_samples
    double max_noise = 0.005;  // stop when noise ≤ this ...
    double min_time_s = 0.5;   // ... or when the samples add up to this much kernel time ...
    double budget_s = 3.0;     // ... or when this much wall time has passed (warm-up included)
    int max_samples = 10000;   // ... or at this many samples, which keeps measurements small
};

enum class StopReason { NotYet, Count, Noise, MinTime, Budget, MaxSamples };

// "count", "noise", "min-time", "budget", "max-samples" ("" for NotYet): the words a
// measurement stores.
std::string_view stop_reason_name(StopReason reason);

// Whether to stop after the samples summarized in `stats` (times in ms), `wall_s` seconds
// after the measurement began.
StopReason should_stop(const StopRule& rule, const SampleStats& stats, double wall_s);

}  // namespace ts::gpu
