#include "views/theatre/theatre_logic.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/launch_geometry.hpp"
#include "model/thread_map.hpp"

namespace ts::views {

using model::format_text;
using model::SubStep;

std::optional<std::string> theatre_error(const AppState& state) {
    const model::KernelKind kind = state.kernel.kind;
    if (plays_rung(state)) {
        if (auto why = model::dtype_unsupported(kind, state.problem.dtype)) return *why;
        return std::nullopt;
    }
    const int tile = state.kernel.tile;
    if (tile < 1 || tile > model::kMaxTile)
        return format_text("The theatre shows tiles of T = 1 to {}: T = {} cannot launch (T×T threads would exceed 1024 "
                      "per block).",
                      model::kMaxTile, tile);
    if (kind != model::KernelKind::Naive && kind != model::KernelKind::Tiled)
        return format_text("The theatre plays the naive kernel, the tiled kernel and the ladder's rungs; {} is measured "
                      "in the other views.",
                      model::kernel_name(kind));
    if (kind == model::KernelKind::Naive) {
        if (auto why = model::check_config(state.kernel)) return *why;
    }
    return std::nullopt;
}

bool plays_rung(const AppState& state) {
    return model::is_ladder(state.kernel.kind) && !state.theatre.side_by_side;
}

int played_tile(const AppState& state) {
    return plays_rung(state) ? model::ladder_shape(state.kernel).bk : state.kernel.tile;
}

bool plays_naive(const AppState& state) {
    return state.kernel.kind == model::KernelKind::Naive && !state.theatre.side_by_side;
}

model::KernelConfig played_config(const AppState& state) {
    const int tile = state.kernel.tile;
    if (plays_naive(state)) return {model::KernelKind::Naive, state.kernel.block_x, state.kernel.block_y, tile};
    if (plays_rung(state)) return state.kernel;
    return {model::KernelKind::Tiled, tile, tile, tile};
}

model::Timeline theatre_timeline(const AppState& state) {
    return model::make_timeline(state.problem, played_tile(state), plays_naive(state), state.theatre.each_k);
}

model::KernelStep current_step(const AppState& state) {
    return model::step_at(theatre_timeline(state), state.theatre.player.step);
}

BlockStrips block_strips(const model::KernelConfig& config, const model::Problem& problem, model::Index2 block) {
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n);
    const model::CellRange cells = model::cells_of_block(config, problem, block);
    return {std::min(cells.row_begin, m), std::min(cells.row_end, m), std::min(cells.col_begin, n),
            std::min(cells.col_end, n)};
}

model::Index2 block_of_cell(const model::KernelConfig& config, const model::Problem& problem, model::Cell cell) {
    const auto thread = model::thread_of_cell(config, problem, cell);
    return thread ? thread->block : model::Index2{0, 0};
}

model::Index2 block_grid(const model::KernelConfig& config, const model::Problem& problem) {
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    return {static_cast<int>(g.grid.x), static_cast<int>(g.grid.y)};
}

model::KRange step_k_range(const model::Timeline& timeline, const model::Problem& problem, model::KernelStep step) {
    if (step.sub == SubStep::Store) return {0, 0};
    const int k = static_cast<int>(problem.k);
    const int begin = model::phase_k_begin(step.phase, timeline.tile);
    if (step.sub == SubStep::Compute && step.k >= 0) return {std::min(begin + step.k, k), std::min(begin + step.k + 1, k)};
    return {std::min(begin, k), model::phase_k_end(step.phase, timeline.tile, k)};
}

std::string step_title(const model::Timeline& timeline, model::KernelStep step, bool brief) {
    const std::string_view what = timeline.naive && step.sub == SubStep::Compute
                                      ? "compute: read A and B from global memory"
                                      : model::substep_title(step.sub);
    if (step.sub == SubStep::Store) return format_text("After all {} phases: {}", timeline.phases, what);
    std::string title = brief ? format_text("Phase {} of {}: {}", step.phase + 1, timeline.phases, what)
                              : format_text("Phase {} of {} (phase = {} in the code): {}", step.phase + 1,
                                            timeline.phases, step.phase, what);
    if (step.k >= 0) title += format_text(", i = {} of {}", step.k, timeline.tile);
    return title;
}

