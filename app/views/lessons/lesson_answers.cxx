// lesson_answers.cxx — each answer a lesson can reveal (lesson_answers.hpp says why they are
// computed, never written in the lesson). In order: the model's counts (element_loads,
// reuse_factor, warp_sectors, threads_per_block); measured times (coalescing_penalty,
// measured_speedup); the kernel ladder; the tensor-core ladder; what each type costs in
// accuracy; eight bits (FP8); power and clocks; breaking a kernel on purpose; then check_answer,
// which picks one by its word.
#include "views/lessons/lesson_answers.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <vector>

#include "gpu/tuned_shapes.hpp"
#include "views/lab/lab_state.hpp"
#include "model/accumulator.hpp"
#include "model/experiment.hpp"
#include "model/format.hpp"
#include "model/fp8_values.hpp"
#include "model/rung_info.hpp"
#include "model/ladder.hpp"
#include "model/ladder_rungs.hpp"
#include "model/launch_geometry.hpp"
#include "model/memory_sectors.hpp"
#include "model/phase_timeline.hpp"
#include "model/precision.hpp"
#include "model/traffic.hpp"
#include "views/common/text.hpp"

namespace ts::views {

using model::format_text;

namespace {

constexpr const char* kCounted = "counted by the model";

std::string size_text(const model::Problem& p) { return format_text("{}×{}×{}", p.m, p.n, p.k); }

std::string ratio_text(double ratio) { return model::fixed(ratio, ratio < 10 ? 2 : 1) + "×"; }

// How many times the whole run reads A[row][col] (or B) from global memory: the theatre's
// counters at the store, the last step of the kernel.
RevealedAnswer element_loads(const AppState& state, model::Operand operand, int row, int col) {
    const model::KernelConfig& kernel = state.kernel;
    const model::Problem& p = state.problem;
    const char* name = operand == model::Operand::A ? "A" : "B";
    if (!model::is_modelled(kernel.kind))
        return {std::nullopt, "—", std::string(model::unmodelled_reason(kernel.kind))};
    const bool tiled = kernel.kind == model::KernelKind::Tiled;
    const model::Timeline timeline = model::make_timeline(p, kernel.tile, !tiled, false);
    const model::KernelStep end = model::step_at(timeline, timeline.count() - 1);
    const std::int64_t loads = model::element_reads_so_far(kernel.kind, p, kernel.tile, end, operand, row, col);
    // A is shared along a row of C, B along a column: that is who asks for the element.
    const bool of_a = operand == model::Operand::A;
    const std::int64_t sharers = of_a ? p.n : p.m;
    std::string how;
    if (tiled)
        how = format_text("{}, {}: each of the ⌈{} / T⌉ = ⌈{} / {}⌉ blocks along that {} of C loads it once into shared "
                     "memory, and its threads read it from there",
                     kCounted, size_text(p), of_a ? "N" : "M", sharers, kernel.tile, of_a ? "row" : "column");
    else
        how = format_text("{}, {}: every thread whose cell of C lies in {} {} reads {}[{}][{}] itself, and that {} has "
                     "{} = {} cells",
                     kCounted, size_text(p), of_a ? "row" : "column", of_a ? row : col, name, row, col,
                     of_a ? "row" : "column", of_a ? "N" : "M", sharers);
    return {static_cast<double>(loads), grouped(loads), how};
}

RevealedAnswer reuse_factor(const AppState& state) {
    const model::Problem& p = state.problem;
    model::KernelConfig naive = state.kernel;
    naive.kind = model::KernelKind::Naive;
    model::KernelConfig tiled = state.kernel;
    tiled.kind = model::KernelKind::Tiled;
    const std::int64_t naive_loads = model::count_traffic(naive, p).global_loads();
    const std::int64_t tiled_loads = model::count_traffic(tiled, p).global_loads();
    if (tiled_loads == 0) return {std::nullopt, "—", "the tiled kernel loads nothing for this problem"};
    const double ratio = static_cast<double>(naive_loads) / static_cast<double>(tiled_loads);
    return {ratio, ratio_text(ratio),
            format_text("{}, {}: the naive kernel makes {} global loads, the tiled kernel with T = {} makes {}", kCounted,
                   size_text(p), grouped(naive_loads), tiled.tile, grouped(tiled_loads))};
}

// One warp (warp 0 of block (0, 0)) at k = 0 of the naive loop: the sectors its reads of A
// and B fall in, with the naive kernel's block shape.
RevealedAnswer warp_sectors(const AppState& state, model::WarpMapping mapping) {
    const model::Problem& p = state.problem;
    const model::Index2 block_dim{state.kernel.block_x, state.kernel.block_y};
    const auto a = model::naive_read_access(p, block_dim, {0, 0}, 0, model::Operand::A, 0, mapping);
    const auto b = model::naive_read_access(p, block_dim, {0, 0}, 0, model::Operand::B, 0, mapping);
    const model::WarpMapping other_mapping =
        mapping == model::WarpMapping::Coalesced ? model::WarpMapping::XIsRow : model::WarpMapping::Coalesced;
    const auto a_other = model::naive_read_access(p, block_dim, {0, 0}, 0, model::Operand::A, 0, other_mapping);
    const auto b_other = model::naive_read_access(p, block_dim, {0, 0}, 0, model::Operand::B, 0, other_mapping);
    const bool x_is_row = mapping == model::WarpMapping::XIsRow;
    const int sectors = a.sectors + b.sectors;
    return {static_cast<double>(sectors), std::to_string(sectors),
            format_text("{}: warp 0 of block (0, 0), {}×{} threads, {} lanes, reading at k = 0 with threadIdx.x as the "
                   "{}: A {} + B {} of 32 bytes. With threadIdx.x as the {} instead: A {} + B {} "
                   "= {}",
                   kCounted, block_dim.x, block_dim.y, a.active_lanes, x_is_row ? "row" : "column",
                   model::counted(a.sectors, "sector"), model::counted(b.sectors, "sector"), x_is_row ? "column" : "row", a_other.sectors, b_other.sectors,
                   a_other.sectors + b_other.sectors)};
}

RevealedAnswer threads_per_block(const AppState& state) {
    const model::LaunchGeometry g = model::plan_launch(state.kernel, state.problem);
    if (!g.modelled) return {std::nullopt, "—", std::string(model::unmodelled_reason(state.kernel.kind))};
    const std::int64_t threads = g.block.volume();
    return {static_cast<double>(threads), grouped(threads),
            format_text("{}: blockDim = ({}, {}), {} × {} threads; a GPU allows at most {} per block", kCounted, g.block.x,
                   g.block.y, g.block.x, g.block.y, launch_limits(state).max_threads_per_block)};
}

// Where a measured point comes from: the loaded measurement, or a run on this machine's GPU.
std::string source_of(const LabState& lab, const record::Point* point) {
    if (lab.measured.measurement) {
        const auto& points = lab.measured.measurement->points;
        if (!points.empty() && point >= &points.front() && point <= &points.back())
            return lab.measured.measurement_label;
    }
    return "measured on this computer's GPU this session";
}

// slow (in slow_dtype) ÷ fast (in fast_dtype) at the largest square size the lab has both for.
RevealedAnswer measured_ratio_of(const AppState& state, const std::string& slow_name, const std::string& slow_dtype,
                                 const std::string& fast_name, const std::string& fast_dtype, const char* what,
                                 std::int64_t* size_used = nullptr) {
    const auto points = lab_points(state.lab.measured);
    std::vector<std::int64_t> sizes;
    for (const record::Point* p : points)
        if (p->ok && p->config == fast_name && p->dtype == fast_dtype && p->batch == 1 && p->m == p->n && p->m == p->k)
            sizes.push_back(p->m);
    std::sort(sizes.rbegin(), sizes.rend());
    const std::string types = slow_dtype == fast_dtype ? slow_dtype : slow_dtype + " and " + fast_dtype;
    for (std::int64_t size : sizes) {
        const record::Point* s = find_point(points, slow_name, size, slow_dtype);
        const record::Point* f = find_point(points, fast_name, size, fast_dtype);
        if (!s || !f || !s->ok || !f->ok || f->median_ms <= 0.0) continue;
        const double ratio = s->median_ms / f->median_ms;
        if (size_used) *size_used = size;
        return {ratio, ratio_text(ratio),
                format_text("{}, {}×{}×{} {}, median kernel time: {} {}, {} {} ({})", source_of(state.lab, f), size, size,
                       size, types, slow_name, model::human_seconds(s->median_ms / 1e3), fast_name,
                       model::human_seconds(f->median_ms / 1e3), what)};
    }
    return {std::nullopt, "not measured here",
            format_text("no measurement of both {} and {} in {} is loaded: run them on a GPU (the latency view's "
                   "Measure) or load a measurement with --load",
                   slow_name, fast_name, types)};
}

// slow ÷ fast at the largest square size the lab has both for (in the state's dtype).
RevealedAnswer measured_ratio(const AppState& state, const model::KernelConfig& slow, const model::KernelConfig& fast,
                              const char* what) {
    const std::string dtype(model::dtype_name(state.problem.dtype));
    return measured_ratio_of(state, model::describe(slow), dtype, model::describe(fast), dtype, what);
}

RevealedAnswer coalescing_penalty(const AppState& state) {
    if (const auto penalty = measured_coalescing_penalty(state.lab))
        return {penalty->ratio, ratio_text(penalty->ratio),
                "measured: " + penalty->measured + " (naive-row time ÷ naive time)"};
    model::KernelConfig row = state.kernel;
    row.kind = model::KernelKind::NaiveRowFromX;
    model::KernelConfig column = state.kernel;
    column.kind = model::KernelKind::Naive;
    return measured_ratio(state, row, column, "threadIdx.x as the row ÷ as the column");
}

RevealedAnswer measured_speedup(const AppState& state) {
    model::KernelConfig naive = state.kernel;
    naive.kind = model::KernelKind::Naive;
    model::KernelConfig tiled = state.kernel;
    tiled.kind = model::KernelKind::Tiled;
    return measured_ratio(state, naive, tiled, "naive time ÷ tiled time");
}

// ---- The kernel ladder -------------------------------------------------------------------
// The step's `kernel:` names a rung (model::ladder_rungs: tiled T=32, regtile-1d … tuned);
// the answers compare it with the rung below it, with tiled T=32 or with cuBLAS, in float at
// 4096³, whatever size the theatre shows: the largest size both committed measurements hold
// for every rung, where the tiles' edges no longer matter. Where a measurement lacks that
// size, the largest square size measured for both is used, and named.

// Where `kind` stands on `ladder` (its row's position: the tiled kernel is rung 0 of the FP32
// ladder); -1 when it is not one of that ladder's rungs.
int rung_position(model::Ladder ladder, model::KernelKind kind) {
    const model::RungInfo* row = model::find_rung(kind);
    return row && row->ladder == ladder ? row->position : -1;
}

int rung_index(model::KernelKind kind) { return rung_position(model::Ladder::Fp32, kind); }

constexpr std::int64_t kLadderAnswerSize = 4096;

model::Problem square_float(std::int64_t size) {
    model::Problem problem;
    problem.m = problem.n = problem.k = size;
    problem.dtype = model::Dtype::Float32;
    return problem;
}

// The GPU whose points the lab shows: this one when it runs, else the measurement's.
std::string measured_gpu(const AppState& state) {
    if (state.device && state.device->usable) return state.device->limits.name;
    if (state.lab.measured.measurement) return state.lab.measured.measurement->meta.device.name;
    return "";
}

// The tuned rung runs the candidate the tuning table picks for the GPU and size; the counts
// are those of that candidate.
model::KernelConfig counted_kernel(const AppState& state, model::KernelConfig kernel, const model::Problem& problem) {
    if (model::is_tuned(kernel.kind) && kernel.variant < 0)
        kernel.variant = gpu::choose_tuned_variant(kernel.kind, measured_gpu(state), problem).variant;
    return kernel;
}

std::string rung_name(const model::KernelConfig& kernel) {
    return kernel.kind == model::KernelKind::Tuned && kernel.variant >= 0
               ? format_text("tuned (candidate #{}, {})", kernel.variant, model::describe_shape(model::ladder_shape(kernel)))
               : model::describe(kernel);
}

// 4294967296 → "4.29 G": a count of loads at 4096³, read aloud.
std::string billions(std::int64_t count) {
    return count >= 1'000'000'000 ? model::fixed(static_cast<double>(count) / 1e9, 2) + " G" : grouped(count);
}

// What the counts predict for `to` over `from` at `size`³: issue slots per FMA, the FMA itself
// plus every load instruction that feeds it (shared and global; a float4 is one), as the
// ladder view's tooltips count them.
struct CountedSpeedup {
    double ratio = 0.0;
    std::string how;
};
CountedSpeedup counted_speedup(const AppState& state, model::KernelConfig from, model::KernelConfig to,
                               std::int64_t size) {
    const model::Problem problem = square_float(size);
    from = counted_kernel(state, from, problem);
    to = counted_kernel(state, to, problem);
    const model::RungCounts a = model::rung_counts(from, problem);
    const model::RungCounts b = model::rung_counts(to, problem);
    const double ratio = model::predicted_speedup(a, b);
    std::string how = format_text(
        "issue slots per FMA (the FMA itself plus every shared- and global-memory load instruction that feeds it, a "
        "float4 counting as one) {} → {}; of them shared loads per FMA {} → {}; global loads {} → {}",
        model::fixed(a.issue_per_fma(), 3), model::fixed(b.issue_per_fma(), 3), model::fixed(a.shared_loads_per_fma, 3),
        model::fixed(b.shared_loads_per_fma, 3), billions(a.global_loads), billions(b.global_loads));
    if (to.kind == model::KernelKind::Tuned)
        how = format_text("the tuned rung runs {} at {}³{}; ", rung_name(to), size,
                          measured_gpu(state).empty() ? std::string() : " on " + measured_gpu(state)) +
              how;
    if (std::abs(ratio - 1.0) < 0.02)
        how += ". The counts barely change: whatever this rung gains lies in what they leave out (bank conflicts, waiting for "
                "memory, how well the blocks fill the GPU)";
    return {ratio, how};
}

// The points of `slow` and `fast` at `size`³ (float), else at the largest square size that
// has both; nullptr when none has.
struct PointPair {
    const record::Point* slow = nullptr;
    const record::Point* fast = nullptr;
    std::int64_t size = 0;
};
PointPair measured_pair(const AppState& state, const std::string& slow, const std::string& fast, std::int64_t size) {
    const auto points = lab_points(state.lab.measured);
    const auto both_at = [&](std::int64_t at) -> PointPair {
        const record::Point* s = find_point(points, slow, at, "float");
        const record::Point* f = find_point(points, fast, at, "float");
        if (!s || !f || !s->ok || !f->ok || s->median_ms <= 0.0 || f->median_ms <= 0.0) return {};
        return {s, f, at};
    };
    if (PointPair pair = both_at(size); pair.slow) return pair;
    std::vector<std::int64_t> sizes;
    for (const record::Point* p : points)
        if (p->ok && p->config == fast && p->dtype == "float" && p->batch == 1 && p->m == p->n && p->m == p->k)
            sizes.push_back(p->m);
    std::sort(sizes.rbegin(), sizes.rend());
    for (std::int64_t at : sizes)
        if (PointPair pair = both_at(at); pair.slow) return pair;
    return {};
}

RevealedAnswer not_measured(const std::string& slow, const std::string& fast) {
    return {std::nullopt, "not measured here",
            format_text("no measurement of both {} and {} in float is loaded: run them on a GPU (the ladder view's "
                        "Measure) or load a measurement with --load",
                        slow, fast)};
}

std::string times_text(const AppState& state, const PointPair& pair, const std::string& slow, const std::string& fast) {
    return format_text("{}, {}³ float, median kernel time: {} {}, {} {}", source_of(state.lab, pair.fast), pair.size,
                       slow, model::human_seconds(pair.slow->median_ms / 1e3), fast,
                       model::human_seconds(pair.fast->median_ms / 1e3));
}

// The step's rung over the rung below it, as the model's counts predict it.
RevealedAnswer rung_speedup_predicted(const AppState& state) {
    const int index = rung_index(state.kernel.kind);
    const auto rungs = model::ladder_rungs();
    const std::int64_t size = kLadderAnswerSize;
    const model::KernelConfig below = rungs[static_cast<std::size_t>(index) - 1].kernel;
    const CountedSpeedup counted = counted_speedup(state, below, rungs[static_cast<std::size_t>(index)].kernel, size);
    if (counted.ratio <= 0.0) return {std::nullopt, "—", "the model counts nothing for this problem"};
    return {counted.ratio, ratio_text(counted.ratio),
            format_text("{}, {}³ float, {} over {}: {}", kCounted, size,
                        model::describe(rungs[static_cast<std::size_t>(index)].kernel), model::describe(below),
                        counted.how)};
}

// The step's rung over the rung below it (or over tiled T=32), measured; the counts'
// prediction beside it.
RevealedAnswer rung_speedup_measured(const AppState& state, bool over_tiled) {
    const int index = rung_index(state.kernel.kind);
    const auto rungs = model::ladder_rungs();
    const model::KernelConfig from = rungs[over_tiled ? 0 : static_cast<std::size_t>(index) - 1].kernel;
    const model::KernelConfig to = rungs[static_cast<std::size_t>(index)].kernel;
    const std::string slow = model::describe(from), fast = model::describe(to);
    const PointPair pair = measured_pair(state, slow, fast, kLadderAnswerSize);
    if (!pair.slow) return not_measured(slow, fast);
    const double ratio = pair.slow->median_ms / pair.fast->median_ms;
    const CountedSpeedup counted = counted_speedup(state, from, to, pair.size);
    return {ratio, format_text("{} (the counts: {})", ratio_text(ratio), ratio_text(counted.ratio)),
            format_text("{} ({} time ÷ {} time). The model's counts at that size predicted {}: {}",
                        times_text(state, pair, slow, fast), slow, fast, ratio_text(counted.ratio), counted.how)};
}

// The step's kernel as a percentage of cuBLAS's speed: cuBLAS's time ÷ its time.
RevealedAnswer percent_of_cublas(const AppState& state) {
    const int index = rung_index(state.kernel.kind);
    const std::string name = model::describe(model::ladder_rungs()[static_cast<std::size_t>(index)].kernel);
    const PointPair pair = measured_pair(state, kCublasConfig, name, kLadderAnswerSize);
    if (!pair.slow) return not_measured(kCublasConfig, name);
    const double percent = 100.0 * pair.slow->median_ms / pair.fast->median_ms;
    return {percent, model::fixed(percent, 0) + " %",
            format_text("{} (cuBLAS time ÷ {} time; cuBLAS in plain FP32, no tensor cores)",
                        times_text(state, pair, "cuBLAS", name), name)};
}

// ---- The tensor-core ladder ------------------------------------------------------------------
// The step's `kernel:` names a tensor-core rung (model::tensor_core_rungs: wmma … tc-tuned); the
// answers compare it, in BF16, with the rung below it, with cuBLAS BF16, or with cuBLAS in FP32
// (the CUDA cores' best), at the largest square size measured for both (8192³ in the committed
// measurements).

int tc_rung_index(model::KernelKind kind) { return rung_position(model::Ladder::TensorCores, kind); }

RevealedAnswer tc_answer(const AppState& state, const std::string& word) {
    const auto rungs = model::tensor_core_rungs();
    const int index = tc_rung_index(state.kernel.kind);
    const std::string name = model::describe(rungs[static_cast<std::size_t>(index)].kernel);
    if (word == "tc-rung-speedup-measured") {
        const model::KernelConfig below_kernel = rungs[static_cast<std::size_t>(index) - 1].kernel;
        const std::string below = model::describe(below_kernel);
        std::int64_t size = 0;
        RevealedAnswer measured = measured_ratio_of(state, below, "bf16", name, "bf16",
                                                    format_text("{} time ÷ {} time", below, name).c_str(), &size);
        if (!measured.value) return measured;
        // Beside it, what the counts predict at that size were global traffic the limit.
        model::Problem problem;
        problem.m = problem.n = problem.k = size;
        problem.dtype = model::Dtype::BFloat16;
        const model::RungCounts from = model::rung_counts(below_kernel, problem),
                                to = model::rung_counts(rungs[static_cast<std::size_t>(index)].kernel, problem);
        const double predicted = model::predicted_traffic_speedup(from, to);
        measured.shown += format_text(" (the counts: {})", ratio_text(predicted));
        measured.how += format_text(". The model's counts at that size predicted {} were global traffic the limit: {} "
                                    "FLOP per byte asked of global memory against {} (tensor-core instructions are too "
                                    "few to count issue slots as the FP32 rungs do)",
                                    ratio_text(predicted), model::fixed(to.intensity, 1), model::fixed(from.intensity, 1));
        return measured;
    }
    if (word == "tc-speedup-over-fp32")
        return measured_ratio_of(state, kCublasConfig, "float", name, "bf16",
                                 format_text("cuBLAS FP32 time ÷ {} BF16 time: the CUDA cores' best against the tensor "
                                             "cores",
                                             name)
                                     .c_str());
    RevealedAnswer ratio = measured_ratio_of(state, kCublasConfig, "bf16", name, "bf16",
                                             format_text("cuBLAS BF16 time ÷ {} time", name).c_str());
    if (!ratio.value) return ratio;
    const double percent = 100.0 * *ratio.value;
    return {percent, model::fixed(percent, 0) + " %", ratio.how};
}

// ---- What each type costs in accuracy (model/precision.hpp) -----------------------------------
// digits-fp32 … digits-bf16: the correct decimal digits of C in each type, worked out by the model
// on the CPU against FP64 on the unrounded inputs. check-error: the largest relative error
// `check` found for the step's kernel in BF16 on a GPU, against FP64 on the inputs it had.

// 0.00267 → "0.0027", 5.8e-07 → "5.8e-07": two significant digits.
std::string two_digits(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", value);
    return text;
}

std::optional<model::Precision> digits_precision(const std::string& word) {
    for (model::Precision p : model::kPrecisions) {
        std::string name(model::precision_name(p));
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        if (word == "digits-" + name) return p;
    }
    return std::nullopt;
}

RevealedAnswer precision_digits(model::Precision p) {
    const model::PrecisionError& e = model::lesson_precision_error(p);
    const double digits = std::round(e.digits() * 10.0) / 10.0;
    const bool sixteen_bit = p == model::Precision::Fp16 || p == model::Precision::Bf16;
    return {digits, format_text("{} digits", model::fixed(digits, 1)),
            format_text("computed by the model on this CPU: C = A·B of {}×{} with K = {}, inputs uniform in [−1, 1) "
                        "rounded to {} ({} significant bits), {}sums in FP32{}, against FP64 on the unrounded inputs: "
                        "‖error‖ ÷ ‖C‖ = {}, so −log10 of it is {}; the worst cell is off by {} of max(|c|, 1)",
                        model::kPrecisionM, model::kPrecisionN, model::kPrecisionK, model::precision_name(p),
                        model::significand_bits(p),
                        p == model::Precision::Fp32 ? "one fused multiply-add per k, " : "products exact, ",
                        sixteen_bit ? format_text(", C rounded to {}", model::precision_name(p)) : std::string(),
                        two_digits(e.normwise), model::fixed(e.digits(), 2),
                        two_digits(e.largest))};
}

RevealedAnswer check_error(const AppState& state) {
    const std::string name = model::describe(state.kernel);
    const record::Point* best = nullptr;
    for (const record::Point* p : lab_points(state.lab.measured))
        if (p->ok && p->checked && p->max_rel_error && p->config == name && p->dtype == "bf16" &&
            (!best || p->m * p->n * p->k > best->m * best->n * best->k))
            best = p;
    if (!best)
        return {std::nullopt, "not measured here",
                format_text("no checked BF16 run of {} is loaded: run it on a GPU with its check on, or load a "
                            "measurement with --load",
                            name)};
    return {*best->max_rel_error, two_digits(*best->max_rel_error),
            format_text("{}, {}×{}×{} bf16: the largest |c − exact| ÷ max(|exact|, 1) of any cell, the exact product "
                        "taken in FP64 from the BF16 inputs the kernel had",
                        source_of(state.lab, best), best->m, best->n, best->k)};
}

// ---- Eight bits (FP8 e4m3, model/fp8_values.hpp) ----------------------------------------------
// e4m3-significant-bits: read off the model's e4m3 decoder. fp8-speedup-over-bf16 and
// fp8-error-vs-fp64: cuBLAS's FP8 GEMM (cuBLASLt, one scale per tensor) against cuBLAS BF16, and
// its C against FP64 on the FP32 inputs before quantisation, measured. fp8-accumulator-error and
// fp8-promoted-error: the error of a long sum of FP8 products at K = 4096, never promoted and
// promoted every 128 of K, from this session's run of the accumulator experiment where there is one,
// else from the model of an accumulator that keeps model::kFp8AccumulatorFractionBits.

constexpr const char* kFp8Run =
    "run `tilescope-cli bench --kernel cublas --dtype bf16,fp8 --size 4096 --check-all --json fp8.json` on an "
    "H100 or H200 (FP8 needs Hopper's tensor cores), then open it with `tilescope --load fp8.json`";

RevealedAnswer e4m3_significant_bits() {
    // The gap from 1 to the next e4m3 value up is one step of the last fraction bit.
    const std::uint8_t one = model::round_to_e4m3(1.0);
    const double next = model::e4m3_to_double(static_cast<std::uint8_t>(one + 1));
    const int fraction_bits = static_cast<int>(std::lround(-std::log2(next - 1.0)));
    const int bits = fraction_bits + 1;
    return {static_cast<double>(bits), format_text("{} bits", bits),
            format_text("{} (model/fp8_values.hpp): the e4m3 value after 1 is {}, a step of 2^-{}, so {} fraction "
                        "bits and the leading 1 make {} significant bits; the largest value is {} (1.75 × 2^8); "
                        "BF16 keeps 8 significant bits, FP32 24",
                        kCounted, model::fixed(next, 3), fraction_bits, fraction_bits, bits,
                        model::fixed(model::e4m3_to_double(model::kE4M3MaxCode), 0))};
}

// FP8 with one scale per tensor: what `bench --dtype fp8` measures unless --scaling block.
bool tensor_scaled_fp8(const record::Point& p) {
    return p.dtype == "fp8" && (!p.fp8_scaling || *p.fp8_scaling == "tensor");
}

bool square_single(const record::Point& p) { return p.batch == 1 && p.m == p.n && p.m == p.k; }

// The last cuBLAS FP8 point (live ones come last) at `size`³ with the scaling `scaling`.
const record::Point* cublas_fp8_at(const std::vector<const record::Point*>& points, std::int64_t size,
                                   std::string_view scaling) {
    const record::Point* found = nullptr;
    for (const record::Point* p : points)
        if (p->config == kCublasConfig && p->dtype == "fp8" && square_single(*p) && p->m == size &&
            p->fp8_scaling.value_or("tensor") == scaling)
            found = p;
    return found;
}

RevealedAnswer fp8_speedup_over_bf16(const AppState& state) {
    const auto points = lab_points(state.lab.measured);
    std::vector<std::int64_t> sizes;
    for (const record::Point* p : points)
        if (p->ok && p->config == kCublasConfig && tensor_scaled_fp8(*p) && square_single(*p)) sizes.push_back(p->m);
    std::sort(sizes.rbegin(), sizes.rend());
    for (std::int64_t size : sizes) {
        const record::Point* fp8 = cublas_fp8_at(points, size, "tensor");
        const record::Point* bf16 = find_point(points, kCublasConfig, size, "bf16");
        if (!fp8 || !bf16 || !fp8->ok || !bf16->ok || fp8->median_ms <= 0.0) continue;
        const double ratio = bf16->median_ms / fp8->median_ms;
        std::string how = format_text("{}, {}³, median kernel time: cuBLAS BF16 {}, cuBLAS FP8 (cuBLASLt, e4m3, one "
                                      "scale per tensor) {} (BF16 time ÷ FP8 time)",
                                      source_of(state.lab, fp8), size, model::human_seconds(bf16->median_ms / 1e3),
                                      model::human_seconds(fp8->median_ms / 1e3));
        if (fp8->quantize_ms && *fp8->quantize_ms > 0.0)
            how += format_text("; rounding A and B from FP32 to e4m3 took {} more on the GPU, timed apart",
                               model::human_seconds(*fp8->quantize_ms / 1e3));
        return {ratio, ratio_text(ratio), how};
    }
    return {std::nullopt, "not measured here",
            format_text("no measurement of cuBLAS in both bf16 and fp8 at one size is loaded: {}", kFp8Run)};
}

RevealedAnswer fp8_error_vs_fp64(const AppState& state) {
    const auto points = lab_points(state.lab.measured);
    const record::Point* best = nullptr;
    for (const record::Point* p : points)
        if (p->ok && p->config == kCublasConfig && tensor_scaled_fp8(*p) && p->error_vs_fp64_max &&
            (!best || p->m * p->n * p->k > best->m * best->n * best->k))
            best = p;
    if (!best)
        return {std::nullopt, "not measured here",
                format_text("no checked cuBLAS FP8 run is loaded (a sweep checks only up to 1024³ without "
                            "--check-all): {}",
                            kFp8Run)};
    std::string how = format_text("{}, {}×{}×{} fp8, one scale per tensor: the largest |c − exact| ÷ max(|exact|, 1) "
                                  "of any cell, the exact product taken in FP64 from the FP32 inputs before they were "
                                  "rounded to e4m3",
                                  source_of(state.lab, best), best->m, best->n, best->k);
    if (best->error_vs_fp64_rms)
        how += format_text("; C as a whole, ‖C − exact‖ ÷ ‖exact‖, was off by {}", two_digits(*best->error_vs_fp64_rms));
    if (best->m == best->n && best->m == best->k)
        if (const record::Point* block = cublas_fp8_at(points, best->m, "block"); block && block->error_vs_fp64_max)
            how += format_text(". With block scales (A per row per 128 of K, B per 128×128) the largest was {}",
                               two_digits(*block->error_vs_fp64_max));
    return {*best->error_vs_fp64_max, two_digits(*best->error_vs_fp64_max), how};
}

constexpr int kAccumulatorAnswerK = 4096;

// The model's FP8 growth curve on the experiment's own inputs (seed 1, as a run asks), worked out
// once: 512 sums of 16384 products, some 10 ms.
const std::vector<model::GrowthPoint>& modelled_fp8_growth() {
    static const std::vector<model::GrowthPoint> growth = model::simulate_growth(
        model::make_growth_inputs(model::AccumulatorInput::Fp8E4m3, model::kGrowthLargestK, 1),
        model::AccumulatorModel{model::kFp8AccumulatorFractionBits, model::AccumulatorRounding::TowardZero, false});
    return growth;
}

const model::GrowthPoint* growth_at(const std::vector<model::GrowthPoint>& growth, int k) {
    for (const model::GrowthPoint& point : growth)
        if (point.k == k) return &point;
    return nullptr;
}

// The largest relative error of the FP8 sums at K = 4096, never promoted or promoted every 128 of K.
RevealedAnswer fp8_accumulator_error(const AppState& state, bool promoted) {
    const char* way = promoted ? "promoted into FP32 registers every 128 of K" : "never promoted";
    const auto percent_of = [&](const model::GrowthPoint& p) {
        return 100.0 * (promoted ? p.promoted_max : p.never_max);
    };
    const auto other_of = [&](const model::GrowthPoint& p) {
        return 100.0 * (promoted ? p.never_max : p.promoted_max);
    };
    const auto shown = [](double percent) { return two_digits(percent) + " %"; };
    const auto& report = state.experiments.accumulator.report;
    if (report)
        for (const model::AccumulatorTypeReport& type : report->types)
            if (type.input == model::AccumulatorInput::Fp8E4m3)
                if (const model::GrowthPoint* p = growth_at(type.growth, kAccumulatorAnswerK)) {
                    const double percent = percent_of(*p);
                    return {percent, shown(percent),
                            format_text("measured on {} this session (the accumulator experiment): 64 × 8 sums of "
                                        "K = {} positive e4m3 products, {}, the largest relative error against the "
                                        "exact sums; {} it was {}",
                                        report->device, kAccumulatorAnswerK, way,
                                        promoted ? "never promoted" : "promoted every 128", shown(other_of(*p)))};
                }
    const model::GrowthPoint* p = growth_at(modelled_fp8_growth(), kAccumulatorAnswerK);
    if (!p) return {std::nullopt, "—", "the model has no point at K = 4096"};
    const double percent = percent_of(*p);
    return {percent, shown(percent),
            format_text("computed by the model on this CPU (model/accumulator.hpp): an accumulator that keeps {} "
                        "fraction bits below the leading bit of its largest term and cuts the rest toward zero, as "
                        "the accumulator experiment found on an H100; 64 × 8 sums of K = {} positive e4m3 products, "
                        "{}, the largest relative error against the exact sums; {} it is {}. Run the experiment "
                        "(the Experiments view's accumulator, or `tilescope-cli experiment accumulator`) to measure "
                        "your GPU",
                        model::kFp8AccumulatorFractionBits, kAccumulatorAnswerK, way,
                        promoted ? "never promoted" : "promoted every 128", shown(other_of(*p)))};
}

// ---- Power and clocks (gpu/energy.hpp) ---------------------------------------------------------
// The step's tensor-core rung against cuBLAS BF16 at the largest square size where both carry an
// energy figure: joules per matmul (NVML's energy counter over launches back to back), the average
// watts, and the SM clock while that energy was spent. Only `bench` measures energy; its JSON,
// loaded, brings it into the app.

struct EnergyPair {
    const record::Point* rung = nullptr;
    const record::Point* cublas = nullptr;
    std::int64_t size = 0;
};

EnergyPair energy_pair(const AppState& state, const std::string& name) {
    const auto points = lab_points(state.lab.measured);
    std::vector<std::int64_t> sizes;
    for (const record::Point* p : points)
        if (p->ok && p->config == name && p->dtype == "bf16" && square_single(*p) && p->joules_per_matmul)
            sizes.push_back(p->m);
    std::sort(sizes.rbegin(), sizes.rend());
    for (std::int64_t size : sizes) {
        const record::Point* rung = find_point(points, name, size, "bf16");
        const record::Point* cublas = find_point(points, kCublasConfig, size, "bf16");
        if (rung && cublas && rung->ok && cublas->ok && rung->joules_per_matmul && cublas->joules_per_matmul &&
            *cublas->joules_per_matmul > 0.0)
            return {rung, cublas, size};
    }
    return {};
}

RevealedAnswer no_energy(const std::string& name) {
    return {std::nullopt, "not measured here",
            format_text("no energy measurement of both {} and cuBLAS in bf16 is loaded: run `tilescope-cli bench "
                        "--kernel {},cublas --dtype bf16 --size 4096 --json energy.json` on a GPU (bench measures "
                        "energy unless --no-energy; about 11 s a point on an H100), then open it with `tilescope "
                        "--load energy.json`",
                        name, name)};
}

// What both points' energy phases read: "tc-tuned 141 mJ per matmul at 690 W and 1650 MHz, cuBLAS ...".
std::string energy_text(const record::Point& p, const std::string& name) {
    std::string text = format_text("{} {} per matmul", name, model::human_joules(*p.joules_per_matmul));
    if (p.avg_watts) text += format_text(" at {} W", model::fixed(*p.avg_watts, 0));
    if (p.energy_sm_clock_mhz) text += format_text(", SM clock {} MHz", *p.energy_sm_clock_mhz);
    return text;
}

RevealedAnswer tc_energy_answer(const AppState& state, const std::string& word) {
    const std::string name = model::describe(state.kernel);
    const EnergyPair pair = energy_pair(state, name);
    if (!pair.rung) return no_energy(name);
    const std::string measured =
        format_text("{}, {}³ bf16, launches back to back with NVML's energy counter read around them: {}; {}",
                    source_of(state.lab, pair.rung), pair.size, energy_text(*pair.rung, name),
                    energy_text(*pair.cublas, "cuBLAS"));
    if (word == "tc-joules-vs-cublas") {
        const double ratio = *pair.rung->joules_per_matmul / *pair.cublas->joules_per_matmul;
        return {ratio, ratio_text(ratio), format_text("{} ({}'s joules ÷ cuBLAS's)", measured, name)};
    }
    if (word == "tc-avg-watts") {
        if (!pair.rung->avg_watts) return {std::nullopt, "not measured here", measured + " (no average power read)"};
        const double watts = *pair.rung->avg_watts;
        return {watts, model::fixed(watts, 0) + " W",
                format_text("{}. Power is energy over time: {} per matmul ÷ {} per matmul = {} W", measured,
                            model::human_joules(*pair.rung->joules_per_matmul),
                            model::human_seconds(*pair.rung->joules_per_matmul / watts), model::fixed(watts, 0))};
    }
    if (!pair.rung->energy_sm_clock_mhz || !pair.cublas->energy_sm_clock_mhz || *pair.cublas->energy_sm_clock_mhz <= 0)
        return {std::nullopt, "not measured here", measured + " (the SM clock was not read for both)"};
    const double percent = 100.0 * *pair.rung->energy_sm_clock_mhz / *pair.cublas->energy_sm_clock_mhz;
    return {percent, model::fixed(percent, 1) + " %",
            format_text("{} ({}'s clock ÷ cuBLAS's)", measured, name)};
}

// ---- Breaking a kernel on purpose (model/experiment.hpp) ----------------------------------
// The step's `experiment:` names which; its outcomes are the Experiments view's: run on this
// GPU this session, or recorded (assets/experiments). Nothing is known before a run but what
// the model works out from the indices (the stores past C's end).

std::string case_text(const model::ExperimentCase& c) {
    const std::string size = size_text(c.problem);
    return c.kernel.kind == model::KernelKind::Tiled ? format_text("{}, T = {}", size, c.kernel.tile) : size;
}

// Where the outcomes came from, each source once: "measured on NVIDIA H200, YYYY-MM-DD".
std::string sources_text(const std::vector<const ExperimentOutcome*>& outcomes) {
    std::vector<std::string> sources;
    for (const ExperimentOutcome* outcome : outcomes)
        if (std::find(sources.begin(), sources.end(), outcome->source) == sources.end()) sources.push_back(outcome->source);
    std::string text;
    for (const std::string& source : sources) text += (text.empty() ? "" : "; ") + source;
    return text;
}

RevealedAnswer not_run(model::Experiment experiment) {
    return {std::nullopt, "not run here",
            format_text("no run of {} is loaded: run it in the Experiments view on a GPU, or record one with "
                        "`tilescope-cli experiment {} --json FILE` and put FILE in assets/experiments",
                        model::experiment_name(experiment), model::experiment_name(experiment))};
}

// The share of runs, over every case run, in which C came out wrong: 100 % every run, 0 never.
RevealedAnswer experiment_wrong_runs(const AppState& state) {
    const model::Experiment experiment = state.experiments.experiment;
    std::vector<const ExperimentOutcome*> ran;
    int runs = 0, wrong = 0;
    std::string cases;
    for (const ExperimentOutcome& outcome : page_of(state.experiments, experiment).outcomes) {
        if (!outcome.run || outcome.run->runs <= 0) continue;
        ran.push_back(&outcome);
        runs += outcome.run->runs;
        wrong += outcome.run->wrong_runs;
        cases += format_text("{}{} of {} at {}", cases.empty() ? "" : ", ", outcome.run->wrong_runs, outcome.run->runs,
                             case_text(outcome.c));
    }
    if (runs == 0) return not_run(experiment);
    const double percent = 100.0 * wrong / runs;
    return {percent, format_text("{} % of the runs ({} of {})", model::fixed(percent, percent < 10 && percent > 0 ? 1 : 0),
                                 wrong, runs),
            format_text("measured: {} ({}): runs with at least one wrong cell of C: {}", model::experiment_name(experiment),
                        sources_text(ran), cases)};
}

// What one launch of no-bounds-check stores past C's end at the step's size and T, worked out
// from the indices; the guard zone's count from the runs beside it where a run is loaded.
RevealedAnswer stray_writes(const AppState& state) {
    const model::ExperimentCase c{state.problem, model::experiment_kernel(model::Experiment::NoBoundsCheck,
                                                                          state.kernel.tile)};
    const std::int64_t predicted = model::predicted_stray_writes(c);
    std::string how = format_text("{}, {}: the threads outside C store anyway, at row × N + col; the distinct elements "
                                  "at or past M·N = {} that those stores reach",
                                  kCounted, case_text(c), grouped(c.problem.m * c.problem.n));
    const ExperimentOutcome* outcome = outcome_of(page_of(state.experiments, model::Experiment::NoBoundsCheck), c);
    if (outcome && outcome->run && outcome->run->runs > 0)
        how += format_text(". Measured ({}): the guard zone after C changed in {} elements over {} runs, {} per run",
                           outcome->source, grouped(outcome->run->stray_writes), outcome->run->runs,
                           model::fixed(static_cast<double>(outcome->run->stray_writes) / outcome->run->runs, 0));
    return {static_cast<double>(predicted), grouped(predicted), how};
}

// How much slower the conflict-free rung ran without As's padding, in percent, at the largest
// size run.
RevealedAnswer experiment_slowdown(const AppState& state) {
    const model::Experiment experiment = model::Experiment::BankConflicts;
    const ExperimentOutcome* largest = nullptr;
    for (const ExperimentOutcome& outcome : page_of(state.experiments, experiment).outcomes)
        if (outcome.run && outcome.run->broken_ms > 0.0 && outcome.run->real_ms > 0.0 &&
            (!largest || outcome.c.problem.m * outcome.c.problem.n > largest->c.problem.m * largest->c.problem.n))
            largest = &outcome;
    if (!largest) return not_run(experiment);
    const model::ExperimentRun& run = *largest->run;
    const double percent = 100.0 * (run.broken_ms / run.real_ms - 1.0);
    return {percent, format_text("{} % {}", model::fixed(std::abs(percent), 1), percent >= 0 ? "slower" : "faster"),
            format_text("measured ({}), {}: without the padding {}, with it {} (medians of launches with L2 flushed "
                        "before each)",
                        largest->source, case_text(largest->c), model::human_seconds(run.broken_ms / 1e3),
                        model::human_seconds(run.real_ms / 1e3))};
}

}  // namespace

namespace {

// The matrix an answer's ROW,COL names ('A', 'B' or 'C'), and its rows and columns.
struct Matrix {
    char name;
    std::int64_t rows, cols;
};
Matrix matrix_of(const model::Problem& p, const std::string& word) {
    const char last = word.back();
    if (last == 'a') return {'A', p.m, p.k};
    if (last == 'b') return {'B', p.k, p.n};
    return {'C', p.m, p.n};
}

// Where element (row, col) lies in its matrix, counted in elements from the first.
RevealedAnswer offset(const AppState& state, const std::string& word, int row, int col) {
    const Matrix m = matrix_of(state.problem, word);
    const std::int64_t at = row * m.cols + col;
    return {static_cast<double>(at), grouped(at),
            format_text("{}: {}[{}][{}] lies at row × columns + col = {} × {} + {} = {} in row-major order ({} has {} "
                   "columns)",
                   kCounted, m.name, row, col, row, m.cols, col, at, m.name, m.cols)};
}

bool is_energy_answer(const std::string& word) {
    return word == "tc-joules-vs-cublas" || word == "tc-avg-watts" || word == "tc-clock-vs-cublas";
}

// The names of `ladder`'s rungs from `first` up, for a message: "mma, mma-async … or tc-tuned".
std::string rung_names_from(model::Ladder ladder, int first) {
    std::vector<std::string_view> names;
    for (const model::RungInfo& row : model::rungs_on(ladder))
        if (row.position >= first) names.push_back(row.name);
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += format_text("{}{}", i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", names[i]);
    return text;
}

}  // namespace

std::optional<std::string> check_answer(const AppState& state, const lessons::AnswerSpec& answer) {
    const std::string& word = answer.word;
    const bool above_tiled = word == "rung-speedup-predicted" || word == "rung-speedup-measured" ||
                             word == "speedup-over-tiled";
    if (above_tiled || word == "percent-of-cublas") {
        const int index = rung_index(state.kernel.kind);
        if (index < 0 || (index == 0 && state.kernel.tile != model::kLadderFootTile) || (above_tiled && index == 0))
            return format_text("{} compares the step's kernel on the ladder: set kernel: to {} ({})", word,
                               above_tiled ? "a rung above tiled T=32" : "tiled with tile: 32 or a rung",
                               rung_names_from(model::Ladder::Fp32, 1));
        return std::nullopt;
    }
    if (word == "tc-rung-speedup-measured" || word == "tc-speedup-over-fp32" || word == "tc-percent-of-cublas" ||
        is_energy_answer(word)) {
        const int index = tc_rung_index(state.kernel.kind);
        if (index < 0 || (index == 0 && word == "tc-rung-speedup-measured"))
            return format_text("{} compares the step's kernel on the tensor-core ladder: set kernel: to {}", word,
                               word == "tc-rung-speedup-measured"
                                   ? format_text("a rung above wmma ({})", rung_names_from(model::Ladder::TensorCores, 1))
                                   : format_text("a tensor-core rung ({})", rung_names_from(model::Ladder::TensorCores, 0)));
        return std::nullopt;
    }
    const model::Experiment experiment = state.experiments.experiment;
    if (word == "experiment-wrong-runs" && experiment == model::Experiment::BankConflicts)
        return "experiment-wrong-runs counts runs in which C came out wrong: set experiment: to missing-first-sync, "
               "missing-second-sync or no-bounds-check (bank-conflicts never makes C wrong)";
    if (word == "experiment-slowdown" && experiment != model::Experiment::BankConflicts)
        return "experiment-slowdown compares the times of bank-conflicts: set experiment: bank-conflicts";
    if (word == "stray-writes" && state.kernel.kind != model::KernelKind::Tiled)
        return "stray-writes counts the stores of the tiled kernel without its bounds checks: set kernel: tiled";
    if (!answer.cell) return std::nullopt;
    const Matrix m = matrix_of(state.problem, answer.word);
    const auto [row, col] = *answer.cell;
    if (row < m.rows && col < m.cols) return std::nullopt;
    return format_text("{} {},{}: {}[{}][{}] is outside {}, which has {} rows and {} columns (both count from 0)",
                  answer.word, row, col, m.name, row, col, m.name, m.rows, m.cols);
}

RevealedAnswer compute_answer(const AppState& state, const lessons::AnswerSpec& answer) {
    const std::string& word = answer.word;
    if (word == "loads-of-a" || word == "loads-of-b") {
        if (auto why = check_answer(state, answer)) return {std::nullopt, "—", *why};
        return element_loads(state, word == "loads-of-a" ? model::Operand::A : model::Operand::B,
                             answer.cell->first, answer.cell->second);
    }
    if (word.starts_with("offset-of-")) {
        if (auto why = check_answer(state, answer)) return {std::nullopt, "—", *why};
        return offset(state, word, answer.cell->first, answer.cell->second);
    }
    if (word == "reuse-factor") return reuse_factor(state);
    if (word == "warp-sectors-coalesced") return warp_sectors(state, model::WarpMapping::Coalesced);
    if (word == "warp-sectors-x-as-row") return warp_sectors(state, model::WarpMapping::XIsRow);
    if (word == "threads-per-block") return threads_per_block(state);
    if (word == "coalescing-penalty") return coalescing_penalty(state);
    if (word == "measured-speedup") return measured_speedup(state);
    if (word == "rung-speedup-predicted" || word == "rung-speedup-measured" || word == "speedup-over-tiled" ||
        word == "percent-of-cublas") {
        if (auto why = check_answer(state, answer)) return {std::nullopt, "—", *why};
        if (word == "rung-speedup-predicted") return rung_speedup_predicted(state);
        if (word == "percent-of-cublas") return percent_of_cublas(state);
        return rung_speedup_measured(state, word == "speedup-over-tiled");
    }
    if (word == "tc-rung-speedup-measured" || word == "tc-speedup-over-fp32" || word == "tc-percent-of-cublas") {
        if (auto why = check_answer(state, answer)) return {std::nullopt, "—", *why};
        return tc_answer(state, word);
    }
    if (const auto precision = digits_precision(word)) return precision_digits(*precision);
    if (word == "check-error") return check_error(state);
    if (word == "e4m3-significant-bits") return e4m3_significant_bits();
    if (word == "fp8-speedup-over-bf16") return fp8_speedup_over_bf16(state);
    if (word == "fp8-error-vs-fp64") return fp8_error_vs_fp64(state);
    if (word == "fp8-accumulator-error" || word == "fp8-promoted-error")
        return fp8_accumulator_error(state, word == "fp8-promoted-error");
    if (is_energy_answer(word)) {
        if (auto why = check_answer(state, answer)) return {std::nullopt, "—", *why};
        return tc_energy_answer(state, word);
    }
    if (word == "experiment-wrong-runs" || word == "stray-writes" || word == "experiment-slowdown") {
        if (auto why = check_answer(state, answer)) return {std::nullopt, "—", *why};
        if (word == "experiment-wrong-runs") return experiment_wrong_runs(state);
        if (word == "stray-writes") return stray_writes(state);
        return experiment_slowdown(state);
    }
    return {std::nullopt, "—", format_text("no answer called \"{}\"", word)};
}

std::string judge_guess(double guess, double answer) {
    if (guess == answer) return "exactly right";
    if (answer == 0.0) return format_text("the answer is 0; you guessed {}", guess);
    const double ratio = guess / answer;
    if (std::abs(ratio - 1.0) <= 0.1) return format_text("close: within {} %", std::lround(std::abs(ratio - 1.0) * 100));
    if (ratio <= 0.0) return "the answer is positive";
    if (ratio >= 2.0) return format_text("{}× too high", model::fixed(ratio, ratio < 10 ? 1 : 0));
    if (ratio <= 0.5) return format_text("{}× too low", model::fixed(1.0 / ratio, 1.0 / ratio < 10 ? 1 : 0));
    return format_text("{} % too {}", std::lround(std::abs(ratio - 1.0) * 100), ratio > 1.0 ? "high" : "low");
}

}  // namespace ts::views
