#include "roofline.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "bench_report.hpp"
#include "model/format.hpp"
#include "model/occupancy.hpp"
#include "model/traffic.hpp"

namespace ts::cli {

using model::format_text;
using model::fixed;

namespace {

// Columns counted in code points, so "×" and "³" take one.
std::string column(const std::string& text, int width, bool right_aligned = false) {
    int shown = 0;
    for (unsigned char c : text) shown += (c & 0xC0) != 0x80;
    const std::string pad(static_cast<std::size_t>(std::max(width - shown, 1)), ' ');
    return right_aligned ? pad + text : text + pad;
}

// From 100 on, decimals only clutter: "51249", "973", but "51.0".
std::string rate(double value) { return fixed(value, value >= 100.0 ? 0 : 1); }

// "8/SM, 100 % (threads per SM)" from the model with the compiled kernel's registers.
std::string occupancy_cell(const gpu::RunResult& result, const model::DeviceLimits& limits) {
    if (!result.occupancy) return "-";
    const auto o = model::kernel_occupancy(result.request.kernel, result.request.problem, limits,
                                           result.occupancy->registers_per_thread);
    if (!std::holds_alternative<model::Occupancy>(o)) return format_text("{}/SM", result.occupancy->blocks_per_sm);
    const model::Occupancy& occupancy = std::get<model::Occupancy>(o);
    return format_text("{}/SM, {} % ({})", occupancy.blocks_per_sm, fixed(occupancy.occupancy * 100.0, 0),
                  model::limit_name(occupancy.limited_by));
}

gpu::RunRequest point_request(const Setup& setup) {
    gpu::RunRequest request = setup_request(setup);
    // Enough for a stable median of a point on a log-log plot; `tilescope bench` measures
    // more carefully and `tilescope check` checks.
    request.warmup_launches = 1;
    request.timed_launches = 5;
    request.adaptive = true;
    request.min_time_s = 0.2;
    request.budget_s = 1.0;
    request.check = false;
    return request;
}

}  // namespace

CLI::App* add_roofline_command(CLI::App& app, RooflineOptions& options) {
    CLI::App* roofline = app.add_subcommand(
        "roofline", "Measure the GPU's copy bandwidth and cuBLAS FP32 rate, and place every kernel under them");
    SweepLists& l = options.lists;
    roofline->add_option("--kernel", l.kernel, "kernels to place (default all); known: " + kernel_names());
    roofline->add_option("--size", l.size, "square sizes M = N = K (default 2048)");
    roofline->add_option("--tile", l.tile, "tile widths T of the tiled kernel (default 16,32)");
    roofline->add_option("--block", l.block, "block shapes XxY of naive and naive-row (default 16x16)");
    roofline->add_option("--threads", l.threads, "threads per block of row- and column-per-thread (default 128)");
    roofline->add_flag("--peaks", options.peaks_only, "measure the peaks only");
    return roofline;
}

std::string peaks_text(const gpu::RooflinePeaks& peaks) {
    std::string text = format_text("bandwidth {} GB/s ({})\n", rate(peaks.bandwidth_gbs), peaks.bandwidth_label);
    if (peaks.fp32_gflops <= 0.0) {
        text += "FP32      unknown: " + peaks.fp32_unavailable + '\n';
    } else {
        text += format_text("FP32      {} GFLOP/s ({})\n", rate(peaks.fp32_gflops), peaks.fp32_label);
        text += format_text("ridge     {} FLOP/byte: below it a kernel is limited by memory bandwidth, above it by arithmetic\n",
                            fixed(peaks.fp32_gflops / peaks.bandwidth_gbs, 1));
    }
    if (peaks.bf16_gflops <= 0.0) return text + "BF16      unknown: " + peaks.bf16_unavailable + '\n';
    text += format_text("BF16      {} GFLOP/s ({}), {}× FP32; its ridge at {} FLOP/byte\n", rate(peaks.bf16_gflops),
                        peaks.bf16_label,
                        peaks.fp32_gflops > 0.0 ? fixed(peaks.bf16_gflops / peaks.fp32_gflops, 1) : std::string("?"),
                        fixed(peaks.bf16_gflops / peaks.bandwidth_gbs, 1));
    return text;
}

double roof_gflops(const gpu::RooflinePeaks& peaks, double intensity) {
    const double slope = intensity * peaks.bandwidth_gbs;
    return peaks.fp32_gflops > 0.0 ? std::min(peaks.fp32_gflops, slope) : slope;
}

double point_intensity(const gpu::RunRequest& request, bool& compulsory) {
    const model::Problem& p = request.problem;
    const model::Traffic traffic = model::count_traffic(request.kernel, p);
    compulsory = !traffic.modelled;
    if (traffic.modelled) return traffic.arithmetic_intensity(model::dtype_size(p.dtype));
    return static_cast<double>(traffic.flops) / static_cast<double>(p.total_bytes());
}

std::string roofline_header() {
    return column("kernel", 22) + column("M×N×K", 17) + column("FLOP/B†", 9, true) + column("roof GFLOP/s", 14, true) +
           column("GFLOP/s", 10, true) + column("of roof", 9, true) + "  occupancy (model, compiled registers)";
}

std::string roofline_row(const gpu::RunResult& result, const gpu::RooflinePeaks& peaks,
                         const model::DeviceLimits& limits) {
    const model::Problem& p = result.request.problem;
    std::string row = column(model::describe(result.request.kernel), 22) + column(format_text("{}×{}×{}", p.m, p.n, p.k), 17);
    bool compulsory = false;
    const double intensity = point_intensity(result.request, compulsory);
    row += column(fixed(intensity, 2) + (compulsory ? "*" : ""), 9, true);
    const double roof = roof_gflops(peaks, intensity);
    row += column(rate(roof), 14, true);
    if (!result.ok) return row + "  FAILED: " + result.error;
    row += column(rate(result.gflops), 10, true);
    row += column(fixed(result.gflops / roof * 100.0, 0) + " %", 9, true);
    return row + "  " + occupancy_cell(result, limits);
}

int run_roofline(const RooflineOptions& options, std::ostream& out, std::ostream& err) {
    SweepLists lists = options.lists;
    if (!lists.kernel) lists.kernel = "all";
    if (!lists.size) lists.size = "2048";
    if (!lists.tile) lists.tile = "16,32";
    auto expanded = expand_sweep(lists);
    if (const auto* why = std::get_if<std::string>(&expanded)) {
        err << "tilescope roofline: " << *why << '\n';
        return 2;
    }
    const std::vector<Setup> setups = options.peaks_only ? std::vector<Setup>{} : std::get<std::vector<Setup>>(expanded);

    gpu::Runner runner;
    const auto usable = usable_device(runner, "roofline", err);
    if (!usable) return 2;
    const gpu::DeviceInfo& device = *usable;
    out << format_text("device    {} ({} SMs, compute capability {}.{})\n", device.limits.name, device.limits.sm_count,
                  device.limits.compute_major, device.limits.compute_minor);
    err << "measuring the peaks: a 1 GiB copy and cuBLAS SGEMM at 2048³, 4096³, 8192³…\n";
    gpu::RunRequest peaks_request;
    peaks_request.kind = gpu::RequestKind::Roofline;
    const gpu::RunResult peaks_result = runner.wait(runner.submit(peaks_request));
    if (!peaks_result.ok || !peaks_result.roofline) {
        err << "tilescope roofline: measuring the peaks failed: " << peaks_result.error << '\n';
        return 1;
    }
    const gpu::RooflinePeaks& peaks = *peaks_result.roofline;
    out << peaks_text(peaks);
    if (setups.empty()) return 0;

    std::vector<gpu::RunResult> results;
    for (std::size_t i = 0; i < setups.size(); ++i) {
        const gpu::RunRequest request = point_request(setups[i]);
        err << progress_start(static_cast<int>(i), static_cast<int>(setups.size()), request) << std::flush;
        results.push_back(runner.wait(runner.submit(request)));
        err << progress_result(results.back()) << '\n';
    }
    out << '\n' << roofline_header() << '\n';
    bool all_ran = true;
    for (const gpu::RunResult& result : results) {
        out << roofline_row(result, peaks, device.limits) << '\n';
        all_ran = all_ran && (result.ok || result.unsupported);
    }
    out << "† FLOP per byte the kernel asks global memory for (the model's count, before caches); * cuBLAS is not "
           "modelled: the least traffic any kernel needs, A and B read once and C written once. A point above its "
           "roof gets part of its data from L1 and L2 rather than DRAM.\n";
    return all_ran ? 0 : 1;
}

}  // namespace ts::cli
