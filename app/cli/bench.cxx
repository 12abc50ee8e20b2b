#include "bench.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <ostream>

#include "bench_report.hpp"
#include "gpu/energy.hpp"
#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "gpu/worker_target.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "record/utc_time.hpp"

#ifndef TILESCOPE_VERSION
#define TILESCOPE_VERSION "unknown"
#endif

namespace ts::cli {

using model::format_text;
using model::fixed;

namespace {

// Sweeps check points up to this many multiply-adds (1024³) against the CPU reference:
// above it the reference takes seconds per point. A single point is always checked.
constexpr double kSweepCheckLimit = 1024.0 * 1024.0 * 1024.0;

void print_row(std::ostream& out, const char* label, const std::string& value) {
    char padded[16];
    std::snprintf(padded, sizeof padded, "%-10s", label);
    out << padded << value << '\n';
}

bool same_problem(const model::Problem& x, const model::Problem& y) {
    return x.m == y.m && x.n == y.n && x.k == y.k && x.batch == y.batch && x.dtype == y.dtype;
}

double work(const model::Problem& p) {
    return static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) *
           static_cast<double>(p.batch);
}

std::optional<std::string> check_numbers(const BenchOptions& o) {
    if (o.warmup < 0 || o.warmup > 1000) return "--warmup must be between 0 and 1000";
    if (o.samples < 1 || o.samples > 100000) return "--samples must be between 1 and 100000";
    if (o.max_samples < o.samples || o.max_samples > 1000000)
        return "--max-samples must be at least --samples and at most 1000000";
    if (!(o.budget_s > 0.0) || o.budget_s > 3600.0) return "--budget must be more than 0 and at most 3600 seconds";
    if (!(o.max_noise_pct >= 0.0)) return "--max-noise must be 0 or more (percent)";
    if (!(o.min_time_s >= 0.0)) return "--min-time must be 0 or more seconds";
    if (!(o.settle_s >= 0.0) || o.settle_s > 600.0) return "--settle must be between 0 and 600 seconds";
    if (o.end_to_end_runs < 0 || o.end_to_end_runs > 100) return "--e2e-runs must be between 0 and 100";
    if (!(o.energy_max_s >= gpu::kEnergyMinSeconds) || o.energy_max_s > 600.0)
        return format_text("--energy-max must be between {} and 600 seconds", gpu::kEnergyMinSeconds);
    if (!(o.cpu_limit_s > 0.0)) return "--cpu-limit must be more than 0 seconds";
    if (!o.sweep.empty() && o.sweep != "default") return format_text("--sweep knows only \"default\", got \"{}\"", o.sweep);
    if (!o.sweep.empty() && o.lists.any_given())
        return "--sweep default chooses its own kernels, sizes and types; drop --kernel, --size, --m, --n, --k, "
               "--tile, --block, --threads, --dtype, --scaling and --batch, or drop --sweep";
    return std::nullopt;
}

gpu::RunRequest request_for(const Setup& setup, const BenchOptions& o, bool check) {
    gpu::RunRequest request = setup_request(setup);
    request.warmup_launches = o.warmup;
    request.timed_launches = o.samples;
    request.adaptive = !o.fixed;
    request.hot = o.hot;
    request.max_noise = o.max_noise_pct / 100.0;
    request.min_time_s = o.min_time_s;
    request.budget_s = o.budget_s;
    request.max_samples = o.max_samples;
    request.settle_s = o.settle_s;
    request.end_to_end_runs = o.end_to_end_runs;
    request.energy = o.energy;
    request.energy_max_s = o.energy_max_s;
    request.check = check;
    return request;
}

std::string timing_words(const gpu::RunRequest& r) {
    std::string words = r.hot ? "hot: launches back to back, L2 warm" : "cold: L2 flushed before each launch";
    words += r.adaptive ? format_text("; at least {} samples, then until noise ≤ {} % or {} s of samples (budget {} s)",
                                 r.timed_launches, r.max_noise * 100.0, r.min_time_s, r.budget_s)
                        : format_text("; exactly {} samples", r.timed_launches);
    if (r.settle_s > 0.0) words += format_text("; after {} s of untimed launches to settle the clocks", r.settle_s);
    if (r.energy)
        words += format_text("; then energy from launches back to back for {} s or more, until NVML's counter moved "
                             "{} of its steps (at most {} s)",
                             gpu::kEnergyMinSeconds, static_cast<int>(gpu::kEnergyStepsNeeded), r.energy_max_s);
    return words;
}

// FP8: the GPU's time to quantise A and B, which the latency leaves out.
std::string fp8_quantize_text(const gpu::RunResult& result) {
    return format_text("{} ms to quantise A and B from FP32 to e4m3 with {} scales on the GPU (CUDA events; not in the "
                       "latency)",
                       fixed(result.quantize_ms, 4), model::fp8_scaling_name(result.request.problem.fp8_scaling));
}

// The old single-run report, with the timing details added below it.
int print_single(std::ostream& out, const gpu::RunResult& result, const record::Point& point,
                 const model::DeviceLimits& limits) {
    const gpu::RunRequest& r = result.request;
    const auto [fastest, slowest] = std::minmax_element(result.samples_ms.begin(), result.samples_ms.end());
    print_row(out, "latency", format_text("{} ms (median of {} launches, min {} ms, max {} ms; CUDA events{})",
                                     fixed(result.median_ms, 4), result.samples_ms.size(), fixed(*fastest, 4),
                                     fixed(*slowest, 4), r.hot ? "; HOT" : ""));
    print_row(out, "spread", format_text("p20 {} ms, p80 {} ms, noise {} % (stopped by {}; {})", fixed(result.p20_ms, 4),
                                    fixed(result.p80_ms, 4), fixed(result.noise * 100.0, 2), result.stop_reason,
                                    r.hot ? "hot" : "cold, L2 flushed"));
    print_row(out, "GFLOP/s", fixed(result.gflops, 1));
    print_row(out, "clock", clock_text(result.clocks));
    if (r.energy) {
        if (result.energy.measured) {
            print_row(out, "energy", gpu::energy_short_text(result.energy, r.problem));
            print_row(out, "", gpu::energy_method_text(result.energy));
        } else {
            print_row(out, "energy", "not measured: " + result.energy.unavailable);
        }
    }
    if (const std::string occupancy = occupancy_text(result, limits); !occupancy.empty())
        print_row(out, "occupancy", occupancy);
    if (point.model_bandwidth_GBps)
        print_row(out, "traffic", format_text("{} GB/s (model traffic {} / time: bytes the kernel asks for, before caches)",
                                         fixed(*point.model_bandwidth_GBps, 1),
                                         model::human_bytes(*point.model_traffic_bytes)));
    else
        print_row(out, "traffic", "not modelled for this kernel");
    if (point.end_to_end_ms)
        print_row(out, "end2end", format_text("{} ms (host clock: cudaMalloc + copies in + launch + copy out; median of {})",
                                         ms_text(*point.end_to_end_ms), result.end_to_end_ms.size()));
    if (point.cpu_triple_loop_ms)
        print_row(out, "CPU", format_text("{} ({} of the single-thread i-j-k loop{}): GPU {}× faster",
                                     model::human_seconds(*point.cpu_triple_loop_ms / 1e3),
                                     *point.cpu_is_estimate ? "estimate" : "measured time",
                                     *point.cpu_is_estimate ? ", scaled from " + point.cpu_estimated_from : "",
                                     fixed(*point.cpu_triple_loop_ms / result.median_ms, 0)));
    if (!result.timing_warning.empty()) print_row(out, "warning", result.timing_warning);
    if (model::is_fp8(r.problem.dtype)) print_row(out, "quantise", fp8_quantize_text(result));
    if (!result.checked) {
        print_row(out, "check", "skipped (--no-check)");
        return 0;
    }
    print_row(out, "check", result.check_summary);
    if (gpu::has_error_vs_fp64(result)) print_row(out, "vs FP64", error_vs_fp64_text(result));
    return result.check_passed ? 0 : 1;
}

// Each FP8 point's quantisation time, below a sweep's table (its error against FP64 is in error_table's).
void print_fp8_points(std::ostream& out, const std::vector<gpu::RunResult>& results) {
    bool first = true;
    for (const gpu::RunResult& result : results) {
        if (!result.ok || !model::is_fp8(result.request.problem.dtype)) continue;
        if (first) out << "\nFP8 points: the quantisation of A and B:\n";
        first = false;
        out << "  " << gpu::describe_point(result.request) << ": " << fp8_quantize_text(result) << '\n';
    }
}

void print_cpu_comparison(std::ostream& out, const std::vector<record::Point>& points) {
    // Per problem: the CPU time and the fastest GPU kernel.
    std::map<std::string, const record::Point*> fastest;
    for (const record::Point& p : points) {
        if (!p.ok || !p.cpu_triple_loop_ms) continue;
        const std::string key = format_text("{}×{}×{} ×{} {}", p.m, p.n, p.k, p.batch, p.dtype);
        if (!fastest.contains(key) || p.median_ms < fastest[key]->median_ms) fastest[key] = &p;
    }
    if (fastest.empty()) return;
    out << "\nCPU, single-thread i-j-k triple loop, against the fastest GPU kernel of each problem:\n";
    for (const auto& [key, p] : fastest)
        out << "  " << key << ": CPU " << model::human_seconds(*p->cpu_triple_loop_ms / 1e3)
            << (*p->cpu_is_estimate ? " (estimate, scaled by M·N·K from " + p->cpu_estimated_from + ")"
                                    : " (measured)")
            << "; " << p->config << " " << ms_text(p->median_ms)
            << " ms: " << fixed(*p->cpu_triple_loop_ms / p->median_ms, 0) << "× faster\n";
}

}  // namespace

