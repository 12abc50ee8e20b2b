#include "bench_report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>

#include "gpu/clock_watch.hpp"
#include "gpu/energy.hpp"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/ladder_rungs.hpp"
#include "model/occupancy.hpp"

namespace ts::cli {

std::string padded(const std::string& text, int width) {
    // Count code points, not bytes, so "×" and "µ" take one column.
    int shown = 0;
    for (unsigned char c : text) shown += (c & 0xC0) != 0x80;
    return shown >= width ? text + " " : text + std::string(static_cast<std::size_t>(width - shown), ' ');
}

namespace {

using model::format_text;
using model::fixed;

std::string right(const std::string& text, int width) {
    int shown = 0;
    for (unsigned char c : text) shown += (c & 0xC0) != 0x80;
    return shown >= width ? text : std::string(static_cast<std::size_t>(width - shown), ' ') + text;
}

std::string size_text(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch) {
    std::string text = format_text("{}×{}×{}", m, n, k);
    if (batch > 1) text += format_text(" ×{}", batch);
    return text;
}

// Shell words, quoted only where a shell would need it, so the line can be pasted back.
// Derived numbers to what the events can resolve (about 0.5 µs), so measurements read
// 2.675571 rather than 2.6755712000000003.
double to_nanoseconds(double ms) { return std::round(ms * 1e6) / 1e6; }
double to_hundredths(double value) { return std::round(value * 100.0) / 100.0; }

std::string shell_word(const std::string& word) {
    if (!word.empty() && word.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos) return word;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

}  // namespace

std::string ms_text(double ms) {
    const int decimals = ms >= 100.0 ? 1 : ms >= 10.0 ? 2 : ms >= 1.0 ? 3 : 4;
    return fixed(ms, decimals);
}

record::Device device_record(const gpu::DeviceInfo& device) {
    record::Device d;
    d.name = device.limits.name;
    d.compute_capability = format_text("{}.{}", device.limits.compute_major, device.limits.compute_minor);
    d.sm_count = device.limits.sm_count;
    d.global_memory_bytes = device.limits.global_memory_bytes;
    d.l2_cache_bytes = device.l2_cache_bytes;
    d.driver_cuda_version = device.driver_version;
    d.runtime_cuda_version = device.runtime_version;
    if (device.clock_khz > 0) d.clock_mhz = device.clock_khz / 1e3;
    if (device.memory_clock_khz > 0) d.memory_clock_mhz = device.memory_clock_khz / 1e3;
    if (device.memory_bus_bits > 0) d.memory_bus_bits = device.memory_bus_bits;
    return d;
}

record::Timing timing_record(const gpu::RunRequest& request) {
    record::Timing t;
    t.mode = request.hot ? "hot" : "cold";
    t.warmup_launches = request.warmup_launches;
    t.min_samples = request.timed_launches;
    t.adaptive = request.adaptive;
    t.max_noise_pct = request.max_noise * 100.0;
    t.min_time_s = request.min_time_s;
    t.budget_s = request.budget_s;
    t.max_samples = request.max_samples;
    t.end_to_end_runs = request.end_to_end_runs;
    t.settle_s = request.settle_s;
    return t;
}

record::Point point_record(int index, const gpu::RunResult& result, const std::optional<gpu::CpuTime>& cpu) {
    const gpu::RunRequest& request = result.request;
    const model::KernelConfig& config = request.kernel;
    record::Point p;
    p.index = index;
    p.kernel = model::kernel_name(config.kind);
    p.config = model::describe(config);
    if (config.kind == model::KernelKind::Tiled) {
        p.tile = config.tile;
    } else if (config.kind != model::KernelKind::Cublas) {
        p.block_x = config.block_x;
        if (!model::uses_1d_blocks(config.kind)) p.block_y = config.block_y;
    }
    p.m = request.problem.m;
    p.n = request.problem.n;
    p.k = request.problem.k;
    p.batch = request.problem.batch;
    p.dtype = model::dtype_name(request.problem.dtype);
    p.mode = request.hot ? "hot" : "cold";
    if (result.tuned_variant >= 0) p.ran_candidate = result.tuned_variant;
    p.ok = result.ok;
    p.error = result.error;
    if (cpu) {
        p.cpu_triple_loop_ms = cpu->ms;
        p.cpu_is_estimate = cpu->estimate;
        if (cpu->estimate) p.cpu_estimated_from = format_text("{}x{}x{}", cpu->basis.m, cpu->basis.n, cpu->basis.k);
    }
    if (request.problem.dtype == model::Dtype::Fp8E4M3)
        p.fp8_scaling = std::string(model::fp8_scaling_name(request.problem.fp8_scaling));
    if (!result.ok) return p;

