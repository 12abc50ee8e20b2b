// thread_map.hpp — which thread computes which cell of C, both ways.
//
// Most kernels give each thread one cell. The row-per-thread and column-per-thread kernels
// give a thread a whole row (or column) of C, which it computes one cell after another;
// cells_of_thread() returns that run of cells, and thread_of_cell() says which thread owns
// a cell and at which step of its loop it computes it. cuBLAS is not modelled: it owns no
// cell here (see is_modelled()).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "index_math.hpp"
#include "kernel_config.hpp"
#include "launch_geometry.hpp"
#include "problem.hpp"

namespace ts::model {

struct ThreadId {
    Index2 block;   // blockIdx.x, blockIdx.y
    Index2 thread;  // threadIdx.x, threadIdx.y
    int warp = 0;   // warp within the block
    int lane = 0;   // lane within the warp
    // Which of the thread's cells this is, counting from 0 in the order the thread computes
    // them: the column for row-per-thread, the row for column-per-thread, the place in its
    // register tile (row by row) for the ladder's rungs, 0 otherwise.
    int step = 0;
    bool operator==(const ThreadId&) const = default;
};

// Rows [row_begin, row_end) × columns [col_begin, col_end) of C.
struct CellRange {
    int row_begin = 0;
    int row_end = 0;
    int col_begin = 0;
    int col_end = 0;
    bool empty() const { return row_end <= row_begin || col_end <= col_begin; }
    std::int64_t count() const {
        return empty() ? 0 : static_cast<std::int64_t>(row_end - row_begin) * (col_end - col_begin);
    }
    bool contains(Cell cell) const {
        return cell.row >= row_begin && cell.row < row_end && cell.col >= col_begin && cell.col < col_end;
    }
    bool operator==(const CellRange&) const = default;
};

// (block, thread) → the first C cell it computes: its only one for the one-cell kernels,
// (row, 0) for row-per-thread, (0, col) for column-per-thread, the top-left cell of its
// first register tile for the ladder. The cell may lie outside C
// (see is_ghost()). cuBLAS: (-1, -1), no thread the model knows.
Cell cell_of_thread(const KernelConfig& config, Index2 block, Index2 thread);

// Every cell the thread computes, clipped to C, as rectangles in the order it computes them:
// one cell, a whole row or column of C, or a ladder rung's TM×TN register tiles (one, or one
// per sub-tile of its warp's tile). Empty for a ghost thread and for cuBLAS.
std::vector<CellRange> cells_of_thread(const KernelConfig& config, const Problem& problem, Index2 block,
                                       Index2 thread);

// The part of C one block covers, ghost cells included (not clipped to C): block_y × block_x
// cells for naive, T × T for tiled, block_x whole rows (or columns) for the per-thread
// kernels. Empty for cuBLAS.
CellRange cells_of_block(const KernelConfig& config, const Problem& problem, Index2 block);

// True when the thread computes no cell of C, so it must not store (a ghost thread).
bool is_ghost(const KernelConfig& config, const Problem& problem, Index2 block, Index2 thread);

// (row, col) → the one thread that computes it, with its warp, lane and step; nullopt
// outside C and for cuBLAS.
std::optional<ThreadId> thread_of_cell(const KernelConfig& config, const Problem& problem, Cell cell);

}  // namespace ts::model
