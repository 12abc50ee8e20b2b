// synthetic_trace.hpp — a trace such as a GPU that runs the kernels exactly as the model
// says would make, with SMs and clocks chosen by the test: for the tests of the trace model,
// the trace file and the replay views, none of which may need a GPU.
#pragma once

#include <cstdint>

#include "model/kernel_trace.hpp"
#include "model/tile_schedule.hpp"

namespace ts::testing_support {

// Block b (launch order) runs on SM b % sms, `blocks_per_sm` at a time; each phase takes
// `phase_ns`, and a block starts when the one `sms · blocks_per_sm` places before it ends.
inline model::KernelTrace synthetic_trace(const model::KernelConfig& config, const model::Problem& problem, int sms = 132,
                                          int blocks_per_sm = 1, std::uint64_t phase_ns = 1000) {
    using namespace model;
    KernelTrace trace;
    trace.config = config;
    trace.problem = problem;
    trace.device = "Synthetic GPU";
    trace.sm_count = sms;
    trace.recorded_at = "2026-11-21 00:00 UTC";
    trace.check_passed = true;
    trace.check_summary = "pass";
    const Index2 grid = trace.grid();
    const int phases = trace.phases();
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    trace.loads.resize(static_cast<std::size_t>(load_records(config, problem)));
    for (int by = 0; by < grid.y; ++by)
        for (int bx = 0; bx < grid.x; ++bx) {
            const int b = block_linear(bx, by, grid.x);
            trace.block_sm.push_back(static_cast<std::uint32_t>(b % sms));
            const std::uint64_t start = 1'000'000 + static_cast<std::uint64_t>(b / (sms * blocks_per_sm)) * phases * phase_ns;
            for (int phase = 0; phase < phases; ++phase) {
                const std::uint64_t t = start + static_cast<std::uint64_t>(phase) * phase_ns;
                trace.clocks.push_back({t, t + phase_ns, 10 * t, 10 * (t + phase_ns)});
            }
            if (is_recorded_ladder(config.kind)) {
                // Each instruction as ladder_model_load says; unused instructions stay unwritten.
                const LadderShape s = ladder_shape(config);
                const int per_operand = ladder_loads_per_operand(s);
                for (int step = 0; step < phases; ++step)
                    for (int operand = 0; operand < 2; ++operand)
                        for (int i = 0; i < per_operand; ++i)
                            for (int t = 0; t < s.threads(); ++t)
                                trace.loads[static_cast<std::size_t>(ladder_load_record_slot(
                                    b, phases, step, operand, per_operand, i, s.threads(), t))] =
                                    ladder_model_load(config, problem, {bx, by}, step,
                                                      operand == 0 ? Operand::A : Operand::B, i, t);
            } else if (config.kind == KernelKind::Tiled) {
                for (int phase = 0; phase < phases; ++phase)
                    for (int operand = 0; operand < 2; ++operand)
                        for (const TileLoad& l :
                             tile_loads(problem, config.tile, {bx, by}, phase, operand == 0 ? Operand::A : Operand::B))
                            trace.loads[static_cast<std::size_t>(tiled_load_slot(b, phases, phase, operand, config.tile,
                                                                                 l.thread.x, l.thread.y))] =
                                {l.global_row, l.global_col, l.smem_row * config.tile + l.smem_col,
                                 l.padding ? RecordedLoad::kPadding : RecordedLoad::kLoaded};
            } else {
                for (int ty = 0; ty < config.block_y; ++ty)
                    for (int tx = 0; tx < config.block_x; ++tx) {
                        const int row = naive_row(by, config.block_y, ty), col = naive_col(bx, config.block_x, tx);
                        for (int i = 0; i < k; ++i)
                            for (int operand = 0; operand < 2; ++operand) {
                                RecordedLoad& r = trace.loads[static_cast<std::size_t>(
                                    naive_load_slot(b, config.block_x, config.block_y, tx, ty, k, i, operand))];
                                if (!inside(row, col, m, n)) r = RecordedLoad{-1, -1, -1, RecordedLoad::kNotRecorded};
                                else r = operand == 0 ? RecordedLoad{row, i, i, RecordedLoad::kLoaded}
                                                      : RecordedLoad{i, col, i, RecordedLoad::kLoaded};
                            }
                    }
            }
        }
    return trace;
}

}  // namespace ts::testing_support
