// problem.hpp — what is being multiplied: C (M×N) = A (M×K) · B (K×N), `batch` times.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ts::model {

// BFloat16 and Float16 are the tensor-core rungs' inputs and output (13 on, and cuBLAS); they
// accumulate in FP32.
enum class Dtype { Int32, Float32, Float64, BFloat16, Float16 };

std::string_view dtype_name(Dtype dtype);      // "int32", "float", "double", "bf16", "fp16"
std::size_t dtype_size(Dtype dtype);           // bytes per element
// accepts int32/float/float32/fp32/double/float64/fp64/bf16/bfloat16/fp16/float16/half
std::optional<Dtype> parse_dtype(std::string_view text);
// BFloat16 or Float16: 16-bit floating point, for the tensor cores.
bool is_half_precision(Dtype dtype);

struct Problem {
    std::int64_t m = 4;
    std::int64_t n = 4;
    std::int64_t k = 4;
    std::int64_t batch = 1;
    Dtype dtype = Dtype::Float32;

    std::int64_t a_elements() const { return m * k; }
    std::int64_t b_elements() const { return k * n; }
    std::int64_t c_elements() const { return m * n; }
    // Bytes of A, B and C for all batches together: what a GPU must hold.
    std::int64_t total_bytes() const;
};

// Why a problem cannot be run, in words a student can act on; nullopt when it can.
// `device_memory_bytes` is the memory the target GPU offers (free or total), 0 when unknown.
std::optional<std::string> validate(const Problem& problem, std::int64_t device_memory_bytes = 0);

// "1024³" for a cube, else "127 × 129 × 65": a size as the CLI and the views write it.
std::string problem_size_text(const Problem& p);

}  // namespace ts::model
