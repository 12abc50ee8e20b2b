// fragments.hpp — who holds which element on the tensor cores: the register fragments of
// mma.sync.m16n8k16 (BF16/FP16 in, FP32 out), what ldmatrix hands each lane, and the FP32
// accumulators of wgmma.mma_async.m64nNk16, per lane (or thread of the warpgroup), register and
// half. Both directions: slot → (row, col) and (row, col) → slot.
//
// Source: the PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type",
// "ldmatrix", and "Register Fragments" of wgmma (figure "WGMMA .m64nNk16 register fragment
// layout for accumulator matrix D"). The PTX ISA names a lane's quad and its place in the quad
// groupID = laneid >> 2 and threadID_in_group = laneid % 4; so do we.
//
// Everything is constexpr and header-only; under nvcc the functions are __device__ too, so the
// tensor-core kernels and the views call the same ones (as ladder.hpp does for the FP32 rungs).
#pragma once

#include "model/index_math.hpp"

namespace ts::model {

// ---- mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 --------------------------------------

// One warp multiplies a 16×16 tile of A (M×K) by a 16×8 tile of B (K×N) into a 16×8 tile of C.
inline constexpr int kMmaM = 16;
inline constexpr int kMmaN = 8;
inline constexpr int kMmaK = 16;
// 32-bit registers per lane: A holds 8 BF16 values in 4 registers (two halves each), B holds 4 in
// 2, C holds 4 FP32 values in 4. 32 lanes × (8, 4, 4) = 256, 128, 128 = the tiles' sizes.
inline constexpr int kMmaARegisters = 4;
inline constexpr int kMmaBRegisters = 2;
inline constexpr int kMmaCRegisters = 4;

// Where one element lives: register `reg` of lane `lane`; for 16-bit operands `half` says which
// half of the 32-bit register (0: the low 16 bits, which hold the element with the lower index:
// a0 of the pair a0,a1). Accumulators (FP32) use half 0.
struct FragmentSlot {
    int lane = 0;
    int reg = 0;
    int half = 0;
    constexpr bool operator==(const FragmentSlot&) const = default;
};

TS_HOST_DEVICE constexpr int mma_group(int lane) { return lane >> 2; }           // groupID: rows
TS_HOST_DEVICE constexpr int mma_thread_in_group(int lane) { return lane & 3; }  // threadID_in_group

// A, 16×16 (row = m, col = k). Element a_i, i = 2·reg + half: rows groupID (regs 0, 2) and
// groupID + 8 (regs 1, 3); columns 2·threadID_in_group + half, plus 8 for regs 2 and 3. So
// register 0 is the top-left 8×8 quarter, 1 the bottom-left, 2 the top-right, 3 the bottom-right.
TS_HOST_DEVICE constexpr Cell mma_a_cell(int lane, int reg, int half) {
    return {mma_group(lane) + 8 * (reg & 1), 2 * mma_thread_in_group(lane) + half + 8 * (reg >> 1)};
}
TS_HOST_DEVICE constexpr FragmentSlot mma_a_slot(int row, int col) {
    return {4 * (row & 7) + ((col & 7) >> 1), (row >> 3) + 2 * (col >> 3), col & 1};
}

// B, 16×8 (row = k, col = n). Element b_i, i = 2·reg + half: row 2·threadID_in_group + half, plus
// 8 for reg 1; column groupID. A lane's two halves are neighbours along K, not along N.
TS_HOST_DEVICE constexpr Cell mma_b_cell(int lane, int reg, int half) {
    return {2 * mma_thread_in_group(lane) + half + 8 * reg, mma_group(lane)};
}
TS_HOST_DEVICE constexpr FragmentSlot mma_b_slot(int row, int col) {
    return {4 * col + ((row & 7) >> 1), row >> 3, row & 1};
}

// C and D, 16×8 FP32. Element c_i, i = reg: row groupID (regs 0, 1) or groupID + 8 (regs 2, 3),
// column 2·threadID_in_group + (reg & 1). Each lane owns two pairs of neighbours in one column
// pair, eight rows apart: a float2 store per pair.
TS_HOST_DEVICE constexpr Cell mma_c_cell(int lane, int reg) {
    return {mma_group(lane) + 8 * (reg >> 1), 2 * mma_thread_in_group(lane) + (reg & 1)};
}
TS_HOST_DEVICE constexpr FragmentSlot mma_c_slot(int row, int col) {
    return {4 * (row & 7) + (col >> 1), 2 * (row >> 3) + (col & 1), 0};
}

// ---- ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16 ----------------------------------

// ldmatrix reads 8×8 matrices of 16-bit elements, each row 16 contiguous bytes anywhere in shared
// memory (16-byte aligned). Lanes 8i..8i+7 give the addresses of rows 0..7 of matrix i; .x1 reads
// lanes 0–7's addresses, .x2 lanes 0–15's, .x4 all 32. (For sm_75 and below the PTX ISA asks every
// lane to hold a valid address all the same: copying the lower lanes' addresses up does.)
inline constexpr int kLdmatrixRowBytes = 16;
TS_HOST_DEVICE constexpr bool ldmatrix_gives_address(int lane, int matrices) { return lane < 8 * matrices; }
TS_HOST_DEVICE constexpr int ldmatrix_address_matrix(int lane) { return lane >> 3; }
TS_HOST_DEVICE constexpr int ldmatrix_address_row(int lane) { return lane & 7; }

// Destination register i of every lane receives from matrix i. Without .trans, lane l gets row
// l/4, columns 2·(l%4) and 2·(l%4)+1 (half 0 and 1), as the rows were stored: four lanes share a
// row, as in mma's A and C. With .trans the matrix arrives transposed: lane l gets column l/4,
// rows 2·(l%4) and 2·(l%4)+1 of the stored matrix, which is what mma's B wants from a row-major
// K×N tile. The Cell is (stored row, stored column) within the 8×8 matrix.
TS_HOST_DEVICE constexpr Cell ldmatrix_element(int lane, int half, bool trans) {
    return trans ? Cell{2 * (lane & 3) + half, lane >> 2} : Cell{lane >> 2, 2 * (lane & 3) + half};
}
// The inverse: which lane and half receive stored element (row, col) of matrix `matrix`.
TS_HOST_DEVICE constexpr FragmentSlot ldmatrix_receiver(int matrix, int row, int col, bool trans) {
    return trans ? FragmentSlot{4 * col + (row >> 1), matrix, row & 1}
                 : FragmentSlot{4 * row + (col >> 1), matrix, col & 1};
}

// How the mma rungs feed mma.m16n8k16 with one ldmatrix.x4 per operand tile: the (row, col) in
// the operand tile whose 16-byte row lane `lane` points at (8 elements from there on).
//
// A, 16×16 stored row-major (K contiguous): matrices 0..3 = the quarters in register order
// (top-left, bottom-left, top-right, bottom-right), so lanes 0–15 point at rows 0–15 at k = 0 and
// lanes 16–31 at rows 0–15 at k = 8. Register i of the result is a_{2i}, a_{2i+1} of mma's A.
TS_HOST_DEVICE constexpr Cell ldmatrix_x4_a_row(int lane) { return {lane & 15, (lane >> 4) * 8}; }
// B as TileScope stores it, K×N row-major (N contiguous), 16 k × 16 n: .x4.trans; matrices 0 and 1
// are k 0–7 and 8–15 of n 0–7 (registers 0, 1 of the first n8 fragment), 2 and 3 the same for
// n 8–15 (the second). Lane l points at k = l % 16, n = 8·(l / 16): the same rows as A's.
TS_HOST_DEVICE constexpr Cell ldmatrix_x4_trans_b_row(int lane) { return {lane & 15, (lane >> 4) * 8}; }
// B stored N×K (K contiguous, "col" for mma), 16 n × 16 k: .x4 without .trans; matrix order as
// above. Lane l points at n = l % 8 + 8·(l / 16), k = 8·((l / 8) % 2). Cell is (n, k).
TS_HOST_DEVICE constexpr Cell ldmatrix_x4_b_row(int lane) {
    return {(lane & 7) + 8 * (lane >> 4), 8 * ((lane >> 3) & 1)};
}
// For both B loads: destination register r of the x4 is register (r & 1) of the n8 fragment r / 2.

// ---- A warp tile of mma.sync ------------------------------------------------------------------

// A warp that owns a WM×WN tile of C keeps (WM/16)·(WN/8) mma accumulators of 4 floats,
// acc[mi][ni][reg]; cell (row, col) of the warp tile for lane, mi, ni, reg:
TS_HOST_DEVICE constexpr Cell mma_warp_tile_cell(int lane, int mi, int ni, int reg) {
    const Cell c = mma_c_cell(lane, reg);
    return {kMmaM * mi + c.row, kMmaN * ni + c.col};
}

// ---- wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16 ---------------------------------------

// A warpgroup (4 consecutive warps, the first a multiple of 4) multiplies 64×16 of A by 16×N of
// B into 64×N FP32, N = 8, 16, ..., 256. Each of the 128 threads holds N/2 accumulators.
inline constexpr int kWarpgroupSize = 128;
inline constexpr int kWgmmaM = 64;
inline constexpr int kWgmmaK = 16;  // 16-bit inputs: K = 16 elements = 32 bytes
TS_HOST_DEVICE constexpr bool wgmma_n_valid(int n) { return n >= 8 && n <= 256 && n % 8 == 0; }
TS_HOST_DEVICE constexpr int wgmma_accumulator_registers(int n) { return n / 2; }

// Warp w of the warpgroup owns rows 16w..16w+15; within them each 8-column block is laid out as
// mma.m16n8's C: register d_i sits in column block i/4, as c_{i%4} of that block.
struct AccumulatorSlot {
    int thread = 0;  // 0..127 within the warpgroup
    int reg = 0;     // 0..N/2-1
    constexpr bool operator==(const AccumulatorSlot&) const = default;
};
TS_HOST_DEVICE constexpr Cell wgmma_accumulator_cell(int thread, int reg) {
    const int warp = thread >> 5, lane = thread & 31;
    return {16 * warp + mma_group(lane) + 8 * ((reg >> 1) & 1),
            8 * (reg >> 2) + 2 * mma_thread_in_group(lane) + (reg & 1)};
}
TS_HOST_DEVICE constexpr AccumulatorSlot wgmma_accumulator_slot(int row, int col) {
    const int warp = row >> 4, r = row & 15;
    return {32 * warp + 4 * (r & 7) + ((col & 7) >> 1), 4 * (col >> 3) + 2 * (r >> 3) + (col & 1)};
}

}  // namespace ts::model
