#include "traffic.hpp"

#include "index_math.hpp"
#include "ladder.hpp"
#include "launch_geometry.hpp"

namespace ts::model {

double Traffic::arithmetic_intensity(std::size_t element_size) const {
    const std::int64_t bytes = global_bytes(element_size);
    return bytes > 0 ? static_cast<double>(flops) / static_cast<double>(bytes) : 0.0;
}

std::int64_t loads_of_element(const KernelConfig& config, const Problem& p, bool of_a) {
    if (!is_modelled(config.kind)) return 0;
    if (is_ladder(config.kind)) {
        return ladder_loads_per_element(ladder_shape(config), p.m, p.n, of_a);
    }
    if (config.kind != KernelKind::Tiled) {
        // Every cell in A's row r reads A[r][k]: N cells; every cell in B's column c: M cells.
        return of_a ? p.n : p.m;
    }
    // A tile of A is loaded once by every block in its row of blocks, i.e. once per block
    // column of C; a tile of B once per block row.
    const LaunchGeometry g = plan_launch(config, p);
    return of_a ? g.grid.x : g.grid.y;
}

Traffic count_traffic(const KernelConfig& config, const Problem& p) {
    Traffic t;
    t.flops = 2 * p.m * p.n * p.k * p.batch;
    if (!is_modelled(config.kind)) {
        t.modelled = false;
        return t;
    }
    t.global_loads_a = loads_of_element(config, p, true) * p.m * p.k * p.batch;
    t.global_loads_b = loads_of_element(config, p, false) * p.k * p.n * p.batch;
    t.global_stores = p.m * p.n * p.batch;
    if (config.kind == KernelKind::Tiled) {
        const LaunchGeometry g = plan_launch(config, p);
        const std::int64_t phases = phase_count(static_cast<int>(p.k), config.tile);
        const std::int64_t threads = g.threads();  // all batches, ghosts included
        t.shared_stores = threads * 2 * phases;    // one As and one Bs slot per thread per phase
        t.shared_loads = threads * 2 * config.tile * phases;
    }
    if (is_ladder(config.kind)) {
        const LadderCounts c = count_ladder(ladder_shape(config), p.m, p.n, p.k);
        t.shared_stores = c.shared_stores * p.batch;
        t.shared_loads = c.shared_loads * p.batch;
    }
    return t;
}

}  // namespace ts::model
