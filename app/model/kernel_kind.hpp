// kernel_kind.hpp — which kernel: one KernelKind per kernel file, in teaching order. What each
// kind is (its name, file, element types, ladder and rung) is its row in rung_info.hpp's table;
// this header stays apart from it so that the kernels, which only name kinds, do not see the
// table's texts.
#pragma once

namespace ts::model {

// In teaching order: the number of each kernel's file in kernels/ follows this list. Each kind has
// the row of kRungTable at its own index (static_asserted there), cuBLAS last.
enum class KernelKind {
    Naive,           // 01: one thread per C cell, threadIdx.x → column (coalesced)
    NaiveRowFromX,   // 02: one thread per C cell, threadIdx.x → row (uncoalesced)
    RowPerThread,    // 03: one thread per row of C, 1-D blocks of block_x threads
    ColumnPerThread, // 04: one thread per column of C, 1-D blocks of block_x threads
    Tiled,           // 05: T×T tiles of A and B staged in shared memory
    RegTile1d,       // 06: 64×64 block tiles; each thread computes 8 cells of a column from registers
    RegTile2d,       // 07: 128×128 block tiles; each thread computes an 8×8 register tile
    Vectorized,      // 08: 07 with float4 loads and As stored transposed (float only, as from here on)
    ConflictFree,    // 09: 08 without shared-memory bank conflicts
    Warptile,        // 10: block → warp → thread tiles
    Pipelined,       // 11: a four-stage cp.async pipeline over 10's block and warp tiles
    Tuned,           // 12: 11's kernel with the shape the tuner chose for this GPU and size
    // The tensor-core ladder: BF16 or FP16 in, FP32 accumulation, BF16 or FP16 out.
    Wmma,            // 13: the WMMA API, 16×16×16 fragments loaded from shared memory
    Mma,             // 14: PTX mma.sync.m16n8k16 fed by ldmatrix, warp tiles in registers
    MmaAsync,        // 15: 14 with XOR-swizzled tiles in a 4-stage cp.async pipeline: the Ampere recipe
    Wgmma,           // 16: TMA copies, mbarriers and wgmma.mma_async from swizzled shared memory (sm_90a)
    WarpSpecialized, // 17: a producer warpgroup and two consumer warpgroups around a ring of stages (sm_90a)
    Persistent,      // 18: 17 on a persistent grid in an L2-aware order, in clusters of 2 sharing B by multicast
    TcTuned,         // 19: 18's kernel with the shape the tuner chose for this GPU and size (sm_90a)
    // Eight bits: e4m3 in, FP32 accumulation, BF16 out, C = A·Bᵀ with B stored N×K.
    Fp8,             // 20: 18's kernel with e4m3 operands, one scale per tensor applied in the epilogue (sm_90a)
    Fp8Blocks,       // 21: 20 with block scales, each K step's products promoted into FP32 sums (sm_90a)
    Cublas,          // NVIDIA's cuBLAS GEMM, the reference line; the model knows nothing inside it
};

}  // namespace ts::model
