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

}  // namespace ts::model
