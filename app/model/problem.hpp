// problem.hpp — what is being multiplied: C (M×N) = A (M×K) · B (K×N), `batch` times; for FP8,
// C = A·Bᵀ with B stored N×K and each operand's scales (below, at Dtype::Fp8E4M3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ts::model {

// BFloat16 and Float16 are the tensor-core rungs' inputs and output (13 on, and cuBLAS); they
// accumulate in FP32.
//
// Fp8E4M3 ("fp8"): A (M×K) and B (N×K, K-major: row j of B is column j of the usual K×N B) in
// e4m3 (model/fp8_values.hpp), C (M×N) in BF16, products summed in FP32, and
//   C[i][j] = Σ_k a_scale(i, k) · b_scale(j, k) · A[i][k] · B[j][k],
// the scales applied in the epilogue. B is N×K because Hopper's FP8 wgmma reads both operands
// K-major, as cuBLASLt's FP8 GEMM and DeepGEMM take them: the FP8 problem is C = A·Bᵀ. The scales
// follow Problem::fp8_scaling. A and B are the FP32 inputs every type is made from (input_values.hpp),
// quantised on the GPU (kernels/common/quantize_fp8.cu); B's element (j, k) is input j·K + k.
enum class Dtype { Int32, Float32, Float64, BFloat16, Float16, Fp8E4M3 };

std::string_view dtype_name(Dtype dtype);      // "int32", "float", "double", "bf16", "fp16", "fp8"
std::size_t dtype_size(Dtype dtype);           // bytes per element of A and B
std::size_t output_dtype_size(Dtype dtype);    // bytes per element of C: 2 (BF16) for fp8, else dtype_size
// accepts int32/float/float32/fp32/double/float64/fp64/bf16/bfloat16/fp16/float16/half/fp8/e4m3/float8_e4m3
std::optional<Dtype> parse_dtype(std::string_view text);
// BFloat16 or Float16: 16-bit floating point, for the tensor cores.
bool is_half_precision(Dtype dtype);
// Fp8E4M3: 8-bit inputs with scales, C = A·Bᵀ in BF16.
bool is_fp8(Dtype dtype);

// How FP8 inputs are scaled. Tensor: one float for all of A and one for all of B (all batches
// together). Block (DeepGEMM's scheme): A has one per row per 128 of K (1×128), B one per 128×128
// block of its N×K; the last block along K (and along N) may be partial.
enum class Fp8Scaling { Tensor, Block };
inline constexpr std::int64_t kFp8ScaleBlock = 128;
std::string_view fp8_scaling_name(Fp8Scaling scaling);  // "tensor", "block"
std::optional<Fp8Scaling> parse_fp8_scaling(std::string_view text);  // tensor, block

struct Problem {
    std::int64_t m = 4;
    std::int64_t n = 4;
    std::int64_t k = 4;
    std::int64_t batch = 1;
    Dtype dtype = Dtype::Float32;
    Fp8Scaling fp8_scaling = Fp8Scaling::Tensor;  // read only when dtype is Fp8E4M3

    std::int64_t a_elements() const { return m * k; }
    std::int64_t b_elements() const { return k * n; }
    std::int64_t c_elements() const { return m * n; }
    // FP8: blocks of 128 along K (the last may be partial), and of 128 rows of B along N.
    std::int64_t k_blocks() const { return (k + kFp8ScaleBlock - 1) / kFp8ScaleBlock; }
    std::int64_t n_blocks() const { return (n + kFp8ScaleBlock - 1) / kFp8ScaleBlock; }
    // FP8 block scaling: the floats from one row of B's block scales to the next, ceil(K/128)
    // rounded up to a multiple of 4 (cuBLASLt's BLK128x128 layout: each row 16-byte aligned; the
    // padding is zeros and never read).
    std::int64_t b_scale_stride() const { return (k_blocks() + 3) / 4 * 4; }
    // FP8: the floats of A's and B's scales for all batches together (0 for other types). Tensor:
    // 1 each. Block: M·ceil(K/128) for A (fp8_values.hpp: a_block_scale_index lays them out) and
    // ceil(N/128)·b_scale_stride() for B (b_block_scale_index), per batch.
    std::int64_t a_scale_count() const;
    std::int64_t b_scale_count() const;
    // Bytes of A, B and C, and of the FP8 scales, for all batches together: what a GPU must hold.
    std::int64_t total_bytes() const;
};

// Why a problem cannot be run, in words a student can act on; nullopt when it can.
// `device_memory_bytes` is the memory the target GPU offers (free or total), 0 when unknown.
std::optional<std::string> validate(const Problem& problem, std::int64_t device_memory_bytes = 0);

// "1024³" for a cube, else "127 × 129 × 65": a size as the CLI and the views write it.
std::string problem_size_text(const Problem& p);

}  // namespace ts::model
