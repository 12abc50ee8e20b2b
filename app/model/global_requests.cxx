// The walk global_requests.hpp describes; what the counters mean, and the predictions made
// from this walk, are in counters.cxx.
#include "global_requests.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <vector>

#include "index_math.hpp"
#include "ladder.hpp"
#include "ladder_access.hpp"
#include "launch_geometry.hpp"
#include "memory_sectors.hpp"

namespace ts::model {

namespace {

// ---- Global memory, warp instruction by warp instruction ---------------------------------
//
// The hardware counts a request per warp-wide load instruction that has at least one lane
// active, and the distinct 32-byte sectors its lanes touch. Walking every warp of a 4096³
// launch would take seconds, so the walk uses the fact that most of them repeat: when
// moving a block (or a K step) by p moves every address it touches by a multiple of 32
// bytes, it touches as many sectors as the one p before it. p is 1 where the strides are
// multiples of 32 bytes already (a block row of A moves by BM·K elements), and at most 8.
// Only the last index of a dimension may differ, where it hangs over the edge of a matrix.
// So each dimension is walked as at most 9 representatives, each standing for every index
// like it.

constexpr int kMostPeriod = 8;  // 8 elements of 4 bytes or more: always whole sectors

struct IndexClass {
    int index = 0;           // the representative
    std::int64_t count = 0;  // how many indices it stands for
};

// The smallest p (1, 2, 4 or 8) for which p × every stride (in elements) is whole sectors.
int sector_period(std::initializer_list<std::int64_t> strides, std::size_t element_size) {
    for (int p = 1; p < kMostPeriod; p *= 2) {
        bool whole = true;
        for (const std::int64_t stride : strides)
            whole = whole && stride * p * static_cast<std::int64_t>(element_size) % kSectorBytes == 0;
        if (whole) return p;
    }
    return kMostPeriod;
}

// The indices 0 .. extent-1 as representatives: each residue mod `period`, and where
// `edge`, the last index alone (it may hang over the edge of a matrix).
std::vector<IndexClass> index_classes(std::int64_t extent, int period, bool edge) {
    std::vector<IndexClass> classes;
    if (extent <= period + 1) {
        for (int i = 0; i < extent; ++i) classes.push_back({i, 1});
        return classes;
    }
    const std::int64_t body = edge ? extent - 1 : extent;
    for (int r = 0; r < period; ++r) classes.push_back({r, (body - r + period - 1) / period});
    if (edge) classes.push_back({static_cast<int>(extent - 1), 1});
    return classes;
}

enum class OpKind { Load, AsyncCopy, Store };

// One warp-wide instruction: the first element each lane touches (−1: the lane does
// nothing) and how many consecutive elements every active lane touches (4: a float4).
struct WarpOp {
    std::array<std::int64_t, kWarpSize> first{};
    int width = 1;
    explicit WarpOp(int elements_per_lane = 1) : width(elements_per_lane) { first.fill(-1); }
};

// Counts `op` `times`: a request when a lane is active, and the distinct sectors its lanes
// touch (as sectors_touched does, without allocating: this runs for every representative).
void count_op(GlobalAccess& total, OpKind kind, const WarpOp& op, std::size_t element_size, std::int64_t times) {
    std::array<std::int64_t, kWarpSize * 4> sectors{};
    std::size_t used = 0;
    for (const std::int64_t first : op.first) {
        if (first < 0) continue;
        for (int j = 0; j < op.width && used < sectors.size(); ++j)
            sectors[used++] = (first + j) * static_cast<std::int64_t>(element_size) / kSectorBytes;
    }
    if (used == 0) return;  // no lane inside the matrices: the instruction asks for nothing
    std::sort(sectors.begin(), sectors.begin() + static_cast<std::ptrdiff_t>(used));
    const std::int64_t distinct =
        std::unique(sectors.begin(), sectors.begin() + static_cast<std::ptrdiff_t>(used)) - sectors.begin();
    switch (kind) {
        case OpKind::Load:
            total.load_requests += times;
            total.load_sectors += distinct * times;
            break;
        case OpKind::AsyncCopy:
            total.copy_requests += times;
            total.copy_sectors += distinct * times;
            break;
        case OpKind::Store:
            total.store_requests += times;
            total.store_sectors += distinct * times;
            break;
    }
}

// Element (row, col) of matrix `batch` of a stack of rows × cols matrices, counted from the
// stack's start (cudaMalloc aligns it to 256 bytes, so sectors start there).
std::int64_t element(int batch, int row, int col, std::int64_t rows, std::int64_t cols) {
    return batch_offset(batch, static_cast<int>(rows), static_cast<int>(cols)) + static_cast<std::int64_t>(row) * cols +
           col;
}

// The batch dimension: matrix z of each stack starts z·M·K (z·K·N, z·M·N) elements in.
std::vector<IndexClass> batch_classes(const Problem& p, std::size_t size) {
    return index_classes(p.batch, sector_period({p.m * p.k, p.k * p.n, p.m * p.n}, size), false);
}

// One warp of the naive family, its lanes' cells of C at (row, col) (row −1: a ghost lane, which
// does nothing): per k it loads its lanes' A[row][k] and B[k][col], then stores their cells.
// `times` is how many warps of the grid it stands for.
void count_cell_warp(GlobalAccess& total, const std::array<int, kWarpSize>& row, const std::array<int, kWarpSize>& col,
                     const std::vector<IndexClass>& ks, int batch, const Problem& p, std::size_t size,
                     std::int64_t times) {
    WarpOp c;
    for (int lane = 0; lane < kWarpSize; ++lane)
        if (row[lane] >= 0) c.first[lane] = element(batch, row[lane], col[lane], p.m, p.n);
    for (const IndexClass& k : ks) {
        WarpOp a, b;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            if (row[lane] < 0) continue;
            a.first[lane] = element(batch, row[lane], k.index, p.m, p.k);
            b.first[lane] = element(batch, k.index, col[lane], p.k, p.n);
        }
        count_op(total, OpKind::Load, a, size, times * k.count);
        count_op(total, OpKind::Load, b, size, times * k.count);
    }
    count_op(total, OpKind::Store, c, size, times);
}

// 01 naive and 02 naive-row: per k, each warp loads its lanes' A[row][k] and B[k][col]; at
// the end each thread inside C stores its cell. Ghost threads do nothing.
GlobalAccess walk_naive(const KernelConfig& config, const Problem& p) {
    GlobalAccess total;
    const std::size_t size = dtype_size(p.dtype);
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n);
    const int bdx = config.block_x, bdy = config.block_y;
    const bool coalesced = config.kind == KernelKind::Naive;
    const LaunchGeometry g = plan_launch(config, p);
    // Coalesced: blockIdx.y walks rows (bdy at a time), blockIdx.x columns; x → row swaps them.
    const int rows_per_block = coalesced ? bdy : bdx, cols_per_block = coalesced ? bdx : bdy;
    const bool rows_edge = p.m % rows_per_block != 0, cols_edge = p.n % cols_per_block != 0;
    const auto row_blocks = index_classes(coalesced ? g.grid.y : g.grid.x,
                                          sector_period({rows_per_block * p.k, rows_per_block * p.n}, size), rows_edge);
    const auto col_blocks =
        index_classes(coalesced ? g.grid.x : g.grid.y, sector_period({cols_per_block}, size), cols_edge);
    const auto ks = index_classes(p.k, sector_period({1, p.n}, size), false);
    const int threads = bdx * bdy, warps = ceil_div(threads, kWarpSize);
    for (const IndexClass& bz : batch_classes(p, size))
        for (const IndexClass& rb : row_blocks)
            for (const IndexClass& cb : col_blocks) {
                const std::int64_t blocks = bz.count * rb.count * cb.count;
                const int bx = coalesced ? cb.index : rb.index, by = coalesced ? rb.index : cb.index;
                for (int w = 0; w < warps; ++w) {
                    std::array<int, kWarpSize> row{}, col{};
                    row.fill(-1);
                    for (int lane = 0; lane < kWarpSize; ++lane) {
                        const int id = w * kWarpSize + lane;
                        if (id >= threads) break;
                        const int tx = id % bdx, ty = id / bdx;
                        const int r = coalesced ? naive_row(by, bdy, ty) : row_from_x_row(bx, bdx, tx);
                        const int q = coalesced ? naive_col(bx, bdx, tx) : row_from_x_col(by, bdy, ty);
                        if (!inside(r, q, m, n)) continue;
                        row[lane] = r, col[lane] = q;
                    }
                    count_cell_warp(total, row, col, ks, bz.index, p, size, blocks);
                }
            }
    return total;
}

