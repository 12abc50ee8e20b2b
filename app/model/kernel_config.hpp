// kernel_config.hpp — which kernel, and its launch parameters.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ts::model {

enum class KernelKind {
    Naive,         // one thread per C cell, threadIdx.x → column (coalesced)
    NaiveRowFromX, // one thread per C cell, threadIdx.x → row (uncoalesced)
    Tiled,         // T×T tiles of A and B staged in shared memory
};

std::string_view kernel_name(KernelKind kind);   // "naive", "naive-row", "tiled"
std::optional<KernelKind> parse_kernel(std::string_view text);

inline constexpr int kMaxTile = 32;  // 32×32 = 1024 threads, the per-block limit

struct KernelConfig {
    KernelKind kind = KernelKind::Tiled;
    int block_x = 16;  // naive kernels: blockDim.x
    int block_y = 16;  // naive kernels: blockDim.y
    int tile = 16;     // tiled kernel: T (blocks of T×T threads)
};

// "tiled T=16", "naive 32×8"
std::string describe(const KernelConfig& config);

}  // namespace ts::model
