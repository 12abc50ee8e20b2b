// tile_order.hpp — the order a persistent launch (18 persistent, 19 tc-tuned) walks the tiles
// of C, round by round, and what each round reads: the picture behind its L2-aware order.
//
// A persistent launch runs `clusters` clusters (model::balanced_clusters of the tiles and the
// clusters the GPU holds at once). Cluster c takes tiles c, c + clusters, c + 2·clusters, ... in
// the order model::persistent_tile gives them, so round r is the tiles r·clusters to
// (r + 1)·clusters − 1: they run at about the same time, each walking K from 0 to the end. What
// they read together is every row panel of A (a cluster tile's bm·cluster_m rows, all of K) and
// every column panel of B (bn columns, all of K) that any of them touches. The smaller that
// footprint, the more of it L2 can hold while the round reads it again and again: an A panel is
// read by every tile of its row in the round, a B panel by every tile of its column.
//
// The kernels' order goes down a group of kPersistentGroupRows cluster rows, then one column
// right; the plain order (row by row, group_rows = 1) is what a grid launched in blockIdx order
// would walk. round_footprint counts both, from the same persistent_tile the kernels call.
#pragma once

#include <cstdint>

#include "model/problem.hpp"
#include "model/tensor_core/pipeline.hpp"

namespace ts::model {

// An H100's or H200's L2 (50 MiB): the persistent rungs run on sm_90a only, all Hopper.
inline constexpr std::int64_t kHopperL2Bytes = 50ll * 1024 * 1024;

struct PersistentLaunch {
    int cluster_rows = 0;  // rows of cluster tiles (bm·cluster_m rows of C each)
    int cols = 0;          // columns of tiles (bn columns of C each)
    int tiles = 0;         // cluster tiles over every batch
    int clusters = 0;      // clusters launched
    int rounds = 0;        // tiles a cluster takes at most
};

// The launch 18's kernel makes for `p` on a GPU of `sm_count` SMs, each cluster of cluster_m CTAs
// on as many SMs (as cudaOccupancyMaxActiveClusters finds where every SM pairs up: 66 on an H100's
// 132). Empty (all zero) for an empty problem.
PersistentLaunch persistent_launch(const WgmmaShape& s, const Problem& p, int sm_count);

// Where tile `index` of the launch's order lies, the cluster that takes it and in which round.
struct OrderedTile {
    ClusterTile tile;
    int cluster = 0;
    int round = 0;
};
OrderedTile ordered_tile(const PersistentLaunch& launch, int index, int group_rows);

// What round `round`'s tiles read together: distinct panels of A and B (per batch) and their
// bytes (rows or columns inside the matrix, all of K, 2-byte elements), and C's tiles written.
struct RoundFootprint {
    int tiles = 0;
    int a_panels = 0, b_panels = 0;
    std::int64_t a_bytes = 0, b_bytes = 0;
    std::int64_t bytes() const { return a_bytes + b_bytes; }
};
RoundFootprint round_footprint(const WgmmaShape& s, const Problem& p, const PersistentLaunch& launch, int round,
                               int group_rows);

}  // namespace ts::model
