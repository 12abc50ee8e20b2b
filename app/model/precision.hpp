// precision.hpp — what each number type costs in accuracy, worked out on the CPU.
//
// The same real matrices A and B (input_values.hpp's values, uniform in [−1, 1), as every
// measurement's inputs are made) multiplied once per type the way the GPU multiplies in it:
//   FP32: inputs rounded to float, one fused multiply-add per k (the FP32 ladder, cuBLAS SGEMM);
//   TF32: inputs rounded to 11 significant bits (FP32's exponent, 10 fraction bits), products
//         exact, sums in FP32 (cuBLAS's tensor-core mode for FP32 matrices);
//   FP16, BF16: inputs rounded to 16 bits, products exact, sums in FP32, C rounded to 16 bits
//         (the tensor-core ladder).
// Each is compared with the exact product of the unrounded values (FP64, whose own error is some
// 10⁻¹⁵ here). So the error counts the inputs' rounding too, which `check` leaves out: it compares
// a kernel with FP64 on the inputs the kernel actually had, to test the kernel, not the type.
//
// Tensor cores may add the products of one instruction in another order, or truncate where this
// rounds: the figures are the types' own, within a small factor of any one GPU's.
#pragma once

#include <cstdint>
#include <string_view>

namespace ts::model {

enum class Precision { Fp32, Tf32, Fp16, Bf16 };
inline constexpr Precision kPrecisions[] = {Precision::Fp32, Precision::Tf32, Precision::Fp16, Precision::Bf16};

// "FP32", "TF32", "FP16", "BF16".
std::string_view precision_name(Precision p);
// Significant bits of the type's inputs (24, 11, 11, 8) and bytes an element of A or B takes
// in memory (4, 4, 2, 2: TF32 is FP32 in memory, rounded as the tensor cores read it).
int significand_bits(Precision p);
int element_bytes(Precision p);

// x rounded to the type's inputs (to nearest, ties to even; BF16 and FP16 with their exponent
// ranges, TF32 and FP32 with FP32's).
double round_to_precision(double x, Precision p);

struct PrecisionError {
    // ‖C − C_exact‖ / ‖C_exact‖ over every cell (Frobenius norms): the error of C as a whole.
    double normwise = 0.0;
    // The largest |c − c_exact| / max(|c_exact|, 1) of any cell: `check`'s measure.
    double largest = 0.0;
    // Correct decimal digits of C as a whole: −log10(normwise).
    double digits() const;
};

// C = A·B (M×K by K×N, inputs of seed `seed`) in type `p` against the exact product.
PrecisionError precision_error(Precision p, int m, int n, int k, std::uint64_t seed);

// The lessons' case, computed once and kept: 64×64 with K = 1024 (long sums, as in the ladder's
// large sizes; 4,096 cells give each type's error to two digits), seed 1. Some 10 ms a type,
// once, on the thread that first asks.
inline constexpr int kPrecisionM = 64, kPrecisionN = 64, kPrecisionK = 1024;
const PrecisionError& lesson_precision_error(Precision p);

// ---- FP8 (e4m3 inputs, FP32 accumulation, BF16 out): the check's allowance for the sums ------
// The check compares C with FP64 on the dequantised inputs (each e4m3 code times its scale,
// exact in double), so what is left is the GPU's arithmetic. e4m3 values have 4 significant bits:
// a product of two is exact in FP32, as BF16's are. So the rule is the BF16 one
// (gpu/cpu_reference.hpp): 4·K·u₃₂·Σ|a·b| for FP32 sums whose alignment may truncate, and two
// roundings more, 2·u₃₂·Σ|a·b|, for the scales applied in the epilogue (the product of A's and B's
// scale, then its product with the sum, each within u₃₂ of the exact one; with block scales each
// 128-long partial sum is scaled so before it is added, no more than that per term). C's rounding
// to BF16 comes on top (output_rounding).
//
// Hopper's FP8 tensor cores add their products with fewer bits than FP32. The accumulator
// experiment (model/accumulator.hpp) measured it on an H100: each wgmma keeps 13 fraction bits
// below the leading bit of the largest of its terms (its 32 products and the running sum) and cuts
// the rest toward zero. A term then loses less than 2^-13 of that leading bit, which is at most
// Σ|a·b|; all cuts go the same way, so over K products and K/32 additions into the sum the loss is
// at most (K + ⌈K/32⌉)·2^-13·Σ|a·b|. A kernel that promotes every P of K pays this for P, not K;
// cuBLASLt does not say how often it promotes, so the check assumes it never does.
inline constexpr int kFp8AccumulatorFractionBits = 13;
double fp8_measured_accumulator_term(std::int64_t k);  // (K + ⌈K/32⌉)·2^-13
// (4·K + 2)·2^-24 + fp8_measured_accumulator_term(K): cell (i, j) may differ from FP64 by this
// times Σ_k |a_ik·b_jk| before C's rounding to BF16.
double fp8_accumulation_factor(std::int64_t k);

}  // namespace ts::model
