#include "experiment.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string_view>
#include <variant>
#include <vector>

#include "gpu/runner.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "record/measurement_file.hpp"
#include "setup_options.hpp"
#include "sweep.hpp"

namespace ts::cli {

using model::format_text;
using model::scientific;
using Json = nlohmann::ordered_json;

namespace {

constexpr int kMapRows = 32;
constexpr int kMapCols = 64;
constexpr std::string_view kShades = " .:-=+*#%@";
constexpr int kStoriesBesides = 3;  // stale reads explained besides the most telling one

std::string size_text(const model::Problem& p) { return format_text("{}×{}×{}", p.m, p.n, p.k); }

std::string kernel_text(const model::KernelConfig& kernel) {
    return kernel.kind == model::KernelKind::Tiled ? format_text("T = {}", kernel.tile) : model::describe(kernel);
}

// ---- Arguments ---------------------------------------------------------------------------

struct Plan {
    model::Experiment experiment = model::Experiment::MissingFirstSync;
    int runs = model::kDefaultExperimentRuns;
    std::vector<model::ExperimentCase> cases;
};

// "256" is 256×256×256; "300x200x100" (or with ×) is M×N×K.
std::variant<model::Problem, std::string> parse_size(std::string_view text) {
    std::vector<std::string> parts;
    std::string part;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == 'x' || text[i] == 'X') {
            parts.push_back(part);
            part.clear();
        } else if (text.substr(i).starts_with("×")) {
            parts.push_back(part);
            part.clear();
            i += std::string_view("×").size() - 1;
        } else {
            part += text[i];
        }
    }
    parts.push_back(part);
    if (parts.size() != 1 && parts.size() != 3)
        return format_text("--size expects M (a cube) or MxNxK, got \"{}\"", text);
    std::int64_t sides[3] = {};
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string& side = parts[parts.size() == 1 ? 0 : i];
        const auto parsed = parse_count("--size", side);
        if (const auto* why = std::get_if<std::string>(&parsed)) return *why;
        sides[i] = std::get<std::int64_t>(parsed);
    }
    model::Problem problem;
    problem.m = sides[0];
    problem.n = sides[1];
    problem.k = sides[2];
    return problem;
}

std::variant<Plan, std::string> resolve(const ExperimentOptions& options) {
    Plan plan;
    const auto experiment = model::parse_experiment(options.name);
    if (!experiment)
        return format_text("no experiment called \"{}\"; there are: {}", options.name, model::experiment_names());
    plan.experiment = *experiment;

    const auto runs = parse_count("--runs", options.runs);
    if (const auto* why = std::get_if<std::string>(&runs)) return *why;
    const std::int64_t n = std::get<std::int64_t>(runs);
    if (n < 1 || n > model::kMaxExperimentRuns)
        return format_text("--runs must be from 1 to {}, got {}", model::kMaxExperimentRuns, n);
    plan.runs = static_cast<int>(n);

    const bool tiled = *experiment != model::Experiment::BankConflicts;
    std::optional<int> tile;
    if (!options.tile.empty()) {
        if (!tiled)
            return "--tile does not apply to bank-conflicts: it breaks the conflict-free rung, whose tiles are fixed";
        const auto parsed = parse_count("--tile", options.tile);
        if (const auto* why = std::get_if<std::string>(&parsed)) return *why;
        tile = static_cast<int>(std::clamp<std::int64_t>(std::get<std::int64_t>(parsed), -1, 1 << 20));
    }

    if (options.size.empty()) {
        plan.cases = model::default_experiment_cases(*experiment);
        if (tile)
            for (model::ExperimentCase& c : plan.cases) c.kernel = model::experiment_kernel(*experiment, *tile);
    } else {
        const auto size = parse_size(options.size);
        if (const auto* why = std::get_if<std::string>(&size)) return *why;
        model::ExperimentCase c;
        c.problem = std::get<model::Problem>(size);
        c.kernel = model::experiment_kernel(*experiment, tile.value_or(16));
        plan.cases = {c};
    }
    for (const model::ExperimentCase& c : plan.cases)
        if (auto why = model::check_experiment_case(*experiment, c)) return *why;
    return plan;
}

// ---- JSON --------------------------------------------------------------------------------

Json case_json(const model::ExperimentCase& c) {
    Json j = Json::object();
    j["kernel"] = model::describe(c.kernel);
    j["kind"] = std::string(model::kernel_name(c.kernel.kind));
    j["tile"] = c.kernel.tile;
    j["m"] = c.problem.m;
    j["n"] = c.problem.n;
    j["k"] = c.problem.k;
    return j;
}

