#include "kernel_config.hpp"

#include "format.hpp"
#include "ladder.hpp"
#include "rung_info.hpp"
#include "tensor_core/pipeline.hpp"

namespace ts::model {

std::string_view kernel_name(KernelKind kind) {
    const RungInfo* row = find_rung(kind);
    return row ? row->name : "?";
}

std::optional<KernelKind> parse_kernel(std::string_view text) {
    for (const RungInfo& row : rung_table())
        if (text == row.name) return row.kind;
    return std::nullopt;
}

bool is_modelled(KernelKind kind) {
    if (kind == KernelKind::Cublas || is_tensor_core(kind)) return false;
    // A rung of the FP32 ladder is drawn from its shape: one the model has none for draws nothing.
    return !is_ladder(kind) || ladder_shape(kind).valid();
}

std::string_view unmodelled_reason(KernelKind kind) {
    if (is_tensor_core(kind))
        return "a tensor-core rung's warps share whole fragments rather than owning cells one by one, so the "
               "CUDA-core kernels' thread map does not apply to it";
    if (kind != KernelKind::Cublas) return "the model has no shape for this rung (model::ladder_shape)";
    return "cuBLAS picks its own kernels at run time, so the model knows none of their blocks";
}

bool is_tensor_core(KernelKind kind) {
    const RungInfo* row = find_rung(kind);
    return row && row->ladder == Ladder::TensorCores;
}

bool needs_sm90a(KernelKind kind) {
    const RungInfo* row = find_rung(kind);
    return row && row->arch == Arch::Sm90a;
}

bool is_persistent(KernelKind kind) {
    return kind == KernelKind::Persistent || kind == KernelKind::TcTuned || kind == KernelKind::Fp8 ||
           kind == KernelKind::Fp8Blocks;
}

bool is_tuned(KernelKind kind) {
    const RungInfo* row = find_rung(kind);
    return row && row->tuned;
}

int tuned_candidate_count(KernelKind kind) {
    if (kind == KernelKind::Tuned) return kTunedCandidateCount;
    return kind == KernelKind::TcTuned ? kTcTunedCandidateCount : 0;
}

bool is_ladder(KernelKind kind) {
    const RungInfo* row = find_rung(kind);
    return row && row->ladder == Ladder::Fp32 && row->position > 0;
}

bool uses_dynamic_shared(KernelKind kind) { return kind == KernelKind::Pipelined || kind == KernelKind::Tuned; }

std::optional<std::string> dtype_unsupported(KernelKind kind, Dtype dtype) {
    const RungInfo* row = find_rung(kind);
    if (!row || row->dtypes.has(dtype)) return std::nullopt;
    if (is_fp8(dtype)) {
        std::string types;  // the kernel's own, from its row
        for (Dtype d : {Dtype::Int32, Dtype::Float32, Dtype::Float64, Dtype::BFloat16, Dtype::Float16})
            if (row->dtypes.has(d)) types += (types.empty() ? "" : ", ") + std::string(dtype_name(d));
        return format_text("fp8 (e4m3 inputs, C = A·Bᵀ in BF16) runs on the fp8 and fp8-blocks rungs and on cuBLAS "
                           "(cuBLASLt's FP8 GEMM); the {} kernel takes {}",
                           kernel_name(kind), types);
    }
    if (row->dtypes.has(Dtype::Fp8E4M3))
        return format_text("the {} rung takes fp8 (e4m3) inputs only: run it with --dtype fp8", kernel_name(kind));
    if (is_tensor_core(kind))
        return format_text("the {} rung runs on the tensor cores, which take bf16 or fp16 inputs here (FP32 "
                           "accumulation); {} runs on the CUDA-core rungs",
                           kernel_name(kind), dtype_name(dtype));
    if (is_half_precision(dtype))
        return format_text("{} is for the tensor-core rungs (wmma on) and cuBLAS; the {} kernel is written for "
                           "int32, float or double",
                           dtype_name(dtype), kernel_name(kind));
    return format_text("the {} rung is written for float only (from the vectorized rung on, the ladder moves "
                       "four floats per 128-bit instruction); {} runs on naive to regtile-2d",
                       kernel_name(kind), dtype_name(dtype));
}

std::optional<Fp8Scaling> fp8_rung_scaling(KernelKind kind) {
    if (kind == KernelKind::Fp8) return Fp8Scaling::Tensor;
    if (kind == KernelKind::Fp8Blocks) return Fp8Scaling::Block;
    return std::nullopt;
}

std::optional<std::string> fp8_scaling_unsupported(KernelKind kind, Fp8Scaling scaling) {
    const std::optional<Fp8Scaling> own = fp8_rung_scaling(kind);
    if (!own || *own == scaling) return std::nullopt;
    const KernelKind other = *own == Fp8Scaling::Tensor ? KernelKind::Fp8Blocks : KernelKind::Fp8;
    return format_text("the {} rung is written for {} scales (--scaling {}); {} scales are the {} rung's",
                       kernel_name(kind), fp8_scaling_name(*own), fp8_scaling_name(*own), fp8_scaling_name(scaling),
                       kernel_name(other));
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
