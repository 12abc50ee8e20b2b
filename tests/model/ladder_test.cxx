// The ladder's index math walked as its kernels walk it: every cell of C owned by exactly one
// thread, every element of A and B loaded as often as count_ladder says, for sizes that are
// not multiples of the tiles too.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <variant>
#include <vector>

#include "model/device_limits.hpp"
#include "model/ladder.hpp"
#include "model/occupancy.hpp"
#include "model/launch_geometry.hpp"
#include "model/rung_info.hpp"
#include "model/thread_map.hpp"
#include "model/traffic.hpp"

namespace ts::model {
namespace {

struct Size {
    int m, n, k;
};

// What one launch does, enumerated thread by thread with the kernels' own index functions.
struct Walk {
    std::vector<int> owners;                      // per cell of C: how many threads store it
    std::map<std::pair<int, int>, int> a_loads;   // element of A → loads from global memory
    std::map<std::pair<int, int>, int> b_loads;
    std::int64_t shared_stores = 0, shared_loads = 0, fmas = 0, stores = 0;
};

Walk walk(LadderShape s, Size size) {
    Walk w;
    w.owners.assign(static_cast<std::size_t>(size.m) * size.n, 0);
    const int blocks_x = ceil_div(size.n, s.bn), blocks_y = ceil_div(size.m, s.bm);
    for (int by = 0; by < blocks_y; ++by)
        for (int bx = 0; bx < blocks_x; ++bx) {
            for (int step = 0; step < ladder_steps(s, size.k); ++step) {
                // Every slot of As (padding aside) and of Bs written exactly once per step.
                std::vector<int> as_writes(static_cast<std::size_t>(s.as_slots()), 0);
                std::vector<int> bs_writes(static_cast<std::size_t>(s.bs_slots()), 0);
                for (int t = 0; t < s.threads(); ++t) {
                    for (int i = 0; i < s.a_loads_per_thread(); ++i)
                        for (int v = 0; v < s.a_vec(); ++v) {
                            const int r = ladder_load_row(t, i, s.threads(), s.bk, s.a_vec());
                            const int c = ladder_load_col(t, i, s.threads(), s.bk, s.a_vec()) + v;
                            const int row = by * s.bm + r, col = step * s.bk + c;
                            if (inside(row, col, size.m, size.k)) ++w.a_loads[{row, col}];
                            ++as_writes[static_cast<std::size_t>(ladder_as_slot(s, r, c))];
                            ++w.shared_stores;
                        }
                    for (int i = 0; i < s.b_loads_per_thread(); ++i)
                        for (int v = 0; v < s.vec; ++v) {
                            const int r = ladder_load_row(t, i, s.threads(), s.bn, s.vec);
                            const int c = ladder_load_col(t, i, s.threads(), s.bn, s.vec) + v;
                            const int row = step * s.bk + r, col = bx * s.bn + c;
                            if (inside(row, col, size.k, size.n)) ++w.b_loads[{row, col}];
                            ++bs_writes[static_cast<std::size_t>(row_major(r, c, s.bn))];
                            ++w.shared_stores;
                        }
                    w.shared_loads += std::int64_t{s.bk} * (s.tm * s.wm_iter + s.tn * s.wn_iter);
                    w.fmas += std::int64_t{s.bk} * s.cells_per_thread();
                }
                int as_written = 0;
                for (int slot : as_writes) {
                    EXPECT_LE(slot, 1) << "a slot of As written twice";
                    as_written += slot;
                }
                EXPECT_EQ(as_written, s.bm * s.bk);
                for (int slot : bs_writes) EXPECT_EQ(slot, 1) << "a slot of Bs not written exactly once";
            }
            for (int t = 0; t < s.threads(); ++t)
                for (int step = 0; step < s.cells_per_thread(); ++step) {
                    const LadderCellPlace place = ladder_place_of_step(s, step);
                    EXPECT_EQ(ladder_step_of_place(s, place), step);
                    const int row = ladder_row(s, by, t, place.sub_i) + place.r;
                    const int col = ladder_col(s, bx, t, place.sub_j) + place.c;
                    EXPECT_TRUE(inside(row - by * s.bm, col - bx * s.bn, s.bm, s.bn)) << "a cell outside its block";
                    if (inside(row, col, size.m, size.n)) {
                        ++w.owners[static_cast<std::size_t>(row) * size.n + col];
                        ++w.stores;
                    }
                }
        }
    return w;
}

// Each element of A (M×K) or of B (K×N) was loaded as often as ladder_loads_of_element says: the
// first that was not is named; `total` adds up the loads.
void expect_loads_of_each_element(const LadderShape& shape, Size size, bool of_a,
                                  const std::map<std::pair<int, int>, int>& walked, std::int64_t& total) {
    const int rows = of_a ? size.m : size.k, cols = of_a ? size.k : size.n;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const auto found = walked.find({r, c});
            const int loads = found == walked.end() ? 0 : found->second;
            ASSERT_EQ(loads, ladder_loads_of_element(shape, size.m, size.n, size.k, of_a, r, c))
                << (of_a ? "A " : "B ") << r << "," << c;
            total += loads;
        }
}

class LadderWalk : public testing::TestWithParam<std::tuple<LadderShape, Size>> {};

TEST_P(LadderWalk, EveryCellOnceAndLoadsEqualTheCounts) {
    const auto [shape, size] = GetParam();
    const Walk w = walk(shape, size);
    for (std::size_t cell = 0; cell < w.owners.size(); ++cell)
        ASSERT_EQ(w.owners[cell], 1) << "cell " << cell / size.n << "," << cell % size.n;

    const LadderCounts counts = count_ladder(shape, size.m, size.n, size.k);
    std::int64_t a_total = 0, b_total = 0;
    expect_loads_of_each_element(shape, size, true, w.a_loads, a_total);
    if (HasFatalFailure()) return;
    expect_loads_of_each_element(shape, size, false, w.b_loads, b_total);
    if (HasFatalFailure()) return;
    EXPECT_EQ(w.a_loads.size(), static_cast<std::size_t>(size.m) * size.k) << "an element of A never loaded";
    EXPECT_EQ(w.b_loads.size(), static_cast<std::size_t>(size.k) * size.n) << "an element of B never loaded";
    EXPECT_EQ(a_total, counts.global_loads_a);
    EXPECT_EQ(b_total, counts.global_loads_b);
    EXPECT_EQ(w.stores, counts.global_stores);
    EXPECT_EQ(w.shared_stores, counts.shared_stores);
    EXPECT_EQ(w.shared_loads, counts.shared_loads);
    EXPECT_EQ(w.fmas, counts.fmas);
}

// The textbook 4×4, sizes one past a tile, odd sizes, a tall and a wide one.
INSTANTIATE_TEST_SUITE_P(Shapes, LadderWalk,
                         testing::Combine(testing::Values(kRegTile1dShape, kRegTile2dShape, LadderShape{16, 8, 4, 2, 2},
                                                          kVectorizedShape, kConflictFreeShape, kWarptileShape,
                                                          kTunedCandidates[1], kTunedCandidates[3], kTunedCandidates[4]),
                                          testing::Values(Size{4, 4, 4}, Size{64, 64, 8}, Size{129, 65, 9},
                                                          Size{37, 200, 13}, Size{300, 7, 21}, Size{128, 128, 16})));

TEST(Ladder, ShapesOfTheRungs) {
    EXPECT_EQ(kRegTile1dShape.a_loads_per_thread(), 1);
    EXPECT_EQ(kRegTile1dShape.b_loads_per_thread(), 1);
    EXPECT_EQ(kRegTile2dShape.a_loads_per_thread(), 4);
    EXPECT_EQ(kRegTile2dShape.b_loads_per_thread(), 4);
    EXPECT_EQ(ladder_shared_bytes(kRegTile2dShape, 4), 8192);
    EXPECT_FALSE((LadderShape{64, 64, 8, 3, 1}.valid())) << "3 does not divide 64";
    EXPECT_FALSE((LadderShape{32, 32, 8, 1, 1}.valid())) << "1024 threads cannot split a 32×8 tile into whole rounds";
}

TEST(Ladder, RegisterTilesRaiseFmasPerSharedLoad) {
    // The tiled kernel reads two shared elements per FMA (0.5); 8×1 reads 9 for 8, 8×8 reads 16 for 64.
    const auto one_d = count_ladder(kRegTile1dShape, 1024, 1024, 1024);
    const auto two_d = count_ladder(kRegTile2dShape, 1024, 1024, 1024);
    EXPECT_NEAR(one_d.fmas_per_shared_load(), 8.0 / 9.0, 1e-12);
    EXPECT_NEAR(two_d.fmas_per_shared_load(), 4.0, 1e-12);
    // Global loads: A read once per column of blocks, B once per row of blocks.
    EXPECT_EQ(two_d.global_loads_a, std::int64_t{1024} * 1024 * 8);
    EXPECT_EQ(one_d.global_loads_b, std::int64_t{1024} * 1024 * 16);
}

TEST(Ladder, ThreadsTileTheBlockRowByRow) {
    // Thread 17 of the 8×8 rung: the 16 threads of a row of register tiles come first.
    EXPECT_EQ(ladder_tile_row(kRegTile2dShape, 17), 8);
    EXPECT_EQ(ladder_tile_col(kRegTile2dShape, 17), 8);
    EXPECT_EQ(ladder_row(kRegTile2dShape, 2, 17), 2 * 128 + 8);
    EXPECT_EQ(ladder_col(kRegTile2dShape, 3, 17), 3 * 128 + 8);
    // 06: a thread owns 8 rows of one column; 64 threads across.
    EXPECT_EQ(ladder_row(kRegTile1dShape, 0, 65), 8);
    EXPECT_EQ(ladder_col(kRegTile1dShape, 0, 65), 1);
}

TEST(Ladder, ConflictFreeSplitsATheadsColumnsInTwoHalves) {
    // 09: thread 17 owns columns 4..7 and 68..71 of rows 8..15: 16 threads of 4 columns across
    // each half, so a quarter-warp reads 8 neighbouring float4s of Bs.
    EXPECT_EQ(ladder_tile_row(kConflictFreeShape, 17), 8);
    EXPECT_EQ(ladder_tile_col(kConflictFreeShape, 17, 0), 4);
    EXPECT_EQ(ladder_tile_col(kConflictFreeShape, 17, 1), 68);
    // As rows padded to 132: columns 0 and 4 of row 5 sit 4·132 slots apart, 16 banks.
    EXPECT_EQ(ladder_as_slot(kConflictFreeShape, 5, 4) - ladder_as_slot(kConflictFreeShape, 5, 0), 4 * 132);
    EXPECT_EQ((4 * 132) % 32, 16);
}

TEST(Ladder, WarpTilesAreCompact) {
    // 10: warp 3 (threads 96..127) owns the bottom-right 64×64 warp tile; its lane 5 sits in
    // row 1, column 1 of the 8×4 lanes of each 64×16 sub-tile.
    const LadderShape s = kWarptileShape;
    EXPECT_EQ(s.group_threads(), 32);
    EXPECT_EQ(ladder_tile_row(s, 96 + 5), 64 + 8);
    EXPECT_EQ(ladder_tile_col(s, 96 + 5, 0), 64 + 4);
    EXPECT_EQ(ladder_tile_col(s, 96 + 5, 3), 64 + 3 * 16 + 4);
    EXPECT_EQ(s.cells_per_thread(), 128);
    // Per k: 8 + 16 floats of shared memory (6 float4 reads) for 128 FMAs.
    const LadderCounts c = count_ladder(s, 1024, 1024, 1024);
    EXPECT_NEAR(c.fmas_per_shared_load(), 128.0 / 24.0, 1e-12);
    EXPECT_EQ(c.shared_load_instructions * 4, c.shared_loads);
    EXPECT_EQ(ladder_shared_bytes(kPipelinedShape, 4), 4 * (8 * 132 + 8 * 128) * 4);
}

TEST(Ladder, RegisterEstimateCountsTheTilesAThreadHolds) {
    // 128 sums, 8 + 16 fragment values, 24 more: 176, as a guess where no GPU can say.
    EXPECT_EQ(estimated_ladder_registers({.kind = KernelKind::Warptile}), 176);
    EXPECT_EQ(estimated_ladder_registers({.kind = KernelKind::RegTile1d}), 48);
    const DeviceLimits h100 = device_presets()[0];
    const auto o = kernel_occupancy({.kind = KernelKind::Warptile}, Problem{4096, 4096, 4096, 1, Dtype::Float32}, h100);
    ASSERT_TRUE(std::holds_alternative<Occupancy>(o));
    EXPECT_EQ(std::get<Occupancy>(o).blocks_per_sm, 2) << "as CUDA says for the compiled kernel (255 registers)";
}

TEST(Ladder, EveryTunedCandidateIsAValidShape) {
    for (const LadderShape& s : kTunedCandidates) {
        EXPECT_TRUE(s.valid()) << describe_shape(s);
        EXPECT_EQ(s.group_threads(), 32) << describe_shape(s);
        EXPECT_GE(s.stages, 2) << describe_shape(s);
        EXPECT_LE(s.cells_per_thread(), 128) << describe_shape(s) << ": more sums than registers allow";
    }
    EXPECT_EQ(describe_shape(kPipelinedShape), "128×128×8, warp 64×64, 8×4 ×4, 4 stages");
}

// The thread map and the launch of a rung agree with ladder.hpp: every cell's owner, found
// with thread_of_cell, lists the cell among its cells at the step it names; ghosts are
// exactly the threads whose register tile starts outside C.
TEST(Ladder, ThreadMapRoundTripsEveryCell) {
    std::vector<KernelConfig> configs;
    for (const KernelKind kind : kAllKernelKinds)
        if (is_ladder(kind)) configs.push_back({.kind = kind});
    for (int variant = 0; variant < kTunedCandidateCount; ++variant)
        configs.push_back({.kind = KernelKind::Tuned, .variant = variant});
    for (const KernelConfig& config : configs)
        for (const Size size : {Size{4, 4, 4}, Size{129, 65, 9}, Size{300, 7, 21}, Size{200, 260, 5}}) {
            Problem problem;
            problem.m = size.m;
            problem.n = size.n;
            problem.k = size.k;
            const LadderShape s = ladder_shape(config);
            const LaunchGeometry g = plan_launch(config, problem);
            ASSERT_EQ(g.block.x, s.threads());
            ASSERT_EQ(g.grid.x, ceil_div(size.n, s.bn));
            ASSERT_EQ(g.grid.y, ceil_div(size.m, s.bm));
            std::int64_t ghosts = 0;
            for (int by = 0; by < g.grid.y; ++by)
                for (int bx = 0; bx < g.grid.x; ++bx)
                    for (int t = 0; t < s.threads(); ++t)
                        ghosts += is_ghost(config, problem, {bx, by}, {t, 0});
            EXPECT_EQ(ghosts, g.ghost_threads) << describe(config);
            for (int row = 0; row < size.m; ++row)
                for (int col = 0; col < size.n; ++col) {
                    const auto id = thread_of_cell(config, problem, {row, col});
                    ASSERT_TRUE(id);
                    const std::vector<CellRange> tiles = cells_of_thread(config, problem, id->block, id->thread);
                    const auto holding = std::find_if(tiles.begin(), tiles.end(),
                                                      [&](const CellRange& r) { return r.contains({row, col}); });
                    ASSERT_NE(holding, tiles.end()) << describe(config) << " " << row << "," << col;
                    EXPECT_TRUE(cells_of_block(config, problem, id->block).contains({row, col}));
                    // The step names the same cell the kernel's loops reach.
                    const LadderCellPlace place = ladder_place_of_step(s, id->step);
                    EXPECT_EQ(ladder_row(s, id->block.y, id->thread.x, place.sub_i) + place.r, row);
                    EXPECT_EQ(ladder_col(s, id->block.x, id->thread.x, place.sub_j) + place.c, col);
                    EXPECT_EQ(id->warp, id->thread.x / kWarpSize);
                }
            const Traffic traffic = count_traffic(config, problem);
            const LadderCounts counts = count_ladder(s, size.m, size.n, size.k);
            EXPECT_EQ(traffic.global_loads(), counts.global_loads_a + counts.global_loads_b);
            EXPECT_EQ(traffic.shared_loads, counts.shared_loads);
        }
}

TEST(Ladder, FloatRungsRefuseOtherTypes) {
    for (const KernelKind kind : {KernelKind::Vectorized, KernelKind::ConflictFree, KernelKind::Warptile,
                                  KernelKind::Pipelined, KernelKind::Tuned}) {
        EXPECT_EQ(dtype_unsupported(kind, Dtype::Float32), std::nullopt);
        const auto why = dtype_unsupported(kind, Dtype::Float64);
        ASSERT_TRUE(why);
        EXPECT_NE(why->find("float only"), std::string::npos) << *why;
        EXPECT_TRUE(dtype_unsupported(kind, Dtype::Int32));
    }
    EXPECT_EQ(dtype_unsupported(KernelKind::RegTile2d, Dtype::Float64), std::nullopt);
    EXPECT_EQ(dtype_unsupported(KernelKind::Tiled, Dtype::Int32), std::nullopt);
}

TEST(Ladder, PipelinedStagesNeedDynamicSharedMemory) {
    // Tuned candidate 2: 128×128×16 in 3 stages, 48.75 KiB, over the 48 KiB of static shared memory.
    KernelConfig config{.kind = KernelKind::Tuned, .variant = 2};
    Problem problem;
    problem.m = problem.n = problem.k = 256;
    EXPECT_EQ(plan_launch(config, problem).shared_bytes, 3 * (16 * 132 + 16 * 128) * 4);
    EXPECT_EQ(check_launch(config, problem, device_presets()[0]), std::nullopt) << "an H100 gives a block 227 KiB";
    DeviceLimits small = generic_limits();
    small.optin_shared_per_block = 48 * 1024;  // a GPU that gives a block no more than the static 48 KiB
    const auto why = check_launch(config, problem, small);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("shared memory"), std::string::npos) << *why;
    EXPECT_EQ(check_launch({.kind = KernelKind::Pipelined}, problem, small), std::nullopt) << "32.5 KiB fits";
    EXPECT_EQ(describe(config), "tuned #2");
    EXPECT_EQ(describe({.kind = KernelKind::Tuned}), "tuned");
}

}  // namespace
}  // namespace ts::model
