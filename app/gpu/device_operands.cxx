#include "device_operands.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cpu_reference.hpp"
#include "cublas_library.hpp"
#include "cublaslt_library.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "kernels/common/fill_inputs.hpp"
#include "kernels/common/launchers.hpp"
#include "kernels/common/quantize_fp8.hpp"
#include "model/format.hpp"
#include "model/fp8_values.hpp"
#include "model/half_values.hpp"
#include "model/launch_geometry.hpp"

namespace ts::gpu {

using model::format_text;

struct DeviceOperands::Data {
    virtual ~Data() = default;
    virtual void poison(cudaStream_t stream) const = 0;
    virtual void launch(cudaStream_t stream) const = 0;
    virtual void launch_on(const void* a, const void* b, void* c, cudaStream_t stream) const = 0;
    virtual void check(RunResult& result, cudaStream_t stream) const = 0;
    virtual std::span<const std::byte> host_a() const = 0;
    virtual std::span<const std::byte> host_b() const = 0;
    virtual std::size_t c_bytes() const = 0;
    virtual DevicePointers pointers() const = 0;
    virtual double quantize_ms() const { return 0.0; }
};

// The exact product in double, by cuBLAS on the GPU, with Σ|a·b| per cell as the product
// of |A| and |B|. For float inputs the double product is far more exact than any float
// kernel; for double inputs it carries rounding of the same size as the kernel's, which
// the factor 2 in the tolerance allows for (as with the CPU reference).
template <typename T>
Reference cublas_reference_of(const std::vector<T>& a, const std::vector<T>& b, const model::Problem& p,
                           cudaStream_t stream) {
    std::vector<double> a64(a.begin(), a.end());
    std::vector<double> b64(b.begin(), b.end());
    DeviceBuffer<double> a_dev(static_cast<std::int64_t>(a64.size()));
    DeviceBuffer<double> b_dev(static_cast<std::int64_t>(b64.size()));
    DeviceBuffer<double> c_dev(p.c_elements() * p.batch);
    Reference ref;
    ref.c.resize(static_cast<std::size_t>(p.c_elements() * p.batch));
    ref.abs_sum.resize(ref.c.size());
    auto product = [&](std::vector<double>& out) {
        TS_CUDA_CHECK(cudaMemcpyAsync(a_dev.get(), a64.data(), a_dev.bytes(), cudaMemcpyHostToDevice, stream));
        TS_CUDA_CHECK(cudaMemcpyAsync(b_dev.get(), b64.data(), b_dev.bytes(), cudaMemcpyHostToDevice, stream));
        cublas_matmul(p, a_dev.get(), b_dev.get(), c_dev.get(), stream);
        TS_CUDA_CHECK(cudaMemcpyAsync(out.data(), c_dev.get(), c_dev.bytes(), cudaMemcpyDeviceToHost, stream));
        TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    };
    product(ref.c);
    for (double& x : a64) x = std::fabs(x);
    for (double& x : b64) x = std::fabs(x);
    product(ref.abs_sum);
    return ref;
}

Reference cublas_reference(const std::vector<float>& a, const std::vector<float>& b, const model::Problem& p,
                           cudaStream_t stream) {
    return cublas_reference_of(a, b, p, stream);
}

namespace {

std::string scientific(double value) {
    std::ostringstream out;
    out << std::scientific << std::setprecision(1) << value;
    return out.str();
}

cudaError_t launch_float_rung(const model::KernelConfig& config, const model::Problem& problem,
                              kernels::Operands<float> operands, cudaStream_t stream) {
    switch (config.kind) {
        case model::KernelKind::Vectorized: return kernels::launch_vectorized(config, problem, operands, stream);
        case model::KernelKind::ConflictFree: return kernels::launch_conflict_free(config, problem, operands, stream);
        case model::KernelKind::Warptile: return kernels::launch_warptile(config, problem, operands, stream);
        case model::KernelKind::Pipelined: return kernels::launch_pipelined(config, problem, operands, stream);
        case model::KernelKind::Tuned: return kernels::launch_tuned(config, problem, operands, stream);
        default: return cudaErrorInvalidValue;
    }
}

template <typename T>
cudaError_t launch_kernel(const model::KernelConfig& config, const model::Problem& problem,
                          kernels::Operands<T> operands, cudaStream_t stream) {
    switch (config.kind) {
        case model::KernelKind::Naive: return kernels::launch_naive(config, problem, operands, stream);
        case model::KernelKind::NaiveRowFromX:
            return kernels::launch_naive_row_from_x(config, problem, operands, stream);
        case model::KernelKind::RowPerThread: return kernels::launch_row_per_thread(config, problem, operands, stream);
        case model::KernelKind::ColumnPerThread:
            return kernels::launch_column_per_thread(config, problem, operands, stream);
        case model::KernelKind::Tiled: return kernels::launch_tiled(config, problem, operands, stream);
        case model::KernelKind::RegTile1d: return kernels::launch_regtile_1d(config, problem, operands, stream);
        case model::KernelKind::RegTile2d: return kernels::launch_regtile_2d(config, problem, operands, stream);
        case model::KernelKind::Vectorized:
        case model::KernelKind::ConflictFree:
        case model::KernelKind::Warptile:
        case model::KernelKind::Pipelined:
        case model::KernelKind::Tuned:
            if constexpr (std::is_same_v<T, float>) return launch_float_rung(config, problem, operands, stream);
            break;  // float only: the runner refuses other types first (model::dtype_unsupported)
        case model::KernelKind::Wmma:
        case model::KernelKind::Mma:
        case model::KernelKind::MmaAsync:
        case model::KernelKind::Wgmma:
        case model::KernelKind::WarpSpecialized:
        case model::KernelKind::Persistent:
        case model::KernelKind::TcTuned: break;  // 16-bit only: HalfOperands launches them
        case model::KernelKind::Fp8:
        case model::KernelKind::Fp8Blocks: break;  // FP8 only: Fp8Operands launches them
        case model::KernelKind::Cublas: break;  // not a kernel of ours: see launch_on
    }
    return cudaErrorInvalidValue;
}

// `got` and `expected` are the values of the first bad cell, as text.
std::string describe_check(const Comparison& cmp, const model::Problem& p, const std::string& reference,
                           const std::string& got, const std::string& expected) {
    const std::int64_t cells = p.c_elements() * p.batch;
    const bool exact = p.dtype == model::Dtype::Int32;
    const std::string rule = exact ? format_text("equal to the exact product ({})", reference)
                                   : format_text("within {} (K = {}) of {}", tolerance_rule(p.dtype), p.k, reference);
    if (cmp.passed())
        return format_text("max rel. error {}; all {} cells {}: pass", scientific(cmp.max_rel_error), cells, rule);
    const std::int64_t at = cmp.first_bad;
    const std::int64_t batch = at / p.c_elements();
    const std::int64_t row = at % p.c_elements() / p.n;
    const std::int64_t col = at % p.n;
    std::string text = format_text("FAIL: {} of {} cells not {}", cmp.mismatches, cells, rule);
    if (cmp.poisoned > 0)
        text += format_text(", {} of them still hold the poison C was filled with (never written)", cmp.poisoned);
    text += format_text("; first at C[{}][{}]", row, col);
    if (p.batch > 1) text += format_text(" of batch {}", batch);
    text += format_text(": got {}, expected {}", got, expected);
    return text + format_text("; max rel. error {}", scientific(cmp.max_rel_error));
}

// Where the FP64 products behind the error against FP64 (and FP8's check) are made: cuBLAS's
// DGEMM above kCpuReferenceLimit where it is loaded, else the CPU. DGEMM is never the kernel under
// test, so it serves cuBLAS's own runs as well.
bool fp64_product_on_gpu(const model::Problem& p) {
    return p.m * p.n * p.k * p.batch > kCpuReferenceLimit && !cublas_unavailable(model::Dtype::Float64);
}

// C = A·B in FP64 (A batch×M×K, B batch×K×N), where fp64_product_on_gpu says.
Reference fp64_product(const std::vector<double>& a, const std::vector<double>& b, const model::Problem& p,
                       cudaStream_t stream) {
    return fp64_product_on_gpu(p) ? cublas_reference_of(a, b, p, stream)
                                  : reference_matmul(std::span<const double>(a), std::span<const double>(b), p);
}

// The FP32 values every floating type's inputs start as (model/input_values.hpp), A's (`matrix` 0) or
// B's (1), `count` of them, made on the GPU as TypedOperands<float> makes them and read as doubles.
std::vector<double> fp32_inputs(std::int64_t count, std::uint64_t seed, int matrix, cudaStream_t stream) {
    constexpr std::int32_t kUnusedBound = 0;  // for int32 inputs only
    DeviceBuffer<float> device(count);
    TS_CUDA_CHECK(kernels::fill_inputs(device.get(), count, seed, matrix, kUnusedBound, stream));
    std::vector<float> host(static_cast<std::size_t>(count));
    TS_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.get(), device.bytes(), cudaMemcpyDeviceToHost, stream));
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    return std::vector<double>(host.begin(), host.end());
}

