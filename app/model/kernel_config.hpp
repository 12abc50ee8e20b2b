// kernel_config.hpp — which kernel, and its launch parameters.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kernel_kind.hpp"
#include "problem.hpp"

namespace ts::model {

// KernelKind is in kernel_kind.hpp; the table of what each kernel is, and the lists of kinds
// (kAllKernelKinds, kTensorCoreKinds, kLadderKinds) derived from it, in rung_info.hpp.

// "naive", "naive-row", "row-per-thread", "column-per-thread", "tiled", "regtile-1d", ...,
// "tuned", "cublas": the table's name (rung_info.hpp), "?" for a kind it does not hold.
std::string_view kernel_name(KernelKind kind);
std::optional<KernelKind> parse_kernel(std::string_view text);

// False for cuBLAS: it picks its own kernels, grids and tiles at run time, so the model
// can say nothing about its threads or traffic (plan_launch, the thread map and
// count_traffic say so: see each). False for the tensor-core rungs too: their warps,
// fragments and stages are in tensor_core/, which the CUDA-core views do not draw; and for a rung of
// the FP32 ladder that ladder_shape has no shape for.
bool is_modelled(KernelKind kind);
// Why the views cannot draw `kind`'s threads, for a kind that is not modelled.
std::string_view unmodelled_reason(KernelKind kind);

// True for the tensor cores' ladder (13 on): BF16 or FP16 inputs on the tensor cores.
bool is_tensor_core(KernelKind kind);
// True for the rungs built only for sm_90a (wgmma, TMA, setmaxnreg): 16 on (Arch::Sm90a).
bool needs_sm90a(KernelKind kind);
// The persistent rungs (18 persistent, 19 tc-tuned): a grid of clusters that each walk many tiles.
bool is_persistent(KernelKind kind);

// True for the kernels that launch 1-D blocks of block_x threads (block_y is not used).
bool uses_1d_blocks(KernelKind kind);

// True for the rungs whose shape is a choice among candidates (KernelConfig::variant): tuned, tc-tuned.
bool is_tuned(KernelKind kind);
// How many candidate shapes a tuned rung is compiled for; 0 for any other kind.
int tuned_candidate_count(KernelKind kind);

// True for the rungs of the FP32 ladder past the tiled kernel (06 to 12): their shape is fixed
// per rung (ladder_shape), not taken from block_x, block_y or tile.
bool is_ladder(KernelKind kind);

// True for the rungs whose shared memory is dynamic (11 on: with their stages it may pass the
// 48 KiB a kernel can declare statically, up to what the GPU lets one block opt in to).
bool uses_dynamic_shared(KernelKind kind);

// Why `kind` has no kernel for elements of `dtype` (its row's dtypes), or nullopt. From the
// vectorized rung on the ladder moves four floats per instruction and is written for float
// alone; cuBLAS has no int32 GEMM (said by app/gpu/cublas_library.hpp, which knows more).
std::optional<std::string> dtype_unsupported(KernelKind kind, Dtype dtype);
// The scales an FP8 rung is written for (fp8: one per tensor; fp8-blocks: per block), nullopt for
// every other kind (cuBLAS takes both); and why `kind` cannot run fp8 with `scaling`, or nullopt.
std::optional<Fp8Scaling> fp8_rung_scaling(KernelKind kind);
std::optional<std::string> fp8_scaling_unsupported(KernelKind kind, Fp8Scaling scaling);

inline constexpr int kMaxTile = 32;  // 32×32 = 1024 threads, the per-block limit

struct KernelConfig {
    KernelKind kind = KernelKind::Tiled;
    int block_x = 16;  // naive kernels: blockDim.x; row/column-per-thread: the whole block
    int block_y = 16;  // naive kernels: blockDim.y; ignored by the 1-D kernels
    int tile = 16;     // tiled kernel: T (blocks of T×T threads)
    // Tuned rungs: which of model::kTunedCandidates (ladder.hpp) or, for tc-tuned, of
    // model::kTcTunedCandidates (tensor_core/pipeline.hpp) it runs; -1: the one the tuning table picks for
    // this GPU and size (the runner resolves it before a launch).
    int variant = -1;
};

// "tiled T=16", "naive 32×8", "row-per-thread 128", "cublas"
std::string describe(const KernelConfig& config);

}  // namespace ts::model