// 03 row-per-thread and 04 column-per-thread: a thread owns a row (a column) of C and walks
// the other dimension; per cell and k, each warp loads A[row][k] and B[k][col], and per cell
// stores it.
GlobalAccess walk_per_thread(const KernelConfig& config, const Problem& p) {
    GlobalAccess total;
    const std::size_t size = dtype_size(p.dtype);
    const bool rows = config.kind == KernelKind::RowPerThread;
    const std::int64_t owned = rows ? p.m : p.n;   // rows (columns) with a thread
    const std::int64_t walked = rows ? p.n : p.m;  // cells each thread computes
    const LaunchGeometry g = plan_launch(config, p);
    const int threads = config.block_x, warps = ceil_div(threads, kWarpSize);
    const auto blocks_x = index_classes(
        g.grid.x, rows ? sector_period({threads * p.k, threads * p.n}, size) : sector_period({threads}, size),
        owned % threads != 0);
    const auto cells = index_classes(walked, rows ? sector_period({1}, size) : sector_period({p.k, p.n}, size), false);
    const auto ks = index_classes(p.k, sector_period({1, p.n}, size), false);
    for (const IndexClass& bz : batch_classes(p, size))
        for (const IndexClass& bx : blocks_x)
            for (int w = 0; w < warps; ++w) {
                const std::int64_t blocks = bz.count * bx.count;
                for (const IndexClass& cell : cells) {
                    // Each lane's cell of C, or −1 for a ghost thread (it returns at once).
                    std::array<int, kWarpSize> row{}, col{};
                    row.fill(-1);
                    for (int lane = 0; lane < kWarpSize; ++lane) {
                        const int t = w * kWarpSize + lane;
                        if (t >= threads) break;
                        const int mine = rows ? row_per_thread_row(bx.index, threads, t)
                                              : column_per_thread_col(bx.index, threads, t);
                        if (mine >= owned) continue;
                        row[lane] = rows ? mine : cell.index;
                        col[lane] = rows ? cell.index : mine;
                    }
                    count_cell_warp(total, row, col, ks, bz.index, p, size, blocks * cell.count);
                }
            }
    return total;
}

