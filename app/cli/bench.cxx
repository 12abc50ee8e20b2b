#include "bench.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "gpu/runner.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"

namespace ts::cli {

using model::format;

CLI::App* add_bench_command(CLI::App& app, BenchOptions& options) {
    CLI::App* bench = app.add_subcommand(
        "bench", "Run one kernel on the GPU; print latency, GFLOP/s and the error against a CPU reference");
    add_setup_options(*bench, options.setup);
    bench->add_option("--warmup", options.warmup, "untimed launches first")->capture_default_str();
    bench->add_option("--samples", options.samples, "timed launches; the median is reported")
        ->capture_default_str();
    bench->add_flag("!--no-check", options.check, "skip the CPU reference check");
    return bench;
}

namespace {

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

void print_row(std::ostream& out, const char* label, const std::string& value) {
    char padded[16];
    std::snprintf(padded, sizeof padded, "%-10s", label);
    out << padded << value << '\n';
}

}  // namespace

int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
    const auto resolved = resolve_setup(options.setup);
    if (const auto* why = std::get_if<std::string>(&resolved)) {
        err << "tilescope bench: " << *why << '\n';
        return 2;
    }
    if (options.warmup < 0 || options.samples < 1 || options.samples > 100000) {
        err << "tilescope bench: --warmup must be ≥ 0 and --samples between 1 and 100000\n";
        return 2;
    }
    const Setup& setup = std::get<Setup>(resolved);

    err << "probing the GPU…\n";
    gpu::Runner runner;
    const gpu::DeviceInfo device = runner.wait_for_device();
    if (!device.usable) {
        err << "tilescope bench: no usable GPU: " << device.why_not << '\n';
        return 2;
    }

    gpu::RunRequest request;
    request.kernel = setup.kernel;
    request.problem = setup.problem;
    request.warmup_launches = options.warmup;
    request.timed_launches = options.samples;
    request.check = options.check;

    const model::LaunchGeometry geometry = model::plan_launch(setup.kernel, setup.problem);
    const model::Problem& p = setup.problem;
    print_row(out, "device", format("{} ({} SMs, {} free, driver CUDA {}, runtime {})", device.limits.name,
                                    device.limits.sm_count, model::human_bytes(device.free_memory_bytes),
                                    device.driver_version, device.runtime_version));
    print_row(out, "kernel", model::describe(setup.kernel));
    print_row(out, "problem", format("M={} N={} K={} {}", p.m, p.n, p.k, model::dtype_name(p.dtype)));
    print_row(out, "launch", format("grid ({}, {}, {}) × block ({}, {}), {} shared per block", geometry.grid.x,
                                    geometry.grid.y, geometry.grid.z, geometry.block.x, geometry.block.y,
                                    model::human_bytes(geometry.shared_bytes)));
    if (auto why = model::check_launch(setup.kernel, setup.problem, device.limits))
        err << "the model predicts this launch fails: " << *why << "\nlaunching anyway to show the GPU's answer…\n";

    err << "running " << options.warmup << " warm-up and " << options.samples << " timed launches"
        << (options.check ? ", then checking against the CPU reference…\n" : "…\n");
    const gpu::RunResult result = runner.wait(runner.submit(request));
    if (!result.ok) {
        err << "tilescope bench: the run failed: " << result.error << '\n';
        return 1;
    }
    const auto [fastest, slowest] = std::minmax_element(result.samples_ms.begin(), result.samples_ms.end());
    print_row(out, "latency", format("{} ms (median of {} launches, min {} ms, max {} ms; CUDA events)",
                                     fixed(result.median_ms, 4), result.samples_ms.size(), fixed(*fastest, 4),
                                     fixed(*slowest, 4)));
    print_row(out, "GFLOP/s", fixed(result.gflops, 1));
    if (!result.checked) {
        print_row(out, "check", "skipped (--no-check)");
        return 0;
    }
    print_row(out, "check", result.check_summary);
    return result.check_passed ? 0 : 1;
}

}  // namespace ts::cli
