// stream_k.hpp — the last round of a persistent launch shared out along K (stream-K), as
// tc-tuned's candidate 5 runs it: which K steps of which tile each cluster takes, and who adds
// whose partial sums.
//
// A persistent launch ends when its last round does. 4096³ in 128×256 tiles is 256 cluster tiles;
// an H100's or H200's 132 SMs hold 66 clusters of two, so 18's launch runs 64 clusters for four
// whole rounds and leaves 4 SMs idle, and 66 clusters would finish no sooner (58 tiles in the
// fourth round still take a whole round). Here the whole rounds stay as they are (3 · 66 tiles),
// and the rest, 58 tiles of 64 K steps each, is laid end to end, 3,712 K steps, and cut into 66
// shares of 56 or 57: every SM works until about the same moment, 3.88 tile-times instead of 4.
//
// A share that starts or ends inside a tile computes only part of its sum. The tile's first part
// (K step 0 on, the end of some cluster's share) completes it: it adds the later parts, which
// begin the shares of the clusters after it, and stores C. Each later part is the first thing its
// cluster does after the whole rounds and leaves its FP32 sums in its cluster's slot (one per
// cluster: only a share's first part can start inside a tile), then raises the slot's flag; the
// completing part waits for the flags. It waits only for clusters after its own, whose part came
// first in their share, so no cluster waits for one that waits for it. Every cluster of the launch
// runs at once (the grid is what fits), so every one it waits for is running.
#pragma once

#include <cstdint>

#include "model/index_math.hpp"

namespace ts::model {

// The fewest K steps a cluster's share of the last round may have: a finer cut spends more on
// handing sums over (a 128×256 FP32 tile out and back in, per part) than it gains.
inline constexpr int kStreamKMinSteps = 8;

struct StreamKSplit {
    int tiles = 0;                // cluster tiles, every batch
    int clusters = 0;             // clusters launched
    int k_steps = 0;              // K steps of one tile
    int whole_tiles = 0;          // tiles 0 … whole_tiles − 1 go whole, cluster c taking c, c + clusters, …
    int tail_clusters = 0;     // clusters that share out the rest (0: nothing is shared out)
    int tail_steps = 0;        // the rest: (tiles − whole_tiles) · k_steps K steps end to end
    int share = 0;             // tail_steps / tail_clusters: each share has this many K steps,
    int longer_shares = 0;     // the first tail_steps % tail_clusters one more
    // Where cluster c's share of the rest begins, in K steps from its start; it ends where c + 1's
    // begins (empty for c ≥ tail_clusters).
    TS_HOST_DEVICE constexpr int share_begin(int c) const {
        if (c >= tail_clusters) return tail_steps;
        return share * c + (c < longer_shares ? c : longer_shares);
    }
};

// `tiles` cluster tiles of `k_steps` K steps over `clusters` clusters. With `share_last_round`
// false (or when the tiles make whole rounds) every tile goes whole, as 18's launch takes them; so
// too where the rest's K steps would not count in 32 bits (K beyond 2³¹ · 64 / clusters): the
// kernels walk the shares in 32-bit arithmetic, which leaves their registers to the accumulators.
TS_HOST_DEVICE constexpr StreamKSplit stream_k_split(int tiles, int clusters, int k_steps, bool share_last_round) {
    StreamKSplit s{tiles, clusters, k_steps, tiles, 0, 0, 0, 0};
    if (!share_last_round || clusters <= 0 || k_steps <= 0 || tiles % clusters == 0) return s;
    const int whole = tiles / clusters * clusters;
    const std::int64_t rest = static_cast<std::int64_t>(tiles - whole) * k_steps;
    if (rest > 0x7fffffff) return s;
    s.whole_tiles = whole;
    s.tail_steps = static_cast<int>(rest);
    const int most = s.tail_steps / kStreamKMinSteps;
    s.tail_clusters = most < 1 ? 1 : most < clusters ? most : clusters;
    s.share = s.tail_steps / s.tail_clusters;
    s.longer_shares = s.tail_steps % s.tail_clusters;
    return s;
}

// K steps [k_begin, k_end) of cluster tile `tile` (the index persistent_tile orders); tile −1:
// the cluster has nothing more.
struct WorkUnit {
    int tile = -1;
    int k_begin = 0, k_end = 0;
    TS_HOST_DEVICE constexpr bool valid() const { return tile >= 0; }
    // A later part of a split tile: its sums go to its cluster's slot for the first part to add.
    TS_HOST_DEVICE constexpr bool hands_over() const { return k_begin > 0; }
    // The first part of a split tile: it adds the later parts and stores C.
    TS_HOST_DEVICE constexpr bool completes_split(int k_steps) const { return k_begin == 0 && k_end < k_steps; }
    constexpr bool operator==(const WorkUnit&) const = default;
};

namespace stream_k_detail {
// The unit at `pos` of the rest, up to the end of its tile or of the share (`end`).
TS_HOST_DEVICE constexpr WorkUnit unit_at(const StreamKSplit& s, int pos, int end) {
    const int k_begin = pos % s.k_steps;
    return {s.whole_tiles + pos / s.k_steps, k_begin, end - pos < s.k_steps - k_begin ? k_begin + end - pos : s.k_steps};
}
TS_HOST_DEVICE constexpr WorkUnit first_shared_unit(const StreamKSplit& s, int cluster) {
    const int begin = s.share_begin(cluster), end = s.share_begin(cluster + 1);
    return begin < end ? unit_at(s, begin, end) : WorkUnit{};
}
}  // namespace stream_k_detail

// Cluster `cluster`'s first unit, and the one after `u`: its whole tiles round by round, then its
// share of the rest in K order.
TS_HOST_DEVICE constexpr WorkUnit first_unit(const StreamKSplit& s, int cluster) {
    if (cluster < s.whole_tiles) return {cluster, 0, s.k_steps};
    return stream_k_detail::first_shared_unit(s, cluster);
}
TS_HOST_DEVICE constexpr WorkUnit next_unit(const StreamKSplit& s, int cluster, WorkUnit u) {
    if (u.tile < s.whole_tiles) {
        const int next = u.tile + s.clusters;
        return next < s.whole_tiles ? WorkUnit{next, 0, s.k_steps} : stream_k_detail::first_shared_unit(s, cluster);
    }
    // A unit ends where its tile or its share does: the share goes on at the next tile's K step 0.
    if (u.k_end < s.k_steps) return {};
    const int pos = (u.tile + 1 - s.whole_tiles) * s.k_steps, end = s.share_begin(cluster + 1);
    if (pos >= end) return {};
    return {u.tile + 1, 0, end - pos < s.k_steps ? end - pos : s.k_steps};
}

// The clusters whose shares begin inside tile `tile` after its first part, which cluster `cluster`
// computes: cluster + 1, cluster + 2, … — how many. Their slots hold the parts to add, in order.
TS_HOST_DEVICE constexpr int later_parts(const StreamKSplit& s, int cluster, int tile) {
    const int tile_end = (tile - s.whole_tiles + 1) * s.k_steps;
    int parts = 0;
    for (int c = cluster + 1; c < s.tail_clusters && s.share_begin(c) < tile_end; ++c) ++parts;
    return parts;
}

}  // namespace ts::model
