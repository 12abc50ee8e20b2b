#include "device_limits.hpp"

#include "format.hpp"

#include <array>

namespace ts::model {

DeviceLimits generic_limits() { return DeviceLimits{}; }

namespace {

// Per-SM numbers of one compute capability, as cudaGetDeviceProperties reports them
// (CUDA C++ Programming Guide, "Compute Capabilities" table).
struct SmLimits {
    int threads;
    int blocks;
    int shared_kib;        // with the largest carveout
    int reserved_bytes;
};

DeviceLimits preset(const char* name, int major, int minor, int sms, std::int64_t memory_gib, SmLimits sm) {
    DeviceLimits limits;
    limits.name = name;
    limits.compute_major = major;
    limits.compute_minor = minor;
    limits.sm_count = sms;
    limits.global_memory_bytes = memory_gib << 30;
    limits.max_threads_per_sm = sm.threads;
    limits.max_blocks_per_sm = sm.blocks;
    limits.registers_per_sm = 64 * 1024;  // every GPU here
    limits.max_registers_per_block = 64 * 1024;
    limits.shared_per_sm = sm.shared_kib * 1024;
    limits.reserved_shared_per_block = sm.reserved_bytes;
    // What one block may opt in to: the SM's shared memory less the driver's reservation
    // from Volta on, the static 48 KiB before.
    limits.optin_shared_per_block = major >= 7 ? sm.shared_kib * 1024 - sm.reserved_bytes : 48 * 1024;
    return limits;
}

}  // namespace

std::span<const DeviceLimits> device_presets() {
    static const std::array<DeviceLimits, 5> presets = {
        preset("NVIDIA H100 SXM (preset)", 9, 0, 132, 80, {2048, 32, 228, 1024}),
        preset("NVIDIA A100 SXM 40GB (preset)", 8, 0, 108, 40, {2048, 32, 164, 1024}),
        preset("NVIDIA GeForce RTX 3090 (preset)", 8, 6, 82, 24, {1536, 16, 100, 1024}),
        preset("Tesla V100 SXM2 16GB (preset)", 7, 0, 80, 16, {2048, 32, 96, 0}),
        preset("NVIDIA GeForce GTX TITAN X (preset)", 5, 2, 24, 12, {2048, 32, 96, 0}),
    };
    return presets;
}

int oldest_compute_capability(int cuda_major) {
    if (cuda_major >= 13) return 75;
    if (cuda_major >= 12) return 50;
    return 35;
}

std::optional<std::string> gpu_too_old(const std::string& gpu, int compute_major, int compute_minor, int cuda_major) {
    const int oldest = oldest_compute_capability(cuda_major);
    if (10 * compute_major + compute_minor >= oldest) return std::nullopt;
    return format_text("the {} has compute capability {}.{}, but TileScope was built with CUDA {}, which makes "
                       "kernels only for compute capability {}.{} and newer: TileScope stays in model mode on this GPU "
                       "(a TileScope built with an older CUDA toolkit could run on it)",
                       gpu, compute_major, compute_minor, cuda_major, oldest / 10, oldest % 10);
}

}  // namespace ts::model
