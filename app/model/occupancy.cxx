#include "occupancy.hpp"

#include "ladder.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

#include "format.hpp"
#include "ladder_rungs.hpp"
#include "launch_geometry.hpp"

namespace ts::model {

namespace {

int round_up(int value, int step) { return (value + step - 1) / step * step; }

// Architecture constants that cudaDeviceProp does not report; cuda_occupancy.h keeps them
// in the same per-generation tables.
int register_allocation_unit() { return 256; }
int sub_partitions(const DeviceLimits& limits) {
    return limits.compute_major == 6 && limits.compute_minor == 0 ? 2 : 4;
}
int max_registers_per_thread(const DeviceLimits& limits) { return limits.compute_major >= 7 ? 256 : 255; }
int shared_allocation_unit(const DeviceLimits& limits) { return limits.compute_major >= 8 ? 128 : 256; }

std::string percent(double fraction) {
    char text[16];
    std::snprintf(text, sizeof text, "%.0f %%", fraction * 100.0);
    return text;
}

}  // namespace

std::string_view limit_name(OccupancyLimit limit) {
    switch (limit) {
        case OccupancyLimit::Threads: return "threads per SM";
        case OccupancyLimit::Registers: return "registers";
        case OccupancyLimit::SharedMemory: return "shared memory";
        case OccupancyLimit::BlockSlots: return "block slots";
    }
    return "?";
}

int estimated_registers_per_thread(const DeviceLimits& limits) {
    const int budget = limits.registers_per_sm / std::max(limits.max_threads_per_sm, 1);
    return std::clamp(budget / 8 * 8, 8, 255);
}

int estimated_ladder_registers(const KernelConfig& config) {
    const LadderShape s = ladder_shape(config);
    const int held = s.cells_per_thread() + s.tm * s.wm_iter + s.tn * s.wn_iter + 24;
    return std::min(s.register_cap(), round_up(held, 8));
}

int estimated_tc_registers(const KernelConfig& kernel) {
    return with_tc_shape(
        kernel,
        [](const MmaShape& s) {
            return std::min(255, round_up(s.accumulator_registers() + 4 * s.m_tiles() + 2 * s.n_tiles() + 32, 8));
        },
        [](const WgmmaShape& s) {
            // With a producer the compiler takes every register __launch_bounds__(threads, 1) allows
            // (setmaxnreg moves them between warpgroups later: 168 for 384 threads); without one
            // its accumulators and about 26 more (16: 64 + 26 = 90 on sm_90a, CUDA 13.0).
            const int allowed = std::min(255, 65536 / s.threads() / 8 * 8);
            return s.producer ? allowed : std::min(allowed, round_up(s.accumulator_registers() + 26, 8));
        },
        0);
}

std::variant<Occupancy, std::string> block_occupancy(const BlockResources& block, const DeviceLimits& limits) {
    Occupancy o;
    o.block = block;
    const int warp = limits.warp_size;
    if (block.threads < 1) return std::string("a block needs at least one thread");
    if (block.threads > limits.max_threads_per_block)
        return format_text("a block of {} threads is over the limit of {} per block", block.threads,
                      limits.max_threads_per_block);
    if (block.registers_per_thread > max_registers_per_thread(limits))
        return format_text("{} registers per thread is over the limit of {}", block.registers_per_thread,
                      max_registers_per_thread(limits));

    o.warps_per_block = (block.threads + warp - 1) / warp;
    o.max_warps_per_sm = limits.max_threads_per_sm / warp;
    o.blocks_by_threads = o.max_warps_per_sm / o.warps_per_block;

    // Registers go to warps, and each warp lives in one sub-partition of the SM.
    const int per_warp = round_up(block.registers_per_thread * warp, register_allocation_unit());
    o.registers_per_block = per_warp * o.warps_per_block;
    const int parts = sub_partitions(limits);
    // The hardware checks a block as if its warps were spread evenly over all parts.
    const int assumed = per_warp * round_up(o.warps_per_block, parts);
    if (assumed > limits.max_registers_per_block)
        return format_text("{} threads × {} registers need {} registers per block (allocated per warp of {}, in {} "
                      "sub-partitions); the limit is {}: \"too many resources requested for launch\"",
                      block.threads, block.registers_per_thread, assumed, warp, parts,
                      limits.max_registers_per_block);
    if (per_warp > 0) {
        const int warps_per_part = limits.registers_per_sm / parts / per_warp;
        o.blocks_by_registers = warps_per_part * parts / o.warps_per_block;
    } else {
        o.blocks_by_registers = INT_MAX;
    }

    const int shared = block.shared_bytes + limits.reserved_shared_per_block;
    o.shared_per_block = round_up(shared, shared_allocation_unit(limits));
    if (block.shared_bytes > limits.optin_shared_per_block)
        return format_text("{} of shared memory per block is over the {} one block may use on this GPU",
                      human_bytes(block.shared_bytes), human_bytes(limits.optin_shared_per_block));
    o.blocks_by_shared = o.shared_per_block > 0 ? limits.shared_per_sm / o.shared_per_block : INT_MAX;
    o.blocks_by_slots = limits.max_blocks_per_sm;

    const std::pair<OccupancyLimit, int> limits_in_order[] = {{OccupancyLimit::Threads, o.blocks_by_threads},
                                                              {OccupancyLimit::Registers, o.blocks_by_registers},
                                                              {OccupancyLimit::SharedMemory, o.blocks_by_shared},
                                                              {OccupancyLimit::BlockSlots, o.blocks_by_slots}};
    o.blocks_per_sm = INT_MAX;
    for (const auto& [limit, blocks] : limits_in_order) o.blocks_per_sm = std::min(o.blocks_per_sm, blocks);
    for (const auto& [limit, blocks] : limits_in_order)
        if (blocks == o.blocks_per_sm) o.binding.push_back(limit);
    o.limited_by = o.binding.front();
    if (o.blocks_per_sm == 0)
        return format_text("not one block fits on an SM: {} allows none", limit_name(o.limited_by));

    o.active_warps_per_sm = o.blocks_per_sm * o.warps_per_block;
    o.occupancy = static_cast<double>(o.active_warps_per_sm) / o.max_warps_per_sm;
    return o;
}

std::variant<Occupancy, std::string> kernel_occupancy(const KernelConfig& config, const Problem& problem,
                                                      const DeviceLimits& limits,
                                                      std::optional<int> measured_registers) {
    BlockResources block;
    block.registers_measured = measured_registers.has_value();
    std::int64_t grid_blocks = 0;
    if (is_tensor_core(config.kind)) {
        const TcBlockTile tile = tc_block_tile(config);
        block.threads = tile.threads;
        block.shared_bytes = tile.shared_bytes;
        block.registers_per_thread = measured_registers.value_or(estimated_tc_registers(config));
        grid_blocks = ceil_div64(problem.m, tile.bm) * ceil_div64(problem.n, tile.bn) * problem.batch;
    } else {
        if (!is_modelled(config.kind)) return std::string(unmodelled_reason(config.kind));
        if (auto why = check_config(config)) return *why;
        const LaunchGeometry g = plan_launch(config, problem);
        block.threads = static_cast<int>(std::min<std::int64_t>(g.block.volume(), INT_MAX));
        block.shared_bytes = g.shared_bytes;
        block.registers_per_thread = measured_registers.value_or(
            is_ladder(config.kind) ? estimated_ladder_registers(config) : estimated_registers_per_thread(limits));
        grid_blocks = g.grid.volume();
    }
    auto result = block_occupancy(block, limits);
    if (auto* o = std::get_if<Occupancy>(&result)) {
        o->grid_blocks = grid_blocks;
        o->blocks_per_wave = static_cast<std::int64_t>(o->blocks_per_sm) * limits.sm_count;
        if (o->blocks_per_wave > 0)
            o->waves = static_cast<double>(o->grid_blocks) / static_cast<double>(o->blocks_per_wave);
    }
    return result;
}

std::string describe(const Occupancy& o) {
    std::string text = format_text("{} blocks/SM (limited by {}", o.blocks_per_sm, limit_name(o.limited_by));
    for (std::size_t i = 1; i < o.binding.size(); ++i)
        text += format_text("{}{}", i == 1 ? ", and equally by " : " and ", limit_name(o.binding[i]));
    text += format_text("), {} occupancy", percent(o.occupancy));
    if (o.blocks_per_wave > 0) {
        char waves[32];
        std::snprintf(waves, sizeof waves, "%.2f", o.waves);
        text += format_text(", {} waves", waves);
    }
    return text;
}

}  // namespace ts::model