Json run_json(const model::ExperimentRun& run) {
    Json j = Json::object();
    j["experiment"] = std::string(model::experiment_name(run.experiment));
    j["case"] = case_json(run.c);
    j["blocks"] = run.blocks;
    j["runs"] = run.runs;
    j["wrong_runs"] = run.wrong_runs;
    j["wrong_cells_worst"] = run.wrong_cells_worst;
    j["wrong_cells_total"] = run.wrong_cells_total;
    j["cells_ever_wrong"] = run.cells_ever_wrong;
    j["max_error"] = run.max_error;
    j["nan_cells"] = run.nan_cells;
    j["stray_writes"] = run.stray_writes;
    j["stray_reads"] = run.stray_reads;
    j["broken_ms"] = run.broken_ms;
    j["real_ms"] = run.real_ms;
    j["note"] = run.note;
    Json map = Json::object();
    map["rows"] = run.map.rows;
    map["cols"] = run.map.cols;
    map["bin_rows"] = run.map.bin_rows;
    map["bin_cols"] = run.map.bin_cols;
    map["wrong_runs"] = run.map.wrong_runs;  // rows × cols, row-major
    j["map"] = std::move(map);
    return j;
}

Json stale_json(const model::StaleReadReport& report) {
    Json j = Json::object();
    j["experiment"] = std::string(model::experiment_name(report.experiment));
    j["case"] = case_json(report.c);
    j["launches"] = report.launches;
    j["reads_checked"] = report.reads_checked;
    j["stale_reads"] = report.stale_reads;
    Json reads = Json::array();
    for (const model::StaleRead& r : report.reads) {
        Json read = Json::object();
        read["block_x"] = r.block_x;
        read["block_y"] = r.block_y;
        read["phase"] = r.phase;
        read["operand"] = std::string(1, r.operand);
        read["slot_row"] = r.slot_row;
        read["slot_col"] = r.slot_col;
        read["reader_x"] = r.reader_x;
        read["reader_y"] = r.reader_y;
        read["read_clock"] = r.read_clock;
        read["expected"] = r.expected;
        read["got"] = std::isfinite(r.got) ? Json(r.got) : Json(nullptr);  // JSON has no NaN
        read["value_phase"] = r.value_phase;
        read["writer_x"] = r.writer_x;
        read["writer_y"] = r.writer_y;
        read["write_clock"] = r.write_clock;
        reads.push_back(std::move(read));
    }
    j["reads"] = std::move(reads);
    return j;
}

bool same_read(const model::StaleRead& a, const model::StaleRead& b) {
    return a.block_x == b.block_x && a.block_y == b.block_y && a.phase == b.phase && a.operand == b.operand &&
           a.slot_row == b.slot_row && a.slot_col == b.slot_col && a.reader_x == b.reader_x &&
           a.reader_y == b.reader_y;
}

std::string stale_text(const model::StaleReadReport& report) {
    const int tile = report.c.kernel.tile;
    if (report.stale_reads == 0)
        return format_text("  stale reads: none in {} instrumented launch{} ({} shared-memory reads compared in the "
                           "last): the race was not lost this time\n",
                           report.launches, report.launches == 1 ? "" : "es", report.reads_checked);
    std::string text = format_text("  stale reads: {} of {} shared-memory reads, in instrumented launch {}{}\n",
                                   report.stale_reads, report.reads_checked, report.launches,
                                   report.stale_reads > static_cast<std::int64_t>(report.reads.size())
                                       ? format_text(" ({} of them kept)", report.reads.size())
                                       : "");
    const auto telling = model::most_telling(report);
    if (!telling) return text;
    text += "  " + model::explain_stale_read(report.experiment, *telling, tile) + "\n";
    // A few more, each from another block or operand than those shown (a thread's stale
    // reads come in runs of neighbouring slots, which would tell the same story): first
    // reads whose value was traced to a phase, then the others.
    std::vector<const model::StaleRead*> shown{&*telling};
    const auto new_story = [&](const model::StaleRead& read) {
        return std::none_of(shown.begin(), shown.end(), [&](const model::StaleRead* other) {
            return same_read(read, *other) || (read.block_x == other->block_x && read.block_y == other->block_y &&
                                               read.operand == other->operand);
        });
    };
    for (const bool traced : {true, false})
        for (const model::StaleRead& read : report.reads) {
            if (static_cast<int>(shown.size()) > kStoriesBesides) break;
            if ((read.value_phase >= 0) != traced || !new_story(read)) continue;
            text += "  also: " + model::explain_stale_read(report.experiment, read, tile) + "\n";
            shown.push_back(&read);
        }
    return text;
}

