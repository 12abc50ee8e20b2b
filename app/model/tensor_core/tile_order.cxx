#include "model/tensor_core/tile_order.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

namespace ts::model {

PersistentLaunch persistent_launch(const WgmmaShape& s, const Problem& p, int sm_count) {
    PersistentLaunch launch;
    constexpr std::int64_t kMost = std::numeric_limits<int>::max();
    if (p.m <= 0 || p.n <= 0 || p.batch <= 0 || sm_count < s.cluster_m || p.m > kMost || p.n > kMost) return launch;
    launch.cluster_rows = cluster_rows_of(s, static_cast<int>(p.m));
    launch.cols = block_cols_of(s, static_cast<int>(p.n));
    const std::int64_t tiles = std::int64_t{launch.cluster_rows} * launch.cols * p.batch;
    if (tiles > kMost) return {};
    launch.tiles = static_cast<int>(tiles);
    // Stream-K runs every cluster that fits and shares its last round out along K (stream_k.hpp):
    // its whole rounds are these, its last drawn as if whole.
    launch.clusters = s.stream_k ? sm_count / s.cluster_m : balanced_clusters(tiles, sm_count / s.cluster_m);
    launch.rounds = (launch.tiles + launch.clusters - 1) / launch.clusters;
    return launch;
}

OrderedTile ordered_tile(const PersistentLaunch& launch, int index, int group_rows) {
    return {persistent_tile(index, launch.cluster_rows, launch.cols, group_rows), index % launch.clusters,
            index / launch.clusters};
}

RoundFootprint round_footprint(const WgmmaShape& s, const Problem& p, const PersistentLaunch& launch, int round,
                               int group_rows) {
    RoundFootprint footprint;
    if (launch.clusters <= 0 || round < 0 || round >= launch.rounds) return footprint;
    std::set<std::pair<int, int>> a_panels, b_panels;  // (batch, cluster row) and (batch, column)
    const int first = round * launch.clusters, last = std::min(first + launch.clusters, launch.tiles);
    for (int index = first; index < last; ++index) {
        const ClusterTile t = ordered_tile(launch, index, group_rows).tile;
        a_panels.insert({t.batch, t.cluster_row});
        b_panels.insert({t.batch, t.col});
    }
    const std::int64_t panel_rows = std::int64_t{s.bm} * s.cluster_m, element_bytes = s.element_bytes;
    for (const auto& [batch, row] : a_panels)
        footprint.a_bytes += std::min(panel_rows, p.m - row * panel_rows) * p.k * element_bytes;
    for (const auto& [batch, col] : b_panels)
        footprint.b_bytes += std::min<std::int64_t>(s.bn, p.n - std::int64_t{col} * s.bn) * p.k * element_bytes;
    footprint.tiles = last - first;
    footprint.a_panels = static_cast<int>(a_panels.size());
    footprint.b_panels = static_cast<int>(b_panels.size());
    return footprint;
}

}  // namespace ts::model