void record_error_vs_fp64(RunResult& result, const ErrorVsExact& error) {
    result.error_vs_fp64_max = error.max;
    result.error_vs_fp64_rms = error.rms;
}

cudaError_t launch_tensor_core_rung(const model::KernelConfig& config, const model::Problem& problem,
                                    kernels::Operands<std::uint16_t> operands, cudaStream_t stream) {
    switch (config.kind) {
        case model::KernelKind::Wmma: return kernels::launch_wmma(config, problem, operands, stream);
        case model::KernelKind::Mma: return kernels::launch_mma(config, problem, operands, stream);
        case model::KernelKind::MmaAsync: return kernels::launch_mma_async(config, problem, operands, stream);
        case model::KernelKind::Wgmma: return kernels::launch_wgmma(config, problem, operands, stream);
        case model::KernelKind::WarpSpecialized:
            return kernels::launch_warp_specialized(config, problem, operands, stream);
        case model::KernelKind::Persistent: return kernels::launch_persistent(config, problem, operands, stream);
        case model::KernelKind::TcTuned: return kernels::launch_tc_tuned(config, problem, operands, stream);
        default: return cudaErrorInvalidValue;  // the runner refuses other kinds first (model::dtype_unsupported)
    }
}

// What every element type's operands hold: the request, A, B and C on the GPU, the host's copies
// of A and B once asked for, and what the Data interface asks of buffers alone.
template <typename T>
class OperandBuffers : public DeviceOperands::Data {
public:
    OperandBuffers(const RunRequest& request, cudaStream_t stream)
        : m_request(request),
          m_a_dev(problem().a_elements() * problem().batch),
          m_b_dev(problem().b_elements() * problem().batch),
          m_c_dev(problem().c_elements() * problem().batch),
          m_stream(stream) {}

