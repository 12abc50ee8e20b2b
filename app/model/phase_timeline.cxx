#include "phase_timeline.hpp"

#include <algorithm>

#include "index_math.hpp"

namespace ts::model {

namespace {

struct SubStepText {
    SubStep sub;
    std::string_view name;
    std::string_view title;
};

constexpr SubStepText kTexts[] = {
    {SubStep::LoadTiles, "load", "load tiles into shared memory"},
    {SubStep::SyncAfterLoad, "sync1", "__syncthreads(): wait until both tiles are loaded"},
    {SubStep::Compute, "compute", "compute: multiply the tiles out of shared memory"},
    {SubStep::SyncAfterCompute, "sync2", "__syncthreads(): wait until every thread is done with the tiles"},
    {SubStep::Store, "store", "store each thread's sum into C"},
};

const SubStepText& text_of(SubStep sub) { return kTexts[static_cast<int>(sub)]; }

// Phases whose loads have run at `step` (loads come first in a phase).
int phases_loaded(KernelStep step) { return step.phase + 1; }

// Whole phases whose k loop has run at `step`, and the k already taken in the current one.
struct ComputeDone {
    int phases = 0;
    int k = 0;
};
ComputeDone compute_done(KernelStep step) {
    switch (step.sub) {
        case SubStep::LoadTiles:
        case SubStep::SyncAfterLoad: return {step.phase, 0};
        case SubStep::Compute: return step.k >= 0 ? ComputeDone{step.phase, step.k + 1} : ComputeDone{step.phase + 1, 0};
        case SubStep::SyncAfterCompute:
        case SubStep::Store: return {step.phase + 1, 0};
    }
    return {};
}

struct Grid {
    std::int64_t x, y;
};
Grid tiled_grid(const Problem& p, int tile) {
    return {ceil_div64(p.n, tile), ceil_div64(p.m, tile)};
}

}  // namespace

std::string_view substep_name(SubStep sub) { return text_of(sub).name; }
std::string_view substep_title(SubStep sub) { return text_of(sub).title; }

std::optional<SubStep> parse_substep(std::string_view text) {
    for (const SubStepText& t : kTexts)
        if (t.name == text) return t.sub;
    return std::nullopt;
}

Timeline make_timeline(const Problem& problem, int tile, bool naive, bool each_k) {
    tile = std::max(tile, 1);
    return {std::max(phase_count(static_cast<int>(problem.k), tile), 1), tile, naive, each_k};
}

bool has_substep(const Timeline& timeline, SubStep sub) {
    return !timeline.naive || sub == SubStep::Compute || sub == SubStep::Store;
}

KernelStep step_at(const Timeline& t, int index) {
    index = std::clamp(index, 0, t.count() - 1);
    if (index == t.count() - 1) return {t.phases - 1, SubStep::Store, -1};
    const int phase = index / t.steps_per_phase();
    int r = index % t.steps_per_phase();
    if (!t.naive) {
        if (r == 0) return {phase, SubStep::LoadTiles, -1};
        if (r == 1) return {phase, SubStep::SyncAfterLoad, -1};
        r -= 2;
        if (r == t.compute_steps()) return {phase, SubStep::SyncAfterCompute, -1};
    }
    return {phase, SubStep::Compute, t.each_k ? r : -1};
}

int step_index(const Timeline& t, KernelStep step) {
    if (step.sub == SubStep::Store) return t.count() - 1;
    const int base = std::clamp(step.phase, 0, t.phases - 1) * t.steps_per_phase();
    const int compute = t.naive ? 0 : 2;  // where the compute starts within a phase
    switch (step.sub) {
        case SubStep::LoadTiles: return base;
        case SubStep::SyncAfterLoad: return base + (t.naive ? 0 : 1);
        case SubStep::Compute: return base + compute + (t.each_k ? std::clamp(step.k, 0, t.tile - 1) : 0);
        case SubStep::SyncAfterCompute: return base + compute + t.compute_steps() - (t.naive ? 1 : 0);
        case SubStep::Store: break;
    }
    return t.count() - 1;
}

KRange accumulated_at(const Problem& problem, int tile, KernelStep step) {
    const ComputeDone done = compute_done(step);
    const std::int64_t end = static_cast<std::int64_t>(done.phases) * tile + done.k;
    return {0, static_cast<int>(std::min<std::int64_t>(end, problem.k))};
}

TrafficSoFar traffic_so_far(KernelKind kind, const Problem& p, int tile, KernelStep step) {
    TrafficSoFar t;
    if (!is_modelled(kind)) return t;
    const bool stored = step.sub == SubStep::Store;
    if (stored) t.global_stores = p.m * p.n * p.batch;
    if (kind != KernelKind::Tiled) {
        // Each of the M·N threads inside C reads one element of A and one of B per k.
        const std::int64_t k_done = accumulated_at(p, tile, step).end;
        t.global_loads_a = t.global_loads_b = p.m * p.n * k_done * p.batch;
        return t;
    }
    const Grid grid = tiled_grid(p, tile);
    const std::int64_t threads = grid.x * grid.y * tile * tile * p.batch;  // ghosts included
    // The tiles loaded so far cover k [0, loaded·T), cut at K: each A element there was
    // loaded once by every block in its row of blocks (grid.x of them), each B element by
    // every block in its column of blocks.
    const std::int64_t loaded = phases_loaded(step);
    const std::int64_t k_loaded = std::min<std::int64_t>(loaded * tile, p.k);
    t.global_loads_a = grid.x * p.m * k_loaded * p.batch;
    t.global_loads_b = grid.y * p.n * k_loaded * p.batch;
    t.shared_stores = threads * 2 * loaded;
    const ComputeDone done = compute_done(step);
    // The k loop always runs T times, over padding too: two shared reads per iteration.
    t.shared_loads = threads * 2 * (static_cast<std::int64_t>(done.phases) * tile + done.k);
    return t;
}

std::int64_t element_reads_so_far(KernelKind kind, const Problem& p, int tile, KernelStep step, Operand operand,
                                  int row, int col) {
    if (!is_modelled(kind)) return 0;
    const int k_index = operand == Operand::A ? col : row;
    if (kind != KernelKind::Tiled) {
        // A[r][k] is read by the N threads of row r of C once their loop reaches k.
        if (k_index >= accumulated_at(p, tile, step).end) return 0;
        return operand == Operand::A ? p.n : p.m;
    }
    if (k_index / tile >= phases_loaded(step)) return 0;
    const Grid grid = tiled_grid(p, tile);
    return operand == Operand::A ? grid.x : grid.y;
}

}  // namespace ts::model
