#include "kernel_config.hpp"

#include "format.hpp"

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
        case KernelKind::Cublas: return "cublas";
    }
    return "?";
}

std::optional<KernelKind> parse_kernel(std::string_view text) {
    for (KernelKind kind : kAllKernelKinds)
        if (text == kernel_name(kind)) return kind;
    return std::nullopt;
}

bool is_modelled(KernelKind kind) { return kind != KernelKind::Cublas; }

bool is_ladder(KernelKind kind) { return kind >= KernelKind::RegTile1d && kind <= KernelKind::Tuned; }

bool uses_dynamic_shared(KernelKind kind) { return kind == KernelKind::Pipelined || kind == KernelKind::Tuned; }

std::optional<std::string> dtype_unsupported(KernelKind kind, Dtype dtype) {
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
    if (config.kind == KernelKind::Tuned && config.variant >= 0) return format_text("tuned #{}", config.variant);
    if (config.kind == KernelKind::Cublas || is_ladder(config.kind)) return std::string(kernel_name(config.kind));
    if (uses_1d_blocks(config.kind)) return format_text("{} {}", kernel_name(config.kind), config.block_x);
    return format_text("{} {}×{}", kernel_name(config.kind), config.block_x, config.block_y);
}

}  // namespace ts::model
