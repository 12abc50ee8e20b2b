// 32-byte sectors per warp access: coalesced warps touch few, a warp walking down a column
// touches one per lane.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "model/memory_sectors.hpp"
#include "support/problems.hpp"

namespace {

using ts::model::Operand;
using ts::model::WarpMapping;

using ts::testing_support::make_problem;

TEST(Sectors, CountsDistinctThirtyTwoByteSectors) {
    std::vector<std::int64_t> offsets(32);
    std::iota(offsets.begin(), offsets.end(), 0);
    EXPECT_EQ(ts::model::sectors_touched(offsets, 4), 4) << "32 floats in a row: 128 bytes";
    EXPECT_EQ(ts::model::sectors_touched(offsets, 8), 8) << "32 doubles in a row: 256 bytes";
    std::iota(offsets.begin(), offsets.end(), 4);
    EXPECT_EQ(ts::model::sectors_touched(offsets, 4), 5) << "misaligned by half a sector";
    for (auto& o : offsets) o = 17;
    EXPECT_EQ(ts::model::sectors_touched(offsets, 4), 1) << "one address for all: a broadcast";
    for (int i = 0; i < 32; ++i) offsets[static_cast<std::size_t>(i)] = i * 64;
    EXPECT_EQ(ts::model::sectors_touched(offsets, 4), 32) << "a row apart";
    offsets.assign(32, -1);
    EXPECT_EQ(ts::model::sectors_touched(offsets, 4), 0) << "no lane accesses anything";
}

TEST(Sectors, NaiveCoalescedWarpReadsFourSectorsOfBAndXAsRowThirtyTwoOfA) {
    // Blocks of 32×8: warp 0 is threadIdx.y = 0, threadIdx.x = 0..31.
    const auto p = make_problem(64, 64, 64, ts::model::Dtype::Float32);
    const auto b = ts::model::naive_read_access(p, {32, 8}, {0, 0}, 0, Operand::B, 0, WarpMapping::Coalesced);
    EXPECT_EQ(b.active_lanes, 32);
    EXPECT_EQ(b.sectors, 4);
    EXPECT_EQ(b.bytes_requested(4), 128);
    EXPECT_EQ(b.bytes_moved(), 128);
    EXPECT_EQ(b.distinct, 32);
    // Coalesced, the warp's A read is one address (its row, this k): one sector.
    const auto broadcast = ts::model::naive_read_access(p, {32, 8}, {0, 0}, 5, Operand::A, 0, WarpMapping::Coalesced);
    EXPECT_EQ(broadcast.sectors, 1);
    EXPECT_EQ(broadcast.distinct, 1);
    EXPECT_EQ(broadcast.bytes_distinct(4), 4);
    // threadIdx.x as the row: 32 rows of A, K = 64 floats apart.
    const auto a = ts::model::naive_read_access(p, {32, 8}, {0, 0}, 0, Operand::A, 0, WarpMapping::XIsRow);
    EXPECT_EQ(a.sectors, 32);
    EXPECT_EQ(a.offsets[1] - a.offsets[0], 64);
    EXPECT_EQ(a.bytes_moved(), 32 * 32);
}

TEST(Sectors, GhostLanesAndBatchesAreAccountedFor) {
    // N = 20: lanes 20..31 of a 32-wide block are ghost threads and read nothing.
    const auto p = make_problem(8, 20, 8, ts::model::Dtype::Float32);
    const auto b = ts::model::naive_read_access(p, {32, 1}, {0, 0}, 0, Operand::B, 0, WarpMapping::Coalesced);
    EXPECT_EQ(b.active_lanes, 20);
    EXPECT_EQ(b.offsets[20], -1);
    EXPECT_EQ(b.sectors, 3);  // 80 bytes from an aligned start
    // Matrix 1 of the stack starts K·N = 160 elements later.
    const auto b1 = ts::model::naive_read_access(p, {32, 1}, {0, 0}, 0, Operand::B, 0, WarpMapping::Coalesced, 1);
    EXPECT_EQ(b1.offsets[0], 160);
}

TEST(Sectors, TiledLoadFollowsTheTileSchedule) {
    // T = 32: a warp is one row of the tile, 32 neighbouring floats of A: 4 sectors.
    const auto p = make_problem(64, 64, 64, ts::model::Dtype::Float32);
    const auto a = ts::model::tiled_load_access(p, 32, {1, 1}, 1, Operand::A, 3, WarpMapping::Coalesced);
    const auto loads = ts::model::tile_loads(p, 32, {1, 1}, 1, Operand::A);
    for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(a.offsets[lane], loads[3 * 32 + lane].address);
    EXPECT_EQ(a.sectors, 4);
    EXPECT_EQ(ts::model::tiled_load_access(p, 32, {1, 1}, 1, Operand::A, 3, WarpMapping::XIsRow).sectors, 32);
    // T = 8: a warp covers 4 rows of 8 floats, each row one sector; doubles take two each.
    EXPECT_EQ(ts::model::tiled_load_access(p, 8, {0, 0}, 0, Operand::B, 0, WarpMapping::Coalesced).sectors, 4);
    const auto d = make_problem(64, 64, 64, ts::model::Dtype::Float64);
    EXPECT_EQ(ts::model::tiled_load_access(d, 8, {0, 0}, 0, Operand::B, 0, WarpMapping::Coalesced).sectors, 8);
    // T = 2: one warp holds all 4 threads; the other 28 lanes are empty.
    EXPECT_EQ(ts::model::tiled_load_access(p, 2, {0, 0}, 0, Operand::A, 0, WarpMapping::Coalesced).active_lanes, 4);
}

TEST(Sectors, TiledPaddingLoadsNothing) {
    // 40×28×36, T = 8, block (3, 2), phase 4: B's tile covers rows 32..39 (K ends at 36) and
    // columns 24..31 (N ends at 28); warp 0 is tile rows 0..3, all inside K, half inside N.
    const auto p = make_problem(40, 28, 36, ts::model::Dtype::Float32);
    const auto b = ts::model::tiled_load_access(p, 8, {3, 2}, 4, Operand::B, 0, WarpMapping::Coalesced);
    EXPECT_EQ(b.active_lanes, 16);
    EXPECT_EQ(ts::model::tiled_load_access(p, 8, {3, 2}, 4, Operand::B, 1, WarpMapping::Coalesced).active_lanes, 0);
}

}  // namespace
