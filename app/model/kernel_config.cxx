#include "kernel_config.hpp"

#include "format.hpp"
#include "ladder.hpp"
#include "tc_pipeline.hpp"

namespace ts::model {

std::string_view kernel_name(KernelKind kind) {
    switch (kind) {
        case KernelKind::Naive: return "naive";
        case KernelKind::NaiveRowFromX: return "naive-row";
        case KernelKind::RowPerThread: return "row-per-thread";
        case KernelKind::ColumnPerThread: return "column-per-thread";
        case KernelKind::Tiled: return "tiled";
        case KernelKind::RegTile1d: return "regtile-1d";
        case KernelKind::RegTile2d: return "regtile-2d";
        case KernelKind::Vectorized: return "vectorized";
        case KernelKind::ConflictFree: return "conflict-free";
        case KernelKind::Warptile: return "warptile";
        case KernelKind::Pipelined: return "pipelined";
        case KernelKind::Tuned: return "tuned";
        case KernelKind::Wmma: return "wmma";
        case KernelKind::Mma: return "mma";
        case KernelKind::MmaAsync: return "mma-async";
        case KernelKind::Wgmma: return "wgmma";
        case KernelKind::WarpSpecialized: return "warp-specialized";
        case KernelKind::Persistent: return "persistent";
        case KernelKind::TcTuned: return "tc-tuned";
        case KernelKind::Cublas: return "cublas";
    }
    return "?";
}

std::optional<KernelKind> parse_kernel(std::string_view text) {
    for (KernelKind kind : kAllKernelKinds)
        if (text == kernel_name(kind)) return kind;
    return std::nullopt;
}

bool is_modelled(KernelKind kind) { return kind != KernelKind::Cublas && !is_tensor_core(kind); }

std::string_view unmodelled_reason(KernelKind kind) {
    if (is_tensor_core(kind))
        return "a tensor-core rung's warps share whole fragments rather than owning cells one by one, so the "
               "CUDA-core kernels' thread map does not apply to it";
    return "cuBLAS picks its own kernels at run time, so the model knows none of their blocks";
}

bool is_tensor_core(KernelKind kind) { return kind >= KernelKind::Wmma && kind <= KernelKind::TcTuned; }

bool needs_sm90a(KernelKind kind) { return kind >= KernelKind::Wgmma && kind <= KernelKind::TcTuned; }

bool is_persistent(KernelKind kind) { return kind == KernelKind::Persistent || kind == KernelKind::TcTuned; }

bool is_tuned(KernelKind kind) { return kind == KernelKind::Tuned || kind == KernelKind::TcTuned; }

int tuned_candidate_count(KernelKind kind) {
    if (kind == KernelKind::Tuned) return kTunedCandidateCount;
    return kind == KernelKind::TcTuned ? kTcTunedCandidateCount : 0;
}

bool is_ladder(KernelKind kind) { return kind >= KernelKind::RegTile1d && kind <= KernelKind::Tuned; }

bool uses_dynamic_shared(KernelKind kind) { return kind == KernelKind::Pipelined || kind == KernelKind::Tuned; }

std::optional<std::string> dtype_unsupported(KernelKind kind, Dtype dtype) {
    if (is_tensor_core(kind) && !is_half_precision(dtype))
        return format_text("the {} rung runs on the tensor cores, which take bf16 or fp16 inputs here (FP32 "
                           "accumulation); {} runs on the CUDA-core rungs",
                           kernel_name(kind), dtype_name(dtype));
    if (is_half_precision(dtype) && !is_tensor_core(kind) && kind != KernelKind::Cublas)
        return format_text("{} is for the tensor-core rungs (wmma on) and cuBLAS; the {} kernel is written for "
                           "int32, float or double",
                           dtype_name(dtype), kernel_name(kind));
    if (kind >= KernelKind::Vectorized && kind <= KernelKind::Tuned && dtype != Dtype::Float32)
        return format_text("the {} rung is written for float only (from the vectorized rung on, the ladder moves "
                           "four floats per 128-bit instruction); {} runs on naive to regtile-2d",
                           kernel_name(kind), dtype_name(dtype));
    return std::nullopt;
}

bool uses_1d_blocks(KernelKind kind) {
    return kind == KernelKind::RowPerThread || kind == KernelKind::ColumnPerThread;
}

std::string describe(const KernelConfig& config) {
    if (config.kind == KernelKind::Tiled) return format_text("tiled T={}", config.tile);
    if (is_tuned(config.kind) && config.variant >= 0)
        return format_text("{} #{}", kernel_name(config.kind), config.variant);
    if (config.kind == KernelKind::Cublas || is_ladder(config.kind) || is_tensor_core(config.kind))
        return std::string(kernel_name(config.kind));
    if (uses_1d_blocks(config.kind)) return format_text("{} {}", kernel_name(config.kind), config.block_x);
    return format_text("{} {}×{}", kernel_name(config.kind), config.block_x, config.block_y);
}

}  // namespace ts::model