CLI::App* add_bench_command(CLI::App& app, BenchOptions& options) {
    CLI::App* bench = app.add_subcommand(
        "bench", "Measure kernels on the GPU: one point, or a sweep over lists and ranges (256:4096:x2, 100:400:+100)");
    SweepLists& l = options.lists;
    bench->add_option("--kernel", l.kernel, "kernels to measure, e.g. naive,tiled,cublas, or all, or ladder (tiled T=32, every rung of the "
                                            "ladder and cuBLAS; default tiled), or tc-ladder (every tensor-core "
                                            "rung and cuBLAS in bf16, and cuBLAS in float); "
                                            "known: " + kernel_names());
    bench->add_option("--size", l.size, "square sizes M = N = K, e.g. 256:4096:x2 (default 1024)");
    bench->add_option("--m", l.m, "rows of A and C (list or range; replaces --size for M)");
    bench->add_option("--n", l.n, "columns of B and C (list or range)");
    bench->add_option("--k", l.k, "columns of A, rows of B (list or range)");
    bench->add_option("--tile", l.tile, "tile widths T of the tiled kernel, 1..32 (default 16)");
    bench->add_option("--block", l.block, "block shapes XxY of naive and naive-row, e.g. 32x32,16x16 (default 16x16)");
    bench->add_option("--threads", l.threads, "threads per block of row- and column-per-thread (default 128)");
    bench->add_option("--dtype", l.dtype,
                      "element types: int32, float, double, bf16, fp16, fp8 (e4m3 in, BF16 out, C = A·Bᵀ; the fp8 "
                      "rungs and cuBLAS) (default float; bf16 for tc-ladder)");
    bench->add_option("--batch", l.batch, "matrices per launch (default 1)");
    bench->add_option("--scaling", l.scaling,
                      "fp8's scales: tensor (one per matrix), block (A 1×128 along K, B 128×128), or both: "
                      "tensor,block (default tensor, or the fp8 rungs' own: fp8 tensor, fp8-blocks block)");
    bench->add_option("--sweep", options.sweep, "\"default\": the full default sweep (takes minutes; --plan shows it)");
    bench->add_flag("--plan", options.plan, "list the points and the estimated time; measure nothing");
    bench->add_option("--warmup", options.warmup, "untimed launches first")->capture_default_str();
    bench->add_option("--samples", options.samples, "timed launches per point, at least")->capture_default_str();
    bench->add_flag("--fixed", options.fixed, "take exactly --samples, no adaptive stopping");
    bench->add_flag("--hot", options.hot, "launch back to back without flushing L2 (labelled hot)");
    bench->add_option("--budget", options.budget_s,
                      "wall-time budget per point in seconds, warm-up included (--samples are always taken)")
        ->capture_default_str();
    bench->add_option("--max-noise", options.max_noise_pct, "stop once stdev/mean is at most this (percent)")
        ->capture_default_str();
    bench->add_option("--min-time", options.min_time_s, "or once the samples add up to this (seconds)")
        ->capture_default_str();
    bench->add_option("--max-samples", options.max_samples, "or at this many samples")->capture_default_str();
    bench->add_option("--settle", options.settle_s,
                      "untimed launches for this many seconds after the warm-up, so that each kernel is timed at "
                      "the clock its own power sets under the power cap (not on the budget)")
        ->capture_default_str();
    bench->add_option("--e2e-runs", options.end_to_end_runs,
                      "host-clock runs of malloc + copies + launch + copy back per point (0: none)")
        ->capture_default_str();
    bench->add_flag("!--no-energy", options.energy,
                    "skip the energy: by default each point then runs back to back for 0.5 s or more while NVML's "
                    "energy counter is read, for joules per matmul, TFLOP/J and watts");
    bench->add_option("--energy-max", options.energy_max_s,
                      "at most this many seconds of back-to-back launches per point for the energy")
        ->capture_default_str();
    bench->add_flag("!--no-check", options.check, "skip the CPU reference check");
    bench->add_flag("--check-all", options.check_all, "check sweep points above 1024³ too (slow)");
    bench->add_flag("--cpu", options.cpu, "time the single-thread CPU triple loop (estimates beyond --cpu-limit)");
    bench->add_option("--cpu-limit", options.cpu_limit_s, "run the CPU loop only where it takes at most this (s)")
        ->capture_default_str();
    bench->add_option("--csv", options.csv, "write one row per point to this CSV file");
    bench->add_option("--json", options.json, "write metadata and every sample to this JSON file");
    bench->add_option("--json-samples", options.json_samples,
                      "all: every sample in --json; none: their count only (a compact file, as `compact` writes)")
        ->check(CLI::IsMember({"all", "none"}))
        ->capture_default_str();
    bench->add_option("--gpu", options.gpu,
                      "measure in a GPU worker: local (a worker on this machine), ssh://[user@]host[:port] (on a server, "
                      "through ssh), slurm or slurm:PARTITION; each point then takes its turn at that GPU among "
                      "everyone's (default: in this process)")
        ->type_name("SPEC");
    return bench;
}

