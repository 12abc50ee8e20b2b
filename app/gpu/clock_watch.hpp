// clock_watch.hpp — the SM clock and the board's power while samples run, from NVML (the driver's
// management library, libnvidia-ml.so.1, opened at run time: it comes with the driver, not the
// toolkit).
//
// Why: with its clocks unlocked a GPU runs as fast as its power limit allows, so two kernels with
// the same cycle count can take different times. Under the power cap the driver lowers the clock
// for a kernel that spends more energy per cycle; that is part of what the kernel costs, and a
// timing without the clock beside it cannot show it. nvbench watches the clock for the same reason.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "runner.hpp"

namespace ts::record {
struct Point;
}

namespace ts::gpu {

struct ClockReading {
    int sm_mhz = 0;
    double power_w = 0.0;         // 0 where the board does not report it
    std::uint64_t limits = 0;     // NVML's clock event reasons (kClockLimit* below)
};

// NVML's reasons why the clocks are below their maximum (nvmlClocksEventReason*), the ones
// a timing can meet. Idle and the application-clocks setting are left out: neither holds a
// clock back while a kernel runs.
inline constexpr std::uint64_t kClockLimitSwPowerCap = 0x4;
inline constexpr std::uint64_t kClockLimitHwSlowdown = 0x8;
inline constexpr std::uint64_t kClockLimitSyncBoost = 0x10;
inline constexpr std::uint64_t kClockLimitSwThermal = 0x20;
inline constexpr std::uint64_t kClockLimitHwThermal = 0x40;
inline constexpr std::uint64_t kClockLimitHwPowerBrake = 0x80;
inline constexpr std::uint64_t kClockLimitsWatched = kClockLimitSwPowerCap | kClockLimitHwSlowdown |
                                                     kClockLimitSyncBoost | kClockLimitSwThermal |
                                                     kClockLimitHwThermal | kClockLimitHwPowerBrake;

// The reasons in `limits`, in words ("the power cap, thermal slowdown"); empty for none.
std::string clock_limit_names(std::uint64_t limits);

// "SM 1700 MHz", the mean clock of the summary; empty where nothing was read.
std::string sm_clock_text(const ClockSummary& clocks);

// A measured point's clock fields (record::Point::sm_clock_mhz, power_w, clock_limits) from the
// summary, where anything was read; untouched otherwise.
void record_clocks(const ClockSummary& clocks, record::Point& point);

// A measured point's place on a shared GPU (record::Point::gpu_host, gpu_wait_s, gpu_shared and its
// note) from the result, where the worker knew them; untouched otherwise.
void record_sharing(const RunResult& result, record::Point& point);

// Everything a measured point carries beside its times, where the result has it: the clocks, the
// sharing, the energy (energy.hpp), FP8's quantisation time and the error against FP64. bench and
// the lab's live points both fill their points with it.
void record_beside_times(const RunResult& result, record::Point& point);

// Adds readings up into a ClockSummary (runner.hpp), each weighted by the samples it stands for.
class ClockTally {
public:
    void add(const ClockReading& reading, int samples);
    // The summary; `unavailable` set from `why_not` when nothing was read.
    ClockSummary summary(const std::string& why_not) const;

private:
    double mhz_sum_ = 0.0, power_sum_ = 0.0, weight_ = 0.0, power_weight_ = 0.0;
    int readings_ = 0, min_mhz_ = 0, max_mhz_ = 0;
    std::uint64_t limits_ = 0;
};

// NVML for the current CUDA device. Opened once per process; when it cannot be (no driver library,
// a device NVML does not list), read() returns nothing and why_not() says why.
class ClockWatch {
public:
    static const ClockWatch& current_device();
    std::optional<ClockReading> read() const;
    const std::string& why_not() const { return why_not_; }
    // The board's energy counter (millijoules since the driver loaded), or nothing where NVML
    // does not keep one for this GPU; energy_why_not() says why, empty when it does.
    std::optional<std::uint64_t> energy_mj() const;
    std::string energy_why_not() const;
    // Whether other processes used this GPU's SMs since `since`, from NVML's per-process
    // utilisation samples: a sentence naming them, empty when none did, nullopt where NVML cannot
    // say. A process that only holds a context (another worker between its requests) is not
    // counted, and samples within kSharingSlack of `since` are passed over: they may end a
    // period that began in the turn before.
    std::optional<std::string> others_since(std::chrono::system_clock::time_point since) const;
    static constexpr std::chrono::milliseconds kSharingSlack{250};

private:
    ClockWatch();
    void* device_ = nullptr;  // nvmlDevice_t
    std::string why_not_;
};

}  // namespace ts::gpu
