#include "counters.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <mutex>
#include <numeric>
#include <span>
#include <variant>

#include "format.hpp"
#include "index_math.hpp"
#include "ladder.hpp"
#include "ladder_access.hpp"
#include "launch_geometry.hpp"
#include "memory_sectors.hpp"
#include "occupancy.hpp"

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

// What one launch asks of global memory.
struct GlobalAccess {
    std::int64_t load_requests = 0;   // plain loads (LDG): Nsight's op_ld
    std::int64_t load_sectors = 0;
    std::int64_t copy_requests = 0;   // cp.async copies into shared memory (LDGSTS): not op_ld
    std::int64_t copy_sectors = 0;
    std::int64_t store_requests = 0;
    std::int64_t store_sectors = 0;
};

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
                    WarpOp c;
                    for (int lane = 0; lane < kWarpSize; ++lane) {
                        const int id = w * kWarpSize + lane;
                        if (id >= threads) break;
                        const int tx = id % bdx, ty = id / bdx;
                        const int r = coalesced ? naive_row(by, bdy, ty) : row_from_x_row(bx, bdx, tx);
                        const int q = coalesced ? naive_col(bx, bdx, tx) : row_from_x_col(by, bdy, ty);
                        if (!inside(r, q, m, n)) continue;
                        row[lane] = r, col[lane] = q;
                        c.first[lane] = element(bz.index, r, q, p.m, p.n);
                    }
                    for (const IndexClass& k : ks) {
                        WarpOp a, b;
                        for (int lane = 0; lane < kWarpSize; ++lane) {
                            if (row[lane] < 0) continue;
                            a.first[lane] = element(bz.index, row[lane], k.index, p.m, p.k);
                            b.first[lane] = element(bz.index, k.index, col[lane], p.k, p.n);
                        }
                        count_op(total, OpKind::Load, a, size, blocks * k.count);
                        count_op(total, OpKind::Load, b, size, blocks * k.count);
                    }
                    count_op(total, OpKind::Store, c, size, blocks);
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
                    WarpOp c;
                    for (int lane = 0; lane < kWarpSize; ++lane) {
                        const int t = w * kWarpSize + lane;
                        if (t >= threads) break;
                        const int mine = rows ? row_per_thread_row(bx.index, threads, t)
                                              : column_per_thread_col(bx.index, threads, t);
                        if (mine >= owned) continue;
                        row[lane] = rows ? mine : cell.index;
                        col[lane] = rows ? cell.index : mine;
                        c.first[lane] = element(bz.index, row[lane], col[lane], p.m, p.n);
                    }
                    for (const IndexClass& k : ks) {
                        WarpOp a, b;
                        for (int lane = 0; lane < kWarpSize; ++lane) {
                            if (row[lane] < 0) continue;
                            a.first[lane] = element(bz.index, row[lane], k.index, p.m, p.k);
                            b.first[lane] = element(bz.index, k.index, col[lane], p.k, p.n);
                        }
                        count_op(total, OpKind::Load, a, size, blocks * cell.count * k.count);
                        count_op(total, OpKind::Load, b, size, blocks * cell.count * k.count);
                    }
                    count_op(total, OpKind::Store, c, size, blocks * cell.count);
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

// How a rung moves its elements: scalar (06, 07), float4 loads and stores where the rows of
// A, B and C start on 16 bytes (08 on; otherwise four guarded scalar accesses each), and
// cp.async copies for the pipelined rungs (11, 12) on GPUs that have cp.async (8.0 on).
struct RungAccess {
    bool vector = false;   // 08 on: float4 where aligned
    bool aligned = false;  // K and N multiples of 4 (ladder_vector.cuh, rows_aligned)
    bool async = false;    // loads are cp.async copies
};

RungAccess rung_access(const KernelConfig& config, const Problem& p, const DeviceLimits& limits) {
    const LadderShape s = ladder_shape(config);
    RungAccess r;
    r.vector = s.vec == 4;
    r.aligned = r.vector && p.k % 4 == 0 && p.n % 4 == 0;
    r.async = s.stages > 1 && limits.compute_major >= 8;
    return r;
}

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