    std::span<const std::byte> host_a() const override { return std::as_bytes(std::span(host_inputs(m_a, m_a_dev))); }
    std::span<const std::byte> host_b() const override { return std::as_bytes(std::span(host_inputs(m_b, m_b_dev))); }
    std::size_t c_bytes() const override { return m_c_dev.bytes(); }
    DevicePointers pointers() const override { return {m_a_dev.get(), m_b_dev.get(), m_c_dev.get()}; }

protected:
    const model::Problem& problem() const { return m_request.problem; }

    // A device buffer's contents on the host (synchronises `stream`).
    static std::vector<T> download(const DeviceBuffer<T>& device, cudaStream_t stream) {
        std::vector<T> host(static_cast<std::size_t>(device.size()));
        TS_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.get(), device.bytes(), cudaMemcpyDeviceToHost, stream));
        TS_CUDA_CHECK(cudaStreamSynchronize(stream));
        return host;
    }
    // The comparison's outcome into `result`; `got` and `expected` are the first bad cell's values.
    void record_check(RunResult& result, const Comparison& cmp, bool used_cublas, const std::string& got,
                      const std::string& expected) const {
        result.checked = true;
        result.check_passed = cmp.passed();
        result.max_rel_error = cmp.max_rel_error;
        result.mismatches = cmp.mismatches;
        result.check_summary =
            describe_check(cmp, problem(), used_cublas ? "cuBLAS in FP64" : "the CPU reference", got, expected);
    }
    // The host's copy of an input, copied back from the GPU the first time it is asked for.
    const std::vector<T>& host_inputs(std::vector<T>& host, const DeviceBuffer<T>& device) const {
        if (host.empty() && device.size() > 0) host = download(device, m_stream);
        return host;
    }

    RunRequest m_request;
    mutable std::vector<T> m_a;
    mutable std::vector<T> m_b;
    DeviceBuffer<T> m_a_dev;
    DeviceBuffer<T> m_b_dev;
    DeviceBuffer<T> m_c_dev;
    cudaStream_t m_stream;
    std::string m_launch_call;
};

