// energy.hpp — joules per matmul, from NVML's total-energy counter (gpu/clock_watch.hpp).
//
// The counter holds the board's energy in millijoules, but NVML refreshes it only every few
// milliseconds, so a read can lag the truth by one refresh: the counter's step. A kernel of
// 10 µs moves it not at all. So the energy is not read around one launch but around many:
// after the timed samples the kernel runs back to back, in batches of about 20 ms, while the
// host reads the counter, until the energy counted is at least kEnergyStepsNeeded steps (the
// error of the two reads is then at most 2 % of it) and at least kEnergyMinSeconds passed (the
// board's power settles for the kernel that runs, not the one before). The step is the largest
// move of the counter between two reads.
//
// Back to back means L2 is not flushed between launches, unlike the cold timed samples: a flush
// spends energy of its own, which would be counted as the kernel's.
#pragma once

#include <cstdint>
#include <string>

#include "model/problem.hpp"
#include "runner.hpp"

namespace ts::record {
struct Point;
}

namespace ts::gpu {

inline constexpr double kEnergyStepsNeeded = 100.0;
inline constexpr double kEnergyMinSeconds = 0.5;
inline constexpr double kEnergyBatchSeconds = 0.02;

// Readings of the counter, in order; says when there are enough.
class EnergyCounterTally {
public:
    explicit EnergyCounterTally(std::uint64_t first_mj) : first_mj_(first_mj), last_mj_(first_mj) {}
    // A later reading. One below the last (the driver was reloaded) spoils the tally.
    void add(std::uint64_t mj);
    double joules() const { return static_cast<double>(last_mj_ - first_mj_) * 1e-3; }
    double step_joules() const { return static_cast<double>(largest_move_mj_) * 1e-3; }
    int moves() const { return moves_; }
    bool went_back() const { return went_back_; }
    // The energy counted is at least kEnergyStepsNeeded steps, and the counter moved more than once.
    bool enough() const;

private:
    std::uint64_t first_mj_, last_mj_;
    std::uint64_t largest_move_mj_ = 0;
    int moves_ = 0;
    bool went_back_ = false;
};

// What a finished energy phase gives: `launches` back-to-back launches that took `gpu_seconds`
// (CUDA events), the tally of the counter around them, and the clock while they ran.
EnergySummary summarize_energy(const EnergyCounterTally& tally, int launches, double gpu_seconds,
                               const ClockSummary& clocks);

double joules_per_matmul(const EnergySummary& energy);
double average_watts(const EnergySummary& energy);
// 2·M·N·K·batch per joule, in TFLOP (1e12): the work one joule buys.
double tflop_per_joule(const EnergySummary& energy, const model::Problem& problem);

// "1.53 J per matmul · 0.090 TFLOP/J · 612 W" for a status line; empty when not measured.
std::string energy_short_text(const EnergySummary& energy, const model::Problem& problem);
// How it was measured: "812 launches back to back in 2.1 s at SM 1755 MHz; the counter moved in
// steps of up to 0.35 J", and a warning where it stopped short of kEnergyStepsNeeded steps.
std::string energy_method_text(const EnergySummary& energy);

// A measured point's energy fields (record::Point::joules_per_matmul and the four beside it), where
// the energy was measured; untouched otherwise.
void record_energy(const RunResult& result, record::Point& point);

}  // namespace ts::gpu
