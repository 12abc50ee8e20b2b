#include "sample_stats.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ts::gpu {

double percentile(std::span<const double> sorted, double fraction) {
    const double position = fraction * static_cast<double>(sorted.size() - 1);
    const std::size_t below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(below);
    return sorted[below] + (sorted[above] - sorted[below]) * weight;
}

SampleStats summarize(std::span<const double> samples) {
    SampleStats stats;
    if (samples.empty()) return stats;
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    stats.count = static_cast<int>(sorted.size());
    stats.median = percentile(sorted, 0.5);
    stats.p20 = percentile(sorted, 0.2);
    stats.p80 = percentile(sorted, 0.8);
    stats.min = sorted.front();
    stats.max = sorted.back();
    for (double x : sorted) stats.sum += x;
    stats.mean = stats.sum / static_cast<double>(sorted.size());
    if (sorted.size() > 1 && stats.mean > 0.0) {
        double squares = 0.0;
        for (double x : sorted) squares += (x - stats.mean) * (x - stats.mean);
        stats.noise = std::sqrt(squares / static_cast<double>(sorted.size() - 1)) / stats.mean;
    }
    return stats;
}

std::string_view stop_reason_name(StopReason reason) {
    switch (reason) {
        case StopReason::NotYet: return "";
        case StopReason::Count: return "count";
        case StopReason::Noise: return "noise";
        case StopReason::MinTime: return "min-time";
        case StopReason::Budget: return "budget";
        case StopReason::MaxSamples: return "max-samples";
    }
    return "";
}

StopReason should_stop(const StopRule& rule, const SampleStats& stats, double wall_s) {
    if (stats.count < rule.min_samples) return StopReason::NotYet;
    if (!rule.adaptive) return StopReason::Count;
    if (stats.noise <= rule.max_noise) return StopReason::Noise;
    if (stats.sum >= rule.min_time_s * 1e3) return StopReason::MinTime;
    if (wall_s >= rule.budget_s) return StopReason::Budget;
    if (stats.count >= rule.max_samples) return StopReason::MaxSamples;
    return StopReason::NotYet;
}

}  // namespace ts::gpu
