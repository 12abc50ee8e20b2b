#include "problem.hpp"

#include <limits>

#include "format.hpp"

namespace ts::model {

std::string_view dtype_name(Dtype dtype) {
    switch (dtype) {
        case Dtype::Int32: return "int32";
        case Dtype::Float32: return "float";
        case Dtype::Float64: return "double";
        case Dtype::BFloat16: return "bf16";
        case Dtype::Float16: return "fp16";
        case Dtype::Fp8E4M3: return "fp8";
    }
    return "?";
}

std::size_t dtype_size(Dtype dtype) {
    switch (dtype) {
        case Dtype::Int32: return 4;
        case Dtype::Float32: return 4;
        case Dtype::Float64: return 8;
        case Dtype::BFloat16: return 2;
        case Dtype::Float16: return 2;
        case Dtype::Fp8E4M3: return 1;
    }
    return 0;
}

std::size_t output_dtype_size(Dtype dtype) { return dtype == Dtype::Fp8E4M3 ? 2 : dtype_size(dtype); }

std::optional<Dtype> parse_dtype(std::string_view text) {
    if (text == "int32" || text == "int") return Dtype::Int32;
    if (text == "float" || text == "float32" || text == "fp32") return Dtype::Float32;
    if (text == "double" || text == "float64" || text == "fp64") return Dtype::Float64;
    if (text == "bf16" || text == "bfloat16") return Dtype::BFloat16;
    if (text == "fp16" || text == "float16" || text == "half") return Dtype::Float16;
    if (text == "fp8" || text == "e4m3" || text == "float8_e4m3") return Dtype::Fp8E4M3;
    return std::nullopt;
}

bool is_half_precision(Dtype dtype) { return dtype == Dtype::BFloat16 || dtype == Dtype::Float16; }

bool is_fp8(Dtype dtype) { return dtype == Dtype::Fp8E4M3; }

std::string_view fp8_scaling_name(Fp8Scaling scaling) {
    switch (scaling) {
        case Fp8Scaling::Tensor: return "tensor";
        case Fp8Scaling::Block: return "block";
    }
    return "?";
}

std::optional<Fp8Scaling> parse_fp8_scaling(std::string_view text) {
    if (text == "tensor") return Fp8Scaling::Tensor;
    if (text == "block") return Fp8Scaling::Block;
    return std::nullopt;
}

std::int64_t Problem::a_scale_count() const {
    if (!is_fp8(dtype)) return 0;
    return fp8_scaling == Fp8Scaling::Tensor ? 1 : m * k_blocks() * batch;
}

std::int64_t Problem::b_scale_count() const {
    if (!is_fp8(dtype)) return 0;
    return fp8_scaling == Fp8Scaling::Tensor ? 1 : n_blocks() * b_scale_stride() * batch;
}

std::int64_t Problem::total_bytes() const {
    const auto input = static_cast<std::int64_t>(dtype_size(dtype));
    const auto output = static_cast<std::int64_t>(output_dtype_size(dtype));
    constexpr std::int64_t kScaleBytes = sizeof(float);
    return (a_elements() + b_elements()) * batch * input + c_elements() * batch * output +
           (a_scale_count() + b_scale_count()) * kScaleBytes;
}

std::optional<std::string> validate(const Problem& p, std::int64_t device_memory_bytes) {
    if (p.m <= 0 || p.n <= 0 || p.k <= 0)
        return format_text("every size must be at least 1 (got M = {}, N = {}, K = {})", p.m, p.n, p.k);
    if (p.batch <= 0) return format_text("batch must be at least 1 (got {})", p.batch);

    // The kernels index with 32-bit ints (as the textbook kernels do), so the largest
    // row-major offset into any one matrix must fit in an int.
    constexpr std::int64_t kMaxIndex = std::numeric_limits<std::int32_t>::max();
    auto too_big = [&](const char* name, std::int64_t rows, std::int64_t cols) -> std::optional<std::string> {
        if (rows > kMaxIndex / cols)
            return format_text("{} would have {} × {} elements, more than 2^31 − 1: its row-major index "
                          "row * cols + col overflows the 32-bit int the kernels use",
                          name, rows, cols);
        return std::nullopt;
    };
    if (auto why = too_big("A", p.m, p.k)) return why;
    if (auto why = is_fp8(p.dtype) ? too_big("B", p.n, p.k) : too_big("B", p.k, p.n)) return why;
    if (auto why = too_big("C", p.m, p.n)) return why;
    if (p.batch > 65535) return format_text("batch {} exceeds 65535, the largest gridDim.z a GPU allows", p.batch);
    if (is_fp8(p.dtype) && p.fp8_scaling == Fp8Scaling::Block && p.batch > 1)
        return format_text("block scaling is for one matrix per launch here (batch 1, got {}): the 128-block scales "
                           "are laid out for one A and one B; use --scaling tensor for a batch",
                           p.batch);

    if (device_memory_bytes > 0 && p.total_bytes() > device_memory_bytes)
        return format_text("A, B and C{} need {} but only {} of GPU memory is available",
                           is_fp8(p.dtype) ? " with their scales" : "", human_bytes(p.total_bytes()),
                           human_bytes(device_memory_bytes));
    return std::nullopt;
}

std::string problem_size_text(const Problem& p) {
    return p.m == p.n && p.n == p.k ? format_text("{}³", p.m) : format_text("{} × {} × {}", p.m, p.n, p.k);
}

}  // namespace ts::model
