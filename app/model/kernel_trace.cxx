#include "kernel_trace.hpp"

#include <algorithm>
#include <limits>

#include "format.hpp"
#include "launch_geometry.hpp"
#include "tensor_core/stage_record.hpp"

namespace ts::model {

bool recorded_kind(KernelKind kind) {
    return kind == KernelKind::Naive || kind == KernelKind::Tiled || is_recorded_ladder(kind) ||
           kind == KernelKind::Mma || kind == KernelKind::Wgmma || kind == KernelKind::WarpSpecialized;
}

namespace {

int ladder_phases(const KernelConfig& config, const Problem& problem) {
    return ladder_steps(ladder_shape(config), static_cast<int>(problem.k));
}

// The phases of a trace: K steps of BK for a ladder rung, chunks of T otherwise.
// The recorded tensor-core rungs' block shapes (tensor_core/pipeline.hpp).
const WgmmaShape* recorded_tc_shape(KernelKind kind) {
    if (kind == KernelKind::Wgmma) return &kRecordedStageShape;
    if (kind == KernelKind::WarpSpecialized) return &kWarpSpecializedShape;
    return nullptr;
}

// The mma, wgmma and warp-specialized rungs': their K steps of BK.
int phases_of(const KernelConfig& config, const Problem& problem) {
    if (config.kind == KernelKind::Mma) return mma_k_steps(kRecordedFragmentShape, static_cast<int>(problem.k));
    if (const WgmmaShape* s = recorded_tc_shape(config.kind)) return wgmma_k_steps(*s, static_cast<int>(problem.k));
    return is_recorded_ladder(config.kind) ? ladder_phases(config, problem)
                                           : phase_count(static_cast<int>(problem.k), config.tile);
}

Index2 grid_of(const KernelConfig& config, const Problem& problem) {
    // The wgmma and warp-specialized rungs: one block per BM × BN tile of C (plan_launch leaves the
    // tensor-core rungs to tensor_core/pipeline.hpp).
    if (const WgmmaShape* s = recorded_tc_shape(config.kind))
        return {ceil_div(static_cast<int>(problem.n), s->bn), ceil_div(static_cast<int>(problem.m), s->bm)};
    if (config.kind == KernelKind::Mma)
        return {ceil_div(static_cast<int>(problem.n), kRecordedFragmentShape.bn),
                ceil_div(static_cast<int>(problem.m), kRecordedFragmentShape.bm)};
    const LaunchGeometry g = plan_launch(config, problem);
    return {static_cast<int>(g.grid.x), static_cast<int>(g.grid.y)};
}

const char* operand_name(int operand) { return operand == 0 ? "A" : "B"; }

// Two loads agree when both did nothing, or both reached the same element and slot.
bool same_load(const RecordedLoad& x, const RecordedLoad& y) {
    if (x.loaded == RecordedLoad::kNotRecorded || y.loaded == RecordedLoad::kNotRecorded) return x.loaded == y.loaded;
    return x.row == y.row && x.col == y.col && x.slot == y.slot && x.loaded == y.loaded;
}

std::string element_text(const RecordedLoad& load, int operand) {
    if (load.loaded == RecordedLoad::kNotRecorded) return "nothing";
    if (load.loaded == RecordedLoad::kPadding)
        return format_text("padding (0 into slot {}, for {}[{}][{}])", load.slot, operand_name(operand), load.row, load.col);
    return format_text("{}[{}][{}] into slot {}", operand_name(operand), load.row, load.col, load.slot);
}

std::optional<std::string> compare_tiled(const KernelTrace& trace) {
    const int tile = trace.config.tile;
    const Index2 grid = trace.grid();
    const int phases = trace.phases();
    for (int by = 0; by < grid.y; ++by)
        for (int bx = 0; bx < grid.x; ++bx)
            for (int phase = 0; phase < phases; ++phase)
                for (int operand = 0; operand < 2; ++operand) {
                    const auto expected = tile_loads(trace.problem, tile, {bx, by}, phase,
                                                     operand == 0 ? Operand::A : Operand::B);
                    for (const TileLoad& want : expected) {
                        const RecordedLoad& got = trace.loads[static_cast<std::size_t>(
                            tiled_load_slot(block_linear(bx, by, grid.x), phases, phase, operand, tile, want.thread.x,
                                            want.thread.y))];
                        const RecordedLoad model{want.global_row, want.global_col, want.smem_row * tile + want.smem_col,
                                                 want.padding ? RecordedLoad::kPadding : RecordedLoad::kLoaded};
                        if (same_load(got, model)) continue;
                        return format_text("block ({}, {}) phase {}, thread (x={}, y={}): recorded {}, model: {}", bx, by,
                                      phase, want.thread.x, want.thread.y, element_text(got, operand),
                                      element_text(model, operand));
                    }
                }
    return std::nullopt;
}

std::optional<std::string> compare_ladder(const KernelTrace& trace) {
    const LadderShape s = ladder_shape(trace.config);
    const Index2 grid = trace.grid();
    const int phases = trace.phases();
    const int per_operand = ladder_loads_per_operand(s);
    for (int by = 0; by < grid.y; ++by)
        for (int bx = 0; bx < grid.x; ++bx)
            for (int step = 0; step < phases; ++step)
                for (int operand = 0; operand < 2; ++operand)
                    // Every slot of the record, those past the operand's loads too (they must
                    // stay unwritten).
                    for (int i = 0; i < per_operand; ++i)
                        for (int t = 0; t < s.threads(); ++t) {
                            const RecordedLoad& got = trace.loads[static_cast<std::size_t>(ladder_load_record_slot(
                                block_linear(bx, by, grid.x), phases, step, operand, per_operand, i, s.threads(), t))];
                            const RecordedLoad model = ladder_model_load(trace.config, trace.problem, {bx, by}, step,
                                                                         operand == 0 ? Operand::A : Operand::B, i, t);
                            if (same_load(got, model)) continue;
                            return format_text("block ({}, {}) K step {}, {} load {} of thread {}: recorded {}, model: {}",
                                               bx, by, step, operand_name(operand), i, t, element_text(got, operand),
                                               element_text(model, operand));
                        }
    return std::nullopt;
}

std::optional<std::string> compare_naive(const KernelTrace& trace) {
    const KernelConfig& c = trace.config;
    const Problem& p = trace.problem;
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k_count = static_cast<int>(p.k);
    const Index2 grid = trace.grid();
    for (int by = 0; by < grid.y; ++by)
        for (int bx = 0; bx < grid.x; ++bx)
            for (int ty = 0; ty < c.block_y; ++ty)
                for (int tx = 0; tx < c.block_x; ++tx) {
                    const int row = naive_row(by, c.block_y, ty);
                    const int col = naive_col(bx, c.block_x, tx);
                    const bool has_cell = inside(row, col, m, n);
                    for (int k = 0; k < k_count; ++k)
                        for (int operand = 0; operand < 2; ++operand) {
                            const RecordedLoad& got = trace.loads[static_cast<std::size_t>(naive_load_slot(
                                block_linear(bx, by, grid.x), c.block_x, c.block_y, tx, ty, k_count, k, operand))];
                            RecordedLoad model;  // a ghost thread returns before its loop: nothing
                            if (has_cell)
                                model = operand == 0 ? RecordedLoad{row, k, k, RecordedLoad::kLoaded}
                                                     : RecordedLoad{k, col, k, RecordedLoad::kLoaded};
                            if (same_load(got, model)) continue;
                            return format_text("block ({}, {}) thread (x={}, y={}) at k = {}: recorded {}, model: {}", bx,
                                          by, tx, ty, k, element_text(got, operand), element_text(model, operand));
                        }
                }
    return std::nullopt;
}

// The warp-specialized rung's clocks against the ring's protocol (model::stage_step): a consumer's
// wait for K step j ends no earlier than the producer's wait before that step's copies (the copies
// are armed after it), and the producer's wait before refilling a stage for step j ends no earlier
// than both consumers finished step j − stages (they stamp before they arrive on empty). Each role
// stamps in order. One SM's cycle counter serves every warp of a block, so the orders compare.
std::optional<std::string> compare_role_clocks(const KernelTrace& trace) {
    const int steps = trace.phases(), blocks = trace.blocks();
    if (static_cast<std::int64_t>(trace.role_clocks.size()) != role_clock_records(trace.config, trace.problem))
        return format_text("the trace holds {} role clocks; {} blocks × {} roles × {} K steps need {}",
                           trace.role_clocks.size(), blocks, kRecordedRoles, steps,
                           role_clock_records(trace.config, trace.problem));
    const WgmmaShape& s = kWarpSpecializedShape;
    const auto at = [&](int block, int role, int step) -> const RoleClock& {
        return trace.role_clocks[static_cast<std::size_t>(role_clock_slot(block, steps, role, step))];
    };
    const char* names[kRecordedRoles] = {"the producer", "consumer 0", "consumer 1"};
    for (int b = 0; b < blocks; ++b)
        for (int step = 0; step < steps; ++step) {
            for (int role = 0; role < kRecordedRoles; ++role) {
                const RoleClock& c = at(b, role, step);
                if (c.wait_start == 0 || c.ready < c.wait_start || c.done < c.ready)
                    return format_text("block {}, K step {}: {}'s clocks are out of order or missing", b, step,
                                       names[role]);
            }
            const RoleClock& producer = at(b, 0, step);
            for (int role = 1; role < kRecordedRoles; ++role)
                if (at(b, role, step).ready < producer.ready)
                    return format_text("block {}, K step {}: {} saw the stage full before the producer armed it", b,
                                       step, names[role]);
            if (stage_step(s, step).producer_waits)
                for (int role = 1; role < kRecordedRoles; ++role)
                    if (producer.ready < at(b, role, step - s.stages).done)
                        return format_text("block {}, K step {}: the producer refilled stage {} before {} was done "
                                           "with K step {}",
                                           b, step, stage_step(s, step).stage, names[role], step - s.stages);
        }
    return std::nullopt;
}

}  // namespace

Index2 KernelTrace::grid() const { return grid_of(config, problem); }

int KernelTrace::phases() const { return phases_of(config, problem); }

bool is_recorded_ladder(KernelKind kind) { return kind == KernelKind::RegTile2d || kind == KernelKind::Warptile; }

std::int64_t load_records(const KernelConfig& config, const Problem& problem) {
    // TMA loads, whose stage's words say where they went; mma's ldmatrix, whose registers do.
    if (recorded_tc_shape(config.kind) || config.kind == KernelKind::Mma) return 0;
    const LaunchGeometry g = plan_launch(config, problem);
    if (is_recorded_ladder(config.kind)) {
        const LadderShape s = ladder_shape(config);
        return g.grid.x * g.grid.y * ladder_phases(config, problem) * 2 * std::int64_t{ladder_loads_per_operand(s)} *
               s.threads();
    }
    if (config.kind == KernelKind::Tiled)
        return g.grid.x * g.grid.y * phase_count(static_cast<int>(problem.k), config.tile) * 2 *
               std::int64_t{config.tile} * config.tile;
    return g.grid.x * g.grid.y * g.block.x * g.block.y * problem.k * 2;
}

std::int64_t clock_records(const KernelConfig& config, const Problem& problem) {
    const Index2 grid = grid_of(config, problem);
    return std::int64_t{grid.x} * grid.y * phases_of(config, problem);
}

std::int64_t role_clock_records(const KernelConfig& config, const Problem& problem) {
    if (config.kind != KernelKind::WarpSpecialized) return 0;
    return clock_records(config, problem) * kRecordedRoles;
}

RoleTimes role_times(const KernelTrace& trace) {
    RoleTimes times;
    const int steps = trace.phases();
    if (steps <= 0 || static_cast<std::int64_t>(trace.role_clocks.size()) != role_clock_records(trace.config, trace.problem))
        return times;
    for (int b = 0; b < trace.blocks(); ++b)
        for (int role = 0; role < kRecordedRoles; ++role)
            for (int step = 0; step < steps; ++step) {
                const RoleClock& c = trace.role_clocks[static_cast<std::size_t>(role_clock_slot(b, steps, role, step))];
                times.wait_cycles[role] += static_cast<double>(c.ready - c.wait_start);
                times.work_cycles[role] += static_cast<double>(c.done - c.ready);
            }
    const double count = static_cast<double>(trace.blocks()) * steps;
    for (int role = 0; role < kRecordedRoles; ++role) {
        times.wait_cycles[role] /= count;
        times.work_cycles[role] /= count;
    }
    return times;
}

std::optional<std::string> check_recordable(const KernelConfig& config, const Problem& problem) {
    if (!recorded_kind(config.kind))
        return format_text(
            "only the naive, tiled, regtile-2d, warptile, mma, wgmma and warp-specialized kernels have recorded "
            "variants, not {}",
            describe(config));
    if (auto why = validate(problem, 0)) return why;
    if (auto why = check_config(config)) return why;
    // A ladder rung's shape and the wgmma rung's are fixed: no T to check.
    const bool fixed_shape = is_recorded_ladder(config.kind) || recorded_tc_shape(config.kind) ||
                             config.kind == KernelKind::Mma;
    if (!fixed_shape && (config.tile < 1 || config.tile > kMaxTile))
        return format_text("the trace chunks K by T, which must be 1 to {} (got {})", kMaxTile, config.tile);
    if (problem.batch != 1)
        return format_text("a trace covers one matrix product: set the batch to 1 (it is {})", problem.batch);
    const Index2 grid = grid_of(config, problem);
    const std::int64_t blocks = std::int64_t{grid.x} * grid.y;
    const char* larger = fixed_shape ? "" : " or a larger T";
    if (blocks > kMaxRecordedBlocks)
        return format_text("{} blocks is more than a trace keeps ({}): take a smaller problem{}", blocks,
                           kMaxRecordedBlocks, larger);
    if (clock_records(config, problem) > kMaxClockRecords)
        return format_text("{} blocks × phases is more than a trace keeps ({}): take a smaller problem{}",
                      clock_records(config, problem), kMaxClockRecords, larger);
    return std::nullopt;
}

std::vector<TileLoad> recorded_tile_loads(const KernelTrace& trace, Index2 block, int phase, Operand operand) {
    const int tile = trace.config.tile;
    const int operand_index = operand == Operand::A ? 0 : 1;
    const int cols = static_cast<int>(operand == Operand::A ? trace.problem.k : trace.problem.n);
    std::vector<TileLoad> loads;
    loads.reserve(static_cast<std::size_t>(tile) * tile);
    for (int ty = 0; ty < tile; ++ty)
        for (int tx = 0; tx < tile; ++tx) {
            const RecordedLoad& r = trace.loads[static_cast<std::size_t>(tiled_load_slot(
                block_linear(block.x, block.y, trace.grid().x), trace.phases(), phase, operand_index, tile, tx, ty))];
            TileLoad load;
            load.operand = operand;
            load.thread = {tx, ty};
            load.smem_row = r.slot / tile;
            load.smem_col = r.slot % tile;
            load.global_row = r.row;
            load.global_col = r.col;
            load.padding = r.loaded != RecordedLoad::kLoaded;
            load.address = load.padding ? -1 : row_major(r.row, r.col, cols);
            loads.push_back(load);
        }
    return loads;
}

RecordedLoad ladder_model_load(const KernelConfig& config, const Problem& problem, Index2 block, int step,
                               Operand operand, int instruction, int thread) {
    const LadderShape s = ladder_shape(config);
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    if (operand == Operand::A) {
        if (instruction < 0 || instruction >= s.a_loads_per_thread()) return RecordedLoad{};
        // The BM×BK tile of A at (block.y·BM, step·BK); a_vec() elements per instruction.
        const int r = ladder_load_row(thread, instruction, s.threads(), s.bk, s.a_vec());
        const int c = ladder_load_col(thread, instruction, s.threads(), s.bk, s.a_vec());
        const int row = block.y * s.bm + r, col = step * s.bk + c;
        return RecordedLoad{row, col, ladder_as_slot(s, r, c),
                            inside(row, col, m, k) ? RecordedLoad::kLoaded : RecordedLoad::kPadding};
    }
    if (instruction < 0 || instruction >= s.b_loads_per_thread()) return RecordedLoad{};
    // The BK×BN tile of B at (step·BK, block.x·BN), row-major in Bs.
    const int r = ladder_load_row(thread, instruction, s.threads(), s.bn, s.vec);
    const int c = ladder_load_col(thread, instruction, s.threads(), s.bn, s.vec);
    const int row = step * s.bk + r, col = block.x * s.bn + c;
    return RecordedLoad{row, col, row_major(r, c, s.bn),
                        inside(row, col, k, n) ? RecordedLoad::kLoaded : RecordedLoad::kPadding};
}

std::optional<RecordedLoad> recorded_ladder_load(const KernelTrace& trace, Index2 block, int step, Operand operand,
                                                 int instruction, int thread) {
    if (!is_recorded_ladder(trace.config.kind) || !trace.has_loads() ||
        static_cast<std::int64_t>(trace.loads.size()) != load_records(trace.config, trace.problem))
        return std::nullopt;
    const LadderShape s = ladder_shape(trace.config);
    const Index2 grid = trace.grid();
    const int loads = operand == Operand::A ? s.a_loads_per_thread() : s.b_loads_per_thread();
    if (block.x < 0 || block.y < 0 || block.x >= grid.x || block.y >= grid.y || step < 0 || step >= trace.phases() ||
        instruction < 0 || instruction >= loads || thread < 0 || thread >= s.threads())
        return std::nullopt;
    return trace.loads[static_cast<std::size_t>(
        ladder_load_record_slot(block_linear(block.x, block.y, grid.x), trace.phases(), step,
                                operand == Operand::A ? 0 : 1, ladder_loads_per_operand(s), instruction, s.threads(),
                                thread))];
}

std::optional<std::string> compare_with_model(const KernelTrace& trace) {
    if (!recorded_kind(trace.config.kind))
        return format_text("{} has no recorded variant to compare with", describe(trace.config));
    if (static_cast<std::int64_t>(trace.block_sm.size()) != trace.blocks() ||
        static_cast<std::int64_t>(trace.clocks.size()) != clock_records(trace.config, trace.problem))
        return format_text("the trace holds {} blocks and {} phase clocks; a grid of {} blocks × {} phases needs {} "
                      "and {}",
                      trace.block_sm.size(), trace.clocks.size(), trace.blocks(), trace.phases(), trace.blocks(),
                      clock_records(trace.config, trace.problem));
    for (int b = 0; b < trace.blocks(); ++b)
        if (trace.block_sm[static_cast<std::size_t>(b)] >= static_cast<std::uint32_t>(trace.sm_count))
            return format_text("block {} (in launch order) names SM {}, but the GPU has {} SMs", b,
                          static_cast<std::int64_t>(trace.block_sm[static_cast<std::size_t>(b)]), trace.sm_count);
    if (trace.config.kind == KernelKind::Mma) {
        if (trace.fragment_words.empty()) return "the trace holds no registers";
        return compare_fragment_words(trace.problem, trace.fragment_words);
    }
    if (trace.config.kind == KernelKind::Wgmma) {
        if (trace.stage_words.empty()) return "the trace holds no stage of shared memory";
        return compare_stage_words(kRecordedStageShape, trace.problem, trace.stage_words);
    }
    if (trace.config.kind == KernelKind::WarpSpecialized) return compare_role_clocks(trace);
    if (!trace.has_loads()) return std::nullopt;
    if (static_cast<std::int64_t>(trace.loads.size()) != load_records(trace.config, trace.problem))
        return format_text("the trace holds {} loads; {} on {} × {} × {} needs {}", trace.loads.size(),
                      describe(trace.config), trace.problem.m, trace.problem.n, trace.problem.k,
                      load_records(trace.config, trace.problem));
    if (is_recorded_ladder(trace.config.kind)) return compare_ladder(trace);
    return trace.config.kind == KernelKind::Tiled ? compare_tiled(trace) : compare_naive(trace);
}

SmTimeline sm_timeline(const KernelTrace& trace) {
    SmTimeline timeline;
    const Index2 grid = trace.grid();
    const int phases = trace.phases();
    const int blocks = trace.blocks();
    if (static_cast<int>(trace.block_sm.size()) != blocks ||
        static_cast<std::int64_t>(trace.clocks.size()) != std::int64_t{blocks} * phases)
        return timeline;

    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    for (int b = 0; b < blocks; ++b) first = std::min(first, trace.clocks[phase_clock_slot(b, phases, 0)].start_ns);
    for (int b = 0; b < blocks; ++b) {
        BlockSpan span;
        span.block = {b % grid.x, b / grid.x};
        span.sm = trace.block_sm[static_cast<std::size_t>(b)];
        span.start_us = static_cast<double>(trace.clocks[phase_clock_slot(b, phases, 0)].start_ns - first) / 1e3;
        span.end_us = static_cast<double>(trace.clocks[phase_clock_slot(b, phases, phases - 1)].end_ns - first) / 1e3;
        timeline.span_us = std::max(timeline.span_us, span.end_us);
        timeline.blocks.push_back(span);
    }

    // Waves, SM by SM: a block is in wave 1 if no block on its SM had finished when it began,
    // otherwise one wave after the latest wave among those that had.
    std::vector<int> order(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b) order[static_cast<std::size_t>(b)] = b;
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const BlockSpan& x = timeline.blocks[static_cast<std::size_t>(a)];
        const BlockSpan& y = timeline.blocks[static_cast<std::size_t>(b)];
        return x.sm != y.sm ? x.sm < y.sm : x.start_us < y.start_us;
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
        BlockSpan& block = timeline.blocks[static_cast<std::size_t>(order[i])];
        int wave = 1;
        for (std::size_t j = i; j-- > 0;) {
            const BlockSpan& earlier = timeline.blocks[static_cast<std::size_t>(order[j])];
            if (earlier.sm != block.sm) break;
            if (earlier.end_us <= block.start_us) wave = std::max(wave, earlier.wave + 1);
        }
        block.wave = wave;
        timeline.waves = std::max(timeline.waves, wave);
        if (timeline.sms_used.empty() || timeline.sms_used.back() != block.sm) timeline.sms_used.push_back(block.sm);
    }

