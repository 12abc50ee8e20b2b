#include "experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "format.hpp"
#include "index_math.hpp"

namespace ts::model {

namespace {

struct Named {
    Experiment experiment;
    std::string_view name;
    ExperimentText text;
};

const Named kExperiments[] = {
    {Experiment::MissingFirstSync, "missing-first-sync",
     {"The first barrier taken out",
      "The __syncthreads() between storing a phase's tiles into As and Bs and reading them is gone.",
      "kernels/experiments/05_tiled_missing_first_sync.cu", "kernels/05_tiled.cu",
      "Without the first barrier, will C come out wrong on every run, on some runs, or never? In which cells?",
      "Wrong on some runs, in scattered cells, and differently each time. A warp that has stored its own slots "
      "goes straight on to read; a slot of Bs another warp has not stored yet still holds what was there before: "
      "the previous phase's element, or in phase 0 whatever an earlier block on that SM left behind. How often "
      "depends on the size, the tile width and the GPU's scheduling."}},
    {Experiment::MissingSecondSync, "missing-second-sync",
     {"The second barrier taken out",
      "The __syncthreads() after the multiply-adds, before the next phase's loads, is gone.",
      "kernels/experiments/05_tiled_missing_second_sync.cu", "kernels/05_tiled.cu",
      "Without the second barrier, will C come out wrong on every run, on some runs, or never? Which phase is "
      "safe?",
      "Wrong on some runs. A warp that finishes its multiply-adds first starts the next phase and overwrites "
      "slots of As and Bs that slower warps are still reading, so they add the next phase's element instead. "
      "The last phase is safe: nothing comes after it. A simulator gets this the same every time; the GPU "
      "does not."}},
    {Experiment::NoBoundsCheck, "no-bounds-check",
     {"The bounds checks taken out",
      "The inside() tests are gone: every thread loads its elements of A and B and stores its sum, even past "
      "the edges of the matrices.",
      "kernels/experiments/05_tiled_no_bounds_check.cu", "kernels/05_tiled.cu",
      "At 100 × 100 × 100 with T = 16, will C be right? Will anything be written outside C?",
      "At sizes that are multiples of T nothing changes. Otherwise the last tiles reach past the matrices: "
      "loads past A's or B's end return the guard zone's poison (the cell comes out NaN), loads past the end "
      "of a row return the next row's elements, and threads outside C store onto cells of the next row or "
      "past C's end, into its guard zone."}},
    {Experiment::BankConflicts, "bank-conflicts",
     {"The padding taken out",
      "As loses its padding of 4 floats per row (8 × 128 floats instead of 8 × 132), as 08 had it.",
      "kernels/experiments/09_conflict_free_unpadded.cu", "kernels/09_conflict_free.cu",
      "C stays right: bank conflicts cost time, never correctness. How much slower will the rung be without "
      "its padding: not at all, a few percent, a quarter, twice as slow?",
      "Without the padding, the two threads of a warp that store a float4 of A into the same column of the "
      "transposed As hit the same bank, so each of those stores takes two wavefronts instead of one. Stores "
      "are a small share of the shared-memory traffic (the reads are many more), so the slow-down is "
      "small; the counters show the conflicts themselves."}},
};

const Named& named(Experiment experiment) {
    for (const Named& n : kExperiments)
        if (n.experiment == experiment) return n;
    return kExperiments[0];
}

bool breaks_tiled(Experiment experiment) { return experiment != Experiment::BankConflicts; }

ExperimentCase make_case(Experiment experiment, std::int64_t m, std::int64_t n, std::int64_t k, int tile) {
    ExperimentCase c;
    c.problem.m = m;
    c.problem.n = n;
    c.problem.k = k;
    c.problem.batch = 1;
    c.problem.dtype = Dtype::Float32;
    c.kernel = experiment_kernel(experiment, tile);
    return c;
}

// 3.1e-07: errors span many decades.
std::string sci(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", value);
    return text;
}

// Watched values are whole numbers up to 2^24: print them whole, not as 1.04858e+06.
std::string value_text(float value) {
    char text[32];
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e9f)
        std::snprintf(text, sizeof text, "%.0f", static_cast<double>(value));
    else
        std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

std::string element_name(bool of_a, std::int64_t row, std::int64_t col) {
    return format_text("{}[{}][{}]", of_a ? "A" : "B", row, col);
}

}  // namespace

std::string_view experiment_name(Experiment experiment) { return named(experiment).name; }

std::optional<Experiment> parse_experiment(std::string_view text) {
    for (const Named& n : kExperiments)
        if (n.name == text) return n.experiment;
    return std::nullopt;
}

std::string experiment_names() {
    std::string names;
    for (const Named& n : kExperiments) {
        if (!names.empty()) names += ", ";
        names += n.name;
    }
    return names;
}

const ExperimentText& experiment_text(Experiment experiment) { return named(experiment).text; }

KernelConfig experiment_kernel(Experiment experiment, int tile) {
    KernelConfig config;
    if (breaks_tiled(experiment)) {
        config.kind = KernelKind::Tiled;
        config.tile = tile;
        config.block_x = config.block_y = tile;
    } else {
        config.kind = KernelKind::ConflictFree;
    }
    return config;
}

std::vector<ExperimentCase> default_experiment_cases(Experiment experiment) {
    switch (experiment) {
        case Experiment::MissingFirstSync:
        case Experiment::MissingSecondSync:
            // 16, 256 and 1024 blocks: few blocks share an SM, then many waves of them.
            return {make_case(experiment, 64, 64, 64, 16), make_case(experiment, 256, 256, 256, 16),
                    make_case(experiment, 1024, 1024, 1024, 32)};
        case Experiment::NoBoundsCheck:
            // A tile multiple (nothing happens), then M and N past a multiple with K on one (ghost
            // threads store onto the next row and past C), then K off a multiple too (B's last
            // rows lie past its end).
            return {make_case(experiment, 64, 64, 64, 16), make_case(experiment, 100, 100, 64, 16),
                    make_case(experiment, 100, 100, 100, 16)};
        case Experiment::BankConflicts:
            return {make_case(experiment, 1024, 1024, 1024, 0), make_case(experiment, 2048, 2048, 2048, 0)};
    }
    return {};
}

std::optional<std::string> check_experiment_case(Experiment experiment, const ExperimentCase& c) {
    const Problem& p = c.problem;
    if (p.dtype != Dtype::Float32)
        return format_text("the experiments run in float only (asked for {})", dtype_name(p.dtype));
    if (p.batch != 1) return format_text("the experiments run on one matrix (batch 1), not {}", p.batch);
    if (p.m < 1 || p.n < 1 || p.k < 1)
        return format_text("M, N and K must be at least 1 (got {} × {} × {})", p.m, p.n, p.k);
    if (p.m * p.n > kMaxExperimentCells)
        return format_text("C of {} × {} has {} cells; an experiment keeps a count per cell for at most {} (4096 × 4096)",
                           p.m, p.n, p.m * p.n, kMaxExperimentCells);
    if (p.k > 16384) return format_text("K = {} is more than an experiment runs (at most 16384)", p.k);
    if (breaks_tiled(experiment)) {
        if (c.kernel.kind != KernelKind::Tiled)
            return format_text("{} breaks the tiled kernel, not {}", experiment_name(experiment), describe(c.kernel));
        const int t = c.kernel.tile;
        if (t != 8 && t != 16 && t != 32)
            return format_text("{} has variants for T = 8, 16 and 32 only (asked for T = {})",
                               experiment_name(experiment), t);
    } else if (c.kernel.kind != KernelKind::ConflictFree) {
        return format_text("bank-conflicts breaks the conflict-free rung, not {}", describe(c.kernel));
    }
    return std::nullopt;
}

std::int64_t guard_elements(const Problem& problem, int tile) {
    const std::int64_t t = std::max(tile, 1);
    const std::int64_t widest = std::max(problem.k, problem.n);
    const std::int64_t reach = (t - 1) * widest + t;
    // A multiple of 64 elements keeps the operands 256-byte aligned, as cudaMalloc's are.
    return ceil_div64(reach, 64) * 64;
}

WrongCellMap make_wrong_cell_map(std::int64_t m, std::int64_t n) {
    WrongCellMap map;
    map.bin_rows = static_cast<int>(ceil_div64(m, kMaxHeatSide));
    map.bin_cols = static_cast<int>(ceil_div64(n, kMaxHeatSide));
    map.rows = static_cast<int>(ceil_div64(m, map.bin_rows));
    map.cols = static_cast<int>(ceil_div64(n, map.bin_cols));
    map.wrong_runs.assign(static_cast<std::size_t>(map.rows) * map.cols, 0);
    return map;
}

void add_run(WrongCellMap& map, std::int64_t m, std::int64_t n, std::span<const std::uint8_t> wrong) {
    std::vector<std::uint8_t> hit(map.wrong_runs.size(), 0);
    for (std::int64_t row = 0; row < m; ++row)
        for (std::int64_t col = 0; col < n; ++col)
            if (wrong[static_cast<std::size_t>(row * n + col)])
                hit[static_cast<std::size_t>((row / map.bin_rows) * map.cols + col / map.bin_cols)] = 1;
    for (std::size_t i = 0; i < hit.size(); ++i) map.wrong_runs[i] += hit[i];
}

bool watchable(const Problem& problem) {
    constexpr std::int64_t kExactFloats = std::int64_t{1} << 24;
    return problem.m * problem.k + 1 <= kExactFloats && problem.k * problem.n + 1 <= kExactFloats;
}

std::optional<ElementPlace> decode_watched_value(float value, const Problem& problem, bool of_a) {
    const std::int64_t rows = of_a ? problem.m : problem.k;
    const std::int64_t cols = of_a ? problem.k : problem.n;
    if (!(value >= 1.0f) || value != std::floor(value)) return std::nullopt;
    const auto index = static_cast<std::int64_t>(value) - 1;
    if (index >= rows * cols) return std::nullopt;
    return ElementPlace{index / cols, index % cols};
}

std::optional<StaleRead> most_telling(const StaleReadReport& report) {
    if (report.reads.empty()) return std::nullopt;
    const StaleRead* best = nullptr;
    for (const StaleRead& read : report.reads) {
        if (read.value_phase < 0 || read.value_phase == read.phase) continue;
        if (!best || read.phase < best->phase) best = &read;
    }
    return best ? *best : report.reads.front();
}

std::string explain_stale_read(Experiment experiment, const StaleRead& read, int tile) {
    const bool of_a = read.operand == 'A';
    const std::string slot = format_text("{}s[{}][{}]", of_a ? "A" : "B", read.slot_row, read.slot_col);
    // The element the slot should hold in this phase: row band of the block for A, column band for B.
    const std::int64_t expected_row = of_a ? std::int64_t{read.block_y} * tile + read.slot_row
                                           : std::int64_t{read.phase} * tile + read.slot_row;
    const std::int64_t expected_col = of_a ? std::int64_t{read.phase} * tile + read.slot_col
                                           : std::int64_t{read.block_x} * tile + read.slot_col;
    std::string text = format_text("In phase {}, thread ({}, {}) of block ({}, {}) read {} and got {} where it "
                                   "should have got {} ({}).",
                                   read.phase, read.reader_x, read.reader_y, read.block_x, read.block_y, slot,
                                   value_text(read.got), value_text(read.expected), element_name(of_a, expected_row, expected_col));
    const std::string writer = format_text("thread ({}, {})", read.writer_x, read.writer_y);
    const bool clocks = read.write_clock != 0 && read.read_clock != 0;
    const std::int64_t gap = read.read_clock - read.write_clock;
    if (read.value_phase > read.phase) {
        text += format_text(" That is phase {}'s element: {}, which stores this slot, had already finished its "
                            "multiply-adds for phase {} and stored the next tile",
                            read.value_phase, writer, read.phase);
        if (clocks && gap > 0) text += format_text(" {} cycles before the read", gap);
        text += ". ";
        text += experiment == Experiment::MissingSecondSync
                    ? "The barrier after the multiply-adds would have held it until every thread had read this phase."
                    : "It ran ahead of the reader.";
    } else if (read.value_phase >= 0 && read.value_phase < read.phase) {
        text += format_text(" That is phase {}'s element, still in the slot: the read came before {} stored phase "
                            "{}'s",
                            read.value_phase, writer, read.phase);
        if (clocks && gap < 0) text += format_text(" ({} cycles too early)", -gap);
        text += ". ";
        text += experiment == Experiment::MissingFirstSync
                    ? "The barrier after the loads would have made the reader wait until every slot was stored."
                    : "The reader came too early.";
    } else if (read.value_phase == read.phase) {
        text += " The value is this phase's element but a different one than the slot should hold.";
    } else {
        text += format_text(" That value is no element of this block's {} for any phase: the slot still held what "
                            "an earlier block on the same SM left there (or nothing written in this launch), because "
                            "the read came before {} stored it",
                            of_a ? "rows of A" : "columns of B", writer);
        if (clocks && gap < 0) text += format_text(" ({} cycles too early)", -gap);
        text += ".";
    }
    return text;
}

std::string summarize_run(const ExperimentRun& run) {
    const Problem& p = run.c.problem;
    std::string text = format_text("{} at {} × {} × {}, {}, {} blocks: {} of {} runs wrong", experiment_name(run.experiment),
                                   p.m, p.n, p.k, describe(run.c.kernel), run.blocks, run.wrong_runs, run.runs);
    if (run.wrong_runs > 0) {
        const double share = 100.0 * static_cast<double>(run.wrong_cells_worst) / static_cast<double>(p.m * p.n);
        text += format_text("; at most {} wrong cells in one run ({} % of C), {} cells wrong at least once",
                            run.wrong_cells_worst, fixed(share, 1), run.cells_ever_wrong);
        if (run.max_error > 0) text += format_text("; largest error {}", sci(run.max_error));
    }
    if (run.nan_cells > 0) text += format_text("; {} cells came out NaN (the guard zone's poison was read)", run.nan_cells);
    if (run.stray_writes > 0)
        text += format_text("; {} stores landed in C's guard zones ({} per run)", run.stray_writes,
                            run.runs > 0 ? run.stray_writes / run.runs : 0);
    text += ".";
    if (run.broken_ms > 0 && run.real_ms > 0)
        text += format_text(" Without the padding a launch took {} ms, with it {} ms: {} % slower.",
                            fixed(run.broken_ms, 3), fixed(run.real_ms, 3),
                            fixed(100.0 * (run.broken_ms / run.real_ms - 1.0), 1));
    if (!run.note.empty()) text += " " + run.note;
    return text;
}

std::int64_t predicted_stray_writes(const ExperimentCase& c) {
    const std::int64_t t = std::max(c.kernel.tile, 1);
    const Problem& p = c.problem;
    const std::int64_t padded_m = ceil_div64(p.m, t) * t, padded_n = ceil_div64(p.n, t) * t;
    // Row r's threads store to [r·N, r·N + padded_n); padded_n ≥ N, so the rows' ranges join into
    // [0, (padded_m − 1)·N + padded_n). What lies at or past M·N is in the guard zone.
    const std::int64_t end = (padded_m - 1) * p.n + padded_n;
    return std::max<std::int64_t>(0, end - p.m * p.n);
}

std::string explain_out_of_bounds(const ExperimentCase& c) {
    const int t = std::max(c.kernel.tile, 1);
    const Problem& p = c.problem;
    if (p.m % t == 0 && p.n % t == 0 && p.k % t == 0)
        return format_text("{}, {} and {} are multiples of T = {}: every thread lies inside C and every load inside A "
                           "and B, so without the checks nothing changes.",
                           p.m, p.n, p.k, t);
    const std::int64_t padded_m = ceil_div64(p.m, t) * t, padded_n = ceil_div64(p.n, t) * t,
                       padded_k = ceil_div64(p.k, t) * t;
    std::string text;
    if (p.k % t != 0)
        text += format_text("K = {} is not a multiple of T = {}: in the last phase every thread loads B's rows {} to "
                            "{}, which lie past B's end in the guard zone, so every cell of C adds the poison and comes "
                            "out NaN (its A elements {} to {} of a row are the next row's first ones). ",
                            p.k, t, p.k, padded_k - 1, p.k, padded_k - 1);
    if (p.n % t != 0)
        text += format_text("N = {} is not a multiple of T: the ghost threads of columns {} to {} store C[row·N + col], "
                            "which is cell (row + 1, col − N) of the next row, so they race with that cell's own thread "
                            "and whichever stores last wins. ",
                            p.n, p.n, padded_n - 1);
    if (p.m % t != 0)
        text += format_text("M = {} is not a multiple of T: rows {} to {} load A past its end (the poison) and store "
                            "past C's end. ",
                            p.m, p.m, padded_m - 1);
    const std::int64_t stray = predicted_stray_writes(c);
    if (stray > 0)
        text += format_text("Each launch stores to {} elements past C's end, in its guard zone.", stray);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

}  // namespace ts::model
