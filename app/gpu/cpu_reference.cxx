#include "cpu_reference.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "model/precision.hpp"

namespace ts::gpu {

namespace {

// Block sizes chosen so one block of B (kKBlock × kNBlock elements, 128 to 256 KiB) stays
// in L2 and the rows being accumulated (kRowBlock × kNBlock doubles, twice) stay in L1
// while they are reused. Without blocking, every row of C would stream all of B from memory.
constexpr std::int64_t kRowBlock = 8;
constexpr std::int64_t kKBlock = 128;
constexpr std::int64_t kNBlock = 256;

// Rows [r0, r1) of one batch's C, in i-k-j order so the innermost loop walks B and C along
// a row, contiguous in memory. `abs_sum` is null when no tolerance is needed (int32).
template <typename T>
void multiply_rows(const T* a, const T* b, double* c, double* abs_sum, std::int64_t r0, std::int64_t r1,
                   std::int64_t n, std::int64_t k) {
    std::fill(c + r0 * n, c + r1 * n, 0.0);
    if (abs_sum) std::fill(abs_sum + r0 * n, abs_sum + r1 * n, 0.0);
    for (std::int64_t k0 = 0; k0 < k; k0 += kKBlock) {
        const std::int64_t k1 = std::min(k, k0 + kKBlock);
        for (std::int64_t j0 = 0; j0 < n; j0 += kNBlock) {
            const std::int64_t j1 = std::min(n, j0 + kNBlock);
            for (std::int64_t r = r0; r < r1; ++r) {
                double* c_row = c + r * n;
                for (std::int64_t i = k0; i < k1; ++i) {
                    const double av = static_cast<double>(a[r * k + i]);
                    const T* b_row = b + i * n;
                    for (std::int64_t j = j0; j < j1; ++j) c_row[j] += av * static_cast<double>(b_row[j]);
                }
                if (!abs_sum) continue;
                double* abs_row = abs_sum + r * n;
                for (std::int64_t i = k0; i < k1; ++i) {
                    const double abs_av = std::fabs(static_cast<double>(a[r * k + i]));
                    const T* b_row = b + i * n;
                    for (std::int64_t j = j0; j < j1; ++j)
                        abs_row[j] += abs_av * std::fabs(static_cast<double>(b_row[j]));
                }
            }
        }
    }
}

template <typename T>
Reference reference_matmul_of(std::span<const T> a, std::span<const T> b, const model::Problem& p, int threads) {
    if (static_cast<std::int64_t>(a.size()) != p.a_elements() * p.batch ||
        static_cast<std::int64_t>(b.size()) != p.b_elements() * p.batch)
        throw std::invalid_argument("reference_matmul: A or B does not match the problem's sizes");

    constexpr bool exact = std::is_integral_v<T>;
    Reference ref;
    ref.c.resize(static_cast<std::size_t>(p.c_elements() * p.batch));
    if (!exact) ref.abs_sum.resize(ref.c.size());

    // Work items are (batch, block of rows); threads take the next one from a counter, so
    // uneven items (the last block of rows) do not leave a thread idle.
    const std::int64_t row_blocks = (p.m + kRowBlock - 1) / kRowBlock;
    const std::int64_t items = row_blocks * p.batch;
    std::atomic<std::int64_t> next{0};
    auto worker = [&] {
        for (std::int64_t item = next++; item < items; item = next++) {
            const std::int64_t batch = item / row_blocks;
            const std::int64_t r0 = (item % row_blocks) * kRowBlock;
            const std::int64_t r1 = std::min(p.m, r0 + kRowBlock);
            double* abs_sum = exact ? nullptr : ref.abs_sum.data() + batch * p.c_elements();
            multiply_rows(a.data() + batch * p.a_elements(), b.data() + batch * p.b_elements(),
                          ref.c.data() + batch * p.c_elements(), abs_sum, r0, r1, p.n, p.k);
        }
    };

    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    threads = static_cast<int>(std::min<std::int64_t>(threads, items));
    {
        std::vector<std::jthread> pool;  // joins its threads at the closing brace
        for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
        worker();
    }
    return ref;
}

template <typename T>
Comparison compare_of(std::span<const T> got, const Reference& ref, double tolerance_factor,
                      OutputRounding rounding = {}) {
    const bool exact = ref.abs_sum.empty();
    if (got.size() != ref.c.size() || (!exact && ref.abs_sum.size() != ref.c.size()))
        throw std::invalid_argument("compare: the result and the reference differ in size");
    Comparison result;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double value = static_cast<double>(got[i]);
        const double diff = std::fabs(value - ref.c[i]);
        const bool finite = std::isfinite(value);
        if constexpr (std::is_integral_v<T>) result.poisoned += got[i] == kInt32Poison;
        else result.poisoned += std::isnan(value);
        if (!finite) ++result.non_finite;
        else result.max_rel_error = std::max(result.max_rel_error, diff / std::max(std::fabs(ref.c[i]), 1.0));
        // Written so that NaN fails: every comparison with NaN is false.
        const double allowed =
            exact ? 0.0
                  : tolerance_factor * ref.abs_sum[i] + rounding.relative * std::fabs(ref.c[i]) + rounding.absolute;
        const bool within = finite && diff <= allowed;
        if (!within) {
            if (result.first_bad < 0) result.first_bad = static_cast<std::int64_t>(i);
            ++result.mismatches;
        }
    }
    return result;
}

template <typename T>
ErrorVsExact error_vs_exact_of(std::span<const T> got, std::span<const double> exact) {
    if (got.size() != exact.size()) throw std::invalid_argument("error_vs_exact: the result and the product differ in size");
    double error_squares = 0.0, exact_squares = 0.0;
    ErrorVsExact error;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double value = static_cast<double>(got[i]);
        if (!std::isfinite(value)) continue;
        const double difference = value - exact[i];
        error_squares += difference * difference;
        exact_squares += exact[i] * exact[i];
        error.max = std::max(error.max, std::fabs(difference) / std::max(std::fabs(exact[i]), 1.0));
    }
    error.rms = exact_squares > 0.0 ? std::sqrt(error_squares / exact_squares) : 0.0;
    return error;
}

}  // namespace

