// ladder_rungs.hpp — the kernel ladder as the lab shows it: the rungs in order from the tiled
// kernel (T = 32) up to the tuned one, what each changed from the rung below it, and what the
// model's counts (count_traffic, count_ladder) say about each. The rungs and their texts are the
// rows of rung_info.hpp's table; the ladder view's bars, the roofline's points and their tooltips
// all read them from here, so a rung is described in one place.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_config.hpp"
#include "problem.hpp"
#include "rung_info.hpp"
#include "tensor_core/mma.hpp"
#include "tensor_core/pipeline.hpp"

namespace ts::model {

struct LadderRung {
    KernelConfig kernel;      // the tuned rung with variant −1: the tuner's choice per GPU and size
    std::string_view file;    // "07_regtile_2d.cu", in kernels/
    std::string_view change;  // what changed from the rung below, in a sentence or two
};

// The tiled kernel stands at the FP32 ladder's foot at its best, T = 32.
inline constexpr int kLadderFootTile = 32;

// The rungs of `ladder` from its foot up (rungs_on), the tiled kernel at T = 32.
std::vector<LadderRung> ladder_rungs(Ladder ladder);

// tiled T=32, regtile-1d, regtile-2d, vectorized, conflict-free, warptile, pipelined, tuned.
std::vector<LadderRung> ladder_rungs();

// Those of them with a kernel for `dtype`: the tensor-core ladder's 16-bit rungs (13 to 19) or its
// FP8 ones (20, 21), each in its own type.
std::vector<LadderRung> ladder_rungs(Ladder ladder, Dtype dtype);

// The tensor-core ladder, BF16 in and FP32 accumulated: wmma, mma, mma-async, wgmma,
// warp-specialized, persistent, tc-tuned (13 to 19).
std::vector<LadderRung> tensor_core_rungs();

// A tensor-core rung's block tile and what its copies bring from global memory: a block of
// bm × bn of C reads bm rows of A and bn columns of B over all of K; a cluster of cluster_m blocks
// along M shares each B tile (TMA multicast), so B is read once a cluster.
struct TcBlockTile {
    int bm = 0, bn = 0, bk = 0;
    int cluster_m = 1;
    int stages = 1;
    int threads = 0;
    int shared_bytes = 0;  // dynamic shared memory the block asks for
};
// Zero for kinds that are not tensor-core rungs. tc-tuned: the candidate in kernel.variant
// (candidate 0 for −1).
TcBlockTile tc_block_tile(const KernelConfig& kernel);

// The shape tc-tuned runs for `variant` (kTcTunedCandidates; candidate 0, 18's, for −1 or one out of range).
constexpr WgmmaShape tc_tuned_shape(int variant) {
    return variant >= 0 && variant < kTcTunedCandidateCount ? kTcTunedCandidates[variant] : kTcTunedCandidates[0];
}

// "128×256×64, 3 stages, cluster 2": a WgmmaShape in one line.
std::string describe_wgmma_shape(const WgmmaShape& shape);

// Candidate `variant` of the tuned rung `rung` in one line (describe_shape or
// describe_wgmma_shape); "" for a kind that is not tuned or a variant it does not have.
std::string describe_candidate(KernelKind rung, int variant);

// Calls `on_mma(MmaShape)` for 13 to 15 or `on_wgmma(WgmmaShape)` for 16 to 19 with the rung's
// shape (tensor_core/mma.hpp, tensor_core/pipeline.hpp; tc-tuned's: tc_tuned_shape(kernel.variant)) and returns
// what it returns; `otherwise` for other kinds.
template <typename Result, typename OnMma, typename OnWgmma>
Result with_tc_shape(const KernelConfig& kernel, OnMma on_mma, OnWgmma on_wgmma, Result otherwise);

// The rung's wgmma block shape (16 to 19) or mma block shape (13 to 15); nullopt for the others.
std::optional<WgmmaShape> wgmma_shape_of(const KernelConfig& kernel);
std::optional<MmaShape> mma_shape_of(const KernelConfig& kernel);

// What the counts say about one launch of the tiled kernel or a ladder rung (the tuned rung:
// the candidate in kernel.variant, candidate 0 for −1). For a tensor-core rung, the global loads
// and intensity of its block tiles (tc_block_tile; elements of 2 bytes), the rest zero: its
// instructions are counted by tensor_core/mma.hpp and tensor_core/pipeline.hpp per K step. Zero for other kernels
// and cuBLAS.
struct RungCounts {
    double intensity = 0.0;         // FLOPs per byte requested from global memory, before caches
    std::int64_t global_loads = 0;  // elements of A and B read from global memory
    std::int64_t fmas = 0;          // multiply-adds issued
    double shared_loads_per_fma = 0.0;       // elements read from shared memory per FMA
    double load_instructions_per_fma = 0.0;  // shared and global load instructions per FMA (a float4 is one)
    // Issue slots per FMA that the counts see: the FMA itself and the loads that feed it.
    // Addresses, loop counters and stores are left out: they are few per FMA in every rung.
    double issue_per_fma() const { return 1.0 + load_instructions_per_fma; }
};
RungCounts rung_counts(const KernelConfig& kernel, const Problem& problem);

// The speed-up of `to` over `from` the counts predict if each counted instruction costs one
// issue slot and nothing they cannot see (bank conflicts, waiting on memory) matters:
// from.issue_per_fma() / to.issue_per_fma(). 0 when either is not counted.
double predicted_speedup(const RungCounts& from, const RungCounts& to);

// The tensor-core rungs' prediction: their instructions are too few per multiply-add for issue
// slots to decide (one mma.sync covers 2,048 of them, one wgmma m64n128k16 131,072), so the counts
// they have are the bytes each block tile asks global memory for. If those bytes were the limit,
// `to` would run to.intensity / from.intensity times as fast as `from`: 1× where only the overlap
// changed (mma-async, wgmma), more where a larger tile or a cluster's shared B cuts the traffic.
// 0 when either is not counted.
double predicted_traffic_speedup(const RungCounts& from, const RungCounts& to);

template <typename Result, typename OnMma, typename OnWgmma>
Result with_tc_shape(const KernelConfig& kernel, OnMma on_mma, OnWgmma on_wgmma, Result otherwise) {
    switch (kernel.kind) {
        case KernelKind::Wmma: return on_mma(kWmmaShape);
        case KernelKind::Mma: return on_mma(kMmaShape);
        case KernelKind::MmaAsync: return on_mma(kMmaAsyncShape);
        case KernelKind::Wgmma: return on_wgmma(kWgmmaShape);
        case KernelKind::WarpSpecialized: return on_wgmma(kWarpSpecializedShape);
        case KernelKind::Persistent: return on_wgmma(kPersistentShape);
        case KernelKind::TcTuned: return on_wgmma(tc_tuned_shape(kernel.variant));
        case KernelKind::Fp8: return on_wgmma(kFp8Shape);
        case KernelKind::Fp8Blocks: return on_wgmma(kFp8BlocksShape);
        default: return otherwise;
    }
}

}  // namespace ts::model