// 05 tiled: per phase, each thread of each block copies one element of the A tile and one of
// the B tile (or writes a zero of padding without loading); at the end, threads inside C
// store their cell. The index math is model/index_math.hpp's, as in tiled_load_access.
GlobalAccess walk_tiled(const KernelConfig& config, const Problem& p) {
    GlobalAccess total;
    const std::size_t size = dtype_size(p.dtype);
    const int t = config.tile;
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), kk = static_cast<int>(p.k);
    const LaunchGeometry g = plan_launch(config, p);
    const auto block_rows = index_classes(g.grid.y, sector_period({t * p.k, t * p.n}, size), p.m % t != 0);
    const auto block_cols = index_classes(g.grid.x, sector_period({t}, size), p.n % t != 0);
    const auto phases = index_classes(phase_count(kk, t), sector_period({t, t * p.n}, size), p.k % t != 0);
    const int warps = ceil_div(t * t, kWarpSize);
    for (const IndexClass& bz : batch_classes(p, size))
        for (const IndexClass& by : block_rows)
            for (const IndexClass& bx : block_cols) {
                const std::int64_t blocks = bz.count * by.count * bx.count;
                for (int w = 0; w < warps; ++w) {
                    for (const IndexClass& phase : phases) {
                        WarpOp a, b;
                        for (int lane = 0; lane < kWarpSize; ++lane) {
                            const int id = w * kWarpSize + lane;
                            if (id >= t * t) break;  // the block's last warp may be partly empty
                            const int tx = id % t, ty = id / t;
                            const int a_row = tiled_row(by.index, t, ty), a_col = tiled_a_col(phase.index, t, tx);
                            const int b_row = tiled_b_row(phase.index, t, ty), b_col = tiled_col(bx.index, t, tx);
                            if (inside(a_row, a_col, m, kk)) a.first[lane] = element(bz.index, a_row, a_col, m, kk);
                            if (inside(b_row, b_col, kk, n)) b.first[lane] = element(bz.index, b_row, b_col, kk, n);
                        }
                        count_op(total, OpKind::Load, a, size, blocks * phase.count);
                        count_op(total, OpKind::Load, b, size, blocks * phase.count);
                    }
                    WarpOp store;
                    for (int lane = 0; lane < kWarpSize; ++lane) {
                        const int id = w * kWarpSize + lane;
                        if (id >= t * t) break;
                        const int row = tiled_row(by.index, t, id / t), col = tiled_col(bx.index, t, id % t);
                        if (inside(row, col, m, n)) store.first[lane] = element(bz.index, row, col, m, n);
                    }
                    count_op(total, OpKind::Store, store, size, blocks);
                }
            }
    return total;
}

}  // namespace

RungAccess rung_access(const KernelConfig& config, const Problem& p, const DeviceLimits& limits) {
    const LadderShape s = ladder_shape(config);
    RungAccess r;
    r.vector = s.vec == 4;
    r.aligned = r.vector && p.k % 4 == 0 && p.n % 4 == 0;
    r.async = s.stages > 1 && limits.compute_major >= 8;
    return r;
}

