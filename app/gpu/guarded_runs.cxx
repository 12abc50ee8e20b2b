#include "guarded_runs.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "cublas_library.hpp"
#include "device_operands.hpp"
#include "kernels/common/fill_inputs.hpp"
#include "model/format.hpp"

namespace ts::gpu {

namespace {

float poison_float() { return std::bit_cast<float>(model::kGuardPoisonBits); }
std::uint32_t bits_of(float value) { return std::bit_cast<std::uint32_t>(value); }

// The real check's rule for one cell (cpu_reference.hpp's compare): within 2·K·u·Σ|a·b| of
// the reference, and finite.
bool cell_right(float got, std::size_t i, const Reference& ref, double factor) {
    const double value = static_cast<double>(got);
    return std::isfinite(value) && std::fabs(value - ref.c[i]) <= factor * ref.abs_sum[i];
}

}  // namespace

GuardedMatrix::GuardedMatrix(std::int64_t elements, std::int64_t guard)
    : m_buffer(guard + elements + guard), m_elements(elements), m_guard(guard), m_poison(guard, poison_float()) {}

void GuardedMatrix::poison_guards(cudaStream_t stream) const {
    if (m_guard == 0) return;
    const std::size_t bytes = m_poison.size() * sizeof(float);
    TS_CUDA_CHECK(cudaMemcpyAsync(m_buffer.get(), m_poison.data(), bytes, cudaMemcpyHostToDevice, stream));
    TS_CUDA_CHECK(cudaMemcpyAsync(matrix() + m_elements, m_poison.data(), bytes, cudaMemcpyHostToDevice, stream));
}

void GuardedMatrix::mark_unwritten(cudaStream_t stream) const {
    static_assert(kUnwrittenBits == 0xFFFFFFFFu, "memset fills every byte with 0xFF");
    TS_CUDA_CHECK(cudaMemsetAsync(matrix(), 0xFF, static_cast<std::size_t>(m_elements) * sizeof(float), stream));
}

std::vector<float> GuardedMatrix::copy_back(cudaStream_t stream) const {
    std::vector<float> host(static_cast<std::size_t>(m_buffer.size()));
    TS_CUDA_CHECK(cudaMemcpyAsync(host.data(), m_buffer.get(), m_buffer.bytes(), cudaMemcpyDeviceToHost, stream));
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host;
}

std::span<const float> GuardedMatrix::matrix_of(const std::vector<float>& whole) const {
    return std::span<const float>(whole).subspan(static_cast<std::size_t>(m_guard), static_cast<std::size_t>(m_elements));
}

std::int64_t GuardedMatrix::count_stray_writes(const std::vector<float>& whole, cudaStream_t stream) const {
    std::int64_t changed = 0;
    const auto count = [&](std::size_t begin) {
        for (std::size_t i = begin; i < begin + static_cast<std::size_t>(m_guard); ++i)
            changed += bits_of(whole[i]) != model::kGuardPoisonBits;
    };
    count(0);
    count(static_cast<std::size_t>(m_guard + m_elements));
    if (changed > 0) poison_guards(stream);
    return changed;
}

Reference reference_for(const std::vector<float>& a, const std::vector<float>& b, const model::Problem& p,
                        cudaStream_t stream) {
    if (p.m * p.n * p.k > kCpuReferenceLimit && !cublas_unavailable(model::Dtype::Float32))
        return cublas_reference(a, b, p, stream);
    return reference_matmul(std::span<const float>(a), std::span<const float>(b), p);
}

GuardedOperands::GuardedOperands(const model::Problem& p, std::int64_t guard, std::uint64_t seed, cudaStream_t stream)
    : a(p.a_elements(), guard), b(p.b_elements(), guard), c(p.c_elements(), guard) {
    for (const GuardedMatrix* m : {&a, &b, &c}) m->poison_guards(stream);
    const std::int32_t bound = int32_input_bound(p.k);  // unused for float; fill_inputs takes it
    TS_CUDA_CHECK(kernels::fill_inputs(a.matrix(), a.elements(), seed, 0, bound, stream));
    TS_CUDA_CHECK(kernels::fill_inputs(b.matrix(), b.elements(), seed, 1, bound, stream));
    reference = reference_for(copy_to_host(a.matrix(), a.elements(), stream),
                              copy_to_host(b.matrix(), b.elements(), stream), p, stream);
}

Tally::Tally(const model::Problem& p, const Reference& ref)
    : m_problem(p), m_ref(ref), m_factor(tolerance_factor(model::Dtype::Float32, p.k)),
      m_wrong(static_cast<std::size_t>(p.c_elements())), m_ever_wrong(m_wrong.size()), m_ever_nan(m_wrong.size()),
      m_ever_unwritten(m_wrong.size()) {}

void Tally::add(std::span<const float> c, model::ExperimentRun& run) {
    std::int64_t wrong_cells = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
        const float got = c[i];
        // Every finite cell counts, right ones too: a run with none wrong still says how
        // close it came. NaN (and ±inf) cells are counted apart.
        if (std::isfinite(got)) run.max_error = std::max(run.max_error, relative_error(got, i));
        const bool right = cell_right(got, i, m_ref, m_factor);
        m_wrong[i] = right ? 0 : 1;
        if (right) continue;
        ++wrong_cells;
        m_ever_wrong[i] = 1;
        if (bits_of(got) == kUnwrittenBits) m_ever_unwritten[i] = 1;
        else if (std::isnan(got)) m_ever_nan[i] = 1;
    }
    model::add_run(run.map, m_problem.m, m_problem.n, m_wrong);
    ++run.runs;
    run.wrong_runs += wrong_cells > 0;
    run.wrong_cells_total += wrong_cells;
    run.wrong_cells_worst = std::max(run.wrong_cells_worst, wrong_cells);
}

void Tally::finish(model::ExperimentRun& run) const {
    const auto ones = [](const std::vector<std::uint8_t>& flags) {
        return static_cast<std::int64_t>(std::count(flags.begin(), flags.end(), std::uint8_t{1}));
    };
    run.cells_ever_wrong = ones(m_ever_wrong);
    run.nan_cells = ones(m_ever_nan);
    if (const std::int64_t unwritten = ones(m_ever_unwritten); unwritten > 0)
        run.note = model::format_text("{} cells still held what C was filled with before the launch in some run: no "
                                      "thread stored them.",
                                      unwritten);
}

double Tally::relative_error(float got, std::size_t i) const {
    return std::fabs(static_cast<double>(got) - m_ref.c[i]) / std::max(std::fabs(m_ref.c[i]), 1.0);
}

}  // namespace ts::gpu
