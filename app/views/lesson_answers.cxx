#include "lesson_answers.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "lab_state.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "model/memory_sectors.hpp"
#include "model/phase_timeline.hpp"
#include "model/traffic.hpp"
#include "text.hpp"

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
        return {std::nullopt, "—", "cuBLAS chooses its own kernels at run time, so the model cannot count its loads"};
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
                   "{}: A {} sector(s) + B {} sector(s) of 32 bytes. With threadIdx.x as the {} instead: A {} + B {} "
                   "= {}",
                   kCounted, block_dim.x, block_dim.y, a.active_lanes, x_is_row ? "row" : "column", a.sectors,
                   b.sectors, x_is_row ? "column" : "row", a_other.sectors, b_other.sectors,
                   a_other.sectors + b_other.sectors)};
}

RevealedAnswer threads_per_block(const AppState& state) {
    const model::LaunchGeometry g = model::plan_launch(state.kernel, state.problem);
    if (!g.modelled) return {std::nullopt, "—", "cuBLAS chooses its own blocks at run time"};
    const std::int64_t threads = g.block.volume();
    return {static_cast<double>(threads), grouped(threads),
            format_text("{}: blockDim = ({}, {}), {} × {} threads; a GPU allows at most {} per block", kCounted, g.block.x,
                   g.block.y, g.block.x, g.block.y, launch_limits(state).max_threads_per_block)};
}

// Where a measured point comes from: the loaded recording, or a run on this machine's GPU.
std::string source_of(const LabState& lab, const record::Point* point) {
    if (lab.recording) {
        const auto& points = lab.recording->points;
        if (!points.empty() && point >= &points.front() && point <= &points.back())
            return "measured: " + lab.recording_label;
    }
    return "measured on this computer's GPU this session";
}

// slow ÷ fast at the largest square size the lab has both for (in the state's dtype).
RevealedAnswer measured_ratio(const AppState& state, const model::KernelConfig& slow, const model::KernelConfig& fast,
                              const char* what) {
    const std::string slow_name = model::describe(slow);
    const std::string fast_name = model::describe(fast);
    const std::string dtype(model::dtype_name(state.problem.dtype));
    const auto points = lab_points(state.lab);
    std::vector<std::int64_t> sizes;
    for (const record::Point* p : points)
        if (p->ok && p->config == fast_name && p->dtype == dtype && p->batch == 1 && p->m == p->n && p->m == p->k)
            sizes.push_back(p->m);
    std::sort(sizes.rbegin(), sizes.rend());
    for (std::int64_t size : sizes) {
        const record::Point* s = find_point(points, slow_name, size, dtype);
        const record::Point* f = find_point(points, fast_name, size, dtype);
        if (!s || !f || !s->ok || !f->ok || f->median_ms <= 0.0) continue;
        const double ratio = s->median_ms / f->median_ms;
        return {ratio, ratio_text(ratio),
                format_text("{}, {}×{}×{} {}, median kernel time: {} {}, {} {} ({})", source_of(state.lab, f), size, size,
                       size, dtype, slow_name, model::human_seconds(s->median_ms / 1e3), fast_name,
                       model::human_seconds(f->median_ms / 1e3), what)};
    }
    return {std::nullopt, "not measured here",
            format_text("no measurement of both {} and {} in {} is loaded: run them on a GPU (the latency view's "
                   "Measure) or load a recording with --load",
                   slow_name, fast_name, dtype)};
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

}  // namespace

std::optional<std::string> check_answer(const AppState& state, const lessons::AnswerSpec& answer) {
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
