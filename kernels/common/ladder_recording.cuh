// ladder_recording.cuh — what the recorded ladder rungs (07_regtile_2d_recorded.cu,
// 10_warptile_recorded.cu) share: writing down the load instructions of one K step.
//
// The recorded kernels copy their tiles with the real kernels' own load functions
// (load_ladder_tiles, load_vector_tiles); right after, each thread writes one record per
// load instruction it issued, from the same ladder functions with the same arguments: the
// first element of A or B the instruction reads, the first As or Bs slot it writes, and
// whether that element lies inside the matrix (loaded) or outside (zeros written).
#pragma once

#include "kernels/common/recording.cuh"
#include "model/ladder.hpp"

namespace ts::kernels {

// Thread threadIdx.x's records for K step `step` of block `block` (launch order) of a
// rung of shape S, whose tile of C starts at (block_row, block_col). Instruction i of A
// reads a_vec() elements of one row of the BM×BK tile of A from (r, c) =
// ladder_load_row/col(thread, i, threads, BK, a_vec()) (the four of a float4 land in four
// slots of a transposed As: the record names the first, ladder_as_slot(S, r, c));
// instruction i of B reads vec elements of the BK×BN tile of B from ladder_load_row/col(
// thread, i, threads, BN, vec) into Bs at r·BN + c. A vector counts as loaded when its first
// element is inside the matrix. Its first column is a multiple of vec in the tile, and BK and
// BN are too (LadderShape::valid), so a vector whose first element is outside lies wholly
// outside (the aligned form reads none of it, the unaligned form zeros all four), and one
// whose first element is inside was read (the unaligned form reads those of its four that
// are inside and zeros the rest; the aligned form, where K and N are multiples of 4, has no
// such partial vectors).
// Every slot written lies below model::load_records: block < grid blocks, step < steps,
// i < loads per operand, thread < threads().
template <model::LadderShape S>
__device__ __forceinline__ void record_ladder_loads(model::RecordedLoad* loads, int block, int steps, int step, int m,
                                                    int n, int k, int block_row, int block_col) {
    using namespace ts::model;
    if (loads == nullptr) return;  // a trace too large to keep its loads: SMs and clocks only
    const int thread = threadIdx.x;
    constexpr int per_operand = ladder_loads_per_operand(S);
#pragma unroll
    for (int i = 0; i < S.a_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bk, S.a_vec());
        const int c = ladder_load_col(thread, i, S.threads(), S.bk, S.a_vec());
        const int row = block_row + r, col = step * S.bk + c;
        loads[ladder_load_record_slot(block, steps, step, 0, per_operand, i, S.threads(), thread)] =
            RecordedLoad{row, col, ladder_as_slot(S, r, c),
                         inside(row, col, m, k) ? RecordedLoad::kLoaded : RecordedLoad::kPadding};
    }
#pragma unroll
    for (int i = 0; i < S.b_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bn, S.vec);
        const int c = ladder_load_col(thread, i, S.threads(), S.bn, S.vec);
        const int row = step * S.bk + r, col = block_col + c;
        loads[ladder_load_record_slot(block, steps, step, 1, per_operand, i, S.threads(), thread)] =
            RecordedLoad{row, col, row_major(r, c, S.bn),
                         inside(row, col, k, n) ? RecordedLoad::kLoaded : RecordedLoad::kPadding};
    }
}

}  // namespace ts::kernels
