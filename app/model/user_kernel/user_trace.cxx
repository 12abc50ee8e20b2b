#include "model/user_kernel/user_trace.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "model/traffic.hpp"

namespace ts::model {

namespace {

std::int64_t grid_blocks(const UserLaunchShape& s) { return s.grid_x * s.grid_y; }

std::int64_t model_loads(KernelKind kind, int tile, const Problem& p) {
    KernelConfig config;
    config.kind = kind;
    config.tile = tile;
    config.block_x = config.block_y = 16;
    const Traffic traffic = count_traffic(config, p);
    return traffic.modelled ? traffic.global_loads() : 0;
}

}  // namespace

std::optional<std::string> user_trace_problem(const Problem& p, const UserLaunchShape& shape) {
    if (p.a_elements() >= kMostRecordedElements || p.b_elements() >= kMostRecordedElements ||
        p.c_elements() >= kMostRecordedElements)
        return format_text("a trace takes matrices below 2^{} elements: take a smaller size", kUserIndexBits);
    if (grid_blocks(shape) > kMaxRecordedBlocks)
        return format_text("{} blocks is more than a trace keeps ({}): take a smaller size", grid_blocks(shape),
                           kMaxRecordedBlocks);
    return std::nullopt;
}

UserCounts count_user_events(const UserTrace& trace) {
    UserCounts counts;
    const UserLaunchShape& s = trace.shape;
    counts.tile = s.block_x == s.block_y && s.block_x >= 1 && s.block_x <= kMaxTile ? static_cast<int>(s.block_x) : 16;
    for (const UserEvent& e : trace.events) {
        switch (access_of(e)) {
            case UserAccess::LoadA: ++counts.loads_a; break;
            case UserAccess::LoadB: ++counts.loads_b; break;
            case UserAccess::StoreC: ++counts.stores_c; break;
            case UserAccess::Shared: break;  // shared_memory.hpp counts these
        }
        counts.most_barriers = std::max(counts.most_barriers, static_cast<int>(e.barriers));
    }
    counts.naive_loads = model_loads(KernelKind::Naive, counts.tile, trace.problem);
    counts.tiled_loads = model_loads(KernelKind::Tiled, counts.tile, trace.problem);
    return counts;
}

std::string describe_counts(const UserCounts& c) {
    const std::int64_t loads = c.loads_a + c.loads_b;
    const auto ratio = [&](std::int64_t model) {
        return model > 0 ? format_text("{}×", fixed(static_cast<double>(loads) / static_cast<double>(model), 2))
                         : std::string("—");
    };
    return format_text("{} loads of A and B ({} of A, {} of B) and {} stores to C; the naive kernel loads {} ({} of "
                       "that), the tiled kernel with T = {} loads {} ({} of that)",
                       loads, c.loads_a, c.loads_b, c.stores_c, c.naive_loads, ratio(c.naive_loads), c.tile,
                       c.tiled_loads, ratio(c.tiled_loads));
}

std::variant<KernelTrace, std::string> tiled_trace_of(const UserTrace& r, const std::string& device, int sm_count) {
    using Result = std::variant<KernelTrace, std::string>;
    const UserLaunchShape& s = r.shape;
    const Problem& p = r.problem;
    if (s.block_x != s.block_y || s.block_x < 1 || s.block_x > kMaxTile)
        return Result(std::in_place_index<1>,
                      format_text("the theatre draws kernels shaped like the tiled rung, in square blocks of T × T "
                                  "threads with T up to {}; yours has blocks of {} × {}",
                                  kMaxTile, s.block_x, s.block_y));
    const int tile = static_cast<int>(s.block_x);
    const std::int64_t want_x = (p.n + tile - 1) / tile, want_y = (p.m + tile - 1) / tile;
    if (s.grid_x != want_x || s.grid_y != want_y)
        return Result(std::in_place_index<1>,
                      format_text("the tiled rung's grid at this size is ({}, {}) blocks of {} × {}; yours is ({}, {})",
                                  want_x, want_y, tile, tile, s.grid_x, s.grid_y));
    if (r.events_dropped > 0)
        return Result(std::in_place_index<1>,
                      format_text("{} accesses were past what a trace keeps: take a smaller size", r.events_dropped));

    KernelTrace trace;
    trace.config = KernelConfig{KernelKind::Tiled, tile, tile, tile};
    trace.problem = p;
    trace.problem.batch = 1;
    if (auto why = check_recordable(trace.config, trace.problem)) return Result(std::in_place_index<1>, *why);
    const int phases = trace.phases();
    const int blocks = trace.blocks();

    // Every thread passes the same barriers (or the kernel would hang): thread (0, 0)'s count,
    // the last stamp it took, is every thread's.
    const std::size_t stride = static_cast<std::size_t>(kMostTimedBarriers) + 1;
    if (r.times_ns.size() != static_cast<std::size_t>(blocks) * stride)
        return Result(std::in_place_index<1>, std::string("the trace holds no clocks for every block"));
    int barriers = 0;
    while (barriers < kMostTimedBarriers && r.times_ns[static_cast<std::size_t>(barriers) + 1] != 0) ++barriers;
    if (barriers == 0 || barriers % phases != 0)
        return Result(std::in_place_index<1>,
                      format_text("the tiled rung's threads pass a whole number of barriers in each of its {} phases "
                                  "(two: after the loads, after the products); yours passed {}",
                                  phases, barriers));
    const int per_phase = barriers / phases;

    trace.loads.assign(static_cast<std::size_t>(load_records(trace.config, trace.problem)), RecordedLoad{});
    // Each thread's last load not yet followed by its write to shared memory (events come in each
    // thread's own order: the atomic that placed them counts up).
    struct Pending {
        std::int64_t load = -1;
        int phase = 0;
    };
    std::vector<Pending> pending(static_cast<std::size_t>(blocks) * static_cast<std::size_t>(tile * tile));
    const auto pending_of = [&](const UserEvent& e) -> Pending& {
        return pending[static_cast<std::size_t>(e.block) * static_cast<std::size_t>(tile * tile) +
                       static_cast<std::size_t>(e.thread_y * tile + e.thread_x)];
    };
    for (const UserEvent& e : r.events) {
        const UserAccess access = access_of(e);
        if (access == UserAccess::StoreC) continue;
        if (access == UserAccess::Shared) {
            if (!shared_write_of(e) || e.block < 0 || e.block >= blocks || e.thread_x >= tile || e.thread_y >= tile) continue;
            Pending& waiting = pending_of(e);
            if (waiting.load < 0 || waiting.phase != e.barriers / per_phase) continue;
            // The slot as (row, column) of a T × T tile: of the array's own rows where it has T
            // columns or more, else counted row-major in T × T tiles laid one after another.
            const int array = shared_array_of(e);
            const std::size_t info = 3 * static_cast<std::size_t>(array);
            if (info + 2 >= r.shared_info.size()) continue;
            const std::int64_t element = static_cast<std::int64_t>(shared_word_of(e)) - r.shared_info[info];
            const std::int64_t cols = r.shared_info[info + 2];
            std::int64_t row = 0, col = 0;
            if (cols >= tile) {
                row = element / cols;
                col = element % cols;
            } else {
                row = element % (tile * tile) / tile;
                col = element % tile;
            }
            if (element < 0 || row >= tile || col >= tile)
                return Result(std::in_place_index<1>,
                              format_text("thread (x={}, y={}) of block {} wrote element {} of {}, which is not a slot "
                                          "of a {} × {} tile",
                                          e.thread_x, e.thread_y, e.block, element,
                                          array < static_cast<int>(r.shared_names.size()) ? r.shared_names[array] : "?",
                                          tile, tile));
            trace.loads[static_cast<std::size_t>(waiting.load)].slot = static_cast<std::int32_t>(row * tile + col);
            waiting.load = -1;
            continue;
        }
        const int operand = access == UserAccess::LoadA ? 0 : 1;
        const int phase = e.barriers / per_phase;
        if (e.block < 0 || e.block >= blocks || e.thread_x >= tile || e.thread_y >= tile || phase >= phases)
            return Result(std::in_place_index<1>,
                          format_text("a load of {} after the last phase's barriers (barrier {} of {})",
                                      operand == 0 ? "A" : "B", e.barriers, barriers));
        RecordedLoad& slot = trace.loads[static_cast<std::size_t>(
            tiled_load_slot(e.block, phases, phase, operand, tile, e.thread_x, e.thread_y))];
        if (slot.loaded != RecordedLoad::kNotRecorded)
            return Result(std::in_place_index<1>,
                          format_text("thread (x={}, y={}) of block {} loaded more than one element of {} in phase {}; "
                                      "the tiled rung's threads load one",
                                      e.thread_x, e.thread_y, e.block, operand == 0 ? "A" : "B", phase));
        const std::int64_t cols = operand == 0 ? p.k : p.n;
        slot = RecordedLoad{static_cast<std::int32_t>(index_of(e) / cols), static_cast<std::int32_t>(index_of(e) % cols),
                            e.thread_y * tile + e.thread_x, RecordedLoad::kLoaded};
        // Its slot is the thread's own until the thread's next write to shared memory says otherwise.
        pending_of(e) = Pending{tiled_load_slot(e.block, phases, phase, operand, tile, e.thread_x, e.thread_y), phase};
    }
    // What was not loaded: the zero the rung writes for an element outside A or B, at the place
    // the rung's index math gives.
    for (int block = 0; block < blocks; ++block) {
        const int bx = block % static_cast<int>(s.grid_x), by = block / static_cast<int>(s.grid_x);
        for (int phase = 0; phase < phases; ++phase)
            for (int operand = 0; operand < 2; ++operand)
                for (int ty = 0; ty < tile; ++ty)
                    for (int tx = 0; tx < tile; ++tx) {
                        RecordedLoad& slot = trace.loads[static_cast<std::size_t>(
                            tiled_load_slot(block, phases, phase, operand, tile, tx, ty))];
                        if (slot.loaded != RecordedLoad::kNotRecorded) continue;
                        const int row = operand == 0 ? by * tile + ty : phase * tile + ty;
                        const int col = operand == 0 ? phase * tile + tx : bx * tile + tx;
                        slot = RecordedLoad{row, col, ty * tile + tx, RecordedLoad::kPadding};
                    }
    }
    // A phase runs from its first barrier's predecessor (the block's first access for phase 0) to
    // its last barrier.
    trace.clocks.resize(static_cast<std::size_t>(blocks) * static_cast<std::size_t>(phases));
    for (int block = 0; block < blocks; ++block)
        for (int phase = 0; phase < phases; ++phase) {
            const std::size_t base = static_cast<std::size_t>(block) * stride;
            const std::size_t start = base + static_cast<std::size_t>(phase * per_phase);
            const std::size_t end = base + static_cast<std::size_t>((phase + 1) * per_phase);
            trace.clocks[static_cast<std::size_t>(phase_clock_slot(block, phases, phase))] =
                PhaseClock{r.times_ns[start], r.times_ns[end], r.times_cycles[start], r.times_cycles[end]};
        }
    trace.block_sm = r.block_sm;
    trace.device = device;
    trace.sm_count = sm_count;
    return Result(std::in_place_index<0>, std::move(trace));
}

}  // namespace ts::model
