// kernel_config.hpp — which kernel, and its launch parameters.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "problem.hpp"

namespace ts::model {

// In teaching order: the number of each kernel's file in kernels/ follows this list.
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
    Cublas,          // NVIDIA's cuBLAS GEMM, the reference line; the model knows nothing inside it
};

inline constexpr KernelKind kAllKernelKinds[] = {KernelKind::Naive,           KernelKind::NaiveRowFromX,
                                                 KernelKind::RowPerThread,    KernelKind::ColumnPerThread,
                                                 KernelKind::Tiled,           KernelKind::RegTile1d,
                                                 KernelKind::RegTile2d,       KernelKind::Vectorized,
                                                 KernelKind::ConflictFree,    KernelKind::Warptile,
                                                 KernelKind::Pipelined,       KernelKind::Tuned,
                                                 KernelKind::Wmma,            KernelKind::Mma,
                                                 KernelKind::MmaAsync,        KernelKind::Wgmma,
                                                 KernelKind::WarpSpecialized, KernelKind::Persistent,
                                                 KernelKind::TcTuned,         KernelKind::Cublas};

// The tensor-core rungs, in order.
inline constexpr KernelKind kTensorCoreKinds[] = {KernelKind::Wmma,  KernelKind::Mma,
                                                  KernelKind::MmaAsync, KernelKind::Wgmma,
                                                  KernelKind::WarpSpecialized, KernelKind::Persistent,
                                                  KernelKind::TcTuned};

// The ladder's rungs past the tiled kernel (is_ladder), in order.
inline constexpr KernelKind kLadderKinds[] = {KernelKind::RegTile1d,    KernelKind::RegTile2d, KernelKind::Vectorized,
                                              KernelKind::ConflictFree, KernelKind::Warptile,  KernelKind::Pipelined,
                                              KernelKind::Tuned};

// "naive", "naive-row", "row-per-thread", "column-per-thread", "tiled", "regtile-1d", ...,
// "tuned", "cublas"
std::string_view kernel_name(KernelKind kind);
std::optional<KernelKind> parse_kernel(std::string_view text);

// False for cuBLAS: it picks its own kernels, grids and tiles at run time, so the model
// can say nothing about its threads or traffic (plan_launch, the thread map and
// count_traffic say so: see each). False for the tensor-core rungs too: their warps,
// fragments and stages are in tc_*.hpp, which the CUDA-core views do not draw.
bool is_modelled(KernelKind kind);
// Why the views cannot draw `kind`'s threads, for a kind that is not modelled.
std::string_view unmodelled_reason(KernelKind kind);

// True for 13 on: BF16 or FP16 inputs on the tensor cores.
bool is_tensor_core(KernelKind kind);
// True for the rungs built only for sm_90a (wgmma, TMA, setmaxnreg): 16 on.
bool needs_sm90a(KernelKind kind);
// The persistent rungs (18 persistent, 19 tc-tuned): a grid of clusters that each walk many tiles.
bool is_persistent(KernelKind kind);

// True for the kernels that launch 1-D blocks of block_x threads (block_y is not used).
bool uses_1d_blocks(KernelKind kind);

// True for the rungs whose shape is a choice among candidates (KernelConfig::variant): tuned, tc-tuned.
bool is_tuned(KernelKind kind);
// How many candidate shapes a tuned rung is compiled for; 0 for any other kind.
int tuned_candidate_count(KernelKind kind);

// True for the rungs of the kernel ladder past the tiled kernel (06 on): their shape is fixed
// per rung (ladder_shape), not taken from block_x, block_y or tile.
bool is_ladder(KernelKind kind);

// True for the rungs whose shared memory is dynamic (11 on: with their stages it may pass the
// 48 KiB a kernel can declare statically, up to what the GPU lets one block opt in to).
bool uses_dynamic_shared(KernelKind kind);

// Why `kind` has no kernel for elements of `dtype`, or nullopt. From the vectorized rung on
// the ladder moves four floats per instruction and is written for float alone; cuBLAS has
// no int32 GEMM (said by app/gpu/cublas_library.hpp, which knows more).
std::optional<std::string> dtype_unsupported(KernelKind kind, Dtype dtype);

inline constexpr int kMaxTile = 32;  // 32×32 = 1024 threads, the per-block limit

struct KernelConfig {
    KernelKind kind = KernelKind::Tiled;
    int block_x = 16;  // naive kernels: blockDim.x; row/column-per-thread: the whole block
    int block_y = 16;  // naive kernels: blockDim.y; ignored by the 1-D kernels
    int tile = 16;     // tiled kernel: T (blocks of T×T threads)
    // Tuned rungs: which of model::kTunedCandidates (ladder.hpp) or, for tc-tuned, of
    // model::kTcTunedCandidates (tc_pipeline.hpp) it runs; -1: the one the tuning table picks for
    // this GPU and size (the runner resolves it before a launch).
    int variant = -1;
};

// "tiled T=16", "naive 32×8", "row-per-thread 128", "cublas"
std::string describe(const KernelConfig& config);

}  // namespace ts::model
