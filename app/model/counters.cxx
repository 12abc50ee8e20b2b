#include "counters.hpp"

#include <algorithm>
#include <mutex>
#include <variant>
#include <vector>

#include "format.hpp"
#include "global_requests.hpp"
#include "index_math.hpp"
#include "ladder.hpp"
#include "ladder_access.hpp"
#include "launch_geometry.hpp"
#include "occupancy.hpp"

namespace ts::model {

namespace {

// ---- Shared memory banks -----------------------------------------------------------------

int extra_wavefronts(const std::vector<LaneAccess>& accesses) {
    if (accesses.empty()) return 0;
    const BankMap map = bank_map(accesses);
    return map.wavefronts - map.ideal;
}

// Extra wavefronts of one block of the tiled kernel in one phase: each warp stores As[ty][tx]
// and Bs[ty][tx], then reads As[ty][i] and Bs[i][tx] for i = 0 .. T-1. Slots are counted in
// 4-byte words (a double is two).
std::int64_t tiled_conflicts_per_phase(int tile, std::size_t element_size) {
    const int words = static_cast<int>(element_size / 4);
    const int warps = ceil_div(tile * tile, kWarpSize);
    std::int64_t extra = 0;
    for (int w = 0; w < warps; ++w) {
        std::vector<LaneAccess> store, read_a, read_b;
        const auto each_lane = [&](auto&& add) {
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const int id = w * kWarpSize + lane;
                if (id >= tile * tile) break;
                add(lane, id % tile, id / tile);
            }
        };
        each_lane([&](int lane, int tx, int ty) { store.push_back({lane, (ty * tile + tx) * words, words}); });
        extra += 2 * extra_wavefronts(store);  // As and Bs: the same slots
        for (int i = 0; i < tile; ++i) {
            read_a.clear();
            read_b.clear();
            each_lane([&](int lane, int tx, int ty) {
                read_a.push_back({lane, (ty * tile + i) * words, words});
                read_b.push_back({lane, (i * tile + tx) * words, words});
            });
            extra += extra_wavefronts(read_a) + extra_wavefronts(read_b);
        }
    }
    return extra;
}

// Extra wavefronts of one block of a rung (06 to 10) in one K step: the stores of its loads
// into As and Bs (a float4 of A into the transposed As is four 32-bit stores, as
// ladder_access.hpp's warp_store_accesses has them), then the fragment reads for every k of
// the step (ladder_fragment_reads), warp by warp.
std::int64_t ladder_conflicts_per_step(LadderShape s) {
    // Worked out once per shape: a shape's answer never changes.
    static std::mutex mutex;
    static std::vector<std::pair<LadderShape, std::int64_t>> known;
    const std::lock_guard lock(mutex);
    for (const auto& [shape, extra] : known)
        if (shape == s) return extra;

    const int threads = s.threads(), warps = ceil_div(threads, kWarpSize);
    std::vector<std::vector<LadderLoad>> loads;
    for (int t = 0; t < threads; ++t) loads.push_back(ladder_thread_loads(s, t));
    std::int64_t extra = 0;
    std::vector<LaneAccess> accesses;
    for (int w = 0; w < warps; ++w) {
        const int first = w * kWarpSize, last = std::min(threads, first + kWarpSize);
        for (std::size_t i = 0; i < loads[0].size(); ++i) {
            const LadderLoad& shape_of = loads[0][i];
            const bool in_parts = stored_in_parts(s, shape_of);
            for (int part = 0; part < (in_parts ? shape_of.width : 1); ++part) {
                accesses.clear();
                for (int t = first; t < last; ++t) {
                    const LadderLoad& load = loads[static_cast<std::size_t>(t)][i];
                    accesses.push_back(in_parts ? LaneAccess{t - first, load.slots[part], 1}
                                                : LaneAccess{t - first, load.slots[0], load.width});
                }
                extra += extra_wavefronts(accesses);
            }
        }
        for (int k = 0; k < s.bk; ++k) {
            std::vector<std::vector<FragmentRead>> reads;
            for (int t = first; t < last; ++t) reads.push_back(ladder_fragment_reads(s, t, k));
            for (std::size_t read = 0; read < reads[0].size(); ++read) {
                accesses.clear();
                for (std::size_t lane = 0; lane < reads.size(); ++lane)
                    accesses.push_back({static_cast<int>(lane), reads[lane][read].slot, reads[lane][read].width});
                extra += extra_wavefronts(accesses);
            }
        }
    }
    known.emplace_back(s, extra);
    return extra;
}

std::string kernel_words(const KernelConfig& config) {
    switch (config.kind) {
        case KernelKind::Naive:
        case KernelKind::NaiveRowFromX: return "per k, each warp issues one load of A and one of B";
        case KernelKind::RowPerThread:
        case KernelKind::ColumnPerThread:
            return "per cell a thread computes and per k, each warp issues one load of A and one of B";
        case KernelKind::Tiled:
            return "per phase, each warp issues one load of A and one of B (blocks × phases × warps × 2 where no tile "
                   "hangs over an edge)";
        default: {
            const LadderShape s = ladder_shape(config);
            return format_text("per K step, each thread issues {} of A and {} of B{}",
                               counted(s.a_loads_per_thread(), "load"), s.b_loads_per_thread(),
                               s.vec > 1 ? " (a float4 is one request where the rows start on 16 bytes)" : "");
        }
    }
}

constexpr const char* kWalkWords = "counted warp by warp from the kernel's index math; a warp with no lane inside the "
                                   "matrices asks for nothing";

}  // namespace

