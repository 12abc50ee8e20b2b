#include "memory_sectors.hpp"

#include <algorithm>
#include <vector>

namespace ts::model {

int sectors_touched(std::span<const std::int64_t> element_offsets, std::size_t element_size) {
    std::vector<std::int64_t> sectors;
    sectors.reserve(element_offsets.size());
    for (const std::int64_t offset : element_offsets)
        if (offset >= 0) sectors.push_back(offset * static_cast<std::int64_t>(element_size) / kSectorBytes);
    std::sort(sectors.begin(), sectors.end());
    return static_cast<int>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
}

namespace {

WarpAccess finish(WarpAccess access, const Problem& problem) {
    access.active_lanes =
        static_cast<int>(std::count_if(access.offsets.begin(), access.offsets.end(), [](auto o) { return o >= 0; }));
    access.sectors = sectors_touched(access.offsets, dtype_size(problem.dtype));
    // Element size 32 makes every address its own "sector": the count of distinct addresses.
    access.distinct = sectors_touched(access.offsets, kSectorBytes);
    return access;
}

}  // namespace

WarpAccess tiled_load_access(const Problem& problem, int tile, Index2 block, int phase, Operand operand, int warp,
                             WarpMapping mapping, int batch) {
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    WarpAccess access;
    access.offsets.fill(-1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const int id = warp * kWarpSize + lane;
        if (id >= tile * tile) break;  // the block's last warp may be partly empty
        int tx = id % tile, ty = id / tile;
        if (mapping == WarpMapping::XIsRow) std::swap(tx, ty);
        const bool of_a = operand == Operand::A;
        const int row = of_a ? tiled_row(block.y, tile, ty) : tiled_b_row(phase, tile, ty);
        const int col = of_a ? tiled_a_col(phase, tile, tx) : tiled_col(block.x, tile, tx);
        const int rows = of_a ? m : k, cols = of_a ? k : n;
        if (inside(row, col, rows, cols))
            access.offsets[lane] = batch_offset(batch, rows, cols) + row_major(row, col, cols);
    }
    return finish(access, problem);
}

WarpAccess naive_read_access(const Problem& problem, Index2 block_dim, Index2 block, int k, Operand operand, int warp,
                             WarpMapping mapping, int batch) {
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), kk = static_cast<int>(problem.k);
    WarpAccess access;
    access.offsets.fill(-1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const int id = warp * kWarpSize + lane;
        if (id >= block_dim.x * block_dim.y) break;
        const int tx = id % block_dim.x, ty = id / block_dim.x;
        const bool coalesced = mapping == WarpMapping::Coalesced;
        const int row = coalesced ? naive_row(block.y, block_dim.y, ty) : row_from_x_row(block.x, block_dim.x, tx);
        const int col = coalesced ? naive_col(block.x, block_dim.x, tx) : row_from_x_col(block.y, block_dim.y, ty);
        if (!inside(row, col, m, n) || k < 0 || k >= kk) continue;
        access.offsets[lane] = operand == Operand::A ? batch_offset(batch, m, kk) + row_major(row, k, kk)
                                                     : batch_offset(batch, kk, n) + row_major(k, col, n);
    }
    return finish(access, problem);
}

}  // namespace ts::model
