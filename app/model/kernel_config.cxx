#include "kernel_config.hpp"

#include "format.hpp"

namespace ts::model {

std::string_view kernel_name(KernelKind kind) {
    switch (kind) {
        case KernelKind::Naive: return "naive";
        case KernelKind::NaiveRowFromX: return "naive-row";
        case KernelKind::Tiled: return "tiled";
    }
    return "?";
}

std::optional<KernelKind> parse_kernel(std::string_view text) {
    for (KernelKind kind : {KernelKind::Naive, KernelKind::NaiveRowFromX, KernelKind::Tiled})
        if (text == kernel_name(kind)) return kind;
    return std::nullopt;
}

std::string describe(const KernelConfig& config) {
    if (config.kind == KernelKind::Tiled) return format("tiled T={}", config.tile);
    return format("{} {}×{}", kernel_name(config.kind), config.block_x, config.block_y);
}

}  // namespace ts::model