template <typename T>
class TypedOperands final : public OperandBuffers<T> {
public:
    TypedOperands(const RunRequest& request, cudaStream_t stream) : OperandBuffers<T>(request, stream) {
        // The inputs are made on the GPU (model/input_values.hpp): at 2048³ that takes a
        // fraction of a millisecond where drawing them on the host and uploading them took
        // tens. The host copies them back only when it needs them (the check, end-to-end).
        const std::int32_t bound = int32_input_bound(problem().k);
        TS_CUDA_CHECK(kernels::fill_inputs(m_a_dev.get(), m_a_dev.size(), request.seed, 0, bound, stream));
        TS_CUDA_CHECK(kernels::fill_inputs(m_b_dev.get(), m_b_dev.size(), request.seed, 1, bound, stream));
        const model::LaunchGeometry g = model::plan_launch(request.kernel, problem());
        m_launch_call = format_text("launching {} <<<({}, {}, {}), ({}, {})>>>", model::describe(request.kernel), g.grid.x,
                               g.grid.y, g.grid.z, g.block.x, g.block.y);
    }

    void poison(cudaStream_t stream) const override {
        const int byte = std::is_integral_v<T> ? kInt32PoisonByte : 0xFF;
        TS_CUDA_CHECK(cudaMemsetAsync(m_c_dev.get(), byte, m_c_dev.bytes(), stream));
    }

    void launch(cudaStream_t stream) const override {
        launch_on(m_a_dev.get(), m_b_dev.get(), m_c_dev.get(), stream);
    }

    void launch_on(const void* a, const void* b, void* c, cudaStream_t stream) const override {
        const T* a_typed = static_cast<const T*>(a);
        const T* b_typed = static_cast<const T*>(b);
        T* c_typed = static_cast<T*>(c);
        if (m_request.kernel.kind == model::KernelKind::Cublas) {
            if constexpr (std::is_integral_v<T>) throw std::runtime_error(*cublas_unavailable(problem().dtype));
            else cublas_matmul(problem(), a_typed, b_typed, c_typed, stream);
            return;
        }
        cuda_check(launch_kernel(m_request.kernel, problem(), kernels::Operands<T>{a_typed, b_typed, c_typed}, stream),
                   m_launch_call, __FILE__, __LINE__);
    }

    void check(RunResult& result, cudaStream_t stream) const override {
        const model::Problem& p = problem();
        const std::vector<T> c = download(m_c_dev, stream);

        const bool use_cublas = !std::is_integral_v<T> && m_request.kernel.kind != model::KernelKind::Cublas &&
                                p.m * p.n * p.k * p.batch > kCpuReferenceLimit && !cublas_unavailable(p.dtype);
        const std::vector<T>& a = host_inputs(m_a, m_a_dev);
        const std::vector<T>& b = host_inputs(m_b, m_b_dev);
        const Reference ref = use_cublas ? cublas_reference_of(a, b, p, stream)
                                         : reference_matmul(std::span<const T>(a), std::span<const T>(b), p);
        const Comparison cmp = compare(std::span<const T>(c), ref, tolerance_factor(p.dtype, p.k));
        // FP32's inputs are the FP32 values themselves and the reference their exact product, so its
        // error against FP64 is the kernel's alone, and costs nothing more.
        if constexpr (std::is_same_v<T, float>) record_error_vs_fp64(result, error_vs_exact(std::span<const float>(c), ref.c));
        std::string got;
        std::string expected;
        if (cmp.first_bad >= 0) {
            const auto at = static_cast<std::size_t>(cmp.first_bad);
            got = format_text("{}", c[at]);
            expected = std::is_integral_v<T> ? format_text("{}", static_cast<std::int64_t>(ref.c[at]))
                                             : format_text("{}", ref.c[at]);
        }
        this->record_check(result, cmp, use_cublas, got, expected);
    }

private:
    using OperandBuffers<T>::problem;
    using OperandBuffers<T>::host_inputs;
    using OperandBuffers<T>::download;
    using OperandBuffers<T>::m_request;
    using OperandBuffers<T>::m_a;
    using OperandBuffers<T>::m_b;
    using OperandBuffers<T>::m_a_dev;
    using OperandBuffers<T>::m_b_dev;
    using OperandBuffers<T>::m_c_dev;
    using OperandBuffers<T>::m_launch_call;
};

