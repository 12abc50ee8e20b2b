#include "ladder.hpp"

namespace ts::model {

LadderCounts count_ladder(LadderShape s, std::int64_t m, std::int64_t n, std::int64_t k) {
    LadderCounts c;
    if (!s.valid() || m <= 0 || n <= 0 || k <= 0) return c;
    const std::int64_t blocks = ceil_div64(n, s.bn) * ceil_div64(m, s.bm);
    const std::int64_t steps = ceil_div64(k, s.bk);
    // A slot whose element lies outside A (or B) is written with a zero, not loaded.
    c.global_loads_a = m * k * ladder_loads_per_element(s, m, n, true);
    c.global_loads_b = k * n * ladder_loads_per_element(s, m, n, false);
    c.global_stores = m * n;
    c.shared_stores = blocks * steps * (std::int64_t{s.bm} * s.bk + std::int64_t{s.bk} * s.bn);
    // Every thread, ghost or not, reads TM elements of As and TN of Bs for each k of a step,
    // and issues TM·TN multiply-adds with them.
    const std::int64_t thread_ks = blocks * s.threads() * steps * s.bk;
    c.shared_loads = thread_ks * (s.tm + s.tn);
    c.fmas = thread_ks * s.tm * s.tn;
    return c;
}

std::int64_t ladder_loads_of_element(LadderShape s, std::int64_t m, std::int64_t n, std::int64_t k, bool of_a,
                                     int row, int col) {
    if (!s.valid()) return 0;
    const bool in_matrix = of_a ? inside(row, col, static_cast<int>(m), static_cast<int>(k))
                                : inside(row, col, static_cast<int>(k), static_cast<int>(n));
    return in_matrix ? ladder_loads_per_element(s, m, n, of_a) : 0;
}

}  // namespace ts::model
