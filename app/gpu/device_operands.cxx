#include "device_operands.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cpu_reference.hpp"
#include "cublas_library.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "kernels/common/fill_inputs.hpp"
#include "kernels/common/launchers.hpp"
#include "model/format.hpp"
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
        const std::vector<double> a = as_doubles(host_inputs(m_a, m_a_dev));
        const std::vector<double> b = as_doubles(host_inputs(m_b, m_b_dev));
        const bool use_cublas = m_request.kernel.kind != model::KernelKind::Cublas &&
                                p.m * p.n * p.k * p.batch > kCpuReferenceLimit && !cublas_unavailable(model::Dtype::Float64);
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

private:
    std::vector<double> as_doubles(const std::vector<std::uint16_t>& bits) const {
        std::vector<double> values(bits.size());
        for (std::size_t i = 0; i < bits.size(); ++i) values[i] = model::half_to_double(bits[i], m_format);
        return values;
    }

    model::HalfFormat m_format;
};

}  // namespace

DeviceOperands::DeviceOperands(const RunRequest& request, cudaStream_t stream) {
    switch (request.problem.dtype) {
        case model::Dtype::Int32: m_data = std::make_unique<TypedOperands<std::int32_t>>(request, stream); break;
        case model::Dtype::Float32: m_data = std::make_unique<TypedOperands<float>>(request, stream); break;
        case model::Dtype::Float64: m_data = std::make_unique<TypedOperands<double>>(request, stream); break;
        case model::Dtype::BFloat16:
        case model::Dtype::Float16: m_data = std::make_unique<HalfOperands>(request, stream); break;
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
void DeviceOperands::check(RunResult& result, cudaStream_t stream) const { m_data->check(result, stream); }

}  // namespace ts::gpu
