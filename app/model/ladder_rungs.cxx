#include "ladder_rungs.hpp"

#include "format.hpp"
#include "ladder.hpp"
#include "traffic.hpp"

namespace ts::model {

std::vector<LadderRung> ladder_rungs(Ladder ladder) {
    std::vector<LadderRung> rungs;
    for (const RungInfo& row : rungs_on(ladder)) {
        KernelConfig kernel;
        kernel.kind = row.kind;
        if (row.kind == KernelKind::Tiled) kernel.block_x = kernel.block_y = kernel.tile = kLadderFootTile;
        rungs.push_back({kernel, row.file, row.change});
    }
    return rungs;
}

std::vector<LadderRung> ladder_rungs() { return ladder_rungs(Ladder::Fp32); }

std::vector<LadderRung> ladder_rungs(Ladder ladder, Dtype dtype) {
    std::vector<LadderRung> rungs = ladder_rungs(ladder);
    std::erase_if(rungs, [&](const LadderRung& r) { return !find_rung(r.kernel.kind)->dtypes.has(dtype); });
    return rungs;
}

std::vector<LadderRung> tensor_core_rungs() { return ladder_rungs(Ladder::TensorCores, Dtype::BFloat16); }

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
        const double element_bytes = is_fp8(problem.dtype) ? 1.0 : 2.0;
        counts.intensity = 2.0 * static_cast<double>(counts.fmas) / (element_bytes * static_cast<double>(counts.global_loads));
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