// BF16 or FP16: A, B and C as 16-bit words on the GPU. The reference reads the inputs exactly as
// doubles (model::half_to_double), and C is compared with the tolerance of FP32 accumulation
// followed by one rounding to 16 bits (cpu_reference.hpp).
class HalfOperands final : public OperandBuffers<std::uint16_t> {
public:
    HalfOperands(const RunRequest& request, cudaStream_t stream)
        : OperandBuffers(request, stream),
          m_format(request.problem.dtype == model::Dtype::BFloat16 ? model::kBf16Format : model::kFp16Format) {
        const bool bf16 = problem().dtype == model::Dtype::BFloat16;
        TS_CUDA_CHECK(kernels::fill_half_inputs(m_a_dev.get(), m_a_dev.size(), request.seed, 0, bf16, stream));
        TS_CUDA_CHECK(kernels::fill_half_inputs(m_b_dev.get(), m_b_dev.size(), request.seed, 1, bf16, stream));
        m_launch_call = format_text("launching {} on {}", model::describe(request.kernel), model::dtype_name(problem().dtype));
    }

    // All bits set is a NaN in both formats.
    void poison(cudaStream_t stream) const override {
        TS_CUDA_CHECK(cudaMemsetAsync(m_c_dev.get(), 0xFF, m_c_dev.bytes(), stream));
    }
    void launch(cudaStream_t stream) const override { launch_on(m_a_dev.get(), m_b_dev.get(), m_c_dev.get(), stream); }
    void launch_on(const void* a, const void* b, void* c, cudaStream_t stream) const override {
        const auto* a16 = static_cast<const std::uint16_t*>(a);
        const auto* b16 = static_cast<const std::uint16_t*>(b);
        auto* c16 = static_cast<std::uint16_t*>(c);
        if (m_request.kernel.kind == model::KernelKind::Cublas) {
            cublas_matmul_half(problem(), a16, b16, c16, stream);
            return;
        }
        cuda_check(launch_tensor_core_rung(m_request.kernel, problem(), {a16, b16, c16}, stream), m_launch_call,
                   __FILE__, __LINE__);
    }

    void check(RunResult& result, cudaStream_t stream) const override {
        const model::Problem& p = problem();
        const std::vector<double> c = as_doubles(download(m_c_dev, stream));
        {  // the check's inputs and reference go before the second product's come (GiBs at 8192³)
            const std::vector<double> a = as_doubles(host_inputs(m_a, m_a_dev));
            const std::vector<double> b = as_doubles(host_inputs(m_b, m_b_dev));
            const bool use_cublas = m_request.kernel.kind != model::KernelKind::Cublas &&
                                    p.m * p.n * p.k * p.batch > kCpuReferenceLimit &&
                                    !cublas_unavailable(model::Dtype::Float64);
            const Reference ref = use_cublas ? cublas_reference_of(a, b, p, stream)
                                             : reference_matmul(std::span<const double>(a), std::span<const double>(b), p);
            const Comparison cmp =
                compare(std::span<const double>(c), ref, tolerance_factor(p.dtype, p.k), output_rounding(p.dtype));
            std::string got, expected;
            if (cmp.first_bad >= 0) {
                const auto at = static_cast<std::size_t>(cmp.first_bad);
                got = format_text("{}", c[at]);
                expected = format_text("{}", ref.c[at]);
            }
            record_check(result, cmp, use_cublas, got, expected);
        }
        // The error against FP64: C against the exact product of the FP32 values of the inputs, so
        // the rounding of the inputs to 16 bits counts with the kernel's. (The 16-bit inputs are
        // rounded from model::input_real's double, not from its FP32 value; rounding is monotone and
        // every 16-bit midpoint is an FP32 number, so the two round alike except where the FP32
        // value lies on a midpoint, and even there by one 16-bit step in one input.)
        const Reference exact = fp64_product(fp32_inputs(m_a_dev.size(), m_request.seed, 0, stream),
                                             fp32_inputs(m_b_dev.size(), m_request.seed, 1, stream), p, stream);
        record_error_vs_fp64(result, error_vs_exact(std::span<const double>(c), exact.c));
    }

private:
    std::vector<double> as_doubles(const std::vector<std::uint16_t>& bits) const {
        std::vector<double> values(bits.size());
        for (std::size_t i = 0; i < bits.size(); ++i) values[i] = model::half_to_double(bits[i], m_format);
        return values;
    }

