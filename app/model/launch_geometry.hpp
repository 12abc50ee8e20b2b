// launch_geometry.hpp — grid and block dimensions for a kernel, and whether a GPU accepts them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "device_limits.hpp"
#include "index_math.hpp"
#include "kernel_config.hpp"
#include "problem.hpp"

namespace ts::model {

struct Dim3 {
    std::int64_t x = 1;
    std::int64_t y = 1;
    std::int64_t z = 1;
    std::int64_t volume() const { return x * y * z; }
    bool operator==(const Dim3&) const = default;
};

struct LaunchGeometry {
    Dim3 grid;
    Dim3 block;
    int shared_bytes = 0;        // static shared memory per block
    std::int64_t threads() const { return grid.volume() * block.volume(); }
    std::int64_t ghost_threads = 0;  // threads that compute no cell of C (per batch)
    bool modelled = true;        // false for cuBLAS: grid and block are then all zero
};

// Grid by ceiling division, so every cell of C has a thread; block shape from the config.
// The 1-D kernels (row-per-thread, column-per-thread) launch blocks of block_x threads
// along x only: the grid covers M rows (or N columns) and each thread walks the other
// dimension. cuBLAS chooses its own launch, so for it the geometry is all zero and
// `modelled` is false.
LaunchGeometry plan_launch(const KernelConfig& config, const Problem& problem);

// Why `limits` would reject this launch, with the explanation a student needs, or nullopt.
// Example: T = 64 asks for 4096 threads per block; the limit is 1024, and a real launch
// fails with "invalid configuration argument".
std::optional<std::string> check_launch(const KernelConfig& config, const Problem& problem,
                                        const DeviceLimits& limits);

// Parameter checks that do not depend on any device: tile in 1..32, positive block sides
// (block_x only for the 1-D kernels; nothing for cuBLAS).
std::optional<std::string> check_config(const KernelConfig& config);

}  // namespace ts::model
