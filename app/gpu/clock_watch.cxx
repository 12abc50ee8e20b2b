#include "clock_watch.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "energy.hpp"
#include "model/format.hpp"
#include "record/measurement_file.hpp"

#ifdef TILESCOPE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ts::gpu {

using model::format_text;

std::string clock_limit_names(std::uint64_t limits) {
    static constexpr std::pair<std::uint64_t, const char*> kNames[] = {
        {kClockLimitSwPowerCap, "the power cap"},
        {kClockLimitHwSlowdown, "hardware slowdown"},
        {kClockLimitSyncBoost, "sync boost"},
        {kClockLimitSwThermal, "thermal slowdown (software)"},
        {kClockLimitHwThermal, "thermal slowdown (hardware)"},
        {kClockLimitHwPowerBrake, "the power brake"},
    };
    std::string text;
    for (const auto& [bit, name] : kNames)
        if (limits & bit) text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
}

std::string sm_clock_text(const ClockSummary& clocks) {
    return clocks.readings > 0 ? format_text("SM {} MHz", clocks.mean_sm_mhz) : std::string();
}

void record_sharing(const RunResult& result, record::Point& point) {
    if (!result.gpu_host.empty()) point.gpu_host = result.gpu_host;
    if (result.gpu_queued) point.gpu_wait_s = std::round(result.gpu_wait_s * 1e3) / 1e3;
    if (result.gpu_sharing_watched) {
        point.gpu_shared = result.gpu_shared;
        if (result.gpu_shared) point.gpu_shared_note = result.gpu_shared_note;
    }
}

void record_beside_times(const RunResult& result, record::Point& point) {
    record_clocks(result.clocks, point);
    record_sharing(result, point);
    record_energy(result, point);
    if (point.fp8_scaling) point.quantize_ms = result.quantize_ms;
    if (has_error_vs_fp64(result)) {
        point.error_vs_fp64_max = result.error_vs_fp64_max;
        point.error_vs_fp64_rms = result.error_vs_fp64_rms;
    }
}

void record_clocks(const ClockSummary& clocks, record::Point& point) {
    if (clocks.readings == 0) return;
    point.sm_clock_mhz = clocks.mean_sm_mhz;
    if (clocks.mean_power_w > 0.0) point.power_w = clocks.mean_power_w;
    point.clock_limits = clock_limit_names(clocks.limits);
}

void ClockTally::add(const ClockReading& reading, int samples) {
    const double weight = std::max(samples, 1);
    min_mhz_ = readings_ == 0 ? reading.sm_mhz : std::min(min_mhz_, reading.sm_mhz);
    max_mhz_ = readings_ == 0 ? reading.sm_mhz : std::max(max_mhz_, reading.sm_mhz);
    ++readings_;
    mhz_sum_ += weight * reading.sm_mhz;
    weight_ += weight;
    if (reading.power_w > 0.0) {
        power_sum_ += weight * reading.power_w;
        power_weight_ += weight;
    }
    limits_ |= reading.limits & kClockLimitsWatched;
}

ClockSummary ClockTally::summary(const std::string& why_not) const {
    ClockSummary s;
    s.readings = readings_;
    if (readings_ == 0) {
        s.unavailable = why_not.empty() ? "no reading was taken" : why_not;
        return s;
    }
    s.mean_sm_mhz = static_cast<int>(std::lround(mhz_sum_ / weight_));
    s.min_sm_mhz = min_mhz_;
    s.max_sm_mhz = max_mhz_;
    s.mean_power_w = power_weight_ > 0.0 ? std::round(power_sum_ / power_weight_ * 10.0) / 10.0 : 0.0;
    s.limits = limits_;
    return s;
}

// ---- NVML, opened at run time --------------------------------------------------------------
// The few entry points used, as NVML's header declares them (nvmlReturn_t is an int-sized enum,
// NVML_SUCCESS 0; nvmlDevice_t a pointer; NVML_CLOCK_SM 1). The toolkit does not ship nvml.h.

