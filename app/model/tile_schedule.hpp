// tile_schedule.hpp — what the tiled kernel moves into shared memory, block by block and
// phase by phase. This is the model the tiling views animate and the GPU tests check.
#pragma once

#include <cstdint>
#include <vector>

#include "index_math.hpp"
#include "problem.hpp"

namespace ts::model {

enum class Operand { A, B };

// One thread's load in one phase: global element (global_row, global_col) of A or B goes
// to shared slot [smem_row][smem_col]. When the tile hangs over the edge of the matrix the
// element does not exist: the thread writes 0 into the slot instead (padding), which adds
// nothing to the dot product.
struct TileLoad {
    Operand operand = Operand::A;
    Index2 thread;          // threadIdx.x, threadIdx.y of the loading thread
    int smem_row = 0;       // As[smem_row][smem_col] or Bs[...]
    int smem_col = 0;
    int global_row = 0;     // in A (M×K) or B (K×N); may lie outside when padding
    int global_col = 0;
    bool padding = false;   // true: no global load, the slot gets 0
    std::int64_t address = -1;  // row-major element offset in A or B; -1 when padding
};

struct KRange {
    int begin = 0;  // [begin, end)
    int end = 0;
};

// All T×T loads of `operand` for block `block` in phase `phase`, in threadIdx order
// (x fastest). Requires 1 <= tile and 0 <= phase < phase_count(K, tile).
std::vector<TileLoad> tile_loads(const Problem& problem, int tile, Index2 block, int phase, Operand operand);

// The part of K that every cell of C has accumulated once phase `phase` has finished:
// [0, min((phase+1)·T, K)). Cells outside C accumulate nothing; phase -1 means "before
// the first phase" and gives an empty range.
KRange accumulated_k(const Problem& problem, int tile, int phase);

}  // namespace ts::model
