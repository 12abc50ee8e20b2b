// device_limits.hpp — the numbers a launch is checked against.
//
// The GPU runner fills one from cudaGetDeviceProperties; without a GPU the app uses a
// preset, labelled as such, so the model can still explain what a launch would do.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ts::model {

struct DeviceLimits {
    std::string name = "generic CUDA GPU (model)";
    bool is_preset = true;                  // true: numbers from a table, not a real device
    int compute_major = 7;
    int compute_minor = 5;
    int sm_count = 40;
    int max_threads_per_block = 1024;
    int max_block_dim_x = 1024;
    int max_block_dim_y = 1024;
    int max_block_dim_z = 64;
    std::int64_t max_grid_x = 2147483647;
    int max_grid_y = 65535;
    int max_grid_z = 65535;
    int static_shared_per_block = 48 * 1024;  // bytes a kernel may declare with __shared__
    int optin_shared_per_block = 64 * 1024;   // bytes one block may use with dynamic shared memory
    int warp_size = 32;
    std::int64_t global_memory_bytes = 0;     // 0: unknown

    // What one SM holds at once, for the occupancy model (occupancy.hpp). The defaults are
    // those of compute capability 7.5 (Turing), the default above, and the smallest of any
    // GPU TileScope's kernels are built for.
    int max_threads_per_sm = 1024;
    int max_blocks_per_sm = 16;               // block slots
    int registers_per_sm = 64 * 1024;         // 32-bit registers
    int max_registers_per_block = 64 * 1024;
    int shared_per_sm = 64 * 1024;            // bytes, with the largest shared-memory carveout
    int reserved_shared_per_block = 0;        // bytes the driver keeps per block (1 KiB from cc 8.0)
};

// The limits every CUDA GPU since compute capability 3.0 shares; what the model uses
// when nothing better is known.
DeviceLimits generic_limits();

// A few well-known GPUs, for the model mode (no GPU) and the teaching views.
std::span<const DeviceLimits> device_presets();

// The oldest compute capability (as 10·major + minor) that the CUDA toolkit of this major
// version builds kernels for: 75 (Turing) for CUDA 13, 50 for CUDA 12, 35 for CUDA 11.
int oldest_compute_capability(int cuda_major);

// Why `gpu` cannot run kernels of a CUDA `cuda_major` build, in words for the status bar and
// the command line (its name and capability, and what is needed); nullopt when it can.
std::optional<std::string> gpu_too_old(const std::string& gpu, int compute_major, int compute_minor, int cuda_major);

}  // namespace ts::model
