#include "energy.hpp"

#include <algorithm>
#include <cmath>

#include "clock_watch.hpp"
#include "model/format.hpp"
#include "record/measurement_file.hpp"

namespace ts::gpu {

using model::counted;
using model::fixed;
using model::format_text;

void EnergyCounterTally::add(std::uint64_t mj) {
    if (mj < last_mj_) {
        went_back_ = true;
        return;
    }
    if (mj > last_mj_) {
        largest_move_mj_ = std::max(largest_move_mj_, mj - last_mj_);
        ++moves_;
    }
    last_mj_ = mj;
}

bool EnergyCounterTally::enough() const {
    return !went_back_ && moves_ >= 2 && joules() >= kEnergyStepsNeeded * step_joules();
}

EnergySummary summarize_energy(const EnergyCounterTally& tally, int launches, double gpu_seconds,
                               const ClockSummary& clocks) {
    EnergySummary energy;
    energy.launches = launches;
    energy.gpu_seconds = gpu_seconds;
    energy.mean_sm_mhz = clocks.mean_sm_mhz;
    energy.limits = clocks.limits;
    if (tally.went_back()) {
        energy.unavailable = "NVML's energy counter went back while the kernel ran (was the driver reloaded?)";
        return energy;
    }
    if (tally.moves() == 0 || launches <= 0 || gpu_seconds <= 0.0) {
        energy.unavailable = format_text("NVML's energy counter did not move over {} back-to-back launches",
                                         launches);
        return energy;
    }
    energy.measured = true;
    energy.joules = tally.joules();
    energy.step_joules = tally.step_joules();
    energy.short_of_steps = !tally.enough();
    return energy;
}

double joules_per_matmul(const EnergySummary& energy) {
    return energy.measured && energy.launches > 0 ? energy.joules / energy.launches : 0.0;
}

double average_watts(const EnergySummary& energy) {
    return energy.measured && energy.gpu_seconds > 0.0 ? energy.joules / energy.gpu_seconds : 0.0;
}

double tflop_per_joule(const EnergySummary& energy, const model::Problem& p) {
    const double joules = joules_per_matmul(energy);
    if (joules <= 0.0) return 0.0;
    const double flop = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) *
                        static_cast<double>(p.batch);
    return flop / joules * 1e-12;
}


std::string energy_short_text(const EnergySummary& energy, const model::Problem& problem) {
    if (!energy.measured) return {};
    return format_text("{} per matmul · {} TFLOP/J · {} W", model::human_joules(joules_per_matmul(energy)),
                       fixed(tflop_per_joule(energy, problem), 3), fixed(average_watts(energy), 0));
}

std::string energy_method_text(const EnergySummary& energy) {
    if (!energy.measured) return energy.unavailable;
    std::string text = format_text("{} back to back in {} s", counted(energy.launches, "launch"),
                                   fixed(energy.gpu_seconds, 2));
    if (energy.mean_sm_mhz > 0) text += format_text(" at SM {} MHz", energy.mean_sm_mhz);
    if (const std::string limits = clock_limit_names(energy.limits); !limits.empty())
        text += format_text(" (held back by {})", limits);
    text += format_text("; NVML's energy counter moved {} J in steps of up to {} J", fixed(energy.joules, 1),
                        fixed(energy.step_joules, 3));
    if (energy.short_of_steps)
        text += format_text(", fewer than the {} steps that make its reads' error at most 2 %: the time limit "
                            "came first, so this figure may be off by {} %",
                            static_cast<int>(kEnergyStepsNeeded),
                            fixed(200.0 * energy.step_joules / std::max(energy.joules, 1e-9), 1));
    return text;
}

namespace {
// `value` rounded to four significant digits, so a file says 1.532 J and not 1.5318472…
double four_digits(double value) {
    if (value <= 0.0) return value;
    const double scale = std::pow(10.0, 3 - static_cast<int>(std::floor(std::log10(value))));
    return std::round(value * scale) / scale;
}
}  // namespace

void record_energy(const RunResult& result, record::Point& point) {
    const EnergySummary& energy = result.energy;
    if (!energy.measured) return;
    point.joules_per_matmul = four_digits(joules_per_matmul(energy));
    point.tflop_per_j = four_digits(tflop_per_joule(energy, result.request.problem));
    point.avg_watts = std::round(average_watts(energy) * 10.0) / 10.0;
    point.energy_sm_clock_mhz = energy.mean_sm_mhz;
    point.energy_note = energy_method_text(energy);
}

}  // namespace ts::gpu