// ---- The accumulator experiment ----------------------------------------------------------

Json finding_json(const model::AccumulatorFinding& f) {
    Json j = Json::object();
    j["ran"] = f.ran;
    j["explained"] = f.explained;
    j["fraction_bits"] = f.fraction_bits;
    j["fraction_bits_max"] = f.fraction_bits_max;
    j["at_least"] = f.at_least;
    j["rounding"] = std::string(model::rounding_name(f.rounding));
    j["ladder_bits"] = f.ladder_bits;
    j["ladder_bits_other_half"] = f.ladder_bits_other_half;
    j["ladder_consistent"] = f.ladder_consistent;
    j["cells_unexplained"] = f.cells_unexplained;
    j["note"] = f.note;
    Json outputs = Json::array();  // 64 × 8 row-major; null for NaN (JSON has none)
    for (float v : f.outputs) outputs.push_back(std::isfinite(v) ? Json(v) : Json(nullptr));
    j["outputs"] = std::move(outputs);
    return j;
}

Json accumulator_json(const model::AccumulatorReport& report) {
    Json types = Json::array();
    for (const model::AccumulatorTypeReport& t : report.types) {
        Json j = Json::object();
        j["dtype"] = std::string(model::accumulator_input_name(t.input));
        j["identity_passed"] = t.identity_passed;
        j["identity_note"] = t.identity_note;
        j["layout_swapped"] = t.layout_swapped;
        j["inside_one_wgmma"] = finding_json(t.inside);
        j["across_k_steps"] = finding_json(t.across);
        Json growth = Json::array();
        for (const model::GrowthPoint& p : t.growth)
            growth.push_back({{"k", p.k}, {"never_max", p.never_max}, {"never_mean", p.never_mean},
                              {"promoted_max", p.promoted_max}, {"promoted_mean", p.promoted_mean},
                              {"nan_cells", p.nan_cells}});
        j["growth"] = std::move(growth);
        types.push_back(std::move(j));
    }
    return types;
}

int run_accumulator_experiment(const ExperimentOptions& options, std::ostream& out, std::ostream& err) {
    if (model::accumulator_inputs_named(options.dtype).empty()) {
        err << "tilescope experiment: --dtype must be fp8, bf16, fp16 or all, got \"" << options.dtype << "\"\n";
        return 2;
    }
    gpu::Runner runner;
    const std::optional<gpu::DeviceInfo> device = usable_device(runner, "experiment", err, ProbeNote::Quiet);
    if (!device) return 2;
    out << "accumulator: how many mantissa bits the tensor cores keep when they add products (" << options.dtype
        << ") on the " << device->limits.name << "…" << std::endl;
    gpu::RunRequest request;
    request.kind = gpu::RequestKind::Accumulator;
    request.accumulator_input = options.dtype;
    const gpu::RunResult result = runner.wait(runner.submit(request));
    if (!result.ok || !result.accumulator) {
        err << "tilescope experiment: accumulator: " << result.error << '\n';
        return result.unsupported ? 2 : 1;
    }
    out << accumulator_report_text(*result.accumulator);
    if (!options.json.empty()) {
        Json document = Json::object();
        document["tilescope_version"] = TILESCOPE_VERSION;
        document["device"] = device->limits.name;
        document["experiment"] = kAccumulatorExperimentName;
        document["types"] = accumulator_json(*result.accumulator);
        if (auto why = record::save_text(options.json, document.dump(2) + "\n")) {
            err << "tilescope experiment: " << *why << '\n';
            return 1;
        }
        out << "saved " << options.json << '\n';
    }
    for (const model::AccumulatorTypeReport& t : result.accumulator->types)
        if (!t.identity_passed) return 1;  // a layout fault, not an answer
    return 0;
}

}  // namespace

// ---- The report ------------------------------------------------------------------------

