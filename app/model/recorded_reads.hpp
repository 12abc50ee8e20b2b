// recorded_reads.hpp — the theatre's counters taken from a trace instead of computed:
// global loads so far, and how many times each element of A and B has been read, counted
// from the loads the threads wrote down (kernel_trace.hpp).
//
// Steps mean what they mean in phase_timeline.hpp: a tiled phase's loads have happened at
// every one of its sub-steps; the naive kernel has read k once its chunk's compute reaches k.
// The shared-memory reads of the k loop and the stores to C were not recorded; they come
// from the model (traffic_so_far), and the counters say which is which.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel_trace.hpp"
#include "phase_timeline.hpp"

namespace ts::model {

class RecordedReads {
public:
    // `trace` must hold loads (has_loads()).
    explicit RecordedReads(const KernelTrace& trace);

    // traffic_so_far's numbers, with the global loads of A and B (and, tiled, the shared
    // stores) counted from the trace.
    TrafficSoFar traffic(KernelStep step) const;
    std::int64_t element_reads(KernelStep step, Operand operand, int row, int col) const;

private:
    // When a load happened, on the step axis: the phase (tiled) or the k (naive).
    int time_limit(KernelStep step) const;

    KernelConfig m_config;
    Problem m_problem;
    bool m_tiled = false;
    // Loads of A and B (real ones, not padding) and shared stores at each time, cumulated.
    std::vector<std::int64_t> m_loads_a;
    std::vector<std::int64_t> m_loads_b;
    std::vector<std::int64_t> m_shared_stores;
    // For each element of A (M×K) and B (K×N): the times it was read, ascending.
    std::vector<std::vector<int>> m_reads_a;
    std::vector<std::vector<int>> m_reads_b;
};

}  // namespace ts::model
