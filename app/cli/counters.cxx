#include "counters.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "gpu/runner.hpp"
#include "model/format.hpp"
#include "record/measurement_file.hpp"
#include "sweep.hpp"

namespace ts::cli {

using model::fixed;
using model::format_text;

namespace {

using Json = nlohmann::ordered_json;

// A count as a whole number, a percentage with one decimal.
std::string value_text(model::Counter counter, double value) {
    if (std::isnan(value)) return "—";
    if (counter == model::Counter::AchievedOccupancy) return fixed(value, 1) + " %";
    return fixed(value, 0);
}

std::string metrics_text(model::Counter counter) {
    std::string text;
    for (const std::string_view name : model::counter_info(counter).metrics) {
        if (!text.empty()) text += " + ";
        text += name;
    }
    return text;
}

// Left-aligned in `width` characters, counting UTF-8 characters, not bytes ("—", "×").
std::string padded(const std::string& text, std::size_t width) {
    std::size_t characters = 0;
    for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return text + std::string(width > characters ? width - characters : 1, ' ');
}

std::string problem_text(const model::Problem& p) {
    std::string text = format_text("{}×{}×{}", p.m, p.n, p.k);
    if (p.batch > 1) text += format_text(" × {}", p.batch);
    return text + format_text(" ({})", model::dtype_name(p.dtype));
}

}  // namespace

CLI::App* add_counters_command(CLI::App& app, CountersOptions& options) {
    CLI::App* counters = app.add_subcommand(
        "counters", "Read the GPU's own counters for one launch (CUPTI) beside the model's counts; needs the "
                    "profiling permission (root, or NVreg_RestrictProfilingToAdminUsers=0)");
    SetupOptions& s = options.setup;
    counters->add_option("--kernel", s.kernel, kernel_names())->capture_default_str();
    counters->add_option("--size", options.size, "M (a cube M×M×M) or MxNxK")->capture_default_str();
    counters->add_option("--tile", s.tile, "tile width T of the tiled kernel (1..32)")->capture_default_str();
    counters->add_option("--block", s.block, "block shape of the naive kernels, XxY")->capture_default_str();
    counters->add_option("--dtype", s.dtype, "element type: int32, float or double")->capture_default_str();
    counters->add_option("--json", options.json, "save the counters, the model's values and every metric to FILE")
        ->type_name("FILE");
    counters->footer("Defaults: the tiled kernel with T = 16 on 1024×1024×1024 floats. The launch is replayed until "
                     "every metric is read, with L2 cleaned before each pass (as ncu --cache-control all).");
    return counters;
}

std::variant<Setup, std::string> resolve_counters(const CountersOptions& options) {
    // --size is M, or M, N and K between x, X or ×; resolve_setup checks each number.
    std::vector<std::string> sides;
    std::string side;
    const std::string& text = options.size;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == 'x' || text[i] == 'X' || text.compare(i, 2, "×") == 0) {
            sides.push_back(side);
            side.clear();
            if (text[i] != 'x' && text[i] != 'X') ++i;  // × is two bytes
            continue;
        }
        side += text[i];
    }
    sides.push_back(side);
    if (sides.size() != 1 && sides.size() != 3)
        return format_text("--size expects M (a cube) or MxNxK, got \"{}\"", text);
    SetupOptions setup = options.setup;
    setup.m = sides[0];
    setup.n = sides[sides.size() == 3 ? 1 : 0];
    setup.k = sides[sides.size() == 3 ? 2 : 0];
    for (std::string* flag : {&setup.m, &setup.n, &setup.k})
        if (flag->empty()) return format_text("--size expects M (a cube) or MxNxK, got \"{}\"", text);
    auto resolved = resolve_setup(setup);
    if (const auto* why = std::get_if<std::string>(&resolved)) {
        // resolve_setup names --m, --n and --k; here they are parts of --size.
        std::string message = *why;
        for (const char* flag : {"--m", "--n", "--k"})
            if (message.rfind(flag, 0) == 0) message = "--size (" + std::string(flag + 2) + ")" + message.substr(3);
        return message;
    }
    const Setup& checked = std::get<Setup>(resolved);
    if (auto why = model::dtype_unsupported(checked.kernel.kind, checked.problem.dtype)) return *why;
    return resolved;
}

