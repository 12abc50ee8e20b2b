#include "model/precision.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "model/half_values.hpp"
#include "model/input_values.hpp"

namespace ts::model {

std::string_view precision_name(Precision p) {
    switch (p) {
        case Precision::Fp32: return "FP32";
        case Precision::Tf32: return "TF32";
        case Precision::Fp16: return "FP16";
        case Precision::Bf16: return "BF16";
    }
    return "?";
}

int significand_bits(Precision p) {
    switch (p) {
        case Precision::Fp32: return 24;
        case Precision::Tf32: return 11;
        case Precision::Fp16: return 11;
        case Precision::Bf16: return 8;
    }
    return 0;
}

int element_bytes(Precision p) { return p == Precision::Fp16 || p == Precision::Bf16 ? 2 : 4; }

double round_to_precision(double x, Precision p) {
    switch (p) {
        case Precision::Fp32: return static_cast<double>(static_cast<float>(x));
        case Precision::Fp16: return half_to_double(round_to_half(x, kFp16Format), kFp16Format);
        case Precision::Bf16: return half_to_double(round_to_half(x, kBf16Format), kBf16Format);
        case Precision::Tf32: {
            // 11 significant bits: x = f·2^e with 0.5 ≤ |f| < 1, f kept to 2^-11 steps. Inputs lie in
            // [−1, 1), far inside FP32's exponent range, so no overflow or subnormal case arises here.
            if (x == 0.0 || !std::isfinite(x)) return x;
            int e = 0;
            const double f = std::frexp(x, &e);
            const double steps = std::ldexp(std::fabs(f), 11);
            const double rounded = round_half_even(steps);
            return std::copysign(std::ldexp(rounded, e - 11), x);
        }
    }
    return x;
}

double PrecisionError::digits() const { return normwise > 0.0 ? -std::log10(normwise) : 16.0; }

PrecisionError precision_error(Precision p, int m, int n, int k, std::uint64_t seed) {
    PrecisionError result;
    if (m <= 0 || n <= 0 || k <= 0) return result;
    const auto count = [](int rows, int cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); };
    // A row-major, B transposed (column j's K values together) so each cell reads two runs.
    std::vector<double> a(count(m, k)), bt(count(n, k));
    for (std::int64_t i = 0; i < std::int64_t{m} * k; ++i) a[static_cast<std::size_t>(i)] = input_real(seed, 0, i);
    for (int kk = 0; kk < k; ++kk)
        for (int j = 0; j < n; ++j)
            bt[count(j, k) + static_cast<std::size_t>(kk)] = input_real(seed, 1, std::int64_t{kk} * n + j);
    std::vector<float> a_typed(a.size()), bt_typed(bt.size());
    for (std::size_t i = 0; i < a.size(); ++i) a_typed[i] = static_cast<float>(round_to_precision(a[i], p));
    for (std::size_t i = 0; i < bt.size(); ++i) bt_typed[i] = static_cast<float>(round_to_precision(bt[i], p));

    double error_squares = 0.0, exact_squares = 0.0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            const double* ar = &a[count(i, k)];
            const double* br = &bt[count(j, k)];
            const float* at = &a_typed[count(i, k)];
            const float* bty = &bt_typed[count(j, k)];
            double exact = 0.0;
            float sum = 0.0f;
            for (int kk = 0; kk < k; ++kk) {
                exact += ar[kk] * br[kk];
                if (p == Precision::Fp32) {
                    sum = std::fma(at[kk], bty[kk], sum);
                } else {
                    // 11- or 8-bit significands multiply exactly into a float's 24 bits.
                    sum += at[kk] * bty[kk];
                }
            }
            double got = sum;
            if (p == Precision::Fp16 || p == Precision::Bf16) got = round_to_precision(got, p);
            const double difference = got - exact;
            error_squares += difference * difference;
            exact_squares += exact * exact;
            result.largest = std::max(result.largest, std::fabs(difference) / std::max(std::fabs(exact), 1.0));
        }
    result.normwise = exact_squares > 0.0 ? std::sqrt(error_squares / exact_squares) : 0.0;
    return result;
}

const PrecisionError& lesson_precision_error(Precision p) {
    // Computed once for all four types on first use (some 3·10⁷ operations; a function-local
    // static is initialised once even when several threads ask).
    static const std::array<PrecisionError, 4> errors = [] {
        std::array<PrecisionError, 4> all;
        for (Precision q : kPrecisions)
            all[static_cast<std::size_t>(q)] = precision_error(q, kPrecisionM, kPrecisionN, kPrecisionK, 1);
        return all;
    }();
    return errors[static_cast<std::size_t>(p)];
}

double fp8_measured_accumulator_term(std::int64_t k) {
    const double wgmmas = static_cast<double>((k + 31) / 32);
    return (static_cast<double>(k) + wgmmas) * std::ldexp(1.0, -kFp8AccumulatorFractionBits);
}

double fp8_accumulation_factor(std::int64_t k) {
    return (4.0 * static_cast<double>(k) + 2.0) * std::ldexp(1.0, -24) + fp8_measured_accumulator_term(k);
}

}  // namespace ts::model
