#include "record.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <ostream>

#include "model/format.hpp"
#include "record/measurement_file.hpp"
#include "record/trace_file.hpp"
#include "sweep.hpp"

namespace ts::cli {

using model::format_text;
using model::fixed;

CLI::App* add_record_command(CLI::App& app, RecordOptions& options) {
    CLI::App* record = app.add_subcommand(
        "record", "Record a trace: run the naive, tiled, regtile-2d, warptile, mma, wgmma or warp-specialized kernel "
                  "once, recording every thread's loads (mma: warp 0's registers after ldmatrix; wgmma: the first "
                  "stage as TMA wrote it; warp-specialized: each role's waits), each block's SM and clocks");
    SetupOptions& s = options.setup;
    s.m = "40";
    s.n = "28";
    s.k = "36";
    s.tile = "8";
    s.block = "8x8";
    add_size_options(*record, s);
    record->add_option("--tile", s.tile, "T: the tiled kernel's tile; for naive, the chunk of k called a phase")
        ->capture_default_str();
    record->add_option("--kernel", s.kernel,
                       "naive, tiled, regtile-2d, warptile, mma, wgmma or warp-specialized (the rungs' shapes are fixed; "
                       "the tensor-core rungs run in BF16)")
        ->capture_default_str();
    record->add_option("--block", s.block, "block shape of the naive kernel, XxY")->capture_default_str();
    record->add_option("--out", options.out, "save the trace as JSON to FILE (open it with tilescope --trace)")
        ->type_name("FILE");
    return record;
}

std::string record_summary(const model::KernelTrace& trace) {
    const model::SmTimeline timeline = model::sm_timeline(trace);
    const model::Index2 grid = trace.grid();
    const bool wgmma = trace.config.kind == model::KernelKind::Wgmma;
    std::string text = format_text("recorded {} on {}×{}×{} on the {} ({}): grid {} × {} = {} blocks, {} {}\n",
                              model::describe(trace.config), trace.problem.m, trace.problem.n, trace.problem.k,
                              trace.device, trace.recorded_at, grid.x, grid.y, trace.blocks(), trace.phases(),
                              model::is_recorded_ladder(trace.config.kind) || model::is_tensor_core(trace.config.kind)
                                  ? "K steps"
                                  : "phases");
    text += format_text("SMs: the blocks ran on {} of the GPU's {} SMs, at most {} at once, in {} wave{}; first start to "
                   "last end {} µs (with the trace's own stores)\n",
                   timeline.sms_used.size(), trace.sm_count, timeline.most_at_once, timeline.waves,
                   timeline.waves == 1 ? "" : "s", fixed(timeline.span_us, 1));
    if (trace.config.kind == model::KernelKind::WarpSpecialized) {
        if (const auto difference = model::compare_with_model(trace)) {
            text += "roles: DIFFER from the ring's protocol: " + *difference + "\n";
        } else {
            const model::RoleTimes t = model::role_times(trace);
            text += format_text("roles: at every K step of every block the consumers saw a stage full only after the "
                                "producer armed it, and the producer refilled one only after both consumers were done "
                                "with it. Per K step, on average: the producer waited {} cycles and issued in {}; the "
                                "consumers waited {} and {} cycles and computed in {} and {}\n",
                                fixed(t.wait_cycles[0], 0), fixed(t.work_cycles[0], 0), fixed(t.wait_cycles[1], 0),
                                fixed(t.wait_cycles[2], 0), fixed(t.work_cycles[1], 0), fixed(t.work_cycles[2], 0));
        }
    } else if (trace.config.kind == model::KernelKind::Mma) {
        if (const auto difference = model::compare_with_model(trace))
            text += "registers: DIFFER from the model: " + *difference + "\n";
        else
            text += format_text("registers: all {} halves that warp 0's 32 lanes received from its first ldmatrix.x4 of A "
                                "and ldmatrix.x4.trans of B are the elements the PTX ISA's mma layout puts there\n",
                                trace.fragment_words.size());
    } else if (wgmma) {
        const auto zeros = std::count(trace.stage_words.begin(), trace.stage_words.end(), std::uint16_t{0});
        if (const auto difference = model::compare_with_model(trace))
            text += "stage: DIFFERS from the model: " + *difference + "\n";
        else
            text += format_text("stage: all {} words of block (0, 0)'s first stage ({} of them TMA's zero fill) are where "
                                "the model's 128-byte swizzle puts them\n",
                                trace.stage_words.size(), zeros);
    } else if (!trace.has_loads()) {
        text += "loads: not recorded (too many); SMs and clocks only\n";
    } else if (const auto difference = model::compare_with_model(trace)) {
        text += "loads: DIFFER from the model: " + *difference + "\n";
    } else {
        text += format_text("loads: all {} recorded loads are the ones the model schedules\n", trace.loads.size());
    }
    text += "C: " + trace.check_summary + "\n";
    return text;
}

int run_record(const RecordOptions& options, std::ostream& out, std::ostream& err) {
    auto resolved = resolve_setup(options.setup);
    if (const auto* why = std::get_if<std::string>(&resolved)) {
        err << "tilescope record: " << *why << '\n';
        return 2;
    }
    const Setup& setup = std::get<Setup>(resolved);
    if (auto why = model::check_recordable(setup.kernel, setup.problem)) {
        err << "tilescope record: " << *why << '\n';
        return 2;
    }
    gpu::Runner runner;
    if (!usable_device(runner, "record", err, ProbeNote::Quiet)) return 2;
    const gpu::RunResult result = runner.wait(runner.submit(setup_request(setup, gpu::RequestKind::Record)));
    if (!result.ok || !result.trace) {
        err << "tilescope record: " << result.error << '\n';
        return 1;
    }
    if (!result.timing_warning.empty()) err << "tilescope record: " << result.timing_warning << '\n';
    out << record_summary(*result.trace);
    if (!options.out.empty()) {
        if (auto why = record::save_text(options.out, record::trace_to_json(*result.trace))) {
            err << "tilescope record: " << *why << '\n';
            return 1;
        }
        out << "saved " << options.out << '\n';
    }
    // The mma and wgmma traces' inputs are element numbers: their registers or stage are what
    // is checked, not C.
    if (result.trace->config.kind == model::KernelKind::Wgmma || result.trace->config.kind == model::KernelKind::Mma)
        return model::compare_with_model(*result.trace) ? 1 : 0;
    if (result.trace->config.kind == model::KernelKind::WarpSpecialized)
        return !model::compare_with_model(*result.trace) && result.check_passed ? 0 : 1;
    const bool loads_match = !result.trace->has_loads() || !model::compare_with_model(*result.trace);
    return loads_match && result.check_passed ? 0 : 1;
}

}  // namespace ts::cli
