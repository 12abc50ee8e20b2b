#include "experiment_runner.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_reference.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "guarded_runs.hpp"
#include "kernels/experiments/experiment_launchers.hpp"
#include "kernels/common/fill_inputs.hpp"
#include "kernels/common/launchers.hpp"
#include "measure.hpp"
#include "model/format.hpp"
#include "model/kernel_trace.hpp"
#include "model/launch_geometry.hpp"

namespace ts::gpu {

namespace {

using model::format_text;

// Store clocks kept per instrumented launch (8 bytes each, 128 MiB at most): every block of
// 256×256×256 at T = 16, the first 256 blocks of 1024×1024×1024 at T = 32 (about one wave of a
// large GPU, where the kept reads come from). A larger grid keeps its first blocks' only.
constexpr std::int64_t kMaxStoreClocks = std::int64_t{1} << 24;

std::string launch_text(model::Experiment experiment, const model::ExperimentCase& c) {
    const model::LaunchGeometry g = model::plan_launch(c.kernel, c.problem);
    return format_text("launching {}'s variant of {} <<<({}, {}), ({}, {})>>>", model::experiment_name(experiment),
                       model::describe(c.kernel), g.grid.x, g.grid.y, g.block.x, g.block.y);
}

// The two medians of bank-conflicts: the unpadded variant against the real conflict-free rung,
// each kExperimentTimedLaunches cold-L2 launches (measure.hpp).
void time_bank_conflicts(const model::ExperimentCase& c, kernels::Operands<float> operands, cudaStream_t stream,
                         model::ExperimentRun& run) {
    MeasureSettings settings;
    settings.warmup_launches = 2;
    settings.stop.min_samples = kExperimentTimedLaunches;
    settings.stop.adaptive = false;
    const std::string broken_call = launch_text(model::Experiment::BankConflicts, c);
    const std::string real_call = format_text("launching {}", model::describe(c.kernel));
    const Measurement broken = measure(settings, stream, [&](cudaStream_t s) {
        cuda_check(kernels::launch_conflict_free_unpadded(c.kernel, c.problem, operands, s), broken_call, __FILE__,
                   __LINE__);
    });
    const Measurement real = measure(settings, stream, [&](cudaStream_t s) {
        cuda_check(kernels::launch_conflict_free(c.kernel, c.problem, operands, s), real_call, __FILE__, __LINE__);
    });
    run.broken_ms = broken.stats.median;
    run.real_ms = real.stats.median;
    for (const std::string* warning : {&broken.warning, &real.warning})
        if (!warning->empty()) run.note += (run.note.empty() ? "" : " ") + std::string("Timing: ") + *warning;
}

// ---- The instrumented launch -------------------------------------------------------------

kernels::WatchedBarriers kernel_barriers(WatchedBarriers barriers) {
    switch (barriers) {
        case WatchedBarriers::FirstMissing: return kernels::WatchedBarriers::FirstMissing;
        case WatchedBarriers::SecondMissing: return kernels::WatchedBarriers::SecondMissing;
        case WatchedBarriers::BothKept: break;
    }
    return kernels::WatchedBarriers::BothKept;
}

// The phase of the block whose element of this slot `read.got` is, among those another phase
// can leave there: without the first barrier a read may come before this phase's store
// (the slot still holds phase − 1's element), without the second a fast thread may already
// have stored phase + 1's. Anything else (another band or slot: an earlier block's value; a
// value of the block's last phase seen in phase 0: left by the previous launch) is −1.
int value_phase(const model::StaleRead& read, const model::Problem& p, int tile, int phases,
                WatchedBarriers barriers) {
    const bool of_a = read.operand == 'A';
    int candidate = -1;
    if (barriers == WatchedBarriers::FirstMissing) candidate = read.phase - 1;
    if (barriers == WatchedBarriers::SecondMissing) candidate = read.phase + 1;
    if (candidate < 0 || candidate >= phases) return -1;
    const std::int64_t band = of_a ? std::int64_t{read.block_y} * tile + read.slot_row
                                   : std::int64_t{read.block_x} * tile + read.slot_col;
    if (const auto place = model::decode_watched_value(read.got, p, of_a)) {
        // Row `band` of A (or column `band` of B), at this slot's place within a tile.
        const bool this_slot = of_a ? place->row == band && place->col % tile == read.slot_col
                                    : place->col == band && place->row % tile == read.slot_row;
        const std::int64_t phase = (of_a ? place->col : place->row) / tile;
        return this_slot && phase == candidate ? candidate : -1;
    }
    // Not an element: the zero padding of a phase whose slot lies outside the matrix.
    const float padding = of_a ? model::watched_value(band, std::int64_t{candidate} * tile + read.slot_col, p.m, p.k)
                               : model::watched_value(std::int64_t{candidate} * tile + read.slot_row, band, p.k, p.n);
    return read.got == 0.0f && padding == 0.0f ? candidate : -1;
}

}  // namespace

WatchOutcome watch_shared_memory(WatchedBarriers barriers, const model::ExperimentCase& c, int max_launches,
                                 bool check_c, cudaStream_t stream) {
    const model::Problem& p = c.problem;
    const int tile = c.kernel.tile;
    if (c.kernel.kind != model::KernelKind::Tiled || (tile != 8 && tile != 16 && tile != 32) || p.batch != 1 ||
        p.dtype != model::Dtype::Float32 || !model::watchable(p) || max_launches < 1)
        throw std::invalid_argument(format_text("cannot watch shared memory for {} on {} × {} × {} ({} launches): the "
                                                "watched kernel is tiled T = 8, 16 or 32, float, batch 1, with M·K "
                                                "and K·N below 2^24",
                                                model::describe(c.kernel), p.m, p.n, p.k, max_launches));
    WatchOutcome outcome;
    model::StaleReadReport& report = outcome.report;
    report.experiment = barriers == WatchedBarriers::SecondMissing ? model::Experiment::MissingSecondSync
                                                                    : model::Experiment::MissingFirstSync;
    report.c = c;

    // Inputs whose every element says where it is.
    std::vector<float> a(static_cast<std::size_t>(p.a_elements()));
    std::vector<float> b(static_cast<std::size_t>(p.b_elements()));
    for (std::int64_t r = 0; r < p.m; ++r)
        for (std::int64_t col = 0; col < p.k; ++col)
            a[static_cast<std::size_t>(r * p.k + col)] = model::watched_value(r, col, p.m, p.k);
    for (std::int64_t r = 0; r < p.k; ++r)
        for (std::int64_t col = 0; col < p.n; ++col)
            b[static_cast<std::size_t>(r * p.n + col)] = model::watched_value(r, col, p.k, p.n);
    DeviceBuffer<float> a_dev(p.a_elements());
    DeviceBuffer<float> b_dev(p.b_elements());
    DeviceBuffer<float> c_dev(p.c_elements());
    TS_CUDA_CHECK(cudaMemcpyAsync(a_dev.get(), a.data(), a_dev.bytes(), cudaMemcpyHostToDevice, stream));
    TS_CUDA_CHECK(cudaMemcpyAsync(b_dev.get(), b.data(), b_dev.bytes(), cudaMemcpyHostToDevice, stream));

    const model::LaunchGeometry g = model::plan_launch(c.kernel, p);
    const std::int64_t blocks = g.grid.x * g.grid.y;
    const int phases = model::phase_count(static_cast<int>(p.k), tile);
    const std::int64_t clocks_per_block = kernels::watched_clock_count(1, phases, tile);
    const std::int64_t clock_blocks = std::min(blocks, kMaxStoreClocks / clocks_per_block);
    const std::int64_t clock_count = kernels::watched_clock_count(clock_blocks, phases, tile);
    DeviceBuffer<model::StaleRead> reads(model::kMaxStaleReads);
    DeviceBuffer<unsigned long long> counts(kernels::kWatchCounts);
    DeviceBuffer<long long> clocks(std::max<std::int64_t>(clock_count, 1));
    const kernels::WatchBuffers watch{reads.get(), counts.get(), clock_count > 0 ? clocks.get() : nullptr,
                                      static_cast<int>(clock_blocks)};
    const kernels::Operands<float> operands{a_dev.get(), b_dev.get(), c_dev.get()};
    const std::string call = format_text("launching the watched tiled kernel ({}) <<<({}, {}), ({}, {})>>>",
                                         barriers == WatchedBarriers::FirstMissing    ? "first barrier missing"
                                         : barriers == WatchedBarriers::SecondMissing ? "second barrier missing"
                                                                                      : "both barriers",
                                         g.grid.x, g.grid.y, g.block.x, g.block.y);

    std::vector<unsigned long long> counted(kernels::kWatchCounts, 0);
    for (int launch = 1; launch <= max_launches; ++launch) {
        // Fresh counts and clocks: what comes back is the last launch's alone.
        TS_CUDA_CHECK(cudaMemsetAsync(counts.get(), 0, counts.bytes(), stream));
        TS_CUDA_CHECK(cudaMemsetAsync(clocks.get(), 0, clocks.bytes(), stream));
        TS_CUDA_CHECK(cudaMemsetAsync(c_dev.get(), 0xFF, c_dev.bytes(), stream));
        cuda_check(kernels::launch_tiled_watched(kernel_barriers(barriers), c.kernel, p, operands, watch, stream), call,
                   __FILE__, __LINE__);
        counted = copy_to_host(counts.get(), kernels::kWatchCounts, stream);
        report.launches = launch;
        if (counted[0] > 0) break;
    }
    report.stale_reads = static_cast<std::int64_t>(counted[0]);
    report.reads_checked = static_cast<std::int64_t>(counted[1]);

    // Phase 0's kept reads, then the later phases' (WatchBuffers::reads).
    std::vector<std::size_t> half_begins;
    for (int half = 0; half < 2; ++half) {
        const auto kept = static_cast<std::int64_t>(
            std::min<unsigned long long>(counted[2 + static_cast<std::size_t>(half)], kernels::kWatchHalf));
        const std::vector<model::StaleRead> part = copy_to_host(reads.get() + half * kernels::kWatchHalf, kept, stream);
        half_begins.push_back(report.reads.size());
        report.reads.insert(report.reads.end(), part.begin(), part.end());
    }
    half_begins.push_back(report.reads.size());
    const std::vector<long long> store_clocks =
        report.reads.empty() ? std::vector<long long>{} : copy_to_host(clocks.get(), clock_count, stream);
    for (model::StaleRead& read : report.reads) {
        read.value_phase = value_phase(read, p, tile, phases, barriers);
        read.writer_x = read.slot_col;
        read.writer_y = read.slot_row;
        // The store the story needs: the one that came too late (in the reader's phase), or
        // the next phase's that came too early.
        const int store_phase = read.value_phase > read.phase ? read.value_phase : read.phase;
        const std::int64_t block = model::block_linear(read.block_x, read.block_y, static_cast<int>(g.grid.x));
        if (block < clock_blocks)
            read.write_clock = store_clocks[static_cast<std::size_t>(kernels::watched_clock_slot(
                block, phases, store_phase, read.operand == 'A' ? 0 : 1, tile, read.slot_row, read.slot_col))];
    }
    // Within each half, first (in their order) the reads whose clocks tell the story: the
    // store came after the read, or, for a value of the next phase, before it. The others
    // have no clock (a block past the clock buffer), or a store issued a few cycles before
    // the read that had not yet landed. The story a view tells first (model::most_telling)
    // can then give the cycles.
    const auto clocks_tell = [](const model::StaleRead& read) {
        if (read.write_clock == 0 || read.read_clock == 0) return false;
        return read.value_phase > read.phase ? read.read_clock > read.write_clock : read.read_clock < read.write_clock;
    };
    for (std::size_t half = 0; half + 1 < half_begins.size(); ++half)
        std::stable_partition(report.reads.begin() + static_cast<std::ptrdiff_t>(half_begins[half]),
                              report.reads.begin() + static_cast<std::ptrdiff_t>(half_begins[half + 1]), clocks_tell);

    if (check_c) {
        const std::vector<float> c_host = copy_to_host(c_dev.get(), p.c_elements(), stream);
        const Reference ref = reference_matmul(std::span<const float>(a), std::span<const float>(b), p);
        const Comparison cmp = compare(std::span<const float>(c_host), ref, tolerance_factor(p.dtype, p.k));
        outcome.c_right = cmp.passed();
        outcome.c_summary = format_text("{} of {} cells wrong, max rel. error {}", cmp.mismatches, p.c_elements(),
                                        cmp.max_rel_error);
    }
    return outcome;
}

void run_experiment(const RunRequest& request, const DeviceInfo&, cudaStream_t stream, RunResult& result) {
    const model::Experiment experiment = request.experiment;
    const model::ExperimentCase c{request.problem, request.kernel};
    const model::Problem& p = c.problem;
    if (request.runs < 1 || request.runs > model::kMaxExperimentRuns)
        throw std::invalid_argument(format_text("an experiment runs 1 to {} times, not {}", model::kMaxExperimentRuns,
                                                request.runs));
    if (auto why = model::check_experiment_case(experiment, c)) throw std::invalid_argument(*why);

    model::ExperimentRun run;
    run.experiment = experiment;
    run.c = c;
    const model::LaunchGeometry g = model::plan_launch(c.kernel, p);
    run.blocks = g.grid.x * g.grid.y;
    run.map = model::make_wrong_cell_map(p.m, p.n);

    // Every experiment runs between guard zones, so all four take the same path; only
    // no-bounds-check ever touches them.
    const GuardedOperands guarded(p, model::guard_elements(p, c.kernel.tile), request.seed, stream);
    const kernels::Operands<float> operands{guarded.a.matrix(), guarded.b.matrix(), guarded.c.matrix()};
    const std::string call = launch_text(experiment, c);
    Tally tally(p, guarded.reference);
    for (int i = 0; i < request.runs; ++i) {
        checked_launch(guarded, tally, run, stream, [&] {
            cuda_check(kernels::launch_experiment(experiment, c.kernel, p, operands, stream), call, __FILE__, __LINE__);
            // A fault (an illegal address) shows here, named after the launch; the context is
            // lost then, and the supervisor restarts the worker.
            cuda_check(cudaStreamSynchronize(stream), format_text("{}, run {} of {}", call, i + 1, request.runs),
                       __FILE__, __LINE__);
        });
    }
    tally.finish(run);

    if (experiment == model::Experiment::BankConflicts) time_bank_conflicts(c, operands, stream, run);

    const bool missing_sync =
        experiment == model::Experiment::MissingFirstSync || experiment == model::Experiment::MissingSecondSync;
    if (missing_sync && model::watchable(p)) {
        const WatchedBarriers barriers = experiment == model::Experiment::MissingFirstSync
                                             ? WatchedBarriers::FirstMissing
                                             : WatchedBarriers::SecondMissing;
        result.stale_reads = watch_shared_memory(barriers, c, kMaxWatchedLaunches, false, stream).report;
    }
    result.experiment = std::move(run);
}

}  // namespace ts::gpu