namespace {

using NvmlReturn = int;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr NvmlReturn kNvmlErrorNotFound = 6;          // no sample since the time given
constexpr NvmlReturn kNvmlErrorInsufficientSize = 7;

// nvmlProcessUtilizationSample_t: one process's share of one sampling period.
struct NvmlProcessSample {
    unsigned pid;
    unsigned long long time_stamp_us;  // CPU time, µs since the epoch, at the period's end
    unsigned sm_util;                  // percent of the period the SMs ran its kernels
    unsigned memory_util;
    unsigned encoder_util;
    unsigned decoder_util;
};

constexpr int kNvmlClockSm = 1;

struct Nvml {
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*handle_by_bus_id)(const char*, void**) = nullptr;
    NvmlReturn (*clock_info)(void*, int, unsigned*) = nullptr;
    NvmlReturn (*power_usage)(void*, unsigned*) = nullptr;                 // milliwatts
    NvmlReturn (*clock_reasons)(void*, unsigned long long*) = nullptr;
    const char* (*error_string)(NvmlReturn) = nullptr;
    // Optional: what other processes do on the GPU (null where this NVML lacks it).
    NvmlReturn (*process_utilization)(void*, NvmlProcessSample*, unsigned*, unsigned long long) = nullptr;
    // Optional: the board's energy since the driver loaded, in millijoules (Volta and later).
    NvmlReturn (*total_energy)(void*, unsigned long long*) = nullptr;
    std::string why_not;
};

template <typename Fn>
bool bind(void* library, const char* name, Fn& fn) {
    fn = reinterpret_cast<Fn>(dlsym(library, name));
    return fn != nullptr;
}

const Nvml& nvml() {
    static const Nvml loaded = [] {
        Nvml n;
        // Never closed: the process keeps it, as it keeps the driver.
        void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            n.why_not = std::string("NVML (libnvidia-ml.so.1, part of the NVIDIA driver) could not be opened: ") + dlerror();
            return n;
        }
        // The event reasons have this name since driver 535; older drivers call them throttle reasons.
        const bool reasons = bind(library, "nvmlDeviceGetCurrentClocksEventReasons", n.clock_reasons) ||
                             bind(library, "nvmlDeviceGetCurrentClocksThrottleReasons", n.clock_reasons);
        if (!bind(library, "nvmlInit_v2", n.init) || !bind(library, "nvmlDeviceGetHandleByPciBusId_v2", n.handle_by_bus_id) ||
            !bind(library, "nvmlDeviceGetClockInfo", n.clock_info) || !bind(library, "nvmlDeviceGetPowerUsage", n.power_usage) ||
            !bind(library, "nvmlErrorString", n.error_string) || !reasons) {
            n.why_not = "this NVML lacks the functions TileScope reads the clock with (driver too old?)";
            n.init = nullptr;
            return n;
        }
        bind(library, "nvmlDeviceGetProcessUtilization", n.process_utilization);
        bind(library, "nvmlDeviceGetTotalEnergyConsumption", n.total_energy);
        if (const NvmlReturn e = n.init(); e != kNvmlSuccess) {
            n.why_not = std::string("NVML did not start: ") + n.error_string(e);
            n.init = nullptr;
        }
        return n;
    }();
    return loaded;
}

}  // namespace

ClockWatch::ClockWatch() {
    const Nvml& n = nvml();
    if (!n.init) {
        why_not_ = n.why_not;
        return;
    }
#ifdef TILESCOPE_HAVE_CUDA
    // NVML numbers the GPUs its own way; the PCI address names the one CUDA runs on.
    int device = 0;
    char bus_id[32] = {};
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess) {
        why_not_ = "CUDA did not say which PCI device it runs on";
        return;
    }
    if (const NvmlReturn e = n.handle_by_bus_id(bus_id, &device_); e != kNvmlSuccess) {
        why_not_ = format_text("NVML does not know the GPU at {}: {}", bus_id, n.error_string(e));
        device_ = nullptr;
    }