    model::HalfFormat m_format;
};

// FP8: A (M×K) and B (N×K) made in FP32 the usual way, then quantised on the GPU to e4m3 with
// their scales (model/fp8_values.hpp); C in BF16. The FP32 inputs stay, for the pipeline's error
// against FP64. The check multiplies the dequantised inputs in FP64 (exact values: each code times
// its scale) and holds C to FP32 accumulation and BF16 output (cpu_reference.hpp).
class Fp8Operands final : public DeviceOperands::Data {
public:
    Fp8Operands(const RunRequest& request, cudaStream_t stream)
        : m_request(request),
          m_a32(problem().a_elements() * problem().batch),
          m_b32(problem().b_elements() * problem().batch),
          m_a(m_a32.size()),
          m_b(m_b32.size()),
          m_a_scales(problem().a_scale_count()),
          m_b_scales(problem().b_scale_count()),
          m_amax(1),
          m_c(problem().c_elements() * problem().batch),
          m_stream(stream) {
        constexpr std::int32_t kUnusedBound = 0;  // for int32 inputs only
        TS_CUDA_CHECK(kernels::fill_inputs(m_a32.get(), m_a32.size(), request.seed, 0, kUnusedBound, stream));
        TS_CUDA_CHECK(kernels::fill_inputs(m_b32.get(), m_b32.size(), request.seed, 1, kUnusedBound, stream));
        quantize(stream);
        m_quantize_ms = time_quantize(stream);
    }

    void poison(cudaStream_t stream) const override {
        TS_CUDA_CHECK(cudaMemsetAsync(m_c.get(), 0xFF, m_c.bytes(), stream));  // all bits set: a BF16 NaN
    }
    void launch(cudaStream_t stream) const override { launch_on(m_a.get(), m_b.get(), m_c.get(), stream); }
    void launch_on(const void* a, const void* b, void* c, cudaStream_t stream) const override {
        const auto* a_codes = static_cast<const std::uint8_t*>(a);
        const auto* b_codes = static_cast<const std::uint8_t*>(b);
        auto* c_bits = static_cast<std::uint16_t*>(c);
        const model::KernelConfig& kernel = m_request.kernel;
        const kernels::ScaledFp8Operands operands{a_codes, b_codes, m_a_scales.get(), m_b_scales.get(), c_bits};
        switch (kernel.kind) {
            case model::KernelKind::Cublas: cublaslt_matmul_fp8(problem(), operands, stream); return;
            case model::KernelKind::Fp8: TS_CUDA_CHECK(kernels::launch_fp8(kernel, problem(), operands, stream)); return;
            case model::KernelKind::Fp8Blocks:
                TS_CUDA_CHECK(kernels::launch_fp8_blocks(kernel, problem(), operands, stream));
                return;
            default: throw std::runtime_error(*model::dtype_unsupported(kernel.kind, problem().dtype));
        }
    }
    std::span<const std::byte> host_a() const override { return std::as_bytes(std::span(host_codes(m_host_a, m_a))); }
    std::span<const std::byte> host_b() const override { return std::as_bytes(std::span(host_codes(m_host_b, m_b))); }
    std::size_t c_bytes() const override { return m_c.bytes(); }
    DevicePointers pointers() const override { return {m_a.get(), m_b.get(), m_c.get()}; }
    double quantize_ms() const override { return m_quantize_ms; }