record::SampleList json_sample_list(const BenchOptions& options) {
    return options.json_samples == "none" ? record::SampleList::CountOnly : record::SampleList::All;
}

int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
    if (auto why = check_numbers(options)) {
        err << "tilescope bench: " << *why << '\n';
        return 2;
    }
    std::vector<Setup> setups;
    if (options.sweep == "default") {
        setups = default_sweep();
    } else {
        auto expanded = expand_sweep(options.lists);
        if (auto* why = std::get_if<std::string>(&expanded)) {
            err << "tilescope bench: " << *why << '\n';
            return 2;
        }
        setups = std::get<std::vector<Setup>>(std::move(expanded));
    }
    const bool single = setups.size() == 1;
    std::vector<gpu::RunRequest> requests;
    double estimate_s = 0.0;
    for (const Setup& setup : setups) {
        const bool check = options.check && (single || options.check_all || work(setup.problem) <= kSweepCheckLimit);
        requests.push_back(request_for(setup, options, check));
        estimate_s += estimate_seconds(requests.back());
    }

    if (options.plan) {
        for (std::size_t i = 0; i < requests.size(); ++i)
            out << progress_start(static_cast<int>(i), static_cast<int>(requests.size()), requests[i])
                << model::human_seconds(estimate_seconds(requests[i])) << (requests[i].check ? ", checked" : "")
                << '\n';
        out << requests.size() << " points, about " << duration_text(estimate_s)
            << " (rough: kernel rates seen on an H200)\n";
        return 0;
    }
    // Fail on an unwritable output now, not after minutes of measuring.
    for (const std::string* file : {&options.csv, &options.json})
        if (!file->empty())
            if (auto why = record::save_text(*file, "")) {
                err << "tilescope bench: " << *why << '\n';
                return 2;
            }

    std::optional<gpu::WorkerTarget> worker_target;
    if (!options.gpu.empty()) {
        auto parsed = gpu::parse_worker_target(options.gpu);
        if (const auto* why = std::get_if<std::string>(&parsed)) {
            err << "tilescope bench: " << *why << '\n';
            return 2;
        }
        worker_target = std::get<gpu::WorkerTarget>(std::move(parsed));
    }
    const auto backend = [&] {
        if (!worker_target) return gpu::RunnerBackend{gpu::probe_device, gpu::run_request, gpu::release_gpu_resources};
        gpu::SupervisorOptions supervisor = gpu::supervisor_options(*worker_target);
        supervisor.estimate_s = estimate_seconds;
        return gpu::supervised_backend(std::move(supervisor));
    };
    gpu::Runner runner(backend());
    const auto usable = usable_device(runner, "bench", err);
    if (!usable) return 2;
    const gpu::DeviceInfo& device = *usable;
    print_row(out, "device", format_text("{}{} ({} SMs, {} free, driver CUDA {}, runtime {})", device.limits.name,
                                    device.remote ? " on " + device.host : std::string(), device.limits.sm_count, model::human_bytes(device.free_memory_bytes),
                                    device.driver_version, device.runtime_version));
    if (single) {
        const Setup& setup = setups.front();
        const model::Problem& p = setup.problem;
        print_row(out, "kernel", model::describe(setup.kernel));
        print_row(out, "problem", format_text("M={} N={} K={}{} {}", p.m, p.n, p.k,
                                         p.batch > 1 ? format_text(" batch={}", p.batch) : "", model::dtype_name(p.dtype)));
        if (model::is_fp8(p.dtype))
            print_row(out, "fp8", format_text("C (BF16) = A·Bᵀ, A {}×{} and B {}×{} in e4m3, {} scales, FP32 sums", p.m,
                                              p.k, p.n, p.k, model::fp8_scaling_name(p.fp8_scaling)));
        if (model::is_modelled(setup.kernel.kind)) {
            const model::LaunchGeometry g = model::plan_launch(setup.kernel, p);
            print_row(out, "launch",
                      format_text("grid ({}, {}, {}) × block ({}, {}), {} shared per block", g.grid.x, g.grid.y, g.grid.z,
                             g.block.x, g.block.y, model::human_bytes(g.shared_bytes)));
        }
        if (auto why = model::check_launch(setup.kernel, p, device.limits))
            err << "the model predicts this launch fails: " << *why
                << "\nlaunching anyway to show the GPU's answer…\n";
    } else {
        print_row(out, "timing", timing_words(requests.front()));
    }
    err << requests.size() << (single ? " point" : " points") << ", about " << duration_text(estimate_s)
        << " (rough estimate); " << timing_words(requests.front()) << '\n';

    // ---- The GPU points, one at a time, with a running estimate of what is left -------
    const auto began = std::chrono::steady_clock::now();
    double estimated_done_s = 0.0;
    std::vector<gpu::RunResult> results;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        err << progress_start(static_cast<int>(i), static_cast<int>(requests.size()), requests[i]) << std::flush;
        results.push_back(runner.wait(runner.submit(requests[i])));
        estimated_done_s += estimate_seconds(requests[i]);
        const double spent_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        // What is left, scaled by how the estimate has done so far.
        const double left_s = (estimate_s - estimated_done_s) * spent_s / std::max(estimated_done_s, 1e-9);
        err << progress_result(results.back());
        if (i + 1 < requests.size()) err << "; about " << duration_text(left_s) << " left";
        err << '\n';
    }

    // ---- The CPU triple loop, once per distinct problem --------------------------------
    std::vector<std::optional<gpu::CpuTime>> cpu_times(requests.size());
    if (options.cpu) {
        std::vector<model::Problem> problems;
        for (const gpu::RunRequest& r : requests)
            if (std::none_of(problems.begin(), problems.end(),
                             [&](const model::Problem& q) { return same_problem(q, r.problem); }))
                problems.push_back(r.problem);
        const std::vector<gpu::CpuTime> times =
            gpu::cpu_baseline(problems, options.cpu_limit_s, [&](const model::Problem& p) {
                err << format_text("CPU triple loop (one thread): {}×{}×{} {}…\n", p.m, p.n, p.k,
                              model::dtype_name(p.dtype));
            });
        for (std::size_t i = 0; i < requests.size(); ++i)
            for (const gpu::CpuTime& t : times)
                if (same_problem(t.problem, requests[i].problem)) cpu_times[i] = t;
    }

    // ---- Report and record --------------------------------------------------------------
    record::Measurement measurement;
    measurement.meta.tilescope_version = TILESCOPE_VERSION;
    measurement.meta.date_utc = record::utc_now();
    measurement.meta.command_line = own_command_line("tilescope bench");
    measurement.meta.device = device_record(device);
    if (device.remote) measurement.meta.device.host = device.host;
    measurement.meta.timing = timing_record(requests.front());
    bool all_good = true;
    for (std::size_t i = 0; i < results.size(); ++i) {
        record::Point point = point_record(static_cast<int>(i), results[i], cpu_times[i]);
        if (results[i].ok && !requests[i].check && options.check)
            point.check_summary = "not checked: sweeps check up to 1024³ (--check-all checks every point)";
        // A point this GPU cannot run through no fault of a kernel (cuBLAS missing, or
        // asked for int32) is recorded with its reason but does not fail the run.
        const bool ran_or_skipped = results[i].ok || results[i].unsupported;
        all_good = all_good && ran_or_skipped && (!results[i].checked || results[i].check_passed);
        measurement.points.push_back(std::move(point));
    }

    int code = all_good ? 0 : 1;
    if (single) {
        const gpu::RunResult& result = results.front();
        if (!result.ok) {
            err << "tilescope bench: the run failed: " << result.error << '\n';
        } else {
            code = print_single(out, result, measurement.points.front(), device.limits);
        }
    } else {
        out << table_header() << '\n';
        for (const record::Point& point : measurement.points) out << table_row(point) << '\n';
        out << "† model traffic / time: the bytes the kernel asks global memory for (before caches) over the median "
               "time; end-to-end: host clock around cudaMalloc, copies, launch and copy back (not kernel time)\n";
        print_cpu_comparison(out, measurement.points);
        print_fp8_points(out, results);
        out << error_table(results);
        out << versus_cublas(results, device.limits);
        out << energy_table(results);
    }

    if (!options.csv.empty())
        if (auto why = record::save_text(options.csv, record::to_csv(measurement))) {
            err << "tilescope bench: " << *why << '\n';
            code = 1;
        }
    if (!options.json.empty())
        if (auto why = record::save_text(options.json, record::to_json(measurement, json_sample_list(options)))) {
            err << "tilescope bench: " << *why << '\n';
            code = 1;
        }
    return code;
}

}  // namespace ts::cli