#else
    why_not_ = "built without CUDA";
#endif
}

const ClockWatch& ClockWatch::current_device() {
    static const ClockWatch watch;
    return watch;
}

std::optional<ClockReading> ClockWatch::read() const {
    if (!device_) return std::nullopt;
    const Nvml& n = nvml();
    unsigned mhz = 0, milliwatts = 0;
    unsigned long long reasons = 0;
    if (n.clock_info(device_, kNvmlClockSm, &mhz) != kNvmlSuccess) return std::nullopt;
    ClockReading reading;
    reading.sm_mhz = static_cast<int>(mhz);
    if (n.power_usage(device_, &milliwatts) == kNvmlSuccess) reading.power_w = milliwatts / 1000.0;
    if (n.clock_reasons(device_, &reasons) == kNvmlSuccess) reading.limits = reasons;
    return reading;
}

std::optional<std::uint64_t> ClockWatch::energy_mj() const {
    const Nvml& n = nvml();
    unsigned long long millijoules = 0;
    if (!device_ || !n.total_energy || n.total_energy(device_, &millijoules) != kNvmlSuccess) return std::nullopt;
    return millijoules;
}

std::string ClockWatch::energy_why_not() const {
    if (!device_) return why_not_;
    const Nvml& n = nvml();
    if (!n.total_energy) return "this NVML has no energy counter (nvmlDeviceGetTotalEnergyConsumption; driver too old?)";
    unsigned long long millijoules = 0;
    if (const NvmlReturn e = n.total_energy(device_, &millijoules); e != kNvmlSuccess)
        return std::string("NVML does not report this GPU's energy: ") + n.error_string(e);
    return {};
}

std::optional<std::string> ClockWatch::others_since(std::chrono::system_clock::time_point since) const {
    const Nvml& n = nvml();
    if (!device_ || !n.process_utilization) return std::nullopt;
    const auto after = since + kSharingSlack;
    const auto since_us = static_cast<unsigned long long>(
        std::chrono::duration_cast<std::chrono::microseconds>(after.time_since_epoch()).count());
    std::vector<NvmlProcessSample> samples(64);
    unsigned count = static_cast<unsigned>(samples.size());
    NvmlReturn e = n.process_utilization(device_, samples.data(), &count, since_us);
    if (e == kNvmlErrorInsufficientSize) {
        samples.resize(count + 16);
        count = static_cast<unsigned>(samples.size());
        e = n.process_utilization(device_, samples.data(), &count, since_us);
    }
    if (e == kNvmlErrorNotFound) return std::string();  // nothing ran on the SMs since
    if (e != kNvmlSuccess) return std::nullopt;
    samples.resize(std::min<std::size_t>(count, samples.size()));
    // The busiest share of each process that ran kernels. In a container NVML may number processes
    // as the host does, so this process cannot always find itself: then one busy process is this
    // one, and only a second counts as another.
    std::map<unsigned, unsigned> busiest;
    for (const NvmlProcessSample& sample : samples)
        if (sample.sm_util > 0 && sample.time_stamp_us > since_us)
            busiest[sample.pid] = std::max(busiest[sample.pid], sample.sm_util);
    const auto self = static_cast<unsigned>(getpid());
    const bool self_seen = busiest.erase(self) > 0;
    if (busiest.empty() || (!self_seen && busiest.size() == 1)) return std::string();
    std::string who;
    for (const auto& [pid, util] : busiest)
        who += format_text("{}pid {} (SMs busy {} % of a sampling period)", who.empty() ? "" : ", ", pid, util);
    const std::size_t others = self_seen ? busiest.size() : busiest.size() - 1;
    return format_text("{} other process{} used this GPU while it ran: {}{}", others, others == 1 ? "" : "es", who,
                       self_seen ? "" : " (one of these is this worker: NVML numbers processes as the host does)");
}

}  // namespace ts::gpu
