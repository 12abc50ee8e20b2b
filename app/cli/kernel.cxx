#include "kernel.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <variant>

#include "experiment.hpp"
#include "gpu/nvrtc_compiler.hpp"
#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "gpu/worker_target.hpp"
#include "gpu/user_kernel_compile.hpp"
#include "model/format.hpp"
#include "model/user_kernel/source.hpp"
#include "model/user_kernel/launch.hpp"
#include "record/kernel_files.hpp"
#include "record/measurement_file.hpp"
#include "record/trace_file.hpp"
#include "sweep.hpp"

namespace ts::cli {

using model::format_text;
using model::problem_size_text;
using model::scientific;

CLI::App* add_kernel_command(CLI::App& app, KernelOptions& options) {
    CLI::App* kernel = app.add_subcommand(
        "kernel", "Your own matmul kernel, in a .cu file with TileScope's signature and its launch in three comment "
                  "lines (--template prints one): compiled with NVRTC for your GPU, run between guard zones on odd "
                  "sizes with every cell checked, and timed beside a rung");
    kernel->add_option("file", options.file, "the kernel's .cu file")->type_name("FILE");
    kernel->add_flag("--compile-only", options.compile_only, "compile and report here, with no GPU; do not run");
    kernel->add_option("--arch", options.arch,
                       "with --compile-only: the GPU architecture to compile for, sm_XY (H100 and H200: sm_90)")
        ->capture_default_str();
    kernel->add_option("--time-limit", options.time_limit_s, "stop the compiler after this many seconds")
        ->capture_default_str()
        ->check(CLI::Range(0.01, 3600.0));
    kernel->add_flag("--template", options.template_out, "print the empty kernel to start from, and stop");
    kernel->add_option("--starter", options.starter, "print a rung's kernel in the fixed signature to start from "
                                                     "(empty, naive, tiled), and stop")
        ->type_name("NAME");
    kernel->add_option("--runs", options.runs, "checked launches at each check size")
        ->capture_default_str()
        ->check(CLI::Range(1, model::kMaxExperimentRuns));
    kernel->add_flag("--no-measure", options.no_measure, "compile and check only");
    kernel->add_flag("--hot", options.hot, "time back to back, L2 warm (default: L2 flushed before each launch)");
    kernel->add_option("--samples", options.samples, "timed launches")->capture_default_str()->check(CLI::Range(1, 10000));
    kernel->add_option("--warmup", options.warmup, "untimed launches first")->capture_default_str()->check(CLI::Range(0, 1000));
    kernel->add_flag("--record", options.record,
                     "also record its trace: each thread's loads of A and B, stores to C, shared-memory reads and "
                     "writes and barriers; counted, its bank conflicts and races named by line, and, for a kernel shaped like the "
                     "tiled rung, compared with the model");
    kernel->add_option("--record-size", options.record_size, "M = N = K of the trace")
        ->capture_default_str()
        ->check(CLI::Range(1, 1024));
    kernel->add_option("--trace-out", options.trace_out, "with --record: save the trace for tilescope --trace FILE")
        ->type_name("FILE");
    kernel->add_option("--gpu", options.gpu,
                       "where the GPU worker runs: local (this machine, the default), ssh://[user@]host[:port] (a "
                       "server, through ssh in batch mode, running `tilescope worker` there), slurm or "
                       "slurm:PARTITION (a cluster's node, through srun --gres=gpu:1)")
        ->type_name("SPEC");
    add_setup_options(*kernel, options.setup);
    return kernel;
}

namespace {

void print_diagnostics(const std::string& name, const std::vector<model::Diagnostic>& diagnostics,
                       const std::string& log, bool ok, std::ostream& out) {
    for (const model::Diagnostic& d : diagnostics)
        out << format_text("{}:{}:{}: {}: {}\n", name, d.line, d.column, model::severity_name(d.severity), d.message);
    // Where the compiler said nothing about the file itself, its own words.
    if (!ok && diagnostics.empty() && !log.empty()) out << log << "\n";
}

int compile_here(const KernelOptions& options, const std::string& source, const std::string& name, std::ostream& out,
                 std::ostream& err) {
    const auto arch = gpu::parse_arch(options.arch);  // checked by run_kernel
    std::string why;
    const auto version = gpu::nvrtc_version(why);
    if (!version) {
        err << "tilescope kernel: " << why << "\n";
        return 2;
    }
    const gpu::CompileResult result = gpu::compile_user_kernel_with_deadline(source, name, arch->first, arch->second,
                                                                           options.time_limit_s);
    print_diagnostics(name, result.diagnostics, result.log, result.ok, out);
    if (!result.ok) {
        err << "tilescope kernel: " << name << ": " << result.why << "\n";
        return 1;
    }
    out << format_text("{}: compiled for {} with NVRTC {} in {} s: {} bytes of machine code, {} warning{}\n", name,
                       options.arch, *version, model::fixed(result.seconds, 2), result.cubin.size(),
                       result.diagnostics.size(), result.diagnostics.size() == 1 ? "" : "s");
    return 0;
}

// `text` followed by spaces up to `width` characters (UTF-8: "³" and "×" are one each).
std::string padded(std::string text, std::size_t width) {
    std::size_t characters = 0;
    for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (characters < width) text.append(width - characters, ' ');
    return text;
}

// One check size's line, and the heat map when a run was wrong. True when every run was right
// and nothing was written past C.
bool print_check(const gpu::RunResult& r, std::ostream& out) {
    const model::Problem& p = r.request.problem;
    std::string shape;
    if (r.user_launch)
        shape = format_text("grid ({}, {}), block ({}, {})", r.user_launch->grid_x, r.user_launch->grid_y,
                            r.user_launch->block_x, r.user_launch->block_y);
    out << "  " << padded(problem_size_text(p), 16) << " " << shape << ": ";
    if (!r.ok) {
        out << "FAILED: " << r.error << "\n";
        return false;
    }
    const model::ExperimentRun& run = *r.experiment;
    const bool right = run.wrong_runs == 0 && run.stray_writes == 0;
    if (right) {
        out << format_text("right in all {} runs (largest error {})\n", run.runs, scientific(run.max_error));
        return true;
    }
    out << format_text("WRONG in {} of {} runs: up to {} of {} cells in one run, {} cells wrong in some run, {} NaN, "
                       "{} stray writes past C\n",
                       run.wrong_runs, run.runs, run.wrong_cells_worst, p.m * p.n, run.cells_ever_wrong, run.nan_cells,
                       run.stray_writes);
    if (!run.note.empty()) out << "    " << run.note << "\n";
    out << heat_map_text(run.map, run.runs, p.m, p.n);
    return false;
}

std::string timing_text(const gpu::RunResult& r) {
    if (!r.ok) return "FAILED: " + r.error;
    return format_text("{} ms, {} GFLOP/s (median of {}, noise {} %), check: {}", model::fixed(r.median_ms, 3),
                       model::fixed(r.gflops, 0), r.samples_ms.size(), model::fixed(r.noise * 100.0, 1),
                       r.check_summary);
}

// --record: one launch of the tracing build; its counts, and the theatre's trace when the
// kernel is shaped like the tiled rung. False when the trace failed or disagrees with the model.
bool record_it(gpu::Runner& runner, const gpu::RunRequest& base, const KernelOptions& options, std::ostream& out,
               std::ostream& err) {
    gpu::RunRequest request = base;
    request.kind = gpu::RequestKind::Record;
    request.problem = {options.record_size, options.record_size, options.record_size, 1, model::Dtype::Float32};
    const gpu::RunResult recorded = runner.wait(runner.submit(request));
    out << format_text("record at {}:\n", problem_size_text(request.problem));
    if (!recorded.ok) {
        out << "  FAILED: " << recorded.error << "\n";
        return false;
    }
    const gpu::UserTraceReport& report = *recorded.user_trace;
    out << "  " << report.counts_text << "\n";
    out << format_text("  {} accesses noted; the most barriers a thread passed: {}; {}\n", report.events,
                       report.counts.most_barriers, report.c_summary);
    for (const model::SharedSentence& line : model::describe_shared(report.shared)) out << "  " << line.text << "\n";
    if (!recorded.trace) {
        out << "  the theatre cannot draw it: " << report.theatre_note << "\n";
        return report.c_right;
    }
    const auto difference = model::compare_with_model(*recorded.trace);
    out << "  shaped like the tiled rung with T = " << recorded.trace->config.tile << ": "
        << (difference ? "the trace differs from the model: " + *difference
                       : std::string("every load of every thread in every phase is the model's"))
        << "\n";
    if (!options.trace_out.empty()) {
        if (auto why = record::save_text(options.trace_out, record::trace_to_json(*recorded.trace))) {
            err << "tilescope kernel: " << *why << "\n";
            return false;
        }
        out << format_text("  saved {} (tilescope --view theatre --trace {} replays it)\n", options.trace_out,
                           options.trace_out);
    }
    return report.c_right && !difference;
}

}  // namespace

int run_kernel(const KernelOptions& options, std::ostream& out, std::ostream& err) {
    if (options.template_out) {
        out << model::empty_user_kernel();
        return 0;
    }
    if (!options.starter.empty()) {
        const auto starter = model::parse_starter(options.starter);
        if (!starter) {
            err << "tilescope kernel: --starter takes empty, naive or tiled, got \"" << options.starter << "\"\n";
            return 2;
        }
        out << model::starter_kernel(*starter);
        return 0;
    }
    // Checked before anything runs: a refused host never reaches ssh.
    auto worker_target = gpu::parse_worker_target(options.gpu);
    if (const auto* why = std::get_if<std::string>(&worker_target)) {
        err << "tilescope kernel: " << *why << "\n";
        return 2;
    }
    if (options.file.empty()) {
        err << "tilescope kernel: name the kernel's .cu file (tilescope-cli kernel --template prints one to start "
               "from)\n";
        return 2;
    }
    if (!gpu::parse_arch(options.arch)) {
        err << "tilescope kernel: --arch must be sm_ and a compute capability, like sm_90 or sm_80, got \""
            << options.arch << "\"\n";
        return 2;
    }
    auto read = record::read_kernel_file(options.file);
    if (read.index() == 1) {
        err << "tilescope kernel: " << std::get<1>(read) << "\n";
        return 2;
    }
    const std::string source = std::move(std::get<0>(read));
    const std::string name = std::filesystem::path(options.file).filename().string();
    if (options.compile_only) return compile_here(options, source, name, out, err);

    auto setup = resolve_setup(options.setup);
    if (const auto* why = std::get_if<std::string>(&setup)) {
        err << "tilescope kernel: " << *why << "\n";
        return 2;
    }
    const Setup& beside = std::get<Setup>(setup);
    if (beside.problem.dtype != model::Dtype::Float32 || beside.problem.batch != 1) {
        err << "tilescope kernel: your kernel takes float matrices: --dtype float\n";
        return 2;
    }
    std::string launch_problem;
    gpu::UserKernelSource user{.name = name,
                               .source = source,
                               .launch = model::launch_from_source(source, &launch_problem),
                               .compile_limit_s = options.time_limit_s,
                               .arch = options.arch};
    if (!launch_problem.empty()) {
        err << "tilescope kernel: " << name << ": " << launch_problem << "\n";
        return 2;
    }

    // A worker process (here, or where --gpu says), supervised as the window's is: a kernel that
    // faults or never returns costs the worker, not this command.
    gpu::SupervisorOptions supervisor = gpu::supervisor_options(std::get<gpu::WorkerTarget>(worker_target));
    supervisor.estimate_s = estimate_seconds;
    gpu::Runner runner(gpu::supervised_backend(std::move(supervisor)));
    gpu::RunRequest request;
    request.user = user;
    request.problem = beside.problem;
    request.kind = gpu::RequestKind::UserCompile;
    const gpu::RunResult compiled = runner.wait(runner.submit(request));
    if (!compiled.compile) {
        err << "tilescope kernel: " << name << ": " << compiled.error << "\n";
        return 2;
    }
    const gpu::UserCompileReport& report = *compiled.compile;
    print_diagnostics(name, report.diagnostics, report.log, report.ok, out);
    if (!report.ok) {
        err << "tilescope kernel: " << name << ": " << report.why << "\n";
        return 1;
    }
    out << format_text("{}: compiled for {} with NVRTC {} in {} s: {} bytes of machine code, {} warning{}\n", name,
                       report.arch, report.nvrtc_version, model::fixed(report.seconds, 2), report.cubin_bytes,
                       report.diagnostics.size(), report.diagnostics.size() == 1 ? "" : "s");
    const gpu::DeviceInfo device = runner.wait_for_device();
    if (!device.usable) {
        err << "tilescope kernel: compiled, but running it needs a GPU: " << device.why_not << "\n";
        return 2;
    }
    if (const auto& o = compiled.occupancy)
        out << format_text("  {} registers a thread, {} bytes of static shared memory, {} bytes of local memory; {} "
                           "block{} an SM on the {}\n",
                           o->registers_per_thread, o->static_shared_bytes, o->local_bytes_per_thread,
                           o->blocks_per_sm, o->blocks_per_sm == 1 ? "" : "s", device.limits.name);

    out << format_text("check: {} runs at each size, C filled with a NaN before each, guard zones around A, B and C\n",
                       options.runs);
    bool all_right = true;
    for (const model::Problem& p : model::user_check_problems()) {
        gpu::RunRequest check = request;
        check.kind = gpu::RequestKind::UserCheck;
        check.problem = p;
        check.runs = options.runs;
        const gpu::RunResult checked = runner.wait(runner.submit(check));
        all_right &= print_check(checked, out);
        // A kernel that faulted or never returned would do the same at every size, each costing
        // a worker (and a deadline): one is enough to say so.
        if (!checked.ok) {
            out << "  the other sizes and the measurement were not run: fix the failure above first\n";
            return 1;
        }
    }
    if (options.record) all_right &= record_it(runner, request, options, out, err);
    if (options.no_measure) return all_right ? 0 : 1;

    gpu::RunRequest timed = request;
    timed.kind = gpu::RequestKind::Measure;
    timed.hot = options.hot;
    timed.timed_launches = options.samples;
    timed.warmup_launches = options.warmup;
    gpu::RunRequest rung = timed;
    rung.user.reset();
    rung.kernel = beside.kernel;
    out << format_text("measure at {} ({}, {} timed launches after {} warm-up):\n", problem_size_text(beside.problem),
                       options.hot ? "hot: back to back, L2 warm" : "cold: L2 flushed before each launch",
                       options.samples, options.warmup);
    const gpu::RunResult mine = runner.wait(runner.submit(timed));
    const gpu::RunResult theirs = runner.wait(runner.submit(rung));
    const std::string mine_label = "yours: " + name;
    const std::string rung_label = model::describe(beside.kernel);
    const std::size_t width = std::max(mine_label.size(), rung_label.size());
    out << "  " << padded(mine_label, width) << "  " << timing_text(mine) << "\n";
    out << "  " << padded(rung_label, width) << "  " << timing_text(theirs) << "\n";
    if (mine.ok && theirs.ok && mine.median_ms > 0)
        out << format_text("  yours takes {}× the time of {}\n", model::fixed(mine.median_ms / theirs.median_ms, 2),
                           rung_label);
    const bool measured = mine.ok && (!mine.checked || mine.check_passed);
    return all_right && measured ? 0 : 1;
}

}  // namespace ts::cli
