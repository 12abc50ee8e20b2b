// Stream-K's last round (model/tensor_core/stream_k.hpp): every K step of every tile is computed exactly
// once, the shares are even, a split tile's parts meet at its first part, and no cluster waits for
// one that comes before it — over many launch shapes, and the 4096³ launch worked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/tensor_core/stream_k.hpp"

namespace ts::model {
namespace {

std::vector<WorkUnit> units_of(const StreamKSplit& s, int cluster) {
    std::vector<WorkUnit> units;
    for (WorkUnit u = first_unit(s, cluster); u.valid(); u = next_unit(s, cluster, u)) units.push_back(u);
    return units;
}

TEST(StreamK, FourThousandNinetySixCubedWorkedByHand) {
    // 4096³ in 128×256 tiles, clusters of two: 16 × 16 cluster tiles of 64 K steps on 66 clusters.
    const StreamKSplit s = stream_k_split(256, 66, 64, true);
    EXPECT_EQ(s.whole_tiles, 198);        // three whole rounds
    EXPECT_EQ(s.tail_steps, 58 * 64);  // 3,712 K steps left
    EXPECT_EQ(s.tail_clusters, 66);
    // 3712 = 66 · 56 + 16: clusters 0–15 take 57 K steps, the other 50 take 56.
    EXPECT_EQ(s.share_begin(1), 57);
    EXPECT_EQ(s.share_begin(16), 16 * 57);
    EXPECT_EQ(s.share_begin(17), 16 * 57 + 56);
    // Cluster 0: tiles 0, 66, 132, then K steps 0–56 of tile 198, its first part.
    const std::vector<WorkUnit> zero = units_of(s, 0);
    ASSERT_EQ(zero.size(), 4u);
    EXPECT_EQ(zero[2], (WorkUnit{132, 0, 64}));
    EXPECT_EQ(zero[3], (WorkUnit{198, 0, 57}));
    EXPECT_TRUE(zero[3].completes_split(64));
    EXPECT_EQ(later_parts(s, 0, 198), 1);  // cluster 1 brings K steps 57–63
    // Cluster 1: the rest of tile 198 first (handed over), then tile 199 from K step 0 to 49.
    const std::vector<WorkUnit> one = units_of(s, 1);
    ASSERT_EQ(one.size(), 5u);
    EXPECT_EQ(one[3], (WorkUnit{198, 57, 64}));
    EXPECT_TRUE(one[3].hands_over());
    EXPECT_EQ(one[4], (WorkUnit{199, 0, 50}));
    // Whole rounds only: nothing is shared out.
    const StreamKSplit whole = stream_k_split(256, 64, 64, true);
    EXPECT_EQ(whole.whole_tiles, 256);
    EXPECT_EQ(whole.tail_clusters, 0);
    EXPECT_EQ(units_of(whole, 63).size(), 4u);
    EXPECT_EQ(stream_k_split(256, 66, 64, false).whole_tiles, 256);
    // A rest whose K steps would not count in 32 bits (2 tiles of 2³⁰ K steps) goes whole too.
    const StreamKSplit huge = stream_k_split(130, 64, 1 << 30, true);
    EXPECT_EQ(huge.whole_tiles, 130);
    EXPECT_EQ(huge.tail_clusters, 0);
    EXPECT_EQ(stream_k_split(129, 64, 1 << 30, true).tail_steps, 1 << 30);  // one tile's still does
}

// Every shape: each (tile, K step) once; shares within one K step of each other; a unit that hands
// over is its cluster's first shared unit; a first part and its later parts add up to the tile,
// the later parts being the next clusters' first shared units.
TEST(StreamK, EveryKStepOnceAndEveryPartMeetsItsFirst) {
    for (int tiles : {1, 2, 7, 10, 64, 65, 130, 256, 1000})
        for (int clusters : {1, 3, 8, 64, 66})
            for (int k_steps : {1, 2, 5, 8, 32, 64, 129})
                for (bool share : {false, true}) {
                    const StreamKSplit s = stream_k_split(tiles, clusters, k_steps, share);
                    SCOPED_TRACE(testing::Message() << tiles << " tiles, " << clusters << " clusters, " << k_steps
                                                    << " K steps" << (share ? ", shared" : ""));
                    std::vector<int> seen(static_cast<std::size_t>(tiles) * k_steps, 0);
                    std::vector<std::int64_t> shared(clusters, 0);
                    std::vector<WorkUnit> firsts(clusters);
                    for (int c = 0; c < clusters; ++c) {
                        const std::vector<WorkUnit> units = units_of(s, c);
                        bool first_shared = true;
                        for (const WorkUnit& u : units) {
                            ASSERT_GE(u.tile, 0);
                            ASSERT_LT(u.tile, tiles);
                            ASSERT_LT(u.k_begin, u.k_end);
                            ASSERT_LE(u.k_end, k_steps);
                            for (int k = u.k_begin; k < u.k_end; ++k) ++seen[u.tile * k_steps + k];
                            if (u.tile >= s.whole_tiles) {
                                shared[c] += u.k_end - u.k_begin;
                                if (first_shared) firsts[c] = u;
                                if (u.hands_over()) {
                                    EXPECT_TRUE(first_shared) << "cluster " << c;
                                }
                                first_shared = false;
                            } else {
                                EXPECT_EQ(u.tile % clusters, c);
                                EXPECT_EQ(u.k_end - u.k_begin, k_steps);
                            }
                        }
                    }
                    for (int v : seen) ASSERT_EQ(v, 1);
                    if (!share || tiles % clusters == 0) {
                        EXPECT_EQ(s.tail_clusters, 0);
                    }
                    const auto [least, most] =
                        std::minmax_element(shared.begin(), shared.begin() + std::max(1, s.tail_clusters));
                    if (s.tail_clusters > 0) {
                        EXPECT_LE(*most - *least, 1);
                        EXPECT_GE(*least, std::min<std::int64_t>(kStreamKMinSteps, s.tail_steps));
                    }
                    for (int c = 0; c < clusters; ++c)
                        for (const WorkUnit& u : units_of(s, c)) {
                            if (u.tile < s.whole_tiles || !u.completes_split(k_steps)) continue;
                            int covered = u.k_end;
                            const int parts = later_parts(s, c, u.tile);
                            EXPECT_GE(parts, 1);
                            for (int p = 1; p <= parts; ++p) {
                                const WorkUnit later = firsts[c + p];
                                EXPECT_EQ(later.tile, u.tile);
                                EXPECT_EQ(later.k_begin, covered);
                                EXPECT_TRUE(later.hands_over());
                                covered = later.k_end;
                            }
                            EXPECT_EQ(covered, k_steps);
                        }
                }
}

}  // namespace
}  // namespace ts::model
