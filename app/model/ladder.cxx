#include "ladder.hpp"

#include "format.hpp"

namespace ts::model {

namespace {
constexpr bool all_candidates_valid() {
    for (const LadderShape& s : kTunedCandidates)
        if (!s.valid() || s.threads() % 32 != 0) return false;
    return true;
}
static_assert(all_candidates_valid());
}  // namespace

LadderShape ladder_shape(KernelKind kind) {
    switch (kind) {
        case KernelKind::RegTile1d: return kRegTile1dShape;
        case KernelKind::RegTile2d: return kRegTile2dShape;
        case KernelKind::Vectorized: return kVectorizedShape;
        case KernelKind::ConflictFree: return kConflictFreeShape;
        case KernelKind::Warptile: return kWarptileShape;
        case KernelKind::Pipelined: return kPipelinedShape;
        case KernelKind::Tuned: return kTunedCandidates[0];
        default: return {};
    }
}

LadderShape ladder_shape(const KernelConfig& config) {
    if (config.kind == KernelKind::Tuned && config.variant >= 0 && config.variant < kTunedCandidateCount)
        return kTunedCandidates[config.variant];
    return ladder_shape(config.kind);
}

std::string describe_shape(LadderShape s) {
    std::string text = format_text("{}×{}×{}", s.bm, s.bn, s.bk);
    if (s.wm > 0) text += format_text(", warp {}×{}", s.warp_m(), s.warp_n());
    text += format_text(", {}×{}", s.tm, s.tn);
    if (s.wm_iter * s.wn_iter > 1) text += format_text(" ×{}", s.wm_iter * s.wn_iter);
    if (s.stages > 1) text += format_text(", {} stages", s.stages);
    if (s.blocks_per_sm > 1) text += format_text(", {} blocks/SM", s.blocks_per_sm);
    return text;
}

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
    // Every thread, ghost or not, reads TM elements of As per sub-tile row and TN of Bs per
    // sub-tile column for each k of a step, and issues one multiply-add per cell it owns.
    const std::int64_t thread_ks = blocks * s.threads() * steps * s.bk;
    c.shared_loads = thread_ks * (s.tm * s.wm_iter + s.tn * s.wn_iter);
    c.shared_load_instructions = c.shared_loads / s.vec;
    c.fmas = thread_ks * s.cells_per_thread();
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
