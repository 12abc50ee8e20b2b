// device_limits.hpp — the numbers a launch is checked against.
//
// The GPU runner fills one from cudaGetDeviceProperties; without a GPU the app uses a
// preset, labelled as such, so the model can still explain what a launch would do.
#pragma once

#include <cstdint>
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
    int warp_size = 32;
    std::int64_t global_memory_bytes = 0;     // 0: unknown
};

// The limits every CUDA GPU since compute capability 3.0 shares; what the model uses
// when nothing better is known.
DeviceLimits generic_limits();

// A few well-known GPUs, for the model mode (no GPU) and the teaching views.
std::span<const DeviceLimits> device_presets();

}  // namespace ts::model
