// cpu_reference.hpp — the answer a kernel's output is checked against, computed on the CPU
// in double precision, and the comparison itself.
//
// Floats and doubles: besides C the reference keeps, for every cell, Σ_k |A[r][k]·B[k][c]|.
// The rounding error of any dot product of length K in precision u is at most about
// K·u times this sum, in whatever order the kernel adds the terms, so the tolerance is
// 2·K·u·Σ|a·b|: it grows with K and with the size of the terms, and a wrong or missing
// term still shows. For doubles the factor 2 also covers the reference's own rounding.
//
// BF16 and FP16 (the tensor-core rungs): the inputs are 16-bit, the products exact in FP32, the
// sums FP32, and C is rounded to 16 bits at the end. Tensor cores may align and add the terms of
// one instruction with truncation rather than rounding (up to 2u a step instead of u), so the
// accumulation is allowed 4·K·u₃₂·Σ|a·b|, and the last rounding u₁₆·|c| besides (u₁₆ = 2^-8 for
// BF16's 8-bit significand, 2^-11 for FP16's 11-bit one), plus half the smallest step between
// subnormals (2^-134, 2^-25): below the normal range the steps stop shrinking with |c|, and a
// correctly rounded FP16 4.27·10^-5 may lie 2^-25 from the exact value where u₁₆·|c| is 2.1·10^-8.
// The reference takes the 16-bit inputs as they are, exactly, in double.
//
// FP8 (e4m3 in, BF16 out): the reference multiplies the dequantised inputs (each code times its
// scale, exact in double), and the bound is BF16's with two roundings more for the scales
// (model::fp8_accumulation_factor, where a measured accumulator term also adds in).
//
// The error against FP64 (error_vs_exact): C against the exact product of the FP32 values every
// floating type's inputs start as (model/input_values.hpp), before any rounding to 16 or 8 bits. It
// is not a pass/fail test but a price: what a type's rounding of the inputs, its accumulation and
// its store cost together.
//
// int32: the check is exact. Inputs are drawn with |a|, |b| <= int32_input_bound(K), so
// K·bound² <= 2^30: no partial sum can overflow int32 in the kernel, and every partial
// sum is an integer below 2^53, which the double accumulator holds exactly.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/problem.hpp"

namespace ts::gpu {

struct Reference {
    std::vector<double> c;        // batch×M×N, row-major, batches one after another
    std::vector<double> abs_sum;  // Σ_k |a·b| per cell, same layout; empty for int32 (exact check)
};

// C = A·B for every batch of `problem` (A is batch×M×K, B batch×K×N, row-major),
// accumulated in double. Uses `threads` CPU threads; 0 means all of them.
Reference reference_matmul(std::span<const float> a, std::span<const float> b, const model::Problem& problem,
                           int threads = 0);
Reference reference_matmul(std::span<const double> a, std::span<const double> b, const model::Problem& problem,
                           int threads = 0);
Reference reference_matmul(std::span<const std::int32_t> a, std::span<const std::int32_t> b,
                           const model::Problem& problem, int threads = 0);

struct Comparison {
    double max_rel_error = 0.0;    // max |got − ref| / max(|ref|, 1) over the finite cells
    std::int64_t mismatches = 0;   // cells beyond their tolerance; NaN and ±inf always count
    std::int64_t non_finite = 0;   // cells that are NaN or ±inf
    std::int64_t poisoned = 0;     // cells still holding the poison: NaN, or kInt32Poison for int32
    std::int64_t first_bad = -1;   // index of the first mismatch, -1 when none
    bool passed() const { return mismatches == 0; }
};

// How far rounding C to its own type, once at the store, may move a cell: `relative` · |c| in the
// normal range, and at most `absolute` (half the smallest subnormal step) below it.
struct OutputRounding {
    double relative = 0.0;
    double absolute = 0.0;
};

// Cell i passes when |got[i] − ref.c[i]| <= tolerance_factor · ref.abs_sum[i] + rounding.relative ·
// |ref.c[i]| + rounding.absolute; when the reference has no abs_sum (int32) only an exact match
// passes.
Comparison compare(std::span<const float> got, const Reference& ref, double tolerance_factor);
Comparison compare(std::span<const double> got, const Reference& ref, double tolerance_factor,
                   OutputRounding rounding = {});
Comparison compare(std::span<const std::int32_t> got, const Reference& ref, double tolerance_factor);

// C against the exact product in FP64 of the inputs before any rounding to a narrower type.
struct ErrorVsExact {
    double max = 0.0;  // the largest |c − exact| / max(|exact|, 1), as Comparison::max_rel_error
    double rms = 0.0;  // ‖C − exact‖ / ‖exact‖ (Frobenius norms); 0 when exact is all zero
};
// Both over the finite cells of `got` (a NaN or an infinity fails the check already). Throws
// std::invalid_argument when the two differ in size.
ErrorVsExact error_vs_exact(std::span<const double> got, std::span<const double> exact);
ErrorVsExact error_vs_exact(std::span<const float> got, std::span<const double> exact);

// 2·K·u with u the unit roundoff of the type (2^-24 for float, 2^-53 for double); 4·K·2^-24 for
// BF16 and FP16 (FP32 accumulation); model::fp8_accumulation_factor for FP8; 0 for int32, which
// must match exactly.
double tolerance_factor(model::Dtype dtype, std::int64_t k);
// Where C is narrower than the accumulator, the rounding of its store: the unit roundoff of C's
// type (2^-8 for BF16 and FP8's BF16 C, 2^-11 for FP16) and half its smallest subnormal step (2^-134, 2^-25); else
// none (C is the accumulator).
OutputRounding output_rounding(model::Dtype dtype);
// The rule above for `dtype` in words, for check summaries: "2·K·2^-24·Σ|a·b|",
// "4·K·2^-24·Σ|a·b| + 2^-8·|c| + 2^-134", ..., "exact" for int32.
std::string tolerance_rule(model::Dtype dtype);

// The largest |a| and |b| for int32 inputs when the dot products have K terms: the largest
// bound with K·bound² <= 2^30 (at least 1). Every correct cell then lies within ±2^30, so
// the poison the runner fills C with (every byte 0x80, −2139062144) never equals one.
std::int32_t int32_input_bound(std::int64_t k);

// The int32 poison: what an unwritten int32 cell of C holds (memset with 0x80).
inline constexpr std::int32_t kInt32Poison = static_cast<std::int32_t>(0x80808080u);
inline constexpr unsigned char kInt32PoisonByte = 0x80;

}  // namespace ts::gpu