std::optional<GlobalAccess> walk_global(const KernelConfig& config, const Problem& p, const DeviceLimits& limits) {
    if (check_config(config) || validate(p)) return std::nullopt;
    switch (config.kind) {
        case KernelKind::Naive:
        case KernelKind::NaiveRowFromX: return walk_naive(config, p);
        case KernelKind::RowPerThread:
        case KernelKind::ColumnPerThread: return walk_per_thread(config, p);
        case KernelKind::Tiled: return walk_tiled(config, p);
        case KernelKind::Cublas: return std::nullopt;
        default: return walk_ladder(config, p, limits);
    }
}

// ---- Shared memory banks -----------------------------------------------------------------

int extra_wavefronts(const std::vector<LaneAccess>& accesses) {
    if (accesses.empty()) return 0;
    const BankMap map = bank_map(accesses);
    return map.wavefronts - map.ideal;
}

// Extra wavefronts of one block of the tiled kernel in one phase: each warp stores As[ty][tx]
// and Bs[ty][tx], then reads As[ty][i] and Bs[i][tx] for i = 0 .. T-1. Slots are counted in
// 4-byte words (a double is two).
std::int64_t tiled_conflicts_per_phase(int tile, std::size_t element_size) {
    const int words = static_cast<int>(element_size / 4);
    const int warps = ceil_div(tile * tile, kWarpSize);
    std::int64_t extra = 0;
    for (int w = 0; w < warps; ++w) {
        std::vector<LaneAccess> store, read_a, read_b;
        const auto each_lane = [&](auto&& add) {
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const int id = w * kWarpSize + lane;
                if (id >= tile * tile) break;
                add(lane, id % tile, id / tile);
            }
        };
        each_lane([&](int lane, int tx, int ty) { store.push_back({lane, (ty * tile + tx) * words, words}); });
        extra += 2 * extra_wavefronts(store);  // As and Bs: the same slots
        for (int i = 0; i < tile; ++i) {
            read_a.clear();
            read_b.clear();
            each_lane([&](int lane, int tx, int ty) {
                read_a.push_back({lane, (ty * tile + i) * words, words});
                read_b.push_back({lane, (i * tile + tx) * words, words});
            });
            extra += extra_wavefronts(read_a) + extra_wavefronts(read_b);
        }
    }
    return extra;
}

// Extra wavefronts of one block of a rung (06 to 10) in one K step: the stores of its loads
// into As and Bs (a float4 of A into the transposed As is four 32-bit stores, as
// ladder_access.hpp's warp_store_accesses has them), then the fragment reads for every k of
// the step (ladder_fragment_reads), warp by warp.
std::int64_t ladder_conflicts_per_step(LadderShape s) {
    // Worked out once per shape: a shape's answer never changes.
    static std::mutex mutex;
    static std::vector<std::pair<LadderShape, std::int64_t>> known;
    const std::lock_guard lock(mutex);
    for (const auto& [shape, extra] : known)
        if (shape == s) return extra;

    const int threads = s.threads(), warps = ceil_div(threads, kWarpSize);
    std::vector<std::vector<LadderLoad>> loads;
    for (int t = 0; t < threads; ++t) loads.push_back(ladder_thread_loads(s, t));
    std::int64_t extra = 0;
    std::vector<LaneAccess> accesses;
    for (int w = 0; w < warps; ++w) {
        const int first = w * kWarpSize, last = std::min(threads, first + kWarpSize);
        for (std::size_t i = 0; i < loads[0].size(); ++i) {
            const LadderLoad& shape_of = loads[0][i];
            const bool in_parts = shape_of.operand == Operand::A && s.as_transposed && shape_of.width > 1;
            for (int part = 0; part < (in_parts ? shape_of.width : 1); ++part) {
                accesses.clear();
                for (int t = first; t < last; ++t) {
                    const LadderLoad& load = loads[static_cast<std::size_t>(t)][i];
                    accesses.push_back(in_parts ? LaneAccess{t - first, load.slots[part], 1}
                                                : LaneAccess{t - first, load.slots[0], load.width});
                }
                extra += extra_wavefronts(accesses);
            }
        }
        for (int k = 0; k < s.bk; ++k) {
            std::vector<std::vector<FragmentRead>> reads;
            for (int t = first; t < last; ++t) reads.push_back(ladder_fragment_reads(s, t, k));
            for (std::size_t read = 0; read < reads[0].size(); ++read) {
                accesses.clear();
                for (std::size_t lane = 0; lane < reads.size(); ++lane)
                    accesses.push_back({static_cast<int>(lane), reads[lane][read].slot, reads[lane][read].width});
                extra += extra_wavefronts(accesses);
            }
        }
    }
    known.emplace_back(s, extra);
    return extra;
}

