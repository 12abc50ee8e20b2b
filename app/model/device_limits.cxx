#include "device_limits.hpp"

#include <array>

namespace ts::model {

DeviceLimits generic_limits() { return DeviceLimits{}; }

namespace {
DeviceLimits preset(const char* name, int major, int minor, int sms, std::int64_t memory_gib) {
    DeviceLimits limits;
    limits.name = name;
    limits.compute_major = major;
    limits.compute_minor = minor;
    limits.sm_count = sms;
    limits.global_memory_bytes = memory_gib << 30;
    return limits;
}
}  // namespace

std::span<const DeviceLimits> device_presets() {
    static const std::array<DeviceLimits, 5> presets = {
        preset("NVIDIA H100 SXM (preset)", 9, 0, 132, 80),
        preset("NVIDIA A100 SXM 40GB (preset)", 8, 0, 108, 40),
        preset("NVIDIA GeForce RTX 3090 (preset)", 8, 6, 82, 24),
        preset("Tesla V100 SXM2 16GB (preset)", 7, 0, 80, 16),
        preset("NVIDIA GeForce GTX TITAN X (preset)", 5, 2, 24, 12),
    };
    return presets;
}

}  // namespace ts::model
