#include "tune.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <variant>

#include "bench_report.hpp"
#include "gpu/clock_watch.hpp"
#include "gpu/energy.hpp"
#include "gpu/tuned_shapes.hpp"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/ladder_rungs.hpp"
#include "model/launch_geometry.hpp"
#include "sweep.hpp"

namespace ts::cli {

using model::fixed;
using model::format_text;

CLI::App* add_tune_command(CLI::App& app, TuneOptions& options) {
    CLI::App* tune = app.add_subcommand(
        "tune", "Measure every shape of a tuned rung (12 tuned, 19 tc-tuned) at a few sizes on this GPU and keep the "
                "fastest per size");
    tune->add_option("--kernel", options.kernel, "the rung to tune: tuned (float) or tc-tuned (bf16 or fp16)")
        ->capture_default_str();
    tune->add_option("--dtype", options.dtype, "the element type: float for tuned; bf16 (default) or fp16 for tc-tuned");
    tune->add_option("--size", options.sizes, "square sizes to tune at, e.g. 1024,2048,4096")->capture_default_str();
    tune->add_option("--output", options.output,
                     "the tuning table to update (default: " + gpu::user_tuning_path().string() + ")");
    tune->add_option("--budget", options.budget_s, "seconds of samples per candidate and size, at most")
        ->capture_default_str();
    tune->add_option("--settle", options.settle_s,
                     "seconds of untimed launches before each candidate's samples, so that each is timed at the clock "
                     "its own power sets under the power cap")
        ->capture_default_str();
    tune->add_flag("--energy", options.energy,
                   "also each candidate's joules per matmul (launches back to back for 0.5 s or more after its samples)");
    tune->add_flag("--plan", options.plan, "list the candidates and sizes without measuring");
    return tune;
}

model::TuningSection winners(const std::string& gpu, model::KernelKind rung, const std::vector<TuneMeasurement>& measured) {
    std::map<std::int64_t, const TuneMeasurement*> best;
    for (const TuneMeasurement& m : measured) {
        if (m.median_ms <= 0.0) continue;
        auto& slot = best[m.size];
        if (!slot || m.median_ms < slot->median_ms) slot = &m;
    }
    model::TuningSection section{gpu, {}, rung};
    for (const auto& [size, m] : best) section.rows.push_back({size, m->variant});
    if (!section.rows.empty()) section.rows.push_back({0, section.rows.back().variant});
    return section;
}

std::string tune_table(model::KernelKind rung, const std::vector<TuneMeasurement>& measured,
                       const std::vector<TuneMeasurement>& cublas) {
    std::set<std::int64_t> sizes;
    std::map<std::int64_t, double> best;
    for (const TuneMeasurement& m : measured) {
        sizes.insert(m.size);
        if (m.median_ms > 0.0 && (!best.contains(m.size) || m.median_ms < best[m.size])) best[m.size] = m.median_ms;
    }
    const auto cell = [](const std::string& text) { return padded(text, 22); };
    std::string text = padded("candidate", 46);
    for (std::int64_t size : sizes) text += cell(format_text("{}³ ms (% of best)", size));
    text += '\n';
    for (int variant = 0; variant < model::tuned_candidate_count(rung); ++variant) {
        std::string row = padded(format_text("#{} {}", variant, model::describe_candidate(rung, variant)), 46);
        bool any = false;
        for (std::int64_t size : sizes) {
            const auto found = std::find_if(measured.begin(), measured.end(), [&](const TuneMeasurement& m) {
                return m.size == size && m.variant == variant;
            });
            if (found == measured.end()) {
                row += cell("");
                continue;
            }
            any = true;
            if (found->median_ms <= 0.0) {
                row += cell("did not run");
                continue;
            }
            const bool winner = found->median_ms == best[size];
            row += cell(format_text("{} ({} %){}", fixed(found->median_ms, 3), fixed(100.0 * best[size] / found->median_ms, 1),
                                    winner ? " *" : ""));
        }
        if (any) text += row + '\n';
    }
    if (!cublas.empty()) {
        std::string row = padded("cuBLAS (for comparison)", 46);
        for (std::int64_t size : sizes) {
            const auto found = std::find_if(cublas.begin(), cublas.end(), [&](const TuneMeasurement& m) { return m.size == size; });
            row += cell(found == cublas.end() || found->median_ms <= 0.0
                            ? "-"
                            : format_text("{} (best {} %)", fixed(found->median_ms, 3),
                                          fixed(100.0 * found->median_ms / best[size], 1)));
        }
        text += row + '\n';
    }
    return text + "* fastest at that size; cold L2, medians of CUDA-event times\n";
}

namespace {

gpu::RunRequest tune_request(model::KernelConfig kernel, std::int64_t size, model::Dtype dtype, double budget_s,
                             double settle_s, bool check, bool energy) {
    gpu::RunRequest request;
    request.kernel = kernel;
    request.problem = {size, size, size, 1, dtype};
    request.warmup_launches = 2;
    request.timed_launches = 5;
    request.adaptive = true;
    request.max_noise = 0.01;
    request.min_time_s = std::min(0.3, budget_s);
    request.budget_s = budget_s;
    request.max_samples = 2000;
    request.settle_s = settle_s;
    request.check = check;
    request.energy = energy;
    return request;
}

}  // namespace

int run_tune(const TuneOptions& options, std::ostream& out, std::ostream& err) {
    const auto rung = model::parse_kernel(options.kernel);
    if (!rung || !model::is_tuned(*rung)) {
        err << format_text("tilescope tune: --kernel must be tuned or tc-tuned, got \"{}\"\n", options.kernel);
        return 2;
    }
    const model::KernelKind kind = *rung;
    const std::string dtype_text = options.dtype.empty() ? (kind == model::KernelKind::Tuned ? "float" : "bf16")
                                                         : options.dtype;
    const auto dtype = model::parse_dtype(dtype_text);
    if (!dtype) {
        err << format_text("tilescope tune: --dtype must be float, bf16 or fp16, got \"{}\"\n", dtype_text);
        return 2;
    }
    if (auto why = model::dtype_unsupported(kind, *dtype)) {
        err << "tilescope tune: " << *why << '\n';
        return 2;
    }
    const int candidates = model::tuned_candidate_count(kind);
    auto parsed = parse_number_list("--size", options.sizes);
    if (const auto* why = std::get_if<std::string>(&parsed)) {
        err << "tilescope tune: " << *why << '\n';
        return 2;
    }
    std::vector<std::int64_t> sizes = std::get<0>(parsed);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (std::int64_t size : sizes)
        if (auto why = model::validate({size, size, size, 1, *dtype})) {
            err << format_text("tilescope tune: --size {}: {}\n", size, *why);
            return 2;
        }
    if (!(options.budget_s > 0.0) || options.budget_s > 60.0) {
        err << "tilescope tune: --budget must be more than 0 and at most 60 seconds\n";
        return 2;
    }
    if (!(options.settle_s >= 0.0) || options.settle_s > 60.0) {
        err << "tilescope tune: --settle must be between 0 and 60 seconds\n";
        return 2;
    }
    const std::filesystem::path path = options.output.empty() ? gpu::user_tuning_path() : std::filesystem::path(options.output);
    if (options.plan) {
        out << format_text("{} candidates of {} × {} sizes, {}, cold L2; winners go to {}\n", candidates,
                           model::kernel_name(kind), sizes.size(), model::dtype_name(*dtype), path.string());
        for (int variant = 0; variant < candidates; ++variant) {
            model::KernelConfig candidate{.kind = kind, .variant = variant};
            int threads = 0, shared = 0;
            if (kind == model::KernelKind::Tuned) {
                const model::LadderShape s = model::kTunedCandidates[variant];
                threads = s.threads();
                shared = model::ladder_shared_bytes(s, 4);
            } else {
                const model::TcBlockTile t = model::tc_block_tile(candidate);
                threads = t.threads;
                shared = t.shared_bytes;
            }
            out << format_text("  #{} {}: {} threads, {} of shared memory\n", variant,
                               model::describe_candidate(kind, variant), threads, model::human_bytes(shared));
        }
        return 0;
    }

    gpu::Runner runner;
    const auto usable = usable_device(runner, "tune", err);
    if (!usable) return 2;
    const gpu::DeviceInfo& device = *usable;
    const std::string& gpu_name = device.limits.name;
    std::vector<TuneMeasurement> measured, cublas;
    int failed_checks = 0;
    const int total = static_cast<int>(sizes.size()) * (candidates + 1);
    int done = 0;
    for (std::int64_t size : sizes) {
        for (int variant = -1; variant < candidates; ++variant) {
            model::KernelConfig kernel{.kind = variant < 0 ? model::KernelKind::Cublas : kind, .variant = variant};
            const std::string name = variant < 0 ? "cuBLAS" : format_text("#{}", variant);
            err << format_text("[{}/{}] {} at {}³: ", ++done, total, name, size);
            TuneMeasurement m{size, variant, 0.0, {}};
            std::string clock;
            if (auto why = model::check_launch(kernel, {size, size, size, 1, *dtype}, device.limits)) {
                m.error = *why;
            } else {
                // Each candidate is checked once, at the smallest size: they are one kernel.
                const bool check = variant >= 0 && size == sizes.front();
                const gpu::RunResult result =
                    runner.wait(runner.submit(tune_request(kernel, size, *dtype, options.budget_s, options.settle_s, check,
                                                           options.energy)));
                // The clock beside the time: under the power cap two candidates may run at different ones.
                if (result.ok && result.clocks.readings > 0) clock = " at " + gpu::sm_clock_text(result.clocks);
                if (result.ok && result.energy.measured)
                    clock += "; " + gpu::energy_short_text(result.energy, result.request.problem) + " at SM " +
                             std::to_string(result.energy.mean_sm_mhz) + " MHz back to back";
                else if (result.ok && options.energy)
                    clock += "; energy not measured: " + result.energy.unavailable;
                if (!result.ok) m.error = result.error;
                else if (result.checked && !result.check_passed) {
                    m.error = "wrong result: " + result.check_summary;
                    ++failed_checks;
                } else m.median_ms = result.median_ms;
            }
            err << (m.median_ms > 0 ? format_text("{} ms{}\n", fixed(m.median_ms, 3), clock) : "did not run: " + m.error + "\n");
            (variant < 0 ? cublas : measured).push_back(m);
        }
    }
    out << format_text("{}, {}, {}, cold L2:\n", gpu_name, model::kernel_name(kind), model::dtype_name(*dtype))
        << tune_table(kind, measured, cublas);

    const model::TuningSection section = winners(gpu_name, kind, measured);
    if (section.rows.empty()) {
        err << "tilescope tune: no candidate ran; the table is left as it was\n";
        return 1;
    }
    // Merge into the existing table, so other GPUs tuned on this machine keep their rows.
    std::string unreadable;
    model::TuningTable table = gpu::load_tuning(path, &unreadable);
    if (!unreadable.empty()) err << unreadable << "; writing a new table\n";
    model::set_section(table, section);
    std::error_code error;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), error);
    std::ofstream file(path);
    file << model::write_tuning_table(table);
    if (!file) {
        err << "tilescope tune: cannot write " << path.string() << '\n';
        return 2;
    }
    out << format_text("winners of {} for {} written to {}\n", model::kernel_name(kind), gpu_name, path.string());
    return failed_checks == 0 ? 0 : 1;
}

}  // namespace ts::cli
