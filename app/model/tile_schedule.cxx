#include "tile_schedule.hpp"

namespace ts::model {

std::vector<TileLoad> tile_loads(const Problem& problem, int tile, Index2 block, int phase, Operand operand) {
    const int m = static_cast<int>(problem.m);
    const int n = static_cast<int>(problem.n);
    const int k = static_cast<int>(problem.k);
    std::vector<TileLoad> loads;
    loads.reserve(static_cast<std::size_t>(tile) * tile);
    for (int ty = 0; ty < tile; ++ty) {
        for (int tx = 0; tx < tile; ++tx) {
            TileLoad load;
            load.operand = operand;
            load.thread = {tx, ty};
            load.smem_row = ty;
            load.smem_col = tx;
            int rows = 0;
            int cols = 0;
            if (operand == Operand::A) {
                load.global_row = tiled_row(block.y, tile, ty);
                load.global_col = tiled_a_col(phase, tile, tx);
                rows = m;
                cols = k;
            } else {
                load.global_row = tiled_b_row(phase, tile, ty);
                load.global_col = tiled_col(block.x, tile, tx);
                rows = k;
                cols = n;
            }
            load.padding = !inside(load.global_row, load.global_col, rows, cols);
            if (!load.padding) load.address = row_major(load.global_row, load.global_col, cols);
            loads.push_back(load);
        }
    }
    return loads;
}

KRange accumulated_k(const Problem& problem, int tile, int phase) {
    if (phase < 0) return {0, 0};
    return {0, phase_k_end(phase, tile, static_cast<int>(problem.k))};
}

}  // namespace ts::model
