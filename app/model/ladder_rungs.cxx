#include "ladder_rungs.hpp"

#include "ladder.hpp"
#include "traffic.hpp"

namespace ts::model {

namespace {

// The texts follow the opening lines of each kernel file; where a rung's gain lies outside
// the counts, the text says so, because the tooltip shows the counts' prediction beside it.
constexpr LadderRung kRungs[] = {
    {{KernelKind::Tiled, 32, 32, 32}, "05_tiled.cu",
     "The base: 32×32 tiles of A and B staged in shared memory, one cell of C per thread. Every FMA needs two "
     "loads from shared memory."},
    {{KernelKind::RegTile1d}, "06_regtile_1d.cu",
     "Each thread computes 8 cells of a column of C and keeps one value of B in a register for 8 FMAs: 9 shared "
     "loads per 8 FMAs instead of 2 per FMA. 64×64 block tiles halve the global loads."},
    {{KernelKind::RegTile2d}, "07_regtile_2d.cu",
     "Each thread computes an 8×8 register tile as outer products: 16 shared loads feed 64 FMAs. 128×128 block "
     "tiles halve the global loads again."},
    {{KernelKind::Vectorized}, "08_vectorized.cu",
     "Loads and stores move four floats per 128-bit instruction, and As is stored transposed so a thread's values "
     "of A sit side by side: a quarter of the load instructions for the same bytes."},
    {{KernelKind::ConflictFree}, "09_conflict_free.cu",
     "Each thread's columns are split into two halves 64 apart and As is padded, so threads no longer collide in a "
     "shared-memory bank. The counts equal the vectorized rung's: bank conflicts are not in them."},
    {{KernelKind::Warptile}, "10_warptile.cu",
     "A warp level between block and thread: each warp owns a 64×64 tile, each thread four 8×4 tiles in it, and K "
     "moves 16 at a time, so 24 floats read from shared memory feed 128 FMAs."},
    {{KernelKind::Pipelined}, "11_pipelined.cu",
     "Four K steps are in flight at once through cp.async, so the next steps' loads overlap this step's products. "
     "The counts equal warptile's: waiting on memory, which this removes, is not in them."},
    {{KernelKind::Tuned}, "12_tuned.cu",
     "The pipelined kernel compiled for the shape the tuner measured fastest on this GPU and size: small tiles "
     "where large ones would leave SMs idle, 128×256 tiles where they fit."},
};

}  // namespace

std::span<const LadderRung> ladder_rungs() { return kRungs; }

RungCounts rung_counts(const KernelConfig& kernel, const Problem& problem) {
    RungCounts counts;
    if (kernel.kind != KernelKind::Tiled && !is_ladder(kernel.kind)) return counts;
    const Traffic traffic = count_traffic(kernel, problem);
    counts.intensity = traffic.arithmetic_intensity(dtype_size(problem.dtype));
    counts.global_loads = traffic.global_loads();
    double load_instructions = 0.0;
    if (kernel.kind == KernelKind::Tiled) {
        // One scalar load per element, from global memory and from the tiles alike.
        counts.fmas = traffic.flops / 2;
        load_instructions = static_cast<double>(traffic.shared_loads + traffic.global_loads());
    } else {
        const LadderShape shape = ladder_shape(kernel);
        const LadderCounts c = count_ladder(shape, problem.m, problem.n, problem.k);
        counts.fmas = c.fmas * problem.batch;
        load_instructions = static_cast<double>(c.shared_load_instructions * problem.batch) +
                            static_cast<double>(traffic.global_loads_a) / shape.a_vec() +
                            static_cast<double>(traffic.global_loads_b) / shape.vec;
    }
    if (counts.fmas <= 0) return counts;
    const double fmas = static_cast<double>(counts.fmas);
    counts.shared_loads_per_fma = static_cast<double>(traffic.shared_loads) / fmas;
    counts.load_instructions_per_fma = load_instructions / fmas;
    return counts;
}

double predicted_speedup(const RungCounts& from, const RungCounts& to) {
    if (from.fmas <= 0 || to.fmas <= 0) return 0.0;
    return from.issue_per_fma() / to.issue_per_fma();
}

}  // namespace ts::model