ErrorVsExact error_vs_exact(std::span<const double> got, std::span<const double> exact) {
    return error_vs_exact_of(got, exact);
}
ErrorVsExact error_vs_exact(std::span<const float> got, std::span<const double> exact) {
    return error_vs_exact_of(got, exact);
}

Reference reference_matmul(std::span<const float> a, std::span<const float> b, const model::Problem& p,
                           int threads) {
    return reference_matmul_of(a, b, p, threads);
}
Reference reference_matmul(std::span<const double> a, std::span<const double> b, const model::Problem& p,
                           int threads) {
    return reference_matmul_of(a, b, p, threads);
}
Reference reference_matmul(std::span<const std::int32_t> a, std::span<const std::int32_t> b,
                           const model::Problem& p, int threads) {
    return reference_matmul_of(a, b, p, threads);
}

Comparison compare(std::span<const float> got, const Reference& ref, double factor) {
    return compare_of(got, ref, factor);
}
Comparison compare(std::span<const double> got, const Reference& ref, double factor, OutputRounding rounding) {
    return compare_of(got, ref, factor, rounding);
}
Comparison compare(std::span<const std::int32_t> got, const Reference& ref, double factor) {
    return compare_of(got, ref, factor);
}

double tolerance_factor(model::Dtype dtype, std::int64_t k) {
    // Unit roundoff: half the distance from 1 to the next representable number.
    switch (dtype) {
        case model::Dtype::Int32: return 0.0;
        case model::Dtype::Float32: return 2.0 * static_cast<double>(k) * std::numeric_limits<float>::epsilon() / 2.0;
        case model::Dtype::Float64: return 2.0 * static_cast<double>(k) * std::numeric_limits<double>::epsilon() / 2.0;
        case model::Dtype::BFloat16:
        case model::Dtype::Float16: return 4.0 * static_cast<double>(k) * std::numeric_limits<float>::epsilon() / 2.0;
        case model::Dtype::Fp8E4M3: return model::fp8_accumulation_factor(k);
    }
    return 0.0;
}

std::string tolerance_rule(model::Dtype dtype) {
    switch (dtype) {
        case model::Dtype::Int32: return "exact";
        case model::Dtype::Float32: return "2·K·2^-24·Σ|a·b|";
        case model::Dtype::Float64: return "2·K·2^-53·Σ|a·b|";
        case model::Dtype::BFloat16: return "4·K·2^-24·Σ|a·b| + 2^-8·|c| + 2^-134";
        case model::Dtype::Float16: return "4·K·2^-24·Σ|a·b| + 2^-11·|c| + 2^-25";
        case model::Dtype::Fp8E4M3:
            // The accumulator's term, measured on an H100 (model/precision.hpp).
            return "((4·K + 2)·2^-24 + (K + ⌈K/32⌉)·2^-13)·Σ|a·b| + 2^-8·|c| + 2^-134";
    }
    return "?";
}

OutputRounding output_rounding(model::Dtype dtype) {
    // BF16 keeps FP32's exponent range: subnormals from 2^-133, in steps of 2^-133. FP16's start
    // at 2^-24, in steps of 2^-24.
    switch (dtype) {
        case model::Dtype::BFloat16:
        case model::Dtype::Fp8E4M3: return {std::ldexp(1.0, -8), std::ldexp(1.0, -134)};  // FP8's C is BF16
        case model::Dtype::Float16: return {std::ldexp(1.0, -11), std::ldexp(1.0, -25)};
        default: return {};
    }
}

std::int32_t int32_input_bound(std::int64_t k) {
    const double limit = std::ldexp(1.0, 30) / static_cast<double>(std::max<std::int64_t>(k, 1));
    auto bound = static_cast<std::int64_t>(std::sqrt(limit));
    // sqrt in floating point may land one off either way; settle it in integers.
    while (bound > 1 && bound * bound * k > (std::int64_t{1} << 30)) --bound;
    while ((bound + 1) * (bound + 1) * k <= (std::int64_t{1} << 30)) ++bound;
    return static_cast<std::int32_t>(std::max<std::int64_t>(bound, 1));
}

}  // namespace ts::gpu
