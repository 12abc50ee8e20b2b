#include "thread_map.hpp"

#include <algorithm>
#include <utility>

#include "ladder.hpp"

namespace ts::model {

namespace {

Index2 block_dim(const KernelConfig& config) {
    if (config.kind == KernelKind::Tiled) return {config.tile, config.tile};
    if (is_ladder(config.kind)) return {ladder_shape(config).threads(), 1};
    if (uses_1d_blocks(config.kind)) return {config.block_x, 1};
    return {config.block_x, config.block_y};
}

int rows_of(const Problem& p) { return static_cast<int>(p.m); }
int cols_of(const Problem& p) { return static_cast<int>(p.n); }

}  // namespace

Cell cell_of_thread(const KernelConfig& config, Index2 block, Index2 thread) {
    if (!is_modelled(config.kind)) return {-1, -1};  // cuBLAS and the tensor-core rungs: no cell per thread
    switch (config.kind) {
        case KernelKind::Naive:
            return {naive_row(block.y, config.block_y, thread.y), naive_col(block.x, config.block_x, thread.x)};
        case KernelKind::NaiveRowFromX:
            return {row_from_x_row(block.x, config.block_x, thread.x),
                    row_from_x_col(block.y, config.block_y, thread.y)};
        case KernelKind::RowPerThread: return {row_per_thread_row(block.x, config.block_x, thread.x), 0};
        case KernelKind::ColumnPerThread: return {0, column_per_thread_col(block.x, config.block_x, thread.x)};
        case KernelKind::Tiled:
            return {tiled_row(block.y, config.tile, thread.y), tiled_col(block.x, config.tile, thread.x)};
        default: {  // the ladder
            const LadderShape s = ladder_shape(config);
            return {ladder_row(s, block.y, thread.x), ladder_col(s, block.x, thread.x)};
        }
    }
    return {};
}

std::vector<CellRange> cells_of_thread(const KernelConfig& config, const Problem& problem, Index2 block,
                                       Index2 thread) {
    if (is_ghost(config, problem, block, thread)) return {};
    const Cell first = cell_of_thread(config, block, thread);
    if (is_ladder(config.kind)) {  // its register tiles, sub-tile by sub-tile, clipped to C
        const LadderShape s = ladder_shape(config);
        std::vector<CellRange> tiles;
        for (int i = 0; i < s.wm_iter; ++i)
            for (int j = 0; j < s.wn_iter; ++j) {
                const int row = ladder_row(s, block.y, thread.x, i), col = ladder_col(s, block.x, thread.x, j);
                const CellRange tile{row, std::min(row + s.tm, rows_of(problem)), col,
                                     std::min(col + s.tn, cols_of(problem))};
                if (!tile.empty()) tiles.push_back(tile);
            }
        return tiles;
    }
    switch (config.kind) {
        case KernelKind::RowPerThread: return {{first.row, first.row + 1, 0, cols_of(problem)}};
        case KernelKind::ColumnPerThread: return {{0, rows_of(problem), first.col, first.col + 1}};
        default: return {{first.row, first.row + 1, first.col, first.col + 1}};
    }
}

CellRange cells_of_block(const KernelConfig& config, const Problem& problem, Index2 block) {
    if (!is_modelled(config.kind)) return {};
    const Index2 dim = block_dim(config);
    // The block's first and last threads sit at opposite corners of what it covers.
    const Cell first = cell_of_thread(config, block, {0, 0});
    const Cell last = cell_of_thread(config, block, {dim.x - 1, dim.y - 1});
    switch (config.kind) {
        case KernelKind::RowPerThread: return {first.row, last.row + 1, 0, cols_of(problem)};
        case KernelKind::ColumnPerThread: return {0, rows_of(problem), first.col, last.col + 1};
        default:
            if (is_ladder(config.kind)) {
                const LadderShape s = ladder_shape(config);
                return {first.row, first.row + s.bm, first.col, first.col + s.bn};
            }
            return {first.row, last.row + 1, first.col, last.col + 1};
    }
}

bool is_ghost(const KernelConfig& config, const Problem& problem, Index2 block, Index2 thread) {
    const Cell cell = cell_of_thread(config, block, thread);
    // A per-thread kernel's first cell is inside C exactly when its row (column) is.
    return !inside(cell.row, cell.col, rows_of(problem), cols_of(problem));
}

std::optional<ThreadId> thread_of_cell(const KernelConfig& config, const Problem& problem, Cell cell) {
    if (!is_modelled(config.kind) || !inside(cell.row, cell.col, rows_of(problem), cols_of(problem)))
        return std::nullopt;
    const Index2 dim = block_dim(config);
    // The inverse of cell_of_thread: the index that threadIdx.x walks is divided by the
    // block's x side, the one threadIdx.y walks by its y side. The per-thread kernels have
    // one y thread; the index they loop over is the step.
    int along_x = cell.col;
    int along_y = cell.row;
    int step = 0;
    switch (config.kind) {
        case KernelKind::NaiveRowFromX: std::swap(along_x, along_y); break;
        case KernelKind::RowPerThread:
            along_x = cell.row;
            along_y = 0;
            step = cell.col;
            break;
        case KernelKind::ColumnPerThread:
            along_y = 0;
            step = cell.row;
            break;
        default: break;
    }
    ThreadId id;
    if (is_ladder(config.kind)) {
        // The inverse of ladder_row and ladder_col: the block, the warp tile within it, the
        // sub-tile within that, then the register tile; the step counts the thread's cells
        // sub-tile by sub-tile, row by row.
        const LadderShape s = ladder_shape(config);
        id.block = {cell.col / s.bn, cell.row / s.bm};
        const int in_block_row = cell.row % s.bm, in_block_col = cell.col % s.bn;
        const int group = (in_block_row / s.warp_m()) * s.warps_per_row() + in_block_col / s.warp_n();
        const int in_warp_row = in_block_row % s.warp_m(), in_warp_col = in_block_col % s.warp_n();
        LadderCellPlace place;
        place.sub_i = in_warp_row / s.sub_m();
        place.sub_j = in_warp_col / s.sub_n();
        const int in_sub_row = in_warp_row % s.sub_m(), in_sub_col = in_warp_col % s.sub_n();
        place.r = in_sub_row % s.tm;
        place.c = in_sub_col % s.tn;
        const int lane = (in_sub_row / s.tm) * s.threads_per_row() + in_sub_col / s.tn;
        id.thread = {group * s.group_threads() + lane, 0};
        id.warp = warp_of(id.thread.x);
        id.lane = lane_of(id.thread.x);
        id.step = ladder_step_of_place(s, place);
        return id;
    }
    id.block = {along_x / dim.x, along_y / dim.y};
    id.thread = {along_x % dim.x, along_y % dim.y};
    const int linear = linear_thread(id.thread.x, id.thread.y, dim.x);
    id.warp = warp_of(linear);
    id.lane = lane_of(linear);
    id.step = step;
    return id;
}

}  // namespace ts::model
