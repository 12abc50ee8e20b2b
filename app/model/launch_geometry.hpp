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
    std::int64_t ghost_threads = 0;  // threads whose cell lies outside C (per batch)
};

// Grid by ceiling division, so every cell of C has a thread; block shape from the config.
LaunchGeometry plan_launch(const KernelConfig& config, const Problem& problem);

// Why `limits` would reject this launch, with the explanation a student needs, or nullopt.
// Example: T = 64 asks for 4096 threads per block; the limit is 1024, and a real launch
// fails with "invalid configuration argument".
std::optional<std::string> check_launch(const KernelConfig& config, const Problem& problem,
                                        const DeviceLimits& limits);

// Parameter checks that do not depend on any device: tile in 1..32, positive block sides.
std::optional<std::string> check_config(const KernelConfig& config);

}  // namespace ts::model
