#include "thread_map.hpp"

namespace ts::model {

namespace {
Index2 block_dim(const KernelConfig& config) {
    if (config.kind == KernelKind::Tiled) return {config.tile, config.tile};
    return {config.block_x, config.block_y};
}
}  // namespace

Cell cell_of_thread(const KernelConfig& config, Index2 block, Index2 thread) {
    switch (config.kind) {
        case KernelKind::Naive:
            return {naive_row(block.y, config.block_y, thread.y), naive_col(block.x, config.block_x, thread.x)};
        case KernelKind::NaiveRowFromX:
            return {row_from_x_row(block.x, config.block_x, thread.x),
                    row_from_x_col(block.y, config.block_y, thread.y)};
        case KernelKind::Tiled:
            return {tiled_row(block.y, config.tile, thread.y), tiled_col(block.x, config.tile, thread.x)};
    }
    return {};
}

bool is_ghost(const KernelConfig& config, const Problem& problem, Index2 block, Index2 thread) {
    const Cell cell = cell_of_thread(config, block, thread);
    return !inside(cell.row, cell.col, static_cast<int>(problem.m), static_cast<int>(problem.n));
}

std::optional<ThreadId> thread_of_cell(const KernelConfig& config, const Problem& problem, Cell cell) {
    if (!inside(cell.row, cell.col, static_cast<int>(problem.m), static_cast<int>(problem.n)))
        return std::nullopt;
    const Index2 dim = block_dim(config);
    // The inverse of cell_of_thread: whichever index walks rows is divided by its block side.
    const bool x_walks_rows = config.kind == KernelKind::NaiveRowFromX;
    const int along_x = x_walks_rows ? cell.row : cell.col;
    const int along_y = x_walks_rows ? cell.col : cell.row;
    ThreadId id;
    id.block = {along_x / dim.x, along_y / dim.y};
    id.thread = {along_x % dim.x, along_y % dim.y};
    const int linear = linear_thread(id.thread.x, id.thread.y, dim.x);
    id.warp = warp_of(linear);
    id.lane = lane_of(linear);
    return id;
}

}  // namespace ts::model
