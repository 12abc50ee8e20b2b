#include "experiment_file.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <span>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "json_document.hpp"
#include "model/format.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"
#include "model/rung_info.hpp"
#include "record/whole_number.hpp"

namespace ts::record {

namespace {

using model::format_text;

struct ReadError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `value` as a T, or ReadError: a whole number must fit its field (a count of 10^30 runs is a
// broken file, not a number to wrap), text must be text, a list a list.
template <typename T>
T value_as(const Json& value, const char* key) {
    const auto wrong = [&](const char* expected) {
        return ReadError(format_text("\"{}\": expected {}, got {}", key, expected, value.type_name()));
    };
    if constexpr (std::is_same_v<T, bool>) {
        if (!value.is_boolean()) throw wrong("true or false");
        return value.get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
        if (!value.is_number()) throw wrong("a whole number");
        // The wire writes whole numbers as such; a hand-written 50.0 is read as 50.
        if (const std::optional<T> number = whole_number<T>(value)) return *number;
        const double d = value.get<double>();
        if (value.is_number_float() && d != std::floor(d)) throw wrong("a whole number");
        throw ReadError(format_text("\"{}\": {} is out of range", key, value.dump()));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!value.is_number()) throw wrong("a number");
        return static_cast<T>(value.get<double>());
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!value.is_string()) throw wrong("text");
        return value.get<std::string>();
    } else {
        if (!value.is_array()) throw wrong("a list");
        T out;
        out.reserve(value.size());
        for (const Json& item : value) out.push_back(value_as<typename T::value_type>(item, key));
        return out;
    }
}

// A missing or null key leaves `value` as it is.
template <typename T>
void read(const Json& json, const char* key, T& value) {
    if (!json.is_object()) return;
    const auto it = json.find(key);
    if (it == json.end() || it->is_null()) return;
    value = value_as<T>(*it, key);
}

bool has(const Json& json, const char* key) { return json.is_object() && json.contains(key); }

// Enums travel as numbers on the wire; a hand-written file may name them.
void read_kind(const Json& json, model::KernelKind& kind) {
    if (!has(json, "kind")) return;
    const Json& value = json.at("kind");
    if (value.is_string()) {
        const auto parsed = model::parse_kernel(value.get<std::string>());
        if (!parsed) throw ReadError("unknown kernel \"" + value.get<std::string>() + "\"");
        kind = *parsed;
        return;
    }
    const auto kinds = std::span(model::kAllKernelKinds);
    const int index = value_as<int>(value, "kind");
    if (index < 0 || index >= static_cast<int>(kinds.size()))
        throw ReadError(format_text("kernel {} is none of the {}", index, kinds.size()));
    kind = static_cast<model::KernelKind>(index);
}

void read_dtype(const Json& json, model::Dtype& dtype) {
    if (!has(json, "dtype")) return;
    const Json& value = json.at("dtype");
    std::string name;
    if (value.is_string()) {
        name = value.get<std::string>();
    } else {
        // By number: whichever dtype has that code, checked by its name.
        const int code = value_as<int>(value, "dtype");
        for (model::Dtype known : {model::Dtype::Int32, model::Dtype::Float32, model::Dtype::Float64})
            if (static_cast<int>(known) == code) name = std::string(model::dtype_name(known));
        if (name.empty()) throw ReadError(format_text("dtype {} is none of the three", code));
    }
    const auto parsed = model::parse_dtype(name);
    if (!parsed) throw ReadError("unknown dtype \"" + name + "\"");
    dtype = *parsed;
}

model::Experiment read_experiment(const Json& value) {
    if (value.is_string()) {
        const auto parsed = model::parse_experiment(value.get<std::string>());
        if (!parsed) throw ReadError("unknown experiment \"" + value.get<std::string>() + "\"");
        return *parsed;
    }
    const int index = value_as<int>(value, "experiment");
    if (index < 0 || index > 3) throw ReadError(format_text("experiment {} is none of the four", index));
    return static_cast<model::Experiment>(index);
}

// A case: {"kernel": {...}, "problem": {...}}, as the wire nests it under "case" (and a
// request holds the same two keys); or flat, as `tilescope-cli experiment --json` writes it:
// {"kernel": "tiled T=16", "kind": "tiled", "tile": 16, "m": …, "n": …, "k": …}.
model::ExperimentCase read_case_fields(const Json& c) {
    if (!c.is_object()) throw ReadError(format_text("a case that is {}, not an object", c.type_name()));
    model::ExperimentCase out;
    out.problem.dtype = model::Dtype::Float32;
    if (!c.contains("problem")) {
        read_kind(c, out.kernel.kind);
        read(c, "tile", out.kernel.tile);
        if (out.kernel.kind == model::KernelKind::Tiled) out.kernel.block_x = out.kernel.block_y = out.kernel.tile;
        read(c, "m", out.problem.m);
        read(c, "n", out.problem.n);
        read(c, "k", out.problem.k);
        return out;
    }
    if (c.contains("kernel") && c.at("kernel").is_object()) {
        const Json& k = c.at("kernel");
        read_kind(k, out.kernel.kind);
        read(k, "block_x", out.kernel.block_x);
        read(k, "block_y", out.kernel.block_y);
        read(k, "tile", out.kernel.tile);
        read(k, "variant", out.kernel.variant);
    }
    const Json& p = c.at("problem");
    read(p, "m", out.problem.m);
    read(p, "n", out.problem.n);
    read(p, "k", out.problem.k);
    read(p, "batch", out.problem.batch);
    read_dtype(p, out.problem.dtype);
    return out;
}

model::ExperimentCase read_case(const Json& json) {
    if (!has(json, "case")) throw ReadError("a result without its \"case\"");
    return read_case_fields(json.at("case"));
}

model::ExperimentRun read_run(const Json& json) {
    model::ExperimentRun run;
    if (has(json, "experiment")) run.experiment = read_experiment(json.at("experiment"));
    run.c = read_case(json);
    read(json, "blocks", run.blocks);
    read(json, "runs", run.runs);
    read(json, "wrong_runs", run.wrong_runs);
    read(json, "wrong_cells_worst", run.wrong_cells_worst);
    read(json, "wrong_cells_total", run.wrong_cells_total);
    read(json, "cells_ever_wrong", run.cells_ever_wrong);
    read(json, "max_error", run.max_error);
    read(json, "nan_cells", run.nan_cells);
    read(json, "stray_writes", run.stray_writes);
    read(json, "stray_reads", run.stray_reads);
    read(json, "broken_ms", run.broken_ms);
    read(json, "real_ms", run.real_ms);
    read(json, "note", run.note);
    if (run.runs < 0 || run.wrong_runs < 0 || run.wrong_runs > run.runs)
        throw ReadError(format_text("{} wrong runs of {}", run.wrong_runs, run.runs));
    if (has(json, "map")) {
        const Json& m = json.at("map");
        read(m, "rows", run.map.rows);
        read(m, "cols", run.map.cols);
        read(m, "bin_rows", run.map.bin_rows);
        read(m, "bin_cols", run.map.bin_cols);
        read(m, "wrong_runs", run.map.wrong_runs);
        if (run.map.rows < 0 || run.map.cols < 0 || run.map.bin_rows < 1 || run.map.bin_cols < 1 ||
            run.map.wrong_runs.size() != static_cast<std::size_t>(run.map.rows) * static_cast<std::size_t>(run.map.cols))
            throw ReadError(format_text("a heat map of {} × {} bins (of {} × {} cells) with {} counts", run.map.rows,
                                        run.map.cols, run.map.bin_rows, run.map.bin_cols, run.map.wrong_runs.size()));
    }
    return run;
}

model::StaleRead read_stale_read(const Json& json) {
    if (!json.is_object()) throw ReadError(format_text("a stale read that is {}, not an object", json.type_name()));
    model::StaleRead r;
    read(json, "block_x", r.block_x);
    read(json, "block_y", r.block_y);
    read(json, "phase", r.phase);
    if (const auto it = json.find("operand"); it != json.end()) {
        // The wire writes the char as its code (65, 66); by hand it is "A" or "B".
        if (it->is_string()) r.operand = it->get<std::string>().empty() ? 'A' : it->get<std::string>()[0];
        else r.operand = static_cast<char>(value_as<int>(*it, "operand"));
        if (r.operand != 'A' && r.operand != 'B') throw ReadError("a stale read of neither As nor Bs");
    }
    read(json, "slot_row", r.slot_row);
    read(json, "slot_col", r.slot_col);
    read(json, "reader_x", r.reader_x);
    read(json, "reader_y", r.reader_y);
    read(json, "read_clock", r.read_clock);
    read(json, "expected", r.expected);
    // JSON has no NaN: the CLI writes a NaN it read (the guard's poison) as null.
    if (json.contains("got") && json.at("got").is_null()) r.got = std::numeric_limits<float>::quiet_NaN();
    read(json, "got", r.got);
    read(json, "value_phase", r.value_phase);
    read(json, "writer_x", r.writer_x);
    read(json, "writer_y", r.writer_y);
    read(json, "write_clock", r.write_clock);
    return r;
}

model::StaleReadReport read_stale_report(const Json& json, const model::ExperimentRun* run) {
    model::StaleReadReport report;
    if (json.contains("experiment")) report.experiment = read_experiment(json.at("experiment"));
    else if (run) report.experiment = run->experiment;
    if (json.contains("case")) report.c = read_case(json);
    else if (run) report.c = run->c;
    read(json, "launches", report.launches);
    read(json, "reads_checked", report.reads_checked);
    read(json, "stale_reads", report.stale_reads);
    if (json.contains("reads")) {
        const Json& reads = json.at("reads");
        if (!reads.is_array()) throw ReadError(format_text("\"reads\": expected a list, got {}", reads.type_name()));
        for (const Json& read : reads) report.reads.push_back(read_stale_read(read));
    }
    return report;
}

// One entry of the list: a wire RunResult, or an ExperimentRun with its stale reads beside it.
RecordedExperiment read_result(const Json& json) {
    if (!json.is_object()) throw ReadError(format_text("a result that is {}, not an object", json.type_name()));
    RecordedExperiment result;
    // A failed result has no counts; its request says which experiment and case it was.
    const auto request = json.find("request");
    const bool has_request = request != json.end() && request->is_object();
    if (has_request) {
        result.c = read_case_fields(*request);
        if (request->contains("experiment")) result.experiment = read_experiment(request->at("experiment"));
    }
    // The wire nests the counts under "experiment", the CLI under "run".
    auto nested_run = json.find("experiment");
    if (nested_run == json.end() || !nested_run->is_object()) nested_run = json.find("run");
    if (nested_run != json.end() && nested_run->is_object()) {
        read(json, "error", result.error);
        bool ok = true;
        read(json, "ok", ok);
        result.run = read_run(*nested_run);
        if (!ok && result.error.empty()) result.error = "the run failed (the file gives no reason)";
    } else if (json.contains("case")) {
        result.run = read_run(json);
        read(json, "error", result.error);
    } else if (has_request) {
        read(json, "error", result.error);
        if (result.error.empty()) result.error = "the run failed (the file gives no reason)";
    } else {
        throw ReadError("an entry that is neither a result nor an experiment run");
    }
    if (result.run) {
        result.c = result.run->c;
        result.experiment = result.run->experiment;
    }
    if (const auto stale = json.find("stale_reads"); stale != json.end() && stale->is_object())
        result.stale = read_stale_report(*stale, result.run ? &*result.run : nullptr);
    return result;
}

// "NVIDIA H200" from "device": "…", "device": {"name": …} or "meta": {"device": {"name": …}}.
std::string device_name(const Json& json) {
    const auto from = [](const Json& device) -> std::string {
        if (device.is_string()) return device.get<std::string>();
        if (has(device, "name") && device.at("name").is_string()) return device.at("name").get<std::string>();
        if (has(device, "limits")) {
            const Json& limits = device.at("limits");
            if (has(limits, "name") && limits.at("name").is_string()) return limits.at("name").get<std::string>();
        }
        return "";
    };
    if (json.contains("device")) return from(json.at("device"));
    if (has(json, "meta") && has(json.at("meta"), "device")) return from(json.at("meta").at("device"));
    return "";
}

std::string date_of(const Json& json) {
    for (const char* key : {"date_utc", "date"}) {
        if (json.contains(key) && json.at(key).is_string()) return json.at(key).get<std::string>().substr(0, 10);
        if (has(json, "meta") && has(json.at("meta"), key) && json.at("meta").at(key).is_string())
            return json.at("meta").at(key).get<std::string>().substr(0, 10);
    }
    return "";
}

ExperimentFile read_file(std::string_view text, std::string_view source) {
    const Json json = Json::parse(text);
    ExperimentFile file;
    const Json* list = &json;
    if (json.is_object()) {
        list = nullptr;
        for (const char* key : {"results", "cases", "experiments", "runs"})
            if (json.contains(key) && json.at(key).is_array()) list = &json.at(key);
        if (!list) throw ReadError(format_text("{}: no list of results (\"results\": [...]) in it", source));
        file.device = device_name(json);
        file.date = date_of(json);
    }
    if (!list->is_array()) throw ReadError(format_text("{}: neither a list of results nor an object holding one", source));
    for (const Json& entry : *list) file.results.push_back(read_result(entry));
    return file;
}

}  // namespace

