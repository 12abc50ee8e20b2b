// Teaches: the best tile shape depends on the GPU and the size, so measure instead of guess.
// The kernel is 11's (11_pipelined.cuh), compiled once for each shape in
// model::kTunedCandidates: block tiles from 64×64 to 128×256, K steps of 8 and 16, 3 or 4
// stages, 128 to 256 threads, some asking for two blocks per SM (and so at most 128
// registers per thread). `tilescope-cli tune` runs every candidate that fits the device at a few sizes and
// writes the fastest per size to a tuning table (model/tuning_table.hpp); a launch of the
// tuned rung runs the candidate in config.variant, which the runner fills from that table.
// Changed from 11_pipelined.cu: nothing in the kernel; the shape became a choice.
// Small problems want small tiles (a 64×64 tile gives 4× the blocks of 128×128, so the GPU's
// SMs have work); large ones want large tiles (fewer loads per FMA). On an H100 the
// 128×256 tile with 8 warps of 64×64 wins from 2048³ on, within 4 % of cuBLAS.
#include <array>
#include <utility>

#include "kernels/11_pipelined.cuh"

namespace ts::kernels {

namespace {

template <int Candidate>
struct TunedShape {
    static constexpr model::LadderShape value = model::kTunedCandidates[Candidate];
};

template <int... Candidate>
constexpr std::array<FloatRungKernels, sizeof...(Candidate)> kernels_of(std::integer_sequence<int, Candidate...>) {
    return {pipelined_kernels<TunedShape<Candidate>>()...};
}
constexpr auto kKernels = kernels_of(std::make_integer_sequence<int, model::kTunedCandidateCount>());

// A variant the runner has not resolved (−1) runs candidate 0, as the model draws it.
int candidate_of(const model::KernelConfig& config) {
    return config.variant >= 0 && config.variant < model::kTunedCandidateCount ? config.variant : 0;
}

}  // namespace

const void* tuned_handle(const model::KernelConfig& config, const model::Problem& problem) {
    return float_rung_handle(kKernels[candidate_of(config)], problem);
}

cudaError_t launch_tuned(const model::KernelConfig& config, const model::Problem& problem, Operands<float> operands,
                         cudaStream_t stream) {
    return launch_float_rung(kKernels[candidate_of(config)], model::KernelKind::Tuned, config, problem, operands,
                             stream);
}

}  // namespace ts::kernels