std::string counters_table(const model::CounterReport& report) {
    std::string text = format_text("{} on {} on the {}: one launch, {} pass{}\n", model::describe(report.kernel),
                                   problem_text(report.problem), report.device, report.passes,
                                   report.passes == 1 ? "" : "es");
    constexpr std::size_t kLabel = 24, kNumber = 16, kRatio = 9;
    text += padded("counter", kLabel) + padded("measured", kNumber) + padded("model", kNumber) +
            padded("ratio", kRatio) + "metric\n";
    for (const model::CounterReading& r : report.readings) {
        const auto ratio = model::counter_ratio(r);
        text += padded(std::string(model::counter_info(r.counter).label), kLabel) +
                padded(value_text(r.counter, r.measured), kNumber) +
                padded(r.model ? value_text(r.counter, *r.model) : "—", kNumber) +
                padded(ratio ? fixed(*ratio, 3) : "—", kRatio) + metrics_text(r.counter) + "\n";
    }
    text += "model:\n";
    for (const model::CounterReading& r : report.readings)
        text += format_text("  {}: {}\n", model::counter_info(r.counter).label, r.model_basis);
    text += "metrics (Nsight Compute names):\n";
    std::size_t longest = 0;
    for (const auto& [name, value] : report.metrics) longest = std::max(longest, name.size());
    for (const auto& [name, value] : report.metrics) {
        char number[64];
        std::snprintf(number, sizeof number, "%.6g", value);
        // Counts print whole, as ncu prints them; ratios and percentages as they are.
        const bool whole = std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e18;
        text += format_text("  {}{}\n", padded(name, longest + 2), whole ? fixed(value, 0) : std::string(number));
    }
    if (!report.note.empty()) text += "note: " + report.note + "\n";
    return text;
}

std::string counters_json(const model::CounterReport& report) {
    Json j;
    j["kernel"] = model::describe(report.kernel);
    j["kind"] = std::string(model::kernel_name(report.kernel.kind));
    j["tile"] = report.kernel.tile;
    j["block_x"] = report.kernel.block_x;
    j["block_y"] = report.kernel.block_y;
    j["variant"] = report.kernel.variant;
    j["problem"] = {{"m", report.problem.m},
                    {"n", report.problem.n},
                    {"k", report.problem.k},
                    {"batch", report.problem.batch},
                    {"dtype", std::string(model::dtype_name(report.problem.dtype))}};
    j["device"] = report.device;
    j["passes"] = report.passes;
    j["note"] = report.note;
    Json readings = Json::array();
    for (const model::CounterReading& r : report.readings) {
        const model::CounterInfo& info = model::counter_info(r.counter);
        const auto ratio = model::counter_ratio(r);
        Json metrics = Json::array();
        for (const std::string_view name : info.metrics) metrics.push_back(std::string(name));
        readings.push_back({{"counter", std::string(info.label)},
                            {"unit", std::string(info.unit)},
                            {"measured", r.measured},
                            {"model", r.model ? Json(*r.model) : Json(nullptr)},
                            {"ratio", ratio ? Json(*ratio) : Json(nullptr)},
                            {"model_basis", r.model_basis},
                            {"metrics", metrics}});
    }
    j["readings"] = readings;
    Json metrics = Json::object();
    for (const auto& [name, value] : report.metrics) metrics[name] = value;
    j["metrics"] = metrics;
    return j.dump(2) + "\n";
}

int run_counters(const CountersOptions& options, std::ostream& out, std::ostream& err) {
    auto resolved = resolve_counters(options);
    if (const auto* why = std::get_if<std::string>(&resolved)) {
        err << "tilescope counters: " << *why << '\n';
        return 2;
    }
    const Setup& setup = std::get<Setup>(resolved);
    gpu::Runner runner;
    if (!usable_device(runner, "counters", err, ProbeNote::Quiet)) return 2;
    const gpu::RunResult result = runner.wait(runner.submit(setup_request(setup, gpu::RequestKind::Counters)));
    if (!result.ok || !result.counters) {
        err << "tilescope counters: " << (result.error.empty() ? "no counters came back" : result.error) << '\n';
        return 1;
    }
    if (result.tuned_variant >= 0)
        out << format_text("tuned rung: candidate {} ({})\n", result.tuned_variant, result.tuned_source);
    out << counters_table(*result.counters);
    if (!options.json.empty()) {
        if (auto why = record::save_text(options.json, counters_json(*result.counters))) {
            err << "tilescope counters: " << *why << '\n';
            return 1;
        }
        out << "saved " << options.json << '\n';
    }
    return 0;
}

}  // namespace ts::cli