    void check(RunResult& result, cudaStream_t stream) const override {
        const model::Problem& p = problem();
        std::vector<double> c;
        {
            const std::vector<std::uint16_t> bits = download(m_c, stream);
            c.resize(bits.size());
            for (std::size_t i = 0; i < bits.size(); ++i) c[i] = model::half_to_double(bits[i], model::kBf16Format);
        }
        // Above kCpuReferenceLimit, cuBLAS in FP64: never the kernel itself here, as the FP8 GEMM is cuBLASLt's.
        const bool use_cublas = fp64_product_on_gpu(p);
        const auto product = [&](const std::vector<double>& a, const std::vector<double>& b_nk) {
            return fp64_product(a, k_by_n(b_nk), p, stream);
        };
        {
            const model::Fp8Matrix a{host_codes(m_host_a, m_a), download(m_a_scales, stream)};
            const model::Fp8Matrix b{host_codes(m_host_b, m_b), download(m_b_scales, stream)};
            const Reference ref = product(model::dequantize_fp8(a, p, model::Fp8Operand::A),
                                          model::dequantize_fp8(b, p, model::Fp8Operand::B));
            const Comparison cmp = compare(std::span<const double>(c), ref, tolerance_factor(p.dtype, p.k),
                                           output_rounding(p.dtype));
            std::string got, expected;
            if (cmp.first_bad >= 0) {
                const auto at = static_cast<std::size_t>(cmp.first_bad);
                got = format_text("{}", c[at]);
                expected = format_text("{}", ref.c[at]);
            }
            result.checked = true;
            result.check_passed = cmp.passed();
            result.max_rel_error = cmp.max_rel_error;
            result.mismatches = cmp.mismatches;
            result.check_summary = describe_check(
                cmp, p,
                format_text("{} on the dequantised e4m3 inputs", use_cublas ? "cuBLAS in FP64" : "the CPU reference"), got,
                expected);
        }
        // The whole pipeline against the exact product of the FP32 inputs it started from.
        const auto as_doubles = [](const std::vector<float>& values) { return std::vector<double>(values.begin(), values.end()); };
        const Reference exact = product(as_doubles(download(m_a32, stream)), as_doubles(download(m_b32, stream)));
        record_error_vs_fp64(result, error_vs_exact(std::span<const double>(c), exact.c));
    }

private:
    const model::Problem& problem() const { return m_request.problem; }