const CounterInfo& counter_info(Counter counter) {
    static const CounterInfo infos[] = {
        {"Global load requests", "requests", {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
         "Warp-wide global load instructions that reached L1: one per warp and instruction, however many lanes "
         "it has."},
        {"Global load sectors", "sectors", {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
         "32-byte sectors those requests asked L1 for: 4 when a warp reads 32 neighbouring floats, 32 when they lie "
         "a row apart."},
        {"L2 sectors", "sectors", {"lts__t_sectors.sum"},
         "32-byte sectors the L2 cache served, reads and writes, from every source."},
        {"DRAM bytes", "bytes", {"dram__bytes_read.sum", "dram__bytes_write.sum"},
         "Bytes moved between L2 and the GPU's memory, read and written."},
        {"Shared bank conflicts", "conflicts",
         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
         "Extra shared-memory wavefronts: a warp's access that wants two words of one bank waits a wavefront for "
         "each word after the first."},
        {"Achieved occupancy", "%", {"sm__warps_active.avg.pct_of_peak_sustained_active"},
         "Warps resident on an SM on average while it was busy, as a percentage of the most it can hold."},
    };
    return infos[static_cast<int>(counter)];
}

std::vector<std::string_view> all_counter_metrics() {
    std::vector<std::string_view> names;
    for (const Counter counter : kAllCounters)
        for (const std::string_view name : counter_info(counter).metrics)
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    return names;
}

std::string why_no_prediction(Counter counter, const KernelConfig& config, const Problem& problem,
                              const DeviceLimits& limits) {
    if (predict_counter(counter, config, problem, limits)) return {};
    if (auto why = check_config(config)) return *why;
    if (auto why = validate(problem)) return *why;
    if (!is_modelled(config.kind)) return std::string(unmodelled_reason(config.kind));
    if (counter == Counter::SharedBankConflicts) {
        if (ladder_shape(config).stages > 1)
            return "the pipelined rungs fill shared memory with cp.async copies, which these two metrics do not "
                   "count as stores; their banks are not modelled here";
        return "the ladder's bank model (ladder_access.hpp) counts 4-byte words: not modelled for double";
    }
    if (counter == Counter::AchievedOccupancy) {
        auto occupancy = kernel_occupancy(config, problem, limits);
        if (auto* why = std::get_if<std::string>(&occupancy)) return *why;
    }
    return "not modelled";
}

std::optional<CounterPrediction> predict_counter(Counter counter, const KernelConfig& config, const Problem& p,
                                                 const DeviceLimits& limits, std::optional<int> registers_per_thread) {
    if (check_config(config) || validate(p)) return std::nullopt;
    const std::size_t size = dtype_size(p.dtype);
    const bool ladder = is_ladder(config.kind);
    const bool async = ladder && rung_access(config, p, limits).async;
    switch (counter) {
        case Counter::GlobalLoadRequests:
        case Counter::GlobalLoadSectors: {
            if (async)
                return CounterPrediction{0.0, "0: this rung's global loads are cp.async copies (LDGSTS), which Nsight "
                                              "counts under op_ldgsts, not op_ld"};
            const auto walk = walk_global(config, p, limits);
            if (!walk) return std::nullopt;
            if (counter == Counter::GlobalLoadRequests)
                return CounterPrediction{static_cast<double>(walk->load_requests),
                                         format_text("{}; {}", kernel_words(config), kWalkWords)};
            return CounterPrediction{static_cast<double>(walk->load_sectors),
                                     format_text("the distinct 32-byte sectors each of the {} requests touches, "
                                                 "summed ({} per request on average); {}",
                                                 walk->load_requests,
                                                 fixed(walk->load_requests > 0 ? static_cast<double>(walk->load_sectors) /
                                                                                     static_cast<double>(walk->load_requests)
                                                                               : 0.0,
                                                       2),
                                                 kWalkWords)};
        }
        case Counter::L2Sectors: {
            const auto walk = walk_global(config, p, limits);
            if (!walk) return std::nullopt;
            const std::int64_t loads = walk->load_sectors + walk->copy_sectors;
            return CounterPrediction{
                static_cast<double>(loads + walk->store_sectors),
                format_text("what reaches L2 if L1 caught nothing: the {} sectors of the global {} plus the {} "
                            "sectors of the stores of C; L1 hits make it less, L2's traffic between its halves "
                            "and to memory more",
                            loads, async ? "copies (cp.async)" : "loads", walk->store_sectors)};
        }
        case Counter::DramBytes: {
            const std::int64_t read = (p.a_elements() + p.b_elements()) * p.batch * static_cast<std::int64_t>(size);
            const std::int64_t written = p.c_elements() * p.batch * static_cast<std::int64_t>(size);
            return CounterPrediction{
                static_cast<double>(read + written),
                format_text("compulsory: A and B read once ({}), C written once ({}); more where L2 misses repeat, "
                            "less where C's last lines are still in L2 when the launch ends",
                            human_bytes(read), human_bytes(written))};
        }
        case Counter::SharedBankConflicts: {
            if (!is_modelled(config.kind)) return std::nullopt;
            switch (config.kind) {
                case KernelKind::Naive:
                case KernelKind::NaiveRowFromX:
                case KernelKind::RowPerThread:
                case KernelKind::ColumnPerThread: return CounterPrediction{0.0, "0: this kernel uses no shared memory"};
                case KernelKind::Tiled: {
                    const LaunchGeometry g = plan_launch(config, p);
                    const std::int64_t phases = phase_count(static_cast<int>(p.k), config.tile);
                    const std::int64_t per_phase = tiled_conflicts_per_phase(config.tile, size);
                    const std::int64_t total = per_phase * phases * g.grid.x * g.grid.y * p.batch;
                    if (total == 0)
                        return CounterPrediction{
                            0.0, "0: a warp's stores As[ty][tx], Bs[ty][tx] and reads Bs[i][tx] are consecutive words, "
                                 "and its reads As[ty][i] are one word per row of the block (broadcast to the row), "
                                 "rows T words apart in different banks: no bank serves two words at once"};
                    return CounterPrediction{static_cast<double>(total),
                                             format_text("{} extra wavefronts per block and phase (each warp's accesses "
                                                         "to As and Bs, ladder_access.hpp's bank_map) × {} phases × {} "
                                                         "blocks",
                                                         per_phase, phases, g.grid.x * g.grid.y * p.batch)};
                }
                default: {
                    const LadderShape s = ladder_shape(config);
                    if (s.stages > 1 || size != 4) return std::nullopt;
                    const std::int64_t steps = ladder_steps(s, static_cast<int>(p.k));
                    const std::int64_t blocks = ceil_div64(p.m, s.bm) * ceil_div64(p.n, s.bn) * p.batch;
                    const std::int64_t per_step = ladder_conflicts_per_step(s);
                    return CounterPrediction{
                        static_cast<double>(per_step * steps * blocks),
                        format_text("{} extra wavefronts per block and K step (each warp's stores into As and Bs and "
                                    "its fragment reads, as the source writes them: ladder_access.hpp) × {} steps × "
                                    "{} blocks",
                                    per_step, steps, blocks)};
                }
            }
        }
        case Counter::AchievedOccupancy: {
            auto result = kernel_occupancy(config, p, limits, registers_per_thread);
            const auto* o = std::get_if<Occupancy>(&result);
            if (!o) return std::nullopt;
            return CounterPrediction{o->occupancy * 100.0,
                                     format_text("theoretical ({} registers per thread{}): {}; the achieved can only "
                                                 "be lower",
                                                 o->block.registers_per_thread,
                                                 o->block.registers_measured ? "" : ", estimated", describe(*o))};
        }
    }
    return std::nullopt;
}

std::optional<double> counter_ratio(const CounterReading& reading) {
    if (!reading.model || *reading.model == 0.0) return std::nullopt;
    return reading.measured / *reading.model;
}

std::optional<double> counter_value(Counter counter, const std::vector<std::pair<std::string, double>>& metrics) {
    double sum = 0.0;
    for (const std::string_view name : counter_info(counter).metrics) {
        const auto found = std::find_if(metrics.begin(), metrics.end(), [&](const auto& m) { return m.first == name; });
        if (found == metrics.end()) return std::nullopt;
        sum += found->second;
    }
    return sum;
}

CounterReading make_reading(Counter counter, double measured, const KernelConfig& config, const Problem& problem,
                            const DeviceLimits& limits, std::optional<int> registers_per_thread) {
    CounterReading reading;
    reading.counter = counter;
    reading.measured = measured;
    if (auto prediction = predict_counter(counter, config, problem, limits, registers_per_thread)) {
        reading.model = prediction->value;
        reading.model_basis = std::move(prediction->basis);
    } else {
        reading.model_basis = why_no_prediction(counter, config, problem, limits);
    }
    return reading;
}

std::string counters_permission_help() {
    return "The GPU's performance counters are restricted to administrators on this machine: the NVIDIA driver "
           "runs with NVreg_RestrictProfilingToAdminUsers=1 (its default), so CUPTI answered "
           "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES. To read them, either run TileScope as root (sudo tilescope-cli "
           "counters ...), or allow every user: put the line\n"
           "    options nvidia NVreg_RestrictProfilingToAdminUsers=0\n"
           "in a file in /etc/modprobe.d/ (say /etc/modprobe.d/nvidia-profiling.conf), rebuild the initramfs "
           "(Debian and Ubuntu: sudo update-initramfs -u) and reboot. In a container the host's setting counts. "
           "NVIDIA explains it at https://developer.nvidia.com/ERR_NVGPUCTRPERM";
}

}  // namespace ts::model
