#pragma once

#include <cstdint>

namespace ts::test {

// The seed of the one request that tests/gpu/fault_worker turns into a faulting kernel.
inline constexpr std::uint64_t kFaultSeed = 0xFA17;

}  // namespace ts::test