std::string kernel_words(const KernelConfig& config) {
    switch (config.kind) {
        case KernelKind::Naive:
        case KernelKind::NaiveRowFromX: return "per k, each warp issues one load of A and one of B";
        case KernelKind::RowPerThread:
        case KernelKind::ColumnPerThread:
            return "per cell a thread computes and per k, each warp issues one load of A and one of B";
        case KernelKind::Tiled:
            return "per phase, each warp issues one load of A and one of B (blocks × phases × warps × 2 where no tile "
                   "hangs over an edge)";
        default: {
            const LadderShape s = ladder_shape(config);
            return format_text("per K step, each thread issues {} load{} of A and {} of B{}", s.a_loads_per_thread(),
                               s.a_loads_per_thread() == 1 ? "" : "s", s.b_loads_per_thread(),
                               s.vec > 1 ? " (a float4 is one request where the rows start on 16 bytes)" : "");
        }
    }
}

constexpr const char* kWalkWords = "counted warp by warp from the kernel's index math; a warp with no lane inside the "
                                   "matrices asks for nothing";

}  // namespace

const CounterInfo& counter_info(Counter counter) {
    static const CounterInfo infos[] = {
        {"Global load requests", "requests", {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
         "Warp-wide global load instructions that reached L1: one per warp and instruction, however many lanes "
         "it has."},
        {"Global load sectors", "sectors", {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
         "32-byte sectors those requests asked L1 for: 4 when a warp reads 32 neighbouring floats, 32 when they lie "
         "a row apart."},
        {"L2 sectors", "sectors", {"lts__t_sectors.sum"},
         "32-byte sectors the L2 cache served, reads and writes, from every source."},
        {"DRAM bytes", "bytes", {"dram__bytes_read.sum", "dram__bytes_write.sum"},
         "Bytes moved between L2 and the GPU's memory, read and written."},
        {"Shared bank conflicts", "conflicts",
         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
         "Extra shared-memory wavefronts: a warp's access that wants two words of one bank waits a wavefront for "
         "each word after the first."},
        {"Achieved occupancy", "%", {"sm__warps_active.avg.pct_of_peak_sustained_active"},
         "Warps resident on an SM on average while it was busy, as a percentage of the most it can hold."},
    };
    return infos[static_cast<int>(counter)];
}

std::vector<std::string_view> all_counter_metrics() {
    std::vector<std::string_view> names;
    for (const Counter counter : kAllCounters)
        for (const std::string_view name : counter_info(counter).metrics)
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    return names;
}

std::string why_no_prediction(Counter counter, const KernelConfig& config, const Problem& problem,
                              const DeviceLimits& limits) {
    if (predict_counter(counter, config, problem, limits)) return {};
    if (auto why = check_config(config)) return *why;
    if (auto why = validate(problem)) return *why;
    if (config.kind == KernelKind::Cublas)
        return "cuBLAS picks its own kernels at run time: the model knows nothing inside them";
    if (counter == Counter::SharedBankConflicts) {
        if (ladder_shape(config).stages > 1)
            return "the pipelined rungs fill shared memory with cp.async copies, which these two metrics do not "
                   "count as stores; their banks are not modelled here";
        return "the ladder's bank model (ladder_access.hpp) counts 4-byte words: not modelled for double";
    }
    if (counter == Counter::AchievedOccupancy) {
        auto occupancy = kernel_occupancy(config, problem, limits);
        if (auto* why = std::get_if<std::string>(&occupancy)) return *why;
    }
    return "not modelled";
}

std::optional<CounterPrediction> predict_counter(Counter counter, const KernelConfig& config, const Problem& p,
                                                 const DeviceLimits& limits, std::optional<int> registers_per_thread) {
    if (check_config(config) || validate(p)) return std::nullopt;
    const std::size_t size = dtype_size(p.dtype);
    const bool ladder = is_ladder(config.kind);
    const bool async = ladder && rung_access(config, p, limits).async;
    switch (counter) {
        case Counter::GlobalLoadRequests:
        case Counter::GlobalLoadSectors: {
            if (async)
                return CounterPrediction{0.0, "0: this rung's global loads are cp.async copies (LDGSTS), which Nsight "
                                              "counts under op_ldgsts, not op_ld"};
            const auto walk = walk_global(config, p, limits);
            if (!walk) return std::nullopt;
            if (counter == Counter::GlobalLoadRequests)
                return CounterPrediction{static_cast<double>(walk->load_requests),
                                         format_text("{}; {}", kernel_words(config), kWalkWords)};
            return CounterPrediction{static_cast<double>(walk->load_sectors),
                                     format_text("the distinct 32-byte sectors each of the {} requests touches, "
                                                 "summed ({} per request on average); {}",
                                                 walk->load_requests,
                                                 fixed(walk->load_requests > 0 ? static_cast<double>(walk->load_sectors) /
                                                                                     static_cast<double>(walk->load_requests)
                                                                               : 0.0,
                                                       2),
                                                 kWalkWords)};
        }
        case Counter::L2Sectors: {
            const auto walk = walk_global(config, p, limits);
            if (!walk) return std::nullopt;
            const std::int64_t loads = walk->load_sectors + walk->copy_sectors;
            return CounterPrediction{
                static_cast<double>(loads + walk->store_sectors),
                format_text("what reaches L2 if L1 caught nothing: the {} sectors of the global {} plus the {} "
                            "sectors of the stores of C; L1 hits make it less, L2's traffic between its halves "
                            "and to memory more",
                            loads, async ? "copies (cp.async)" : "loads", walk->store_sectors)};
        }
        case Counter::DramBytes: {
            const std::int64_t read = (p.a_elements() + p.b_elements()) * p.batch * static_cast<std::int64_t>(size);
            const std::int64_t written = p.c_elements() * p.batch * static_cast<std::int64_t>(size);
            return CounterPrediction{
                static_cast<double>(read + written),
                format_text("compulsory: A and B read once ({}), C written once ({}); more where L2 misses repeat, "
                            "less where C's last lines are still in L2 when the launch ends",
                            human_bytes(read), human_bytes(written))};
        }
        case Counter::SharedBankConflicts: {
            switch (config.kind) {
                case KernelKind::Naive:
                case KernelKind::NaiveRowFromX:
                case KernelKind::RowPerThread:
                case KernelKind::ColumnPerThread: return CounterPrediction{0.0, "0: this kernel uses no shared memory"};
                case KernelKind::Tiled: {
                    const LaunchGeometry g = plan_launch(config, p);
                    const std::int64_t phases = phase_count(static_cast<int>(p.k), config.tile);
                    const std::int64_t per_phase = tiled_conflicts_per_phase(config.tile, size);
                    const std::int64_t total = per_phase * phases * g.grid.x * g.grid.y * p.batch;
                    if (total == 0)
                        return CounterPrediction{
                            0.0, "0: a warp's stores As[ty][tx], Bs[ty][tx] and reads Bs[i][tx] are consecutive words, "
                                 "and its reads As[ty][i] are one word per row of the block (broadcast to the row), "
                                 "rows T words apart in different banks: no bank serves two words at once"};
                    return CounterPrediction{static_cast<double>(total),
                                             format_text("{} extra wavefronts per block and phase (each warp's accesses "
                                                         "to As and Bs, ladder_access.hpp's bank_map) × {} phases × {} "
                                                         "blocks",
                                                         per_phase, phases, g.grid.x * g.grid.y * p.batch)};
                }
                case KernelKind::Cublas: return std::nullopt;
                default: {
                    const LadderShape s = ladder_shape(config);
                    if (s.stages > 1 || size != 4) return std::nullopt;
                    const std::int64_t steps = ladder_steps(s, static_cast<int>(p.k));
                    const std::int64_t blocks = ceil_div64(p.m, s.bm) * ceil_div64(p.n, s.bn) * p.batch;
                    const std::int64_t per_step = ladder_conflicts_per_step(s);
                    return CounterPrediction{
                        static_cast<double>(per_step * steps * blocks),
                        format_text("{} extra wavefronts per block and K step (each warp's stores into As and Bs and "
                                    "its fragment reads, as the source writes them: ladder_access.hpp) × {} steps × "
                                    "{} blocks",
                                    per_step, steps, blocks)};
                }
            }
        }
        case Counter::AchievedOccupancy: {
            auto result = kernel_occupancy(config, p, limits, registers_per_thread);
            const auto* o = std::get_if<Occupancy>(&result);
            if (!o) return std::nullopt;
            return CounterPrediction{o->occupancy * 100.0,
                                     format_text("theoretical ({} registers per thread{}): {}; the achieved can only "
                                                 "be lower",
                                                 o->block.registers_per_thread,
                                                 o->block.registers_measured ? "" : ", estimated", describe(*o))};
        }
    }
    return std::nullopt;
}

std::optional<double> counter_ratio(const CounterReading& reading) {
    if (!reading.model || *reading.model == 0.0) return std::nullopt;
    return reading.measured / *reading.model;
}

std::optional<double> counter_value(Counter counter, const std::vector<std::pair<std::string, double>>& metrics) {
    double sum = 0.0;
    for (const std::string_view name : counter_info(counter).metrics) {
        const auto found = std::find_if(metrics.begin(), metrics.end(), [&](const auto& m) { return m.first == name; });
        if (found == metrics.end()) return std::nullopt;
        sum += found->second;
    }
    return sum;
}

CounterReading make_reading(Counter counter, double measured, const KernelConfig& config, const Problem& problem,
                            const DeviceLimits& limits, std::optional<int> registers_per_thread) {
    CounterReading reading;
    reading.counter = counter;
    reading.measured = measured;
    if (auto prediction = predict_counter(counter, config, problem, limits, registers_per_thread)) {
        reading.model = prediction->value;
        reading.model_basis = std::move(prediction->basis);
    } else {
        reading.model_basis = why_no_prediction(counter, config, problem, limits);
    }
    return reading;
}

std::string counters_permission_help() {
    return "The GPU's performance counters are restricted to administrators on this machine: the NVIDIA driver "
           "runs with NVreg_RestrictProfilingToAdminUsers=1 (its default), so CUPTI answered "
           "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES. To read them, either run TileScope as root (sudo tilescope-cli "
           "counters ...), or allow every user: put the line\n"
           "    options nvidia NVreg_RestrictProfilingToAdminUsers=0\n"
           "in a file in /etc/modprobe.d/ (say /etc/modprobe.d/nvidia-profiling.conf), rebuild the initramfs "
           "(Debian and Ubuntu: sudo update-initramfs -u) and reboot. In a container the host's setting counts. "
           "NVIDIA explains it at https://developer.nvidia.com/ERR_NVGPUCTRPERM";
}

}  // namespace ts::model
