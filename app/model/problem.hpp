// problem.hpp — what is being multiplied: C (M×N) = A (M×K) · B (K×N), `batch` times.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ts::model {

enum class Dtype { Int32, Float32, Float64 };

std::string_view dtype_name(Dtype dtype);      // "int32", "float", "double"
std::size_t dtype_size(Dtype dtype);           // bytes per element
std::optional<Dtype> parse_dtype(std::string_view text);  // accepts int32/float/float32/double/float64

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

}  // namespace ts::model