    template <typename T>
    static std::vector<T> download(const DeviceBuffer<T>& device, cudaStream_t stream) {
        std::vector<T> host(static_cast<std::size_t>(device.size()));
        TS_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.get(), device.bytes(), cudaMemcpyDeviceToHost, stream));
        TS_CUDA_CHECK(cudaStreamSynchronize(stream));
        return host;
    }
    const std::vector<std::uint8_t>& host_codes(std::vector<std::uint8_t>& host, const DeviceBuffer<std::uint8_t>& device) const {
        if (host.empty() && device.size() > 0) host = download(device, m_stream);
        return host;
    }
    // B (batch×N×K) as the reference takes it: batch×K×N.
    std::vector<double> k_by_n(const std::vector<double>& b_nk) const {
        const model::Problem& p = problem();
        std::vector<double> b(b_nk.size());
        for (std::int64_t s = 0; s < p.batch; ++s)
            for (std::int64_t j = 0; j < p.n; ++j)
                for (std::int64_t kk = 0; kk < p.k; ++kk)
                    b[static_cast<std::size_t>((s * p.k + kk) * p.n + j)] = b_nk[static_cast<std::size_t>((s * p.n + j) * p.k + kk)];
        return b;
    }

    // A and B to e4m3 with their scales, per the problem's scaling (kernels/common/quantize_fp8.hpp).
    void quantize(cudaStream_t stream) const {
        const model::Problem& p = problem();
        if (p.fp8_scaling == model::Fp8Scaling::Tensor) {
            TS_CUDA_CHECK(kernels::quantize_fp8_per_tensor(m_a32.get(), m_a32.size(), m_a.get(), m_a_scales.get(),
                                                           m_amax.get(), stream));
            TS_CUDA_CHECK(kernels::quantize_fp8_per_tensor(m_b32.get(), m_b32.size(), m_b.get(), m_b_scales.get(),
                                                           m_amax.get(), stream));
        } else {  // batch 1 (model::validate)
            TS_CUDA_CHECK(kernels::quantize_fp8_rows(m_a32.get(), p.m, p.k, m_a.get(), m_a_scales.get(), stream));
            TS_CUDA_CHECK(kernels::quantize_fp8_blocks(m_b32.get(), p.n, p.k, m_b.get(), m_b_scales.get(), stream));
        }
    }

    // The median of a few runs of quantize() between CUDA events (the first, above, paid for
    // loading the kernels). Each run writes the same codes and scales again.
    double time_quantize(cudaStream_t stream) const {
        constexpr int kRuns = 5;
        cudaEvent_t start = nullptr, stop = nullptr;
        TS_CUDA_CHECK(cudaEventCreate(&start));
        const auto destroy_start = std::unique_ptr<CUevent_st, decltype(&cudaEventDestroy)>(start, cudaEventDestroy);
        TS_CUDA_CHECK(cudaEventCreate(&stop));
        const auto destroy_stop = std::unique_ptr<CUevent_st, decltype(&cudaEventDestroy)>(stop, cudaEventDestroy);
        std::vector<float> times;
        for (int run = 0; run < kRuns; ++run) {
            TS_CUDA_CHECK(cudaEventRecord(start, stream));
            quantize(stream);
            TS_CUDA_CHECK(cudaEventRecord(stop, stream));
            TS_CUDA_CHECK(cudaEventSynchronize(stop));
            float ms = 0.0f;
            TS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
            times.push_back(ms);
        }
        std::sort(times.begin(), times.end());
        return times[kRuns / 2];
    }

    RunRequest m_request;
    DeviceBuffer<float> m_a32;
    DeviceBuffer<float> m_b32;
    DeviceBuffer<std::uint8_t> m_a;
    DeviceBuffer<std::uint8_t> m_b;
    DeviceBuffer<float> m_a_scales;
    DeviceBuffer<float> m_b_scales;
    DeviceBuffer<unsigned> m_amax;
    DeviceBuffer<std::uint16_t> m_c;
    mutable std::vector<std::uint8_t> m_host_a;
    mutable std::vector<std::uint8_t> m_host_b;
    cudaStream_t m_stream;
    double m_quantize_ms = 0.0;
};

}  // namespace

DeviceOperands::DeviceOperands(const RunRequest& request, cudaStream_t stream) {
    switch (request.problem.dtype) {
        case model::Dtype::Int32: m_data = std::make_unique<TypedOperands<std::int32_t>>(request, stream); break;
        case model::Dtype::Float32: m_data = std::make_unique<TypedOperands<float>>(request, stream); break;
        case model::Dtype::Float64: m_data = std::make_unique<TypedOperands<double>>(request, stream); break;
        case model::Dtype::BFloat16:
        case model::Dtype::Float16: m_data = std::make_unique<HalfOperands>(request, stream); break;
        case model::Dtype::Fp8E4M3: m_data = std::make_unique<Fp8Operands>(request, stream); break;
    }
    if (!m_data) throw std::invalid_argument("DeviceOperands: unknown element type");
}

DeviceOperands::~DeviceOperands() = default;

void DeviceOperands::poison(cudaStream_t stream) const { m_data->poison(stream); }
void DeviceOperands::launch(cudaStream_t stream) const { m_data->launch(stream); }
void DeviceOperands::launch_on(const void* a, const void* b, void* c, cudaStream_t stream) const {
    m_data->launch_on(a, b, c, stream);
}
std::span<const std::byte> DeviceOperands::host_a() const { return m_data->host_a(); }
std::span<const std::byte> DeviceOperands::host_b() const { return m_data->host_b(); }
std::size_t DeviceOperands::c_bytes() const { return m_data->c_bytes(); }
DevicePointers DeviceOperands::pointers() const { return m_data->pointers(); }
double DeviceOperands::quantize_ms() const { return m_data->quantize_ms(); }
void DeviceOperands::check(RunResult& result, cudaStream_t stream) const { m_data->check(result, stream); }

}  // namespace ts::gpu
