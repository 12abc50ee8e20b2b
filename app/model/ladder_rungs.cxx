#include "ladder_rungs.hpp"

#include "format.hpp"
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

// After each tensor-core kernel's opening lines.
constexpr LadderRung kTensorCoreRungs[] = {
    {{KernelKind::Wmma}, "13_wmma.cu",
     "Tensor cores through the WMMA API: one wmma::mma_sync multiplies 16×16 tiles of A and B (4,096 multiply-adds) "
     "with the whole warp taking part. BF16 inputs, FP32 sums; 128×128 block tiles, one stage of shared memory."},
    {{KernelKind::Mma}, "14_mma.cu",
     "The instruction under WMMA: mma.sync.m16n8k16, its registers filled by ldmatrix from shared memory, each "
     "lane's elements as the PTX ISA lays them out. C is written straight from the accumulators."},
    {{KernelKind::MmaAsync}, "15_mma_async.cu",
     "The Ampere recipe: XOR-swizzled tiles (no bank conflicts, no padding) and four stages filled by cp.async "
     "three K steps ahead. On Ampere it reaches cuBLAS; on Hopper the warps spend their time issuing."},
    {{KernelKind::Wgmma}, "16_wgmma.cu",
     "Hopper's own path: wgmma.mma_async, four warps multiplying 64×128 over 16 of K from shared memory through "
     "descriptors, and TMA copying each K step's swizzled tiles from one thread into a ring of mbarriers."},
    {{KernelKind::WarpSpecialized}, "17_warp_specialized.cu",
     "A producer warpgroup only copies and two consumer warpgroups only multiply, each handing stages to the other "
     "through the ring's mbarriers; setmaxnreg gives the consumers the registers for 128×256 tiles."},
    {{KernelKind::Persistent}, "18_persistent.cu",
     "One cluster per pair of SMs walks many tiles in an L2-friendly order, the two CTAs sharing B's tile by TMA "
     "multicast, and C leaves through shared memory by TMA stores while the next tile starts."},
    {{KernelKind::TcTuned}, "19_tc_tuned.cu",
     "The persistent kernel compiled for the shape the tuner measured fastest on this GPU and size: 128×128 tiles "
     "where 128×256 would leave most SMs idle, clusters or none, a fourth stage where C goes out a slab at a "
     "time, and every SM to the end where the last round is shared out along K (stream-K)."},
};

}  // namespace

std::span<const LadderRung> ladder_rungs() { return kRungs; }

std::span<const LadderRung> tensor_core_rungs() { return kTensorCoreRungs; }

std::string describe_candidate(KernelKind rung, int variant) {
    if (variant < 0 || variant >= tuned_candidate_count(rung)) return "";
    return rung == KernelKind::Tuned ? describe_shape(kTunedCandidates[variant])
                                     : describe_wgmma_shape(kTcTunedCandidates[variant]);
}

std::string describe_wgmma_shape(const WgmmaShape& s) {
    return format_text("{}×{}×{}, {} stages, {}{}{}", s.bm, s.bn, s.bk, s.stages,
                       s.cluster_m > 1 ? format_text("clusters of {}", s.cluster_m) : std::string("no cluster"),
                       s.c_one_slab ? ", C a slab at a time" : "", s.stream_k ? ", last round split along K" : "");
}

std::optional<WgmmaShape> wgmma_shape_of(const KernelConfig& kernel) {
    return with_tc_shape<std::optional<WgmmaShape>>(
        kernel, [](const MmaShape&) { return std::optional<WgmmaShape>{}; },
        [](const WgmmaShape& s) { return std::optional<WgmmaShape>{s}; }, std::nullopt);
}

std::optional<MmaShape> mma_shape_of(const KernelConfig& kernel) {
    return with_tc_shape<std::optional<MmaShape>>(
        kernel, [](const MmaShape& s) { return std::optional<MmaShape>{s}; },
        [](const WgmmaShape&) { return std::optional<MmaShape>{}; }, std::nullopt);
}

TcBlockTile tc_block_tile(const KernelConfig& kernel) {
    return with_tc_shape(
        kernel, [](const MmaShape& s) { return TcBlockTile{s.bm, s.bn, s.bk, 1, s.stages, s.threads(), mma_shared_bytes(s)}; },
        // The kernels round the start of dynamic shared memory up to 1,024 bytes themselves.
        [](const WgmmaShape& s) {
            return TcBlockTile{s.bm, s.bn, s.bk, s.cluster_m, s.stages, s.threads(), wgmma_shared_bytes(s) + 1024};
        },
        TcBlockTile{});
}

RungCounts rung_counts(const KernelConfig& kernel, const Problem& problem) {
    RungCounts counts;
    if (is_tensor_core(kernel.kind)) {
        const TcBlockTile t = tc_block_tile(kernel);
        // Every block row reads all of B (once a cluster), every block column all of A; K is
        // rounded up to whole K steps as the copies bring it (the zeros past K count too).
        const std::int64_t k = ceil_div64(problem.k, t.bk) * t.bk;
        const std::int64_t a = problem.m * k * ceil_div64(problem.n, t.bn);
        const std::int64_t b = k * problem.n * ceil_div64(problem.m, std::int64_t{t.bm} * t.cluster_m);
        counts.global_loads = (a + b) * problem.batch;
        counts.fmas = problem.m * problem.n * problem.k * problem.batch;
        counts.intensity = 2.0 * static_cast<double>(counts.fmas) / (2.0 * static_cast<double>(counts.global_loads));
        return counts;
    }
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

double predicted_traffic_speedup(const RungCounts& from, const RungCounts& to) {
    if (from.intensity <= 0.0 || to.intensity <= 0.0) return 0.0;
    return to.intensity / from.intensity;
}

}  // namespace ts::model