    p.samples_ms = result.samples_ms;
    p.median_ms = to_nanoseconds(result.median_ms);
    p.p20_ms = to_nanoseconds(result.p20_ms);
    p.p80_ms = to_nanoseconds(result.p80_ms);
    p.mean_ms = to_nanoseconds(result.mean_ms);
    p.min_ms = result.min_ms;
    p.max_ms = result.max_ms;
    p.noise_pct = std::round(result.noise * 1e6) / 1e4;  // percent, 4 decimals
    p.stop_reason = result.stop_reason;
    p.gflops = to_hundredths(result.gflops);
    if (result.model_traffic_bytes > 0) {
        p.model_traffic_bytes = result.model_traffic_bytes;
        p.model_bandwidth_GBps = to_hundredths(result.model_bandwidth_gbs);
    }
    if (!result.end_to_end_ms.empty()) p.end_to_end_ms = std::round(result.end_to_end_median_ms * 1e3) / 1e3;
    p.checked = result.checked;
    p.check_passed = result.check_passed;
    if (result.checked) p.max_rel_error = result.max_rel_error;
    p.check_summary = result.check_summary;
    gpu::record_beside_times(result, p);
    return p;
}

std::string clock_text(const gpu::ClockSummary& clocks) {
    if (clocks.readings == 0) return "not read: " + clocks.unavailable;
    std::string text = gpu::sm_clock_text(clocks);
    if (clocks.max_sm_mhz > clocks.min_sm_mhz) text += format_text(" ({}–{})", clocks.min_sm_mhz, clocks.max_sm_mhz);
    if (clocks.mean_power_w > 0.0) text += format_text(", {} W", fixed(clocks.mean_power_w, 0));
    const std::string limits = gpu::clock_limit_names(clocks.limits);
    return text + (limits.empty() ? "" : "; held back by " + limits);
}

std::string dtype_text(const std::string& dtype, const std::optional<std::string>& fp8_scaling) {
    return fp8_scaling && *fp8_scaling != "tensor" ? dtype + " " + *fp8_scaling : dtype;
}

std::string table_header() {
    return padded("#", 5) + padded("kernel", 22) + padded("M×N×K", 17) + padded("dtype", 7) + padded("mode", 5) +
           right("median ms", 11) + right("p20–p80 ms", 21) + right("noise", 8) + right("samples", 8) +
           right("GFLOP/s", 10) + right("GB/s†", 9) + right("end-to-end ms", 14) + "  check";
}

std::string table_row(const record::Point& p) {
    std::string row = padded(std::to_string(p.index + 1), 5) + padded(p.config, 22) +
                      padded(size_text(p.m, p.n, p.k, p.batch), 17) + padded(dtype_text(p.dtype, p.fp8_scaling), 7) +
                      padded(p.mode, 5);
    if (!p.ok) return row + "FAILED: " + p.error;
    row += right(ms_text(p.median_ms), 11);
    row += right(ms_text(p.p20_ms) + "–" + ms_text(p.p80_ms), 21);
    row += right(fixed(p.noise_pct, 1) + " %", 8);
    row += right(std::to_string(p.samples_ms.size()), 8);
    row += right(fixed(p.gflops, 1), 10);
    row += right(p.model_bandwidth_GBps ? fixed(*p.model_bandwidth_GBps, 1) : "n/a", 9);
    row += right(p.end_to_end_ms ? ms_text(*p.end_to_end_ms) : "-", 14);
    if (!p.checked) return row + "  -";
    // With the largest relative error against the exact (FP64) product: what the type costs.
    std::string error;
    if (p.max_rel_error) {
        std::ostringstream text;
        text << std::scientific << std::setprecision(1) << *p.max_rel_error;
        error = " (" + text.str() + ")";
    }
    return row + (p.check_passed ? "  pass" : "  FAIL") + error;
}

std::string progress_start(int index, int count, const gpu::RunRequest& request) {
    const int width = static_cast<int>(std::to_string(count).size());
    const model::Problem& p = request.problem;
    return format_text("[{}/{}] ", right(std::to_string(index + 1), width), count) +
           padded(model::describe(request.kernel), 22) + padded(size_text(p.m, p.n, p.k, p.batch), 17) +
           padded(dtype_text(std::string(model::dtype_name(p.dtype)),
                             p.dtype == model::Dtype::Fp8E4M3 ? std::optional<std::string>(model::fp8_scaling_name(p.fp8_scaling))
                                                              : std::nullopt),
                  7) +
           (request.hot ? "hot " : "");
}

std::string progress_result(const gpu::RunResult& result) {
    if (!result.ok) return "failed: " + result.error;
    std::string text = format_text("{} ms, noise {} % ({} samples, stopped by {})", ms_text(result.median_ms),
                              fixed(result.noise * 100.0, 1), result.samples_ms.size(), result.stop_reason);
    if (result.occupancy)
        text += format_text("; {} blocks/SM, {} registers/thread", result.occupancy->blocks_per_sm,
                       result.occupancy->registers_per_thread);
    if (result.tuned_variant >= 0)
        text += format_text("; ran candidate #{} ({}), {}", result.tuned_variant,
                            model::describe_candidate(result.request.kernel.kind, result.tuned_variant), result.tuned_source);
    if (result.clocks.readings > 0) text += "; " + clock_text(result.clocks);
    if (result.energy.measured) text += "; " + gpu::energy_short_text(result.energy, result.request.problem);
    if (result.checked && !result.check_passed) text += "; CHECK FAILED";
    if (!result.timing_warning.empty()) text += "; warning: " + result.timing_warning;
    if (result.gpu_queued && result.gpu_wait_s >= 0.05)
        text += format_text("; waited {} s for the GPU ({} ahead)", fixed(result.gpu_wait_s, 1), result.gpu_queue_ahead);
    if (result.gpu_shared) text += "; GPU SHARED: " + result.gpu_shared_note;
    return text;
}

model::KernelConfig kernel_that_ran(const gpu::RunResult& result) {
    model::KernelConfig kernel = result.request.kernel;
    if (result.tuned_variant >= 0) kernel.variant = result.tuned_variant;
    return kernel;
}

std::string occupancy_text(const gpu::RunResult& result, const model::DeviceLimits& limits) {
    if (!result.occupancy) return "";
    const gpu::KernelOccupancy& cuda = *result.occupancy;
    const auto model = model::kernel_occupancy(kernel_that_ran(result), result.request.problem, limits,
                                               cuda.registers_per_thread);
    if (model::is_tensor_core(result.request.kernel.kind)) {  // CUDA's figures alone (the model's: model/tensor_core/)
        std::string text = format_text("{} blocks/SM, {} registers/thread", cuda.blocks_per_sm, cuda.registers_per_thread);
        if (cuda.local_bytes_per_thread > 0) text += format_text(", {} B local memory (spills)", cuda.local_bytes_per_thread);
        return text;
    }
    if (const auto* why = std::get_if<std::string>(&model))
        return format_text("{}; CUDA: {} blocks/SM", *why, cuda.blocks_per_sm);
    const model::Occupancy& o = std::get<model::Occupancy>(model);
    std::string text = format_text("{}; {} registers/thread", model::describe(o), cuda.registers_per_thread);
    if (cuda.local_bytes_per_thread > 0) text += format_text(", {} B local memory (spills)", cuda.local_bytes_per_thread);
    if (o.blocks_per_sm != cuda.blocks_per_sm) text += format_text(" (CUDA says {} blocks/SM)", cuda.blocks_per_sm);
    return text;
}

std::string versus_cublas(const std::vector<gpu::RunResult>& results, const model::DeviceLimits& limits) {
    const auto same_problem = [](const model::Problem& a, const model::Problem& b) {
        return a.m == b.m && a.n == b.n && a.k == b.k && a.batch == b.batch && a.dtype == b.dtype &&
               a.fp8_scaling == b.fp8_scaling;
    };
    std::string text;
    for (const gpu::RunResult& cublas : results) {
        if (!cublas.ok || cublas.request.kernel.kind != model::KernelKind::Cublas || cublas.median_ms <= 0) continue;
        std::string lines;
        for (const gpu::RunResult& r : results) {
            if (!r.ok || r.request.kernel.kind == model::KernelKind::Cublas ||
                !same_problem(r.request.problem, cublas.request.problem) || r.request.hot != cublas.request.hot)
                continue;
            // The clock beside the ratio: with unlocked clocks, a kernel that draws more power per
            // cycle runs at a lower one under the power cap.
            const std::string clock = r.clocks.readings > 0 ? gpu::sm_clock_text(r.clocks) : std::string("-");
            lines += "  " + padded(model::describe(kernel_that_ran(r)), 22) +
                     right(fixed(100.0 * cublas.median_ms / r.median_ms, 1) + " %", 9) + right(clock, 14) + "  " +
                     occupancy_text(r, limits) + "\n";
        }
        if (lines.empty()) continue;
        const model::Problem& p = cublas.request.problem;
        text += format_text("{} {}: cuBLAS {} ms{}\n", size_text(p.m, p.n, p.k, p.batch), model::dtype_name(p.dtype),
                            ms_text(cublas.median_ms),
                            cublas.clocks.readings > 0 ? " at " + gpu::sm_clock_text(cublas.clocks) : "") +
                lines;
    }
    if (text.empty()) return text;
    return "against cuBLAS (its median over the kernel's, same size, type and mode; the SM clock while each ran):\n" +
           text;
}

std::string energy_table(const std::vector<gpu::RunResult>& results) {
    std::string rows, unavailable;
    const auto same_point = [](const gpu::RunResult& a, const gpu::RunResult& b) {
        const model::Problem &x = a.request.problem, &y = b.request.problem;
        return x.m == y.m && x.n == y.n && x.k == y.k && x.batch == y.batch && x.dtype == y.dtype &&
               x.fp8_scaling == y.fp8_scaling && a.request.hot == b.request.hot;
    };
    bool asked = false;
    for (const gpu::RunResult& r : results) {
        if (!r.ok || !r.request.energy) continue;
        asked = true;
        if (!r.energy.measured) {
            if (unavailable.empty()) unavailable = r.energy.unavailable;
            continue;
        }
        const model::Problem& p = r.request.problem;
        std::string versus = "-";
        for (const gpu::RunResult& cublas : results)
            if (cublas.ok && cublas.energy.measured && cublas.request.kernel.kind == model::KernelKind::Cublas &&
                r.request.kernel.kind != model::KernelKind::Cublas && same_point(cublas, r))
                versus = fixed(100.0 * gpu::joules_per_matmul(r.energy) / gpu::joules_per_matmul(cublas.energy), 1) + " %";
        rows += padded(model::describe(kernel_that_ran(r)), 22) + padded(size_text(p.m, p.n, p.k, p.batch), 17) +
                padded(std::string(model::dtype_name(p.dtype)), 7) +
                right(model::human_joules(gpu::joules_per_matmul(r.energy)), 12) +
                right(fixed(gpu::tflop_per_joule(r.energy, p), 3), 9) + right(fixed(gpu::average_watts(r.energy), 0), 7) +
                right(r.energy.mean_sm_mhz > 0 ? std::to_string(r.energy.mean_sm_mhz) : "-", 8) + right(versus, 11) +
                (r.energy.short_of_steps ? "  (counter moved too few steps: see the JSON's energy_note)" : "") + "\n";
    }
    if (!asked) return {};
    std::string text = "\nenergy (NVML's counter around launches back to back after the samples):\n";
    if (!rows.empty())
        text += padded("kernel", 22) + padded("M×N×K", 17) + padded("dtype", 7) + right("J/matmul", 12) +
                right("TFLOP/J", 9) + right("W", 7) + right("SM MHz", 8) + right("vs cuBLAS", 11) + "\n" + rows +
                "vs cuBLAS: the kernel's joules per matmul over cuBLAS's at the same size and type (below 100 % uses "
                "less)\n";
    if (!unavailable.empty()) text += "not measured for some points: " + unavailable + "\n";
    return text;
}

namespace {

std::string error_figure(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2e", value);
    return text;
}

// What a type's error against FP64 was measured on, in the words of error_vs_fp64_text.
std::string error_inputs_words(model::Dtype dtype) {
    if (model::is_fp8(dtype)) return "the FP32 inputs before quantisation";
    if (model::is_half_precision(dtype)) return format_text("the FP32 inputs before rounding to {}", model::dtype_name(dtype));
    return "the same FP32 inputs";
}

}  // namespace

std::string error_vs_fp64_text(const gpu::RunResult& result) {
    return format_text("max rel. error {}, RMS rel. error {} against FP64 on {}", error_figure(result.error_vs_fp64_max),
                       error_figure(result.error_vs_fp64_rms), error_inputs_words(result.request.problem.dtype));
}

std::string error_table(const std::vector<gpu::RunResult>& results) {
    std::string rows;
    for (const gpu::RunResult& r : results) {
        if (!gpu::has_error_vs_fp64(r)) continue;
        const model::Problem& p = r.request.problem;
        const std::optional<std::string> scaling =
            model::is_fp8(p.dtype) ? std::optional<std::string>(model::fp8_scaling_name(p.fp8_scaling)) : std::nullopt;
        rows += padded(model::describe(kernel_that_ran(r)), 22) + padded(size_text(p.m, p.n, p.k, p.batch), 17) +
                padded(dtype_text(std::string(model::dtype_name(p.dtype)), scaling), 10) +
                right(fixed(r.gflops / 1e3, 1), 9) + right(error_figure(r.error_vs_fp64_max), 11) +
                right(error_figure(r.error_vs_fp64_rms), 11) + "\n";
    }
    if (rows.empty()) return {};
    return "\nerror against FP64 (C against the exact product of the FP32 values every type's inputs start as: "
           "bf16 and fp16 round them, fp8 quantises them, float uses them as they are):\n" +
           padded("kernel", 22) + padded("M×N×K", 17) + padded("dtype", 10) + right("TFLOP/s", 9) + right("max rel.", 11) +
           right("RMS rel.", 11) + "\n" + rows;
}

std::string own_command_line(const std::string& fallback) {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (raw.empty()) return fallback;
    std::string line;
    std::size_t start = 0;
    while (start < raw.size()) {
        const std::size_t end = raw.find('\0', start);
        if (!line.empty()) line += ' ';
        line += shell_word(raw.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return line;
}

}  // namespace ts::cli
