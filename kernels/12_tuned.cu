// Teaches: the best tile shape depends on the GPU and the size, so measure instead of guess.
// The kernel is 11's (11_pipelined.cuh), compiled once for each shape in
// model::kTunedCandidates: block tiles from 64×64 to 128×256, K steps of 8 and 16, 3 or 4
// stages, 128 to 256 threads, some asking for two blocks per SM (and so at most 128
// registers per thread). `tilescope-cli tune` runs every candidate that fits the device at a few sizes and
// writes the fastest per size to a tuning table (model/tuning_table.hpp); a launch of the
// tuned rung runs the candidate in config.variant, which the runner fills from that table.
// Changed from 11_pipelined.cu: nothing in the kernel; the shape became a choice. And where N is
// not a multiple of 4 the launcher pads B and C to make their rows 16-byte aligned (launch_tuned).
// Why: small problems want small tiles (a 64×64 tile gives 4× the blocks of 128×128, so the
// GPU's SMs have work); large ones want large tiles (fewer loads per FMA). Which shape wins
// where: the shipped tuning table (model/tuning_table.cxx) and docs/notes/12_tuned.md.
#include <array>
#include <utility>

#include "kernels/11_pipelined.cuh"
#include "kernels/common/row_copy.cuh"

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

// The problem the kernel runs: N rounded up to a multiple of 4 (launch_tuned pads B and C to it).
model::Problem padded_in_n(const model::Problem& problem) {
    model::Problem padded = problem;
    padded.n = round_up(problem.n, 4);
    return padded;
}

// Launches candidate `kernels` on buffers whose rows of B and C start on 16 bytes.
cudaError_t launch_candidate(const FloatRungKernels& kernels, const model::KernelConfig& config,
                             const model::Problem& problem, Operands<float> operands, cudaStream_t stream) {
    return launch_float_rung(kernels, model::KernelKind::Tuned, config, problem, operands, stream,
                             pipelined_rows_aligned);
}

}  // namespace

const void* tuned_handle(const model::KernelConfig& config, const model::Problem& problem) {
    return float_rung_handle(kKernels[candidate_of(config)], padded_in_n(problem), pipelined_rows_aligned);
}

cudaError_t launch_tuned(const model::KernelConfig& config, const model::Problem& problem, Operands<float> operands,
                         cudaStream_t stream) {
    const FloatRungKernels& kernels = kKernels[candidate_of(config)];
    if (problem.dtype != model::Dtype::Float32 || problem.n % 4 == 0)
        return launch_candidate(kernels, config, problem, operands, stream);
    // Rows of B and C off 16 bytes (N not a multiple of 4): B copied into a scratch buffer with
    // rows of N rounded up to 4 (zeros after N), the kernel run there into a padded C, whose
    // first N columns are copied back. 4-byte copies of B and stores of C cost 4099×4095×4097
    // an eighth of its speed; the copies here, a few percent. A's rows need no padding: A is
    // copied 4 bytes at a time anyway (LadderShape::a_vec), and a K that is no multiple of 4 or
    // of BK only makes the last K step check its copies (11_pipelined.cuh).
    const model::Problem padded = padded_in_n(problem);
    const std::int64_t b_elements = problem.k * padded.n * problem.batch,
                       c_elements = problem.m * padded.n * problem.batch;
    void* scratch = nullptr;
    if (const cudaError_t e = cudaMallocAsync(&scratch, (b_elements + c_elements) * sizeof(float), stream);
        e != cudaSuccess)
        return e;
    auto* b = static_cast<float*>(scratch);
    float* c = b + b_elements;
    cudaError_t e = copy_rows(b, padded.n, operands.b, problem.n, problem.k * problem.batch, problem.n, padded.n, stream);
    if (e == cudaSuccess)
        e = launch_candidate(kernels, config, padded, {operands.a, b, c}, stream);
    if (e == cudaSuccess)
        e = copy_rows(operands.c, problem.n, c, padded.n, problem.m * problem.batch, problem.n, problem.n, stream);
    const cudaError_t freed = cudaFreeAsync(scratch, stream);
    return e != cudaSuccess ? e : freed;
}

}  // namespace ts::kernels