namespace {

// 06 to 12: per K step, each thread issues its loads of the A tile and the B tile
// (ladder_thread_loads); at the end it stores its register tiles of C.
GlobalAccess walk_ladder(const KernelConfig& config, const Problem& p, const DeviceLimits& limits) {
    GlobalAccess total;
    const std::size_t size = dtype_size(p.dtype);
    const LadderShape s = ladder_shape(config);
    const RungAccess how = rung_access(config, p, limits);
    const OpKind load_kind = how.async ? OpKind::AsyncCopy : OpKind::Load;
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
    const int threads = s.threads();
    const int warps = ceil_div(threads, kWarpSize);
    std::vector<std::vector<LadderLoad>> loads(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) loads[static_cast<std::size_t>(t)] = ladder_thread_loads(s, t);
    const std::size_t per_thread = loads[0].size();

    const auto steps = index_classes(ladder_steps(s, k), sector_period({s.bk, s.bk * p.n}, size), p.k % s.bk != 0);
    const auto block_rows =
        index_classes(ceil_div64(p.m, s.bm), sector_period({s.bm * p.k, s.bm * p.n}, size), p.m % s.bm != 0);
    const auto block_cols = index_classes(ceil_div64(p.n, s.bn), sector_period({s.bn}, size), p.n % s.bn != 0);
    for (const IndexClass& bz : batch_classes(p, size))
        for (const IndexClass& by : block_rows)
            for (const IndexClass& bx : block_cols) {
                const std::int64_t blocks = bz.count * by.count * bx.count;
                for (int w = 0; w < warps; ++w) {
                    for (const IndexClass& step : steps)
                        for (std::size_t i = 0; i < per_thread; ++i) {
                            const bool of_a = loads[0][i].operand == Operand::A;
                            const int rows = of_a ? m : k, cols = of_a ? k : n;
                            const int width = loads[0][i].width;
                            // A vector that is one instruction, or `width` scalar instructions.
                            const bool one = width == 1 || how.aligned;
                            for (int part = 0; part < (one ? 1 : width); ++part) {
                                WarpOp op(one ? width : 1);
                                for (int lane = 0; lane < kWarpSize; ++lane) {
                                    const int t = w * kWarpSize + lane;
                                    if (t >= threads) break;
                                    const LadderLoad& load = loads[static_cast<std::size_t>(t)][i];
                                    const int row = of_a ? by.index * s.bm + load.row : step.index * s.bk + load.row;
                                    const int col = (of_a ? step.index * s.bk : bx.index * s.bn) + load.col + part;
                                    // An aligned vector lies wholly inside or wholly outside.
                                    if (inside(row, col, rows, cols))
                                        op.first[lane] = element(bz.index, row, col, rows, cols);
                                }
                                count_op(total, load_kind, op, size, blocks * step.count);
                            }
                        }
                    // Stores: each register tile row by row, four cells at a time where aligned.
                    const int store_width = how.aligned ? 4 : 1;
                    for (int sub_i = 0; sub_i < s.wm_iter; ++sub_i)
                        for (int sub_j = 0; sub_j < s.wn_iter; ++sub_j)
                            for (int r = 0; r < s.tm; ++r)
                                for (int j = 0; j < s.tn; j += store_width) {
                                    WarpOp op(store_width);
                                    for (int lane = 0; lane < kWarpSize; ++lane) {
                                        const int t = w * kWarpSize + lane;
                                        if (t >= threads) break;
                                        const int row = ladder_row(s, by.index, t, sub_i) + r;
                                        const int col = ladder_col(s, bx.index, t, sub_j) + j;
                                        if (inside(row, col, m, n)) op.first[lane] = element(bz.index, row, col, m, n);
                                    }
                                    count_op(total, OpKind::Store, op, size, blocks);
                                }
                }
            }
    return total;
}

}  // namespace

std::optional<GlobalAccess> walk_global(const KernelConfig& config, const Problem& p, const DeviceLimits& limits) {
    if (check_config(config) || validate(p) || !is_modelled(config.kind)) return std::nullopt;
    switch (config.kind) {
        case KernelKind::Naive:
        case KernelKind::NaiveRowFromX: return walk_naive(config, p);
        case KernelKind::RowPerThread:
        case KernelKind::ColumnPerThread: return walk_per_thread(config, p);
        case KernelKind::Tiled: return walk_tiled(config, p);
        default: return walk_ladder(config, p, limits);
    }
}

}  // namespace ts::model
