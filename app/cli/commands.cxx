#include "commands.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <iostream>

#include "gpu/wire.hpp"
#include "gpu/worker.hpp"

#include "bench.hpp"
#include "check.hpp"
#include "compact.hpp"
#include "counters.hpp"
#include "experiment.hpp"
#include "kernel.hpp"
#include "record.hpp"
#include "roofline.hpp"
#include "setup_options.hpp"
#include "tune.hpp"

namespace ts::cli {

// Here rather than in setup_options.cxx, which needs no CLI11 (the fuzz target links it).
void add_size_options(CLI::App& app, SetupOptions& options) {
    app.add_option("--m", options.m, "rows of A and C")->capture_default_str();
    app.add_option("--n", options.n, "columns of B and C")->capture_default_str();
    app.add_option("--k", options.k, "columns of A, rows of B")->capture_default_str();
}

void add_setup_options(CLI::App& app, SetupOptions& options) {
    add_size_options(app, options);
    app.add_option("--tile", options.tile, "tile width T of the tiled kernel (1..32)")->capture_default_str();
    app.add_option("--kernel", options.kernel, kernel_names())->capture_default_str();
    app.add_option("--block", options.block, "block shape of the naive kernels, XxY")->capture_default_str();
    app.add_option("--dtype", options.dtype, "element type: int32, float, double, bf16, fp16 or fp8")->capture_default_str();
}

struct Commands::State {
    BenchOptions bench_options;
    CheckOptions check_options;
    CompactOptions compact_options;
    CountersOptions counters_options;
    ExperimentOptions experiment_options;
    KernelOptions kernel_options;
    RooflineOptions roofline_options;
    RecordOptions record_options;
    TuneOptions tune_options;
    CLI::App* bench = nullptr;
    CLI::App* check = nullptr;
    CLI::App* compact = nullptr;
    CLI::App* counters = nullptr;
    CLI::App* experiment = nullptr;
    CLI::App* kernel = nullptr;
    CLI::App* roofline = nullptr;
    CLI::App* record = nullptr;
    CLI::App* tune = nullptr;
    CLI::App* worker = nullptr;
};

Commands::Commands(CLI::App& app) : m_state(std::make_unique<State>()) {
    m_state->bench = add_bench_command(app, m_state->bench_options);
    m_state->check = add_check_command(app, m_state->check_options);
    m_state->roofline = add_roofline_command(app, m_state->roofline_options);
    m_state->record = add_record_command(app, m_state->record_options);
    m_state->compact = add_compact_command(app, m_state->compact_options);
    m_state->counters = add_counters_command(app, m_state->counters_options);
    m_state->experiment = add_experiment_command(app, m_state->experiment_options);
    m_state->tune = add_tune_command(app, m_state->tune_options);
    m_state->kernel = add_kernel_command(app, m_state->kernel_options);
    // The window's GPU worker process (gpu/worker.hpp): started by the app, not by people,
    // so it is left out of --help.
    m_state->worker = app.add_subcommand("worker", "the GPU worker process the window starts")->group("");
    // What a server's administrator checks against the students' (the handshake compares them).
    app.set_version_flag("--version", std::string("TileScope ") + gpu::wire::tilescope_version());
}

Commands::~Commands() = default;

std::optional<int> Commands::run_chosen() {
    if (m_state->bench->parsed()) return run_bench(m_state->bench_options, std::cout, std::cerr);
    if (m_state->check->parsed()) return run_check(m_state->check_options, std::cout, std::cerr);
    if (m_state->roofline->parsed()) return run_roofline(m_state->roofline_options, std::cout, std::cerr);
    if (m_state->record->parsed()) return run_record(m_state->record_options, std::cout, std::cerr);
    if (m_state->compact->parsed()) return run_compact(m_state->compact_options, std::cout, std::cerr);
    if (m_state->counters->parsed()) return run_counters(m_state->counters_options, std::cout, std::cerr);
    if (m_state->experiment->parsed())
        return run_experiment(m_state->experiment_options, std::cout, std::cerr);
    if (m_state->tune->parsed()) return run_tune(m_state->tune_options, std::cout, std::cerr);
    if (m_state->kernel->parsed()) return run_kernel(m_state->kernel_options, std::cout, std::cerr);
    if (m_state->worker->parsed()) {
        // The messages go out on the original standard output; anything a library prints
        // there goes to standard error instead, where it cannot break a message.
        std::cout.flush();
        const int messages = dup(STDOUT_FILENO);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        const int code = gpu::run_cuda_worker(STDIN_FILENO, messages);
        close(messages);
        return code;
    }
    return std::nullopt;
}

}  // namespace ts::cli