std::string accumulator_report_text(const model::AccumulatorReport& report) {
    std::string text;
    int fp8_bits = -1;
    for (const model::AccumulatorTypeReport& t : report.types) {
        text += "\n" + model::describe_type_report(t);
        if (t.input == model::AccumulatorInput::Fp8E4m3 && t.across.explained) fp8_bits = t.across.fraction_bits;
        if (t.growth.empty()) continue;
        text += "  relative error of 64 × 8 sums of positive products, against exact (FP64) sums:\n";
        text += "         K   never promoted (max / mean)   promoted every 128 (max / mean)\n";
        for (const model::GrowthPoint& p : t.growth) {
            const std::string k = std::to_string(p.k);
            text += format_text("  {}{}   {} / {}           {} / {}{}\n", std::string(k.size() < 8 ? 8 - k.size() : 0, ' '), k,
                                scientific(p.never_max), scientific(p.never_mean), scientific(p.promoted_max),
                                scientific(p.promoted_mean),
                                p.nan_cells > 0 ? format_text("   ({} NaN cells left out)", p.nan_cells) : "");
        }
    }
    text += "\nHow: " + model::accumulator_method_text() + "\n\n" + model::promotion_explanation(fp8_bits) + "\n";
    return text;
}

std::string heat_map_text(const model::WrongCellMap& map, int runs, std::int64_t m, std::int64_t n) {
    if (map.rows <= 0 || map.cols <= 0 || runs <= 0) return "";
    if (std::all_of(map.wrong_runs.begin(), map.wrong_runs.end(), [](std::int32_t r) { return r == 0; }))
        return format_text("  C ({} × {} cells) was right in every run\n", m, n);
    // Each character covers step_r × step_c bins of the map and shows the worst of them.
    const int step_r = (map.rows + kMapRows - 1) / kMapRows;
    const int step_c = (map.cols + kMapCols - 1) / kMapCols;
    const int rows = (map.rows + step_r - 1) / step_r;
    const int cols = (map.cols + step_c - 1) / step_c;
    const std::int64_t cell_rows = std::int64_t{step_r} * map.bin_rows;
    const std::int64_t cell_cols = std::int64_t{step_c} * map.bin_cols;
    std::string text = format_text("  where C came out wrong ({} × {} cells; one character: {} × {} cell{}):\n", m, n,
                                   std::min(cell_rows, m), std::min(cell_cols, n),
                                   cell_rows * cell_cols == 1 ? "" : "s");
    const std::string rule = "  +" + std::string(static_cast<std::size_t>(cols), '-') + "+\n";
    text += rule;
    for (int r = 0; r < rows; ++r) {
        text += "  |";
        for (int c = 0; c < cols; ++c) {
            int worst = 0;
            for (int br = r * step_r; br < std::min(map.rows, (r + 1) * step_r); ++br)
                for (int bc = c * step_c; bc < std::min(map.cols, (c + 1) * step_c); ++bc)
                    worst = std::max(worst, map.wrong_runs[static_cast<std::size_t>(br) * map.cols + bc]);
            // Shade s (1 to 9) for a share of the runs in ((s − 1)/9, s/9].
            const double share = std::min(1.0, static_cast<double>(worst) / runs);
            const auto shade = worst == 0 ? 0 : std::clamp(static_cast<int>(std::ceil(share * 9.0)), 1, 9);
            text += kShades[static_cast<std::size_t>(shade)];
        }
        text += "|\n";
    }
    text += rule;
    text += "  ' ' never wrong";
    for (int s = 1; s <= 9; ++s)
        text += format_text(", '{}' ≤ {} %", kShades[static_cast<std::size_t>(s)],
                            static_cast<int>(std::lround(100.0 * s / 9.0)));
    text += " of the runs\n";
    return text;
}

std::string experiment_report(const model::ExperimentRun& run, const std::optional<model::StaleReadReport>& stale) {
    const model::Problem& p = run.c.problem;
    const std::int64_t cells = p.m * p.n;
    std::string text;
    text += format_text("  runs: {}, wrong runs: {}\n", run.runs, run.wrong_runs);
    text += format_text("  most wrong cells in one run: {} of {} ({} %)\n", run.wrong_cells_worst, cells,
                        model::fixed(cells > 0 ? 100.0 * static_cast<double>(run.wrong_cells_worst) / cells : 0.0, 1));
    text += format_text("  cells ever wrong: {}\n", run.cells_ever_wrong);
    text += format_text("  largest error: {} (|gpu − ref| / max(|ref|, 1), NaN cells left out)\n",
                        scientific(run.max_error));
    text += format_text("  NaN cells: {}\n", run.nan_cells);
    text += format_text("  stray writes: {} (guard elements past C's ends found changed, over all runs)\n",
                        run.stray_writes);
    if (run.experiment == model::Experiment::BankConflicts && run.broken_ms > 0 && run.real_ms > 0)
        text += format_text("  median of cold launches: without the padding {} ms, with it (09) {} ms: {}× ({} % "
                            "slower)\n",
                            model::fixed(run.broken_ms, 3), model::fixed(run.real_ms, 3),
                            model::fixed(run.broken_ms / run.real_ms, 2),
                            model::fixed(100.0 * (run.broken_ms / run.real_ms - 1.0), 1));
    text += heat_map_text(run.map, run.runs, p.m, p.n);
    text += "  " + model::summarize_run(run) + "\n";
    if (run.experiment == model::Experiment::MissingFirstSync || run.experiment == model::Experiment::MissingSecondSync) {
        if (stale) text += stale_text(*stale);
        else text += "  stale reads: not watched (M·K or K·N too large for exact watched values)\n";
    }
    if (run.experiment == model::Experiment::NoBoundsCheck) text += "  " + model::explain_out_of_bounds(run.c) + "\n";
    return text;
}

