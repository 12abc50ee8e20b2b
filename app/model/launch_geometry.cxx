#include "launch_geometry.hpp"

#include "format.hpp"
#include "ladder.hpp"

namespace ts::model {

namespace {

// The FP32 ladder past the tiled kernel: its grid, blocks and shared memory into `g`; returns the
// cells of C that have an owning thread, per batch.
std::int64_t plan_ladder_launch(const KernelConfig& config, const Problem& p, LaunchGeometry& g) {
    // 1-D blocks; each thread owns TM×TN register tiles, so a thread is a ghost when
    // its first tile's first cell lies outside C (its other tiles lie below and to
    // the right of that one).
    const LadderShape s = ladder_shape(config);
    g.block = {s.threads(), 1, 1};
    g.grid = {ceil_div64(p.n, s.bn), ceil_div64(p.m, s.bm), p.batch};
    g.shared_bytes = ladder_shared_bytes(s, static_cast<int>(dtype_size(p.dtype)));
    // Whole blocks own all their threads; the last row and column of blocks may hang
    // over C's edge, so count their threads once per kind of block.
    const std::int64_t rows[2] = {s.bm, p.m % s.bm}, cols[2] = {s.bn, p.n % s.bn};
    const std::int64_t row_blocks[2] = {p.m / s.bm, rows[1] > 0}, col_blocks[2] = {p.n / s.bn, cols[1] > 0};
    std::int64_t owned = 0;
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x)
            if (row_blocks[y] > 0 && col_blocks[x] > 0)
                owned += row_blocks[y] * col_blocks[x] *
                         ladder_threads_inside(s, static_cast<int>(rows[y]), static_cast<int>(cols[x]));
    return owned;
}

}  // namespace

LaunchGeometry plan_launch(const KernelConfig& config, const Problem& p) {
    LaunchGeometry g;
    // Cells (or rows, or columns) of C that have an owning thread, per batch.
    std::int64_t owned = p.m * p.n;
    switch (config.kind) {
        case KernelKind::Naive:
            g.block = {config.block_x, config.block_y, 1};
            g.grid = {ceil_div64(p.n, config.block_x), ceil_div64(p.m, config.block_y), p.batch};
            break;
        case KernelKind::NaiveRowFromX:
            // threadIdx.x walks the rows, so the x dimension of the grid covers M.
            g.block = {config.block_x, config.block_y, 1};
            g.grid = {ceil_div64(p.m, config.block_x), ceil_div64(p.n, config.block_y), p.batch};
            break;
        case KernelKind::RowPerThread:
            g.block = {config.block_x, 1, 1};
            g.grid = {ceil_div64(p.m, config.block_x), 1, p.batch};
            owned = p.m;
            break;
        case KernelKind::ColumnPerThread:
            g.block = {config.block_x, 1, 1};
            g.grid = {ceil_div64(p.n, config.block_x), 1, p.batch};
            owned = p.n;
            break;
        case KernelKind::Tiled:
            g.block = {config.tile, config.tile, 1};
            g.grid = {ceil_div64(p.n, config.tile), ceil_div64(p.m, config.tile), p.batch};
            // One T×T tile of A and one of B, both of the problem's element type.
            g.shared_bytes = static_cast<int>(2 * config.tile * config.tile * dtype_size(p.dtype));
            break;
        default:
            // A rung of the FP32 ladder from its shape; one with no shape (is_modelled says) as unmodelled.
            if (is_ladder(config.kind) && is_modelled(config.kind)) {
                owned = plan_ladder_launch(config, p, g);
                break;
            }
            // The tensor-core rungs and cuBLAS (their blocks are tensor_core/mma.hpp's and pipeline.hpp's).
            g.grid = {0, 0, 0};
            g.block = {0, 0, 0};
            g.modelled = false;
            return g;
    }
    const std::int64_t per_batch = g.grid.x * g.grid.y * g.block.x * g.block.y;
    g.ghost_threads = per_batch - owned;
    return g;
}

std::optional<std::string> check_config(const KernelConfig& config) {
    if (config.kind == KernelKind::Tiled) {
        if (config.tile < 1) return format_text("tile width T must be at least 1 (got {})", config.tile);
        if (config.tile > kMaxTile)
            return format_text("tile width T = {} means {} × {} = {} threads per block, over CUDA's limit of "
                          "1024 (T = 32 is the largest square tile); a GPU refuses such a launch: "
                          "\"invalid configuration argument\" (CUDA 13 says \"invalid argument\")",
                          config.tile, config.tile, config.tile, std::int64_t{config.tile} * config.tile);
        return std::nullopt;
    }
    // Shapes fixed per rung (and cuBLAS's its own).
    if (config.kind == KernelKind::Cublas || is_ladder(config.kind) || is_tensor_core(config.kind)) return std::nullopt;
    if (uses_1d_blocks(config.kind)) {
        if (config.block_x < 1) return format_text("the block must have at least 1 thread (got {})", config.block_x);
        return std::nullopt;
    }
    if (config.block_x < 1 || config.block_y < 1)
        return format_text("block sides must be at least 1 (got {}×{})", config.block_x, config.block_y);
    return std::nullopt;
}

std::optional<std::string> check_launch(const KernelConfig& config, const Problem& problem,
                                        const DeviceLimits& limits) {
    if (auto why = check_config(config)) return why;
    if (auto why = validate(problem, limits.global_memory_bytes)) return why;
    // cuBLAS checks its own launches; it reports a failure through its status.
    if (!is_modelled(config.kind)) return std::nullopt;
    const LaunchGeometry g = plan_launch(config, problem);
    const std::int64_t threads = g.block.volume();
    if (threads > limits.max_threads_per_block)
        return format_text("a block of {}×{} = {} threads is over the limit of {} threads per block; a GPU "
                      "refuses the launch: \"invalid configuration argument\" (CUDA 13 says \"invalid argument\")",
                      g.block.x, g.block.y, threads, limits.max_threads_per_block);
    if (g.block.x > limits.max_block_dim_x || g.block.y > limits.max_block_dim_y)
        return format_text("blockDim ({}, {}) exceeds the per-dimension limit ({}, {})", g.block.x, g.block.y,
                      limits.max_block_dim_x, limits.max_block_dim_y);
    if (g.grid.x > limits.max_grid_x || g.grid.y > limits.max_grid_y || g.grid.z > limits.max_grid_z)
        return format_text("a grid of ({}, {}, {}) blocks exceeds the device's limit ({}, {}, {}); gridDim.y and "
                      "gridDim.z may not exceed 65535",
                      g.grid.x, g.grid.y, g.grid.z, limits.max_grid_x, limits.max_grid_y, limits.max_grid_z);
    if (g.shared_bytes > limits.optin_shared_per_block)
        return format_text("the tiles need {} of shared memory per block, over the {} this GPU gives one block",
                           human_bytes(g.shared_bytes), human_bytes(limits.optin_shared_per_block));
    if (g.shared_bytes > limits.static_shared_per_block && !uses_dynamic_shared(config.kind))
        return format_text("the tiles need {} of shared memory per block, over the {} a kernel may declare "
                      "statically",
                      human_bytes(g.shared_bytes), human_bytes(limits.static_shared_per_block));
    return std::nullopt;
}

}  // namespace ts::model