std::variant<ExperimentFile, std::string> parse_experiment_file(std::string_view text, std::string_view source) {
    try {
        return read_file(text, source);
    } catch (const ReadError& error) {
        // Said of the whole file ("no list of results"), it names the file itself.
        const std::string what = error.what();
        if (what.rfind(std::string(source) + ":", 0) == 0) return what;
        return format_text("{}: not a measurement of experiments ({})", source, what);
    } catch (const std::exception& error) {
        return format_text("{}: not a measurement of experiments ({})", source, error.what());
    }
}

std::variant<ExperimentFile, std::string> load_experiment_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return format_text("{}: cannot be opened", file.string());
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = parse_experiment_file(text.str(), file.string());
    auto* measurement = std::get_if<ExperimentFile>(&parsed);
    // The date may be in the file's name instead: nvidia-h200-YYYY-MM-DD.json.
    if (measurement && measurement->date.empty()) {
        const std::string stem = file.stem().string();
        const std::string tail = stem.size() >= 10 ? stem.substr(stem.size() - 10) : "";
        if (tail.size() == 10 && tail[4] == '-' && tail[7] == '-' &&
            std::all_of(tail.begin(), tail.end(), [](char ch) { return ch == '-' || (ch >= '0' && ch <= '9'); }))
            measurement->date = tail;
    }
    return parsed;
}

}  // namespace ts::record