CLI::App* add_experiment_command(CLI::App& app, ExperimentOptions& options) {
    CLI::App* experiment = app.add_subcommand(
        "experiment", "Break a kernel on purpose and run it N times on the GPU: missing-first-sync, "
                      "missing-second-sync, no-bounds-check, bank-conflicts; or measure the tensor cores' "
                      "accumulator: accumulator");
    experiment->add_option("name", options.name, "the experiment: " + model::experiment_names() + ", accumulator")
        ->required();
    experiment->add_option("--dtype", options.dtype, "accumulator only: fp8, bf16, fp16 or all")->capture_default_str();
    experiment->add_option("--runs", options.runs, "launches per case, each checked")->capture_default_str();
    experiment->add_option("--size", options.size, "M (a cube) or MxNxK; default: the experiment's own cases")
        ->type_name("SIZE");
    experiment->add_option("--tile", options.tile, "T of the tiled kernel (8, 16 or 32; default 16)")->type_name("T");
    experiment->add_option("--json", options.json, "save every run and stale-read report as JSON to FILE")
        ->type_name("FILE");
    return experiment;
}

int run_experiment(const ExperimentOptions& options, std::ostream& out, std::ostream& err) {
    if (options.name == kAccumulatorExperimentName) return run_accumulator_experiment(options, out, err);
    auto resolved = resolve(options);
    if (const auto* why = std::get_if<std::string>(&resolved)) {
        err << "tilescope experiment: " << *why << '\n';
        return 2;
    }
    const Plan& plan = std::get<Plan>(resolved);
    gpu::Runner runner;
    const std::optional<gpu::DeviceInfo> device = usable_device(runner, "experiment", err, ProbeNote::Quiet);
    if (!device) return 2;
    const model::ExperimentText& words = model::experiment_text(plan.experiment);
    out << model::experiment_name(plan.experiment) << ": " << words.title << " (" << words.kernel_file << ", from "
        << words.real_file << ")\n"
        << words.removed << "\n\n";

    Json cases = Json::array();
    int failed = 0;
    for (std::size_t i = 0; i < plan.cases.size(); ++i) {
        const model::ExperimentCase& c = plan.cases[i];
        const model::LaunchGeometry g = model::plan_launch(c.kernel, c.problem);
        out << format_text("case {} of {}: {}, {}, {} blocks, {} runs…", i + 1, plan.cases.size(),
                           size_text(c.problem), kernel_text(c.kernel), g.grid.x * g.grid.y, plan.runs)
            << std::endl;
        gpu::RunRequest request;
        request.kind = gpu::RequestKind::Experiment;
        request.experiment = plan.experiment;
        request.runs = plan.runs;
        request.kernel = c.kernel;
        request.problem = c.problem;
        const gpu::RunResult result = runner.wait(runner.submit(request));
        if (!result.ok || !result.experiment) {
            err << "tilescope experiment: case " << i + 1 << ": " << result.error << '\n';
            ++failed;
            continue;
        }
        out << experiment_report(*result.experiment, result.stale_reads) << '\n';
        Json entry = Json::object();
        entry["run"] = run_json(*result.experiment);
        entry["stale_reads"] = result.stale_reads ? stale_json(*result.stale_reads) : Json(nullptr);
        cases.push_back(std::move(entry));
    }

    if (!options.json.empty()) {
        Json document = Json::object();
        document["tilescope_version"] = TILESCOPE_VERSION;
        document["device"] = device->limits.name;
        document["experiment"] = std::string(model::experiment_name(plan.experiment));
        document["runs_per_case"] = plan.runs;
        document["cases"] = std::move(cases);
        if (auto why = record::save_text(options.json, document.dump(2) + "\n")) {
            err << "tilescope experiment: " << *why << '\n';
            return 1;
        }
        out << "saved " << options.json << '\n';
    }
    return failed > 0 ? 1 : 0;
}

}  // namespace ts::cli