    // The busiest moment: +1 at each start, −1 at each end, ends first when they tie.
    std::vector<std::pair<double, int>> events;
    for (const BlockSpan& b : timeline.blocks) {
        events.emplace_back(b.start_us, +1);
        events.emplace_back(b.end_us, -1);
    }
    std::sort(events.begin(), events.end());
    int resident = 0;
    for (const auto& [time, change] : events) {
        resident += change;
        timeline.most_at_once = std::max(timeline.most_at_once, resident);
    }
    return timeline;
}

PhaseSpan phase_span(const KernelTrace& trace, Index2 block, int phase) {
    PhaseSpan span;
    const int phases = trace.phases();
    const int b = block_linear(block.x, block.y, trace.grid().x);
    if (b < 0 || b >= trace.blocks() || phase < 0 || phase >= phases ||
        static_cast<std::int64_t>(trace.clocks.size()) != std::int64_t{trace.blocks()} * phases)
        return span;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    for (int i = 0; i < trace.blocks(); ++i) first = std::min(first, trace.clocks[phase_clock_slot(i, phases, 0)].start_ns);
    const PhaseClock& clock = trace.clocks[phase_clock_slot(b, phases, phase)];
    span.start_us = static_cast<double>(clock.start_ns - first) / 1e3;
    span.end_us = static_cast<double>(clock.end_ns - first) / 1e3;
    span.cycles = clock.end_cycles - clock.start_cycles;
    return span;
}

}  // namespace ts::model
