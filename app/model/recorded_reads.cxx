#include "recorded_reads.hpp"

#include <algorithm>

namespace ts::model {

RecordedReads::RecordedReads(const KernelTrace& trace)
    : m_config(trace.config), m_problem(trace.problem), m_tiled(trace.config.kind == KernelKind::Tiled) {
    const int times = m_tiled ? trace.phases() : static_cast<int>(m_problem.k);
    m_loads_a.assign(static_cast<std::size_t>(times), 0);
    m_loads_b.assign(static_cast<std::size_t>(times), 0);
    m_shared_stores.assign(static_cast<std::size_t>(times), 0);
    m_reads_a.resize(static_cast<std::size_t>(m_problem.m * m_problem.k));
    m_reads_b.resize(static_cast<std::size_t>(m_problem.k * m_problem.n));
    const int k = static_cast<int>(m_problem.k);
    const int n = static_cast<int>(m_problem.n);
    const std::int64_t per_time = m_tiled ? std::int64_t{2} * trace.config.tile * trace.config.tile : 2;

    for (std::size_t i = 0; i < trace.loads.size(); ++i) {
        const RecordedLoad& load = trace.loads[i];
        if (load.loaded == RecordedLoad::kNotRecorded) continue;
        // The slot order of kernel_trace.hpp puts the operand and the time in the index.
        const std::int64_t index = static_cast<std::int64_t>(i);
        const bool a = m_tiled ? (index / (per_time / 2)) % 2 == 0 : index % 2 == 0;
        const int time = m_tiled ? static_cast<int>((index / per_time) % trace.phases()) : load.slot;
        if (m_tiled) ++m_shared_stores[static_cast<std::size_t>(time)];
        if (load.loaded != RecordedLoad::kLoaded) continue;
        ++(a ? m_loads_a : m_loads_b)[static_cast<std::size_t>(time)];
        auto& reads = a ? m_reads_a[static_cast<std::size_t>(row_major(load.row, load.col, k))]
                        : m_reads_b[static_cast<std::size_t>(row_major(load.row, load.col, n))];
        reads.push_back(time);
    }
    for (auto* counts : {&m_loads_a, &m_loads_b, &m_shared_stores})
        for (std::size_t t = 1; t < counts->size(); ++t) (*counts)[t] += (*counts)[t - 1];
    for (auto* all : {&m_reads_a, &m_reads_b})
        for (auto& reads : *all) std::sort(reads.begin(), reads.end());
}

int RecordedReads::time_limit(KernelStep step) const {
    // Times below the limit have happened.
    if (m_tiled) return step.phase + 1;
    return static_cast<int>(accumulated_at(m_problem, m_config.tile, step).end);
}

TrafficSoFar RecordedReads::traffic(KernelStep step) const {
    TrafficSoFar t = traffic_so_far(m_config.kind, m_problem, m_config.tile, step);
    const int limit = std::min(time_limit(step), static_cast<int>(m_loads_a.size()));
    auto so_far = [&](const std::vector<std::int64_t>& counts) {
        return limit <= 0 ? std::int64_t{0} : counts[static_cast<std::size_t>(limit - 1)];
    };
    t.global_loads_a = so_far(m_loads_a);
    t.global_loads_b = so_far(m_loads_b);
    if (m_tiled) t.shared_stores = so_far(m_shared_stores);
    return t;
}

std::int64_t RecordedReads::element_reads(KernelStep step, Operand operand, int row, int col) const {
    const bool a = operand == Operand::A;
    const std::int64_t rows = a ? m_problem.m : m_problem.k;
    const std::int64_t cols = a ? m_problem.k : m_problem.n;
    if (row < 0 || col < 0 || row >= rows || col >= cols) return 0;
    const auto& reads = (a ? m_reads_a : m_reads_b)[static_cast<std::size_t>(row * cols + col)];
    return std::lower_bound(reads.begin(), reads.end(), time_limit(step)) - reads.begin();
}

}  // namespace ts::model
