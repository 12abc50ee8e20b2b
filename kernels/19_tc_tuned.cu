// Teaches: the best tile shape depends on the GPU and the size, so measure instead of guess. The
// kernel is 18's (18_persistent.cuh), compiled once for each shape in model::kTcTunedCandidates:
// 18's 128×256 tiles in clusters of two; 128×128 tiles with five stages; each without the cluster;
// 18's with four stages, C staged a 64-column slab at a time (model::WgmmaShape::c_one_slab); and
// that one on every SM with its last round shared out along K (stream-K: model::WgmmaShape::stream_k,
// model/tensor_core/stream_k.hpp). `tilescope-cli tune --kernel tc-tuned` times every candidate at a few sizes
// and writes the fastest per size to the tuning table (model/tuning_table.hpp); a launch runs the
// candidate in config.variant, which the runner fills from that table.
// Changed from 18_persistent.cu: nothing in the kernel but stream-K's parts (hand_over_sums,
// add_handed_over, compiled for a stream_k shape alone); the shape became a choice.
// Why these candidates: a persistent kernel ends when its last round of tiles does. At 2048³ the
// 128×256 tiles are 128, one per CTA: each fills its ring, computes and writes C with nothing behind
// it to overlap. 128×128 tiles give each CTA two, the second's loads under the first's epilogue, for
// twice the A traffic per FLOP. The cluster halves B's traffic but ties each CTA's ring to its peer's.
// A fourth stage needs the 48 KiB that staging all of C takes beyond one slab (cuBLAS's kernel for
// these sizes has four). Stream-K gives every SM the same share of the last round, for FP32 sums
// handed over through L2: it pays where the last round is a small share of the run.
// What was measured and tried: docs/notes/19_tc_tuned.md.
#include <array>
#include <utility>

#include "kernels/18_persistent.cuh"

namespace ts::kernels {

namespace {

using Launch = cudaError_t (*)(const model::KernelConfig&, const model::Problem&, Operands<std::uint16_t>, cudaStream_t);
using Handle = TcKernelHandle (*)(const model::Problem&);

template <int Candidate>
struct CandidateShape {
    static constexpr model::WgmmaShape value = model::kTcTunedCandidates[Candidate];
    static_assert(persistent::shared_bytes<value>() <= 227 * 1024, "a block may have at most 227 KiB of shared memory");
};
template <int Candidate>
struct CandidateRung {
    template <typename T>
    using Of = typename persistent::PersistentRung<CandidateShape<Candidate>>::template Of<T>;
};

template <int... Candidate>
constexpr std::array<Launch, sizeof...(Candidate)> launchers(std::integer_sequence<int, Candidate...>) {
    return {&launch_by_half_type<CandidateRung<Candidate>::template Of>...};
}
template <int... Candidate>
constexpr std::array<Handle, sizeof...(Candidate)> handles(std::integer_sequence<int, Candidate...>) {
    return {&handle_by_half_type<CandidateRung<Candidate>::template Of>...};
}
constexpr auto kCandidates = std::make_integer_sequence<int, model::kTcTunedCandidateCount>();
constexpr auto kLaunchers = launchers(kCandidates);
constexpr auto kHandles = handles(kCandidates);

// A variant the runner has not resolved (−1) runs candidate 0, 18's shape, as the model draws it.
int candidate_of(const model::KernelConfig& config) {
    return config.variant >= 0 && config.variant < model::kTcTunedCandidateCount ? config.variant : 0;
}

}  // namespace

cudaError_t launch_tc_tuned(const model::KernelConfig& config, const model::Problem& problem,
                            Operands<std::uint16_t> operands, cudaStream_t stream) {
    return kLaunchers[candidate_of(config)](config, problem, operands, stream);
}

TcKernelHandle tc_tuned_handle(const model::KernelConfig& config, const model::Problem& problem) {
    return kHandles[candidate_of(config)](problem);
}

}  // namespace ts::kernels