std::string step_detail(const AppState& state, model::KernelStep step, model::Index2 focus) {
    const model::Timeline timeline = theatre_timeline(state);
    const int tile = timeline.tile;
    const int threads = tile * tile;
    const int k = static_cast<int>(state.problem.k);
    const model::KRange range = step_k_range(timeline, state.problem, step);
    const int k_first = model::phase_k_begin(step.phase, tile);
    if (timeline.naive) {
        if (step.sub == SubStep::Store)
            return "Each thread inside C writes its sum to global memory once; ghost threads returned at the start.";
        if (range.begin >= range.end)
            return format_text("k = {} is past K = {}: the naive loop has already ended (the tiled kernel multiplies "
                          "padding zeros here, which adds nothing).",
                          k_first + step.k, k);
        return format_text("No shared memory: every thread inside C reads A[row][k] and B[k][col] straight from global "
                      "memory for k = {}..{}, two loads per k. This block's thread (tx={}, ty={}) is drawn.",
                      range.begin, range.end - 1, focus.x, focus.y);
    }
    switch (step.sub) {
        case SubStep::LoadTiles:
            return format_text("Each of the {} threads copies one element of A into As and one of B into Bs (the lines): "
                          "columns {}..{} of A, rows {}..{} of B. A slot whose element lies outside the matrix "
                          "gets 0 (grey, hatched).",
                          threads, k_first, k_first + tile - 1, k_first, k_first + tile - 1);
        case SubStep::SyncAfterLoad:
            return format_text("No thread may read As or Bs until all {} have written their slot.", threads);
        case SubStep::Compute:
            if (step.k >= 0)
                return format_text("i = {}: every thread adds As[ty][{}]·Bs[{}][tx], k = {} of its dot product{}; thread "
                              "(tx={}, ty={}) is drawn.",
                              step.k, step.k, step.k, k_first + step.k,
                              k_first + step.k >= k ? " (padding: 0·0 adds nothing)" : "", focus.x, focus.y);
            return format_text("Every thread runs its k loop over the tile; thread (tx={}, ty={}) adds As[{}][i]·Bs[i][{}] "
                          "for i = 0..{}: k {}..{} of its dot product (padding adds 0).",
                          focus.x, focus.y, focus.y, focus.x, tile - 1, range.begin, range.end - 1);
        case SubStep::SyncAfterCompute:
            return format_text("No thread may overwrite As or Bs with the next phase's tiles until all {} are done "
                          "reading them.",
                          threads);
        case SubStep::Store:
            return "Each thread inside C writes its sum to global memory once; ghost threads (outside C) write "
                   "nothing.";
    }
    return {};
}

std::optional<std::string> jump_theatre(TheatreState& theatre, const AppState& app, std::optional<model::Index2> block,
                                        std::optional<int> phase, std::optional<model::SubStep> sub,
                                        std::optional<int> k) {
    if (auto why = theatre_error(app)) return why;
    const int tile = played_tile(app);
    const model::KernelConfig config = played_config(app);
    const model::Index2 grid = block_grid(config, app.problem);
    const int phases = model::phase_count(static_cast<int>(app.problem.k), tile);
    if (block && (block->x < 0 || block->y < 0 || block->x >= grid.x || block->y >= grid.y))
        return format_text("block {},{} is outside the grid of {} × {} blocks (x, y count from 0)", block->x, block->y,
                      grid.x, grid.y);
    if (phase && (*phase < 0 || *phase >= phases))
        return format_text("phase {} does not exist: K = {} with {} = {} has phases 0 to {}", *phase, app.problem.k,
                      plays_rung(app) ? "BK" : "T", tile, phases - 1);
    if (k && (*k < 0 || *k >= tile)) return format_text("--k-step {}: the tile loop's i runs from 0 to {}", *k, tile - 1);
    if (sub && plays_naive(app) && !model::has_substep(theatre_timeline(app), *sub))
        return format_text("the naive kernel has no {} step: it has no shared memory and no barriers, only compute and "
                      "store",
                      model::substep_name(*sub));
    if (block) theatre.block = *block;
    if (k) theatre.each_k = true;
    // The timeline with one k per step when `k` asked for it (app.theatre is `theatre`).
    const model::Timeline timeline = theatre_timeline(app);
    model::KernelStep step = model::step_at(timeline, theatre.player.step);
    if (phase) step.phase = *phase;
    if (sub) step.sub = *sub;
    if (k) {
        step.sub = SubStep::Compute;
        step.k = *k;
    }
    theatre.player.step = model::step_index(timeline, step);
    theatre.player.playing = false;
    return std::nullopt;
}

std::optional<std::string> pin_element(TheatreState& theatre, const AppState& app, model::Operand operand,
                                       model::Cell cell) {
    const bool a = operand == model::Operand::A;
    const int rows = static_cast<int>(a ? app.problem.m : app.problem.k);
    const int cols = static_cast<int>(a ? app.problem.k : app.problem.n);
    if (!model::inside(cell.row, cell.col, rows, cols))
        return format_text("{}[{}][{}] is outside {}, which has {} rows and {} columns (both count from 0)", a ? "A" : "B",
                      cell.row, cell.col, a ? "A" : "B", rows, cols);
    (a ? theatre.pinned_a : theatre.pinned_b) = cell;
    (a ? theatre.pinned_b : theatre.pinned_a).reset();
    return std::nullopt;
}

Inspected inspected(const AppState& state) {
    if (state.theatre.hovered.any()) return state.theatre.hovered;
    return {state.selected, state.theatre.pinned_a, state.theatre.pinned_b};
}

void clamp_theatre(TheatreState& theatre, std::optional<model::Cell>& selected, const AppState& app) {
    const model::Problem& problem = app.problem;
    theatre.batch_z = std::clamp(theatre.batch_z, 0, static_cast<int>(std::max<std::int64_t>(problem.batch, 1)) - 1);
    if (theatre_error(app)) return;
    const model::Index2 grid = block_grid(played_config(app), problem);
    theatre.block = {std::clamp(theatre.block.x, 0, grid.x - 1), std::clamp(theatre.block.y, 0, grid.y - 1)};
    theatre.player.step = std::clamp(theatre.player.step, 0, theatre_timeline(app).count() - 1);
    const auto drop_outside = [](std::optional<model::Cell>& cell, std::int64_t rows, std::int64_t cols) {
        if (cell && !model::inside(cell->row, cell->col, static_cast<int>(rows), static_cast<int>(cols))) cell.reset();
    };
    drop_outside(theatre.pinned_a, problem.m, problem.k);
    drop_outside(theatre.pinned_b, problem.k, problem.n);
    drop_outside(selected, problem.m, problem.n);
}

}  // namespace ts::views
