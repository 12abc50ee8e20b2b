// l2_clean.hpp — leave the L2 cache holding nothing that must be written back, for plain C++
// callers (the counters request, app/gpu/counters.cxx).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace ts::kernels {

// Reads every 16 bytes of `buffer` (`bytes` long, a multiple of 16, written beforehand) once.
// Read with bytes of several times the L2's size, this evicts every line L2 held, writing
// the dirty ones back now, and leaves L2 full of clean lines that cost nothing to evict:
// what `ncu --cache-control all` starts a kernel with. A memset alone would leave L2 full of
// dirty lines, and the next kernel would pay for writing them back. `sink` receives a value
// only if the data XORs to `never`, which it need not: it keeps the loads from being
// optimised away. Returns the launch's error.
cudaError_t launch_l2_clean(const void* buffer, std::size_t bytes, std::uint32_t never, std::uint32_t* sink,
                            cudaStream_t stream);

}  // namespace ts::kernels
