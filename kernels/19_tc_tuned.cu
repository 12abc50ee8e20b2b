// Teaches: the best tile shape depends on the GPU and the size here too, so measure instead of
// guess. The kernel is 18's (18_persistent.cuh), compiled once for each shape in
// model::kTcTunedCandidates: 18's 128×256 tiles in clusters of two, 128×128 tiles with five
// stages, each without the cluster, 18's with four stages, C staged a 64-column slab at a time
// (model::WgmmaShape::c_one_slab), and that one on every SM with its last round shared out along K
// (stream-K: model::WgmmaShape::stream_k, model/tc_stream_k.hpp). `tilescope-cli tune --kernel tc-tuned` runs every
// candidate at a few sizes and writes the fastest per size to the tuning table
// (model/tuning_table.hpp); a launch of this rung runs the candidate in config.variant, which the
// runner fills from that table.
// Changed from 18_persistent.cu: nothing in the kernel but stream-K's parts (hand_over_sums,
// add_handed_over, compiled for a stream_k shape alone); the shape became a choice.
// Why these candidates: a persistent kernel ends when its last round of tiles does. At 2048³ the
// 128×256 tiles are 128, one per CTA, so each CTA fills its ring, computes, and writes C with
// nothing behind it to overlap; 128×128 tiles give each CTA two, the second's loads under the
// first's epilogue, for twice the A traffic per FLOP. The cluster halves B's traffic but ties
// each CTA's ring to its peer's. A fourth stage needs the 48 KiB that staging all of C takes
// beyond one slab: the kernel cuBLAS runs at 2048³ and 4096³ on an H100 has four (ncu names it
// nvjet_sm90_tst_256x128_64x4_1x2, 213 KiB). On an H100 it took 2048³ from 89 to 93 % of cuBLAS
// and 8192³ from 100.5 to 102 %, and lost 3 points at 4096³: the tuner keeps each where it wins.
// Tried and left out (2026-11-27, H100): candidate 4 with each slab stored in two pieces of 64 rows,
// so that a piece waits only for the store of the piece before last and not for the whole slab's
// (ncu had put 18's tiles 700 cycles a tile behind cuBLAS's at 4096³, the epilogue the first
// suspect). In one lease, alternating with 4 in three processes each at 4096³: 97.1–98.8 % of
// cuBLAS against 4's 98.4–98.9 %; 101.8 % both at 8192³, 93.8 against 93.6 % at 2048³. The slab's
// wait is not where the last points go. Nor the order or the tail (2026-11-27, H200, candidate 4,
// two passes at 4096³): groups of 2, 4, 16 or 32 cluster rows in place of 8 gave 96.1–97.5 % of
// cuBLAS against 8's 97.3 and 98.1 %, and all 66 clusters in place of the balanced 64 (the last
// round 58 tiles for 66 clusters instead of 64 for 64) 96.4 and 97.0 %; at 8192³ groups of 4 and
// 16 100.9 % against 8's 101.8 %.
// What ncu shows at 4096³ (2026-11-27, H200, clocks locked by ncu: candidate 4 at 221.4 µs, cuBLAS's
// nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT at 218.9 µs, 98.9 %; 97.9–98.4 % unlocked). Both keep
// the tensor pipe about as busy over all 132 SMs (89.4 % of elapsed cycles against 90.4 %), and
// cuBLAS is cooperative too (both consumer warpgroups on one tile, "coopA"), so a ping-pong epilogue
// is not what it has. It launches 132 CTAs (4 rounds, the last 116 tiles wide) where 4 launches 128
// (4 whole rounds on 128 SMs, 4 idle); per SM it keeps the pipe busier while it works. And it issues
// 16.9 M instructions to 4's 30.6 M (IPC 0.48 against 0.86, ALU the busiest pipe by count here):
// 4's K loop spends instructions on index and descriptor arithmetic that cuBLAS does not. The lean
// loop 18 now has (descriptors advanced by constants, the ring's place carried, warp-uniform
// descriptors) took 4 to 17.9 M instructions, but not its time: on an H100 under ncu (clocks
// locked, 5 launches per pass, 2026-11-27) 4096³ ran 209.5–214.3 µs against the old loop's
// 210.0–214.9, cuBLAS 208.3–211.6 in the same passes: 4 sits at 98–100 % of cuBLAS there.
// Stream-K (candidate 5) was the other idea: 66 clusters instead of 64, and the last round's 58
// tiles shared out along K so that every SM works 3.88 tile-times instead of 4 (3 % less). At 4096³
// that gain went to the hand-over: 58 split tiles, each passing 128 KiB of FP32 sums per SM through
// L2 and back, 214–221 µs against 4's 208–217. Timed unit by unit with %globaltimer (H100, a build
// not committed): handing a later part's sums over took 2.8–7.1 µs (median 3.3), the first part's
// adding them 1.7–6.3 µs (median 3.9, of which 0.2–1.0 waiting for the flag), and the 66 clusters
// started up to 4.3 µs apart where 4's 64 start within 1.3 µs; the shares save about 6 µs. Where
// the last round is a smaller share of the run it pays: 8192³ 1.47–1.53 ms (medians of three passes
// 1.47–1.52) against 4's 1.51–1.55 (1.52–1.54), cuBLAS 1.54–1.58: about 104 %; 6144³ 2 % and
// 4099×4095×4097 6 % faster than 4 (model/tuning_table.cxx has the table it earned).
// Where 4's cycles go at 4096³ (2026-11-27, H100, ncu with clocks locked; cycles vary by 0.2 % from
// launch to launch where time varies by 1 %). Over K = 1,024 … 16,384 at M = N = 4096 its cycles
// grow by 1,030 per K step and tile round, cuBLAS's by 1,028, against the 1,024 the tensor cores
// need for a 128×256×64 step: both K loops run within 0.6 % of the tensor cores' peak. What is left
// is fixed, 19.6 k cycles a launch against cuBLAS's 17.3 k (the first stages from DRAM, four
// epilogues, the end): over half of the 4 k between them at 4096³. Neither wgmma_wait<1>
// (+0.2 %), nor copying the first slab of C out by the warpgroup's own stores so that no slab waits
// for a TMA store to read the staging area (+0.4 %; both slabs, +1.2 %) made that smaller. ncu
// counts the same TMA traffic from the SM side for 4, cuBLAS and fast.cu's kernel 12 (50.3 M
// sectors, two thirds multicast); cuBLAS's L2 sees 13 % fewer read requests and a third less
// traffic between its two halves. That is not where the cycles go either: groups of 4 or 16 cluster
// rows, or groups of 8 columns walked across, moved 4's L2 reads from 30.6 to 33.5 M and its
// cross-half traffic by a sixth, and its cycles by no more than 0.2 % (three passes each). Asking
// L2 for the boxes of the K step 4, 8 or 16 ahead of each copy (cp.async.bulk.prefetch.tensor)
// made 4096³ 3.8 to 4.6 times slower.
// What did: clock64 around each part of 4's tiles (a build not committed, H100) showed where the
// fixed cycles were. The tensor cores waited 6.2 k cycles from the start to the first K step and
// 2.9 k between one tile's last K step and the next's first. Of those 2.9 k: 0.7 k of divisions
// for the tile's coordinates, 0.5 k taking the next tile, 0.7 k for the first slab's TMA store to
// read the staging area, and 1 k writing the two slabs. 18_persistent.cuh now meets the cluster
// relaxed at the start and not at the end, works the coordinates out under the first wgmmas, and
// puts the second slab in a kept stage. That leaves 4.6 k and 1.7 k, and 4096³ at 279.7–280.3 k
// cycles against cuBLAS's 281.0–281.3 k (100.3–100.6 %, six passes in two runs). 2048³ went from
// 46.0 to 44.2 k, and candidate 0 at 4096³ from 289 to 280 k.
// Tried and left out (2026-11-28, H200): each cluster numbered by the half of L2 its SMs sit beside
// (found by timing cold loads from every SM), from an atomic counter per half, so that each half
// reads its own columns of B. Traffic between the halves fell from 6.7 to 4.9 M sectors at 4096³,
// and 4 ran 0.3–0.8 % slower: the counter's round trip delays the start. Without L2 promotion
// (hopper_launch.cu) that traffic is 4.7 M anyway.
// Nor cuBLAS's order of the work (2026-11-28, H200; its machine code from ncu's source page): its
// wgmmas one 64-slice at a time rather than alternating the slices, or the previous K step's group
// kept in flight while this one's run (wait<1>). Neither moved 4's cycles or its time under the cap
// at 4096³ (three alternating rounds of 20,000 launches each).
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
