// steady_clock.hpp — host time in seconds, as the timing engine and the supervisor count it.
#pragma once

#include <chrono>

namespace ts::gpu {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace ts::gpu
