// traffic.hpp — exact memory traffic and arithmetic of each kernel, counted in elements.
//
// The counts follow the kernels in kernels/ line by line, edges included:
// - naive: each thread inside C reads K elements of A and K of B and stores one of C;
//   ghost threads do nothing.
// - tiled: in each phase every thread of every block loads one A and one B element (or
//   writes a zero of padding instead of loading), then every thread, ghosts included,
//   reads T elements from each tile; threads inside C store one element.
// - row-per-thread and column-per-thread: a thread computes N (or M) cells one after
//   another, each with the naive dot product, so they ask for exactly the naive kernel's
//   elements; only the order, and so the coalescing, differs.
// - the ladder's rungs (06 on): each block loads its BM×BK tile of A and BK×BN tile of B once
//   per K step (ladder.hpp, count_ladder), so A is read ceil(N/BN) times and B ceil(M/BM).
// - cuBLAS is not modelled: its kernels are NVIDIA's and chosen at run time. Its Traffic
//   has modelled == false and only `flops` filled in.
// When T divides M, N and K the tiled kernel's global loads are 2·M·N·K/T, T times fewer
// than the naive kernel's 2·M·N·K.
#pragma once

#include <cstdint>

#include "kernel_config.hpp"
#include "problem.hpp"

namespace ts::model {

struct Traffic {
    std::int64_t global_loads_a = 0;  // elements read from A in global memory
    std::int64_t global_loads_b = 0;
    std::int64_t global_stores = 0;   // elements written to C
    std::int64_t shared_stores = 0;   // elements written to shared memory (tiled only)
    std::int64_t shared_loads = 0;    // elements read from shared memory (tiled only)
    std::int64_t flops = 0;           // useful floating-point operations: 2·M·N·K·batch
    bool modelled = true;             // false for cuBLAS: only `flops` is known

    std::int64_t global_loads() const { return global_loads_a + global_loads_b; }
    // Bytes moved to and from global memory, as the kernel asks for them (before caches).
    std::int64_t global_bytes(std::size_t element_size) const {
        return (global_loads() + global_stores) * static_cast<std::int64_t>(element_size);
    }
    // FLOPs per byte of global traffic as requested by the kernel.
    double arithmetic_intensity(std::size_t element_size) const;
};

Traffic count_traffic(const KernelConfig& config, const Problem& problem);

// How many times the kernel loads element A[row][col] (or B[row][col]) from global memory,
// in one batch; 0 for cuBLAS (not modelled). The property tests compare this with the
// tile schedule.
std::int64_t loads_of_element(const KernelConfig& config, const Problem& problem, bool of_a);

}  // namespace ts::model
