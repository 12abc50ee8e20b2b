// The persistent rungs' order of tiles: every tile once, in rounds of `clusters`, and what a round
// reads, worked by hand at 4096³ and 8192³ on an H100's 132 SMs.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "model/tensor_core/tile_order.hpp"

namespace {

using ts::model::kPersistentGroupRows;
using ts::model::kPersistentShape;
using ts::model::Problem;

constexpr std::int64_t kMiB = 1024 * 1024;

Problem square(std::int64_t size) { return {.m = size, .n = size, .k = size, .batch = 1}; }

TEST(TcTileOrder, LaunchAt4096On132Sms) {
    const auto launch = ts::model::persistent_launch(kPersistentShape, square(4096), 132);
    // Cluster tiles of 256 rows (two CTAs of 128) by 256 columns: 16 × 16 of them.
    EXPECT_EQ(launch.cluster_rows, 16);
    EXPECT_EQ(launch.cols, 16);
    EXPECT_EQ(launch.tiles, 256);
    // 66 clusters fit; 256 tiles take 4 rounds either way, so 64 run (balanced_clusters).
    EXPECT_EQ(launch.clusters, 64);
    EXPECT_EQ(launch.rounds, 4);
}

TEST(TcTileOrder, EveryTileOnceInEitherOrder) {
    for (const Problem& p : {square(4096), Problem{.m = 1000, .n = 3000, .k = 64, .batch = 3}, square(100)}) {
        const auto launch = ts::model::persistent_launch(kPersistentShape, p, 132);
        for (int group_rows : {1, kPersistentGroupRows}) {
            std::set<std::tuple<int, int, int>> seen;
            for (int i = 0; i < launch.tiles; ++i) {
                const auto ordered = ts::model::ordered_tile(launch, i, group_rows);
                ASSERT_LT(ordered.tile.cluster_row, launch.cluster_rows);
                ASSERT_LT(ordered.tile.col, launch.cols);
                ASSERT_LT(ordered.round, launch.rounds);
                ASSERT_EQ(ordered.cluster, i % launch.clusters);
                ASSERT_TRUE(seen.insert({ordered.tile.batch, ordered.tile.cluster_row, ordered.tile.col}).second)
                    << "tile " << i << " taken twice";
            }
            EXPECT_EQ(static_cast<int>(seen.size()), launch.tiles);
        }
    }
}

TEST(TcTileOrder, RoundFootprintWorkedByHand) {
    const Problem p = square(4096);
    const auto launch = ts::model::persistent_launch(kPersistentShape, p, 132);
    // The kernel's order: round 0 is 8 cluster rows by 8 columns. 8 panels of A (256 rows × 4096
    // × 2 bytes = 2 MiB each) and 8 of B (4096 × 256 × 2 bytes) = 32 MiB.
    const auto grouped = ts::model::round_footprint(kPersistentShape, p, launch, 0, kPersistentGroupRows);
    EXPECT_EQ(grouped.tiles, 64);
    EXPECT_EQ(grouped.a_panels, 8);
    EXPECT_EQ(grouped.b_panels, 8);
    EXPECT_EQ(grouped.bytes(), 32 * kMiB);
    // Row by row: 4 rows by all 16 columns, 8 MiB of A and 32 of B.
    const auto plain = ts::model::round_footprint(kPersistentShape, p, launch, 0, 1);
    EXPECT_EQ(plain.a_panels, 4);
    EXPECT_EQ(plain.b_panels, 16);
    EXPECT_EQ(plain.bytes(), 40 * kMiB);
    // 8192³: 16 rounds of 64; the order's round reads 64 MiB, the plain one 2 rows and 32 columns, 136.
    const Problem big = square(8192);
    const auto big_launch = ts::model::persistent_launch(kPersistentShape, big, 132);
    EXPECT_EQ(big_launch.rounds, 16);
    EXPECT_EQ(ts::model::round_footprint(kPersistentShape, big, big_launch, 0, kPersistentGroupRows).bytes(), 64 * kMiB);
    EXPECT_EQ(ts::model::round_footprint(kPersistentShape, big, big_launch, 0, 1).bytes(), 136 * kMiB);
}

TEST(TcTileOrder, EdgesAreClippedAndTheLastRoundMayBePartial) {
    // 300 × 600: 2 cluster rows (256 + 44 rows), 3 columns (256, 256, 88); 6 tiles, 6 clusters.
    const Problem p{.m = 300, .n = 600, .k = 10, .batch = 1};
    const auto launch = ts::model::persistent_launch(kPersistentShape, p, 132);
    EXPECT_EQ(launch.tiles, 6);
    EXPECT_EQ(launch.clusters, 6);
    EXPECT_EQ(launch.rounds, 1);
    const auto f = ts::model::round_footprint(kPersistentShape, p, launch, 0, kPersistentGroupRows);
    EXPECT_EQ(f.a_bytes, 300 * 10 * 2);
    EXPECT_EQ(f.b_bytes, 600 * 10 * 2);
    // 10 tiles on 8 SMs (4 clusters): rounds of 4, 4 and 2... balanced to 4 clusters, 3 rounds.
    const Problem q{.m = 256 * 2, .n = 256 * 5, .k = 64, .batch = 1};
    const auto small = ts::model::persistent_launch(kPersistentShape, q, 8);
    EXPECT_EQ(small.tiles, 10);
    EXPECT_EQ(small.rounds, 3);
    EXPECT_EQ(ts::model::round_footprint(kPersistentShape, q, small, 2, kPersistentGroupRows).tiles,
              10 - 2 * small.clusters);
    EXPECT_EQ(ts::model::round_footprint(kPersistentShape, q, small, 3, kPersistentGroupRows).tiles, 0);
    EXPECT_EQ(ts::model::persistent_launch(kPersistentShape, Problem{.m = 0, .n = 5, .k = 5}, 132).tiles, 0);
}

}  // namespace
