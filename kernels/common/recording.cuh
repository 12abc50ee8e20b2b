// recording.cuh — what the recorded kernels (01_naive_recorded.cu, 05_tiled_recorded.cu)
// share: where to write, and the two clocks and the SM number a thread can read.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "model/kernel_trace.hpp"

namespace ts::kernels {

// The SM this thread runs on (PTX's %smid). A block never moves to another SM once it has
// started, so one read per block says where all of it ran.
__device__ __forceinline__ std::uint32_t current_sm() {
    std::uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return sm;
}

// Nanoseconds on the GPU's global timer (PTX's %globaltimer): one clock for every SM, so
// blocks on different SMs can be put on one time axis. clock64() counts the cycles of this
// SM only.
__device__ __forceinline__ std::uint64_t global_ns() {
    std::uint64_t ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__device__ __forceinline__ void stamp_start(model::PhaseClock& clock) {
    clock.start_ns = global_ns();
    clock.start_cycles = clock64();
}

__device__ __forceinline__ void stamp_end(model::PhaseClock& clock) {
    clock.end_cycles = clock64();
    clock.end_ns = global_ns();
}

}  // namespace ts::kernels
