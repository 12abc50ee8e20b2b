#include "roofline.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cublas_library.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "measure.hpp"
#include "model/format.hpp"
#include "model/half_values.hpp"

namespace ts::gpu {

namespace {

using model::format_text;

constexpr std::int64_t kCopyBytes = std::int64_t{1} << 30;  // 1 GiB: far beyond any L2 (H200: 60 MiB)
constexpr std::int64_t kSgemmSizes[] = {2048, 4096, 8192};

// Bytes of no one type: the peaks' buffers are copied, or read as float or as 16-bit halves.
using DeviceBytes = DeviceBuffer<std::byte>;

// A peak is the best the GPU sustains, so samples run back to back (hot); a second or two
// per number is plenty for copies and GEMMs of milliseconds.
MeasureSettings peak_settings() {
    MeasureSettings settings;
    settings.warmup_launches = 3;
    settings.hot = true;
    settings.stop.min_samples = 10;
    settings.stop.adaptive = true;
    settings.stop.max_noise = 0.005;
    settings.stop.min_time_s = 0.3;
    settings.stop.budget_s = 2.0;
    settings.stop.max_samples = 1000;
    return settings;
}

// Random values in [-1, 1]: constant inputs would let the GPU draw less power and clock
// higher than on real data. 16 MiB of them, repeated over each operand.
std::vector<float> random_block() {
    std::vector<float> block(std::size_t{4} << 20);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& x : block) x = uniform(rng);
    return block;
}

// The same values rounded to BF16, for the tensor cores' peak.
std::vector<std::uint16_t> bf16_block(const std::vector<float>& block) {
    std::vector<std::uint16_t> words(block.size());
    for (std::size_t i = 0; i < block.size(); ++i) words[i] = model::round_to_half(block[i], model::kBf16Format);
    return words;
}

template <typename T>
void fill(const DeviceBytes& buffer, const std::vector<T>& block, cudaStream_t stream) {
    const auto block_bytes = static_cast<std::int64_t>(block.size() * sizeof(T));
    std::byte* out = buffer.get();
    for (std::int64_t at = 0; at < buffer.size(); at += block_bytes) {
        const std::int64_t bytes = std::min(block_bytes, buffer.size() - at);
        TS_CUDA_CHECK(cudaMemcpyAsync(out + at, block.data(), static_cast<std::size_t>(bytes), cudaMemcpyHostToDevice,
                                      stream));
    }
}

void measure_bandwidth(std::int64_t free_bytes, cudaStream_t stream, RooflinePeaks& peaks) {
    const std::int64_t bytes = std::min(kCopyBytes, free_bytes / 4) / (1 << 20) * (1 << 20);
    if (bytes <= 0) throw std::runtime_error("too little free GPU memory to measure the bandwidth");
    const DeviceBytes source(bytes);
    const DeviceBytes target(bytes);
    TS_CUDA_CHECK(cudaMemsetAsync(source.get(), 1, static_cast<std::size_t>(bytes), stream));
    const Measurement copy = measure(peak_settings(), stream, [&](cudaStream_t s) {
        TS_CUDA_CHECK(cudaMemcpyAsync(target.get(), source.get(), static_cast<std::size_t>(bytes),
                                      cudaMemcpyDeviceToDevice, s));
    });
    peaks.copy_bytes = bytes;
    peaks.copy_median_ms = copy.stats.median;
    peaks.bandwidth_gbs = 2.0 * static_cast<double>(bytes) / (copy.stats.median * 1e-3) * 1e-9;
    peaks.bandwidth_label = format_text("device-to-device copy of {}, read + write, median of {}",
                                   model::human_bytes(bytes), copy.samples_ms.size());
}

// The fastest of cuBLAS's GEMMs of `dtype` (float: SGEMM without TF32; bf16: cublasGemmEx with
// FP32 sums, on the tensor cores) over the square sizes that fit in half the free memory.
struct GemmPeak {
    double gflops = 0.0;
    std::int64_t size = 0;
    double median_ms = 0.0;
    std::string tried;      // "2048³, 4096³, 8192³"
    std::string why_none;   // when nothing was measured
};
GemmPeak measure_gemm_peak(model::Dtype dtype, std::int64_t free_bytes, cudaStream_t stream) {
    GemmPeak peak;
    if (auto why = cublas_unavailable(dtype)) {
        peak.why_none = *why;
        return peak;
    }
    const std::vector<float> block = random_block();
    const std::vector<std::uint16_t> half_block = dtype == model::Dtype::Float32 ? std::vector<std::uint16_t>{}
                                                                                 : bf16_block(block);
    const std::int64_t element_bytes = model::dtype_size(dtype);
    for (const std::int64_t size : kSgemmSizes) {
        const std::int64_t matrix_bytes = size * size * element_bytes;
        if (3 * matrix_bytes > free_bytes / 2) break;
        model::Problem problem;
        problem.m = problem.n = problem.k = size;
        problem.dtype = dtype;
        const DeviceBytes a(matrix_bytes);
        const DeviceBytes b(matrix_bytes);
        const DeviceBytes c(matrix_bytes);
        if (dtype == model::Dtype::Float32) {
            fill(a, block, stream);
            fill(b, block, stream);
        } else {
            fill(a, half_block, stream);
            fill(b, half_block, stream);
        }
        const Measurement gemm = measure(peak_settings(), stream, [&](cudaStream_t s) {
            if (dtype == model::Dtype::Float32)
                cublas_matmul(problem, reinterpret_cast<const float*>(a.get()), reinterpret_cast<const float*>(b.get()),
                              reinterpret_cast<float*>(c.get()), s);
            else
                cublas_matmul_half(problem, reinterpret_cast<const std::uint16_t*>(a.get()),
                                   reinterpret_cast<const std::uint16_t*>(b.get()),
                                   reinterpret_cast<std::uint16_t*>(c.get()), s);
        });
        const double gflops = 2.0 * static_cast<double>(size * size) * static_cast<double>(size) /
                              (gemm.stats.median * 1e-3) * 1e-9;
        peak.tried += format_text("{}{}³", peak.tried.empty() ? "" : ", ", size);
        if (gflops > peak.gflops) {
            peak.gflops = gflops;
            peak.size = size;
            peak.median_ms = gemm.stats.median;
        }
    }
    if (peak.size == 0) peak.why_none = "too little free GPU memory for a 2048³ GEMM";
    return peak;
}

// Where a GEMM's roof goes in the peaks: its rate, the size that reached it, how it was
// measured, and why there is none.
struct GemmRoof {
    double& gflops;
    std::int64_t& size;
    std::string& label;
    std::string& unavailable;
};

// Measures the roof of `dtype`'s GEMM into `roof`; `label` words it, its holes the fastest size
// and the sizes tried. Returns the peak (size 0: none, and `roof.unavailable` says why).
GemmPeak measure_gemm_roof(model::Dtype dtype, std::int64_t free_bytes, cudaStream_t stream, GemmRoof roof,
                           std::string_view no_peak, std::string_view label) {
    const GemmPeak peak = measure_gemm_peak(dtype, free_bytes, stream);
    if (peak.size == 0) {
        roof.unavailable = format_text("{}: {}", no_peak, peak.why_none);
        return peak;
    }
    roof.gflops = peak.gflops;
    roof.size = peak.size;
    roof.label = format_text(label, peak.size, peak.tried);
    return peak;
}

void measure_fp32(std::int64_t free_bytes, cudaStream_t stream, RooflinePeaks& peaks) {
    const GemmPeak peak = measure_gemm_roof(
        model::Dtype::Float32, free_bytes, stream,
        {peaks.fp32_gflops, peaks.sgemm_size, peaks.fp32_label, peaks.fp32_unavailable}, "no FP32 peak",
        "cuBLAS SGEMM {}³, FP32 without TF32, the fastest of {}");
    if (peak.size != 0) peaks.sgemm_median_ms = peak.median_ms;
}

// The tensor cores' roof: cuBLAS's BF16 GEMM, the fastest a GPU's own library gets from them.
void measure_bf16(std::int64_t free_bytes, cudaStream_t stream, RooflinePeaks& peaks) {
    measure_gemm_roof(model::Dtype::BFloat16, free_bytes, stream,
                      {peaks.bf16_gflops, peaks.bf16_size, peaks.bf16_label, peaks.bf16_unavailable},
                      "no tensor-core peak",
                      "cuBLAS BF16 GEMM {}³ on the tensor cores (FP32 sums), the fastest of {}");
}

}  // namespace

RooflinePeaks measure_roofline(std::int64_t free_bytes, cudaStream_t stream) {
    RooflinePeaks peaks;
    measure_bandwidth(free_bytes, stream, peaks);
    measure_fp32(free_bytes, stream, peaks);
    measure_bf16(free_bytes, stream, peaks);
    return peaks;
}

}  // namespace ts::gpu
