#include "views/experiments/experiment_state.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "model/format.hpp"
#include "paths/data_dir.hpp"

namespace ts::views {

namespace {

using Json = nlohmann::json;
using model::format_text;

// ---- Reading a recording: the wire's field names (app/gpu/wire.cxx) --------------------------
// A missing key leaves the value as it is, as the wire's Reader does; a key of the wrong type
// throws, and the file is reported as unreadable.

template <typename T>
void read(const Json& json, const char* key, T& value) {
    const auto it = json.find(key);
    if (it == json.end() || it->is_null()) return;
    value = it->get<T>();
}

// Enums travel as numbers on the wire; a hand-written file may name them.
void read_kind(const Json& json, model::KernelKind& kind) {
    const auto it = json.find("kind");
    if (it == json.end()) return;
    if (it->is_string()) {
        const auto parsed = model::parse_kernel(it->get<std::string>());
        if (!parsed) throw std::runtime_error("unknown kernel \"" + it->get<std::string>() + "\"");
        kind = *parsed;
    } else {
        kind = static_cast<model::KernelKind>(it->get<int>());
    }
}

void read_dtype(const Json& json, model::Dtype& dtype) {
    const auto it = json.find("dtype");
    if (it == json.end()) return;
    if (it->is_string()) {
        const auto parsed = model::parse_dtype(it->get<std::string>());
        if (!parsed) throw std::runtime_error("unknown dtype \"" + it->get<std::string>() + "\"");
        dtype = *parsed;
    } else {
        dtype = static_cast<model::Dtype>(it->get<int>());
    }
}

model::Experiment read_experiment(const Json& value) {
    if (value.is_string()) {
        const auto parsed = model::parse_experiment(value.get<std::string>());
        if (!parsed) throw std::runtime_error("unknown experiment \"" + value.get<std::string>() + "\"");
        return *parsed;
    }
    const int index = value.get<int>();
    if (index < 0 || index > 3) throw std::runtime_error(format_text("experiment {} is none of the four", index));
    return static_cast<model::Experiment>(index);
}

// A case: {"kernel": {...}, "problem": {...}}, as the wire nests it under "case" (and a
// request holds the same two keys); or flat, as `tilescope-cli experiment --json` writes it:
// {"kernel": "tiled T=16", "kind": "tiled", "tile": 16, "m": …, "n": …, "k": …}.
model::ExperimentCase read_case_fields(const Json& c) {
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
    if (!c.contains("problem")) throw std::runtime_error("a case without its \"problem\"");
    const Json& p = c.at("problem");
    read(p, "m", out.problem.m);
    read(p, "n", out.problem.n);
    read(p, "k", out.problem.k);
    read(p, "batch", out.problem.batch);
    read_dtype(p, out.problem.dtype);
    return out;
}

model::ExperimentCase read_case(const Json& json) {
    if (!json.contains("case")) throw std::runtime_error("a result without its \"case\"");
    return read_case_fields(json.at("case"));
}

model::ExperimentRun read_run(const Json& json) {
    model::ExperimentRun run;
    if (json.contains("experiment")) run.experiment = read_experiment(json.at("experiment"));
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
    if (json.contains("map")) {
        const Json& m = json.at("map");
        read(m, "rows", run.map.rows);
        read(m, "cols", run.map.cols);
        read(m, "bin_rows", run.map.bin_rows);
        read(m, "bin_cols", run.map.bin_cols);
        read(m, "wrong_runs", run.map.wrong_runs);
        if (run.map.rows < 0 || run.map.cols < 0 ||
            run.map.wrong_runs.size() != static_cast<std::size_t>(run.map.rows) * static_cast<std::size_t>(run.map.cols))
            throw std::runtime_error(format_text("a heat map of {} × {} bins with {} counts", run.map.rows, run.map.cols,
                                                 run.map.wrong_runs.size()));
    }
    return run;
}

model::StaleRead read_stale_read(const Json& json) {
    model::StaleRead r;
    read(json, "block_x", r.block_x);
    read(json, "block_y", r.block_y);
    read(json, "phase", r.phase);
    if (const auto it = json.find("operand"); it != json.end()) {
        // The wire writes the char as its code (65, 66); by hand it is "A" or "B".
        if (it->is_string()) r.operand = it->get<std::string>().empty() ? 'A' : it->get<std::string>()[0];
        else r.operand = static_cast<char>(it->get<int>());
        if (r.operand != 'A' && r.operand != 'B') throw std::runtime_error("a stale read of neither As nor Bs");
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
    if (json.contains("reads"))
        for (const Json& read : json.at("reads")) report.reads.push_back(read_stale_read(read));
    return report;
}

// One entry of the list: a wire RunResult, or an ExperimentRun with its stale reads beside it.
ExperimentOutcome read_outcome(const Json& json) {
    ExperimentOutcome outcome;
    outcome.recorded = true;
    // A failed result has no counts; its request says which experiment and case it was.
    const auto request = json.find("request");
    if (request != json.end() && request->is_object()) {
        outcome.c = read_case_fields(*request);
        if (request->contains("experiment")) outcome.experiment = read_experiment(request->at("experiment"));
    }
    // The wire nests the counts under "experiment", the CLI under "run".
    auto nested_run = json.find("experiment");
    if (nested_run == json.end() || !nested_run->is_object()) nested_run = json.find("run");
    if (nested_run != json.end() && nested_run->is_object()) {
        read(json, "error", outcome.error);
        bool ok = true;
        read(json, "ok", ok);
        outcome.run = read_run(*nested_run);
        outcome.c = outcome.run->c;
        if (!ok && outcome.error.empty()) outcome.error = "the run failed (the file gives no reason)";
    } else if (json.contains("case")) {
        outcome.run = read_run(json);
        outcome.c = outcome.run->c;
        read(json, "error", outcome.error);
    } else if (request != json.end() && request->is_object()) {
        read(json, "error", outcome.error);
        if (outcome.error.empty()) outcome.error = "the run failed (the file gives no reason)";
    } else {
        throw std::runtime_error("an entry that is neither a result nor an experiment run");
    }
    if (outcome.run) outcome.experiment = outcome.run->experiment;
    if (const auto stale = json.find("stale_reads"); stale != json.end() && stale->is_object())
        outcome.stale = read_stale_report(*stale, &*outcome.run);
    outcome.worker_restarted = says_worker_restarted(outcome.error);
    return outcome;
}

// "NVIDIA H200" from "device": "…", "device": {"name": …} or "meta": {"device": {"name": …}}.
std::string device_name(const Json& json) {
    const auto from = [](const Json& device) -> std::string {
        if (device.is_string()) return device.get<std::string>();
        if (device.is_object() && device.contains("name") && device.at("name").is_string())
            return device.at("name").get<std::string>();
        if (device.is_object() && device.contains("limits")) {
            const Json& limits = device.at("limits");
            if (limits.contains("name") && limits.at("name").is_string()) return limits.at("name").get<std::string>();
        }
        return "";
    };
    if (json.contains("device")) return from(json.at("device"));
    if (json.contains("meta") && json.at("meta").contains("device")) return from(json.at("meta").at("device"));
    return "";
}

std::string date_of(const Json& json) {
    for (const char* key : {"date_utc", "date"}) {
        if (json.contains(key) && json.at(key).is_string()) return json.at(key).get<std::string>().substr(0, 10);
        if (json.contains("meta") && json.at("meta").contains(key) && json.at("meta").at(key).is_string())
            return json.at("meta").at(key).get<std::string>().substr(0, 10);
    }
    return "";
}

}  // namespace

ExperimentState make_experiment_state() {
    ExperimentState state;
    for (model::Experiment experiment : model::kAllExperiments)
        state.pages[static_cast<std::size_t>(experiment)].cases = model::default_experiment_cases(experiment);
    return state;
}

ExperimentPage& page_of(ExperimentState& state, model::Experiment experiment) {
    return state.pages[static_cast<std::size_t>(experiment)];
}

const ExperimentPage& page_of(const ExperimentState& state, model::Experiment experiment) {
    return state.pages[static_cast<std::size_t>(experiment)];
}

bool same_case(const model::ExperimentCase& a, const model::ExperimentCase& b) {
    return a.problem.m == b.problem.m && a.problem.n == b.problem.n && a.problem.k == b.problem.k &&
           a.kernel.kind == b.kernel.kind && (a.kernel.kind != model::KernelKind::Tiled || a.kernel.tile == b.kernel.tile);
}

void keep_outcome(ExperimentState& state, model::Experiment experiment, ExperimentOutcome outcome) {
    ExperimentPage& page = page_of(state, experiment);
    outcome.serial = state.next_serial++;
    for (ExperimentOutcome& kept : page.outcomes) {
        if (!same_case(kept.c, outcome.c)) continue;
        if (outcome.recorded && !kept.recorded) return;  // a recording never hides a live result
        kept = std::move(outcome);
        return;
    }
    page.outcomes.push_back(std::move(outcome));
}

const ExperimentOutcome* outcome_of(const ExperimentPage& page, const model::ExperimentCase& c) {
    for (const ExperimentOutcome& outcome : page.outcomes)
        if (same_case(outcome.c, c)) return &outcome;
    return nullptr;
}

bool says_worker_restarted(const std::string& error) {
    return error.find("the GPU worker stopped") != std::string::npos || error.find("was restarted") != std::string::npos;
}

bool start_experiment_batch(ExperimentState& state, model::Experiment experiment) {
    if (state.batch) return false;
    ExperimentPage& page = page_of(state, experiment);
    ExperimentBatch batch;
    batch.experiment = experiment;
    for (const model::ExperimentCase& c : page.cases) {
        if (const auto why = model::check_experiment_case(experiment, c)) {
            ExperimentOutcome refused;
            refused.c = c;
            refused.error = "not run: " + *why;
            refused.source = "refused before running";
            keep_outcome(state, experiment, std::move(refused));
            continue;
        }
        gpu::RunRequest request;
        request.kind = gpu::RequestKind::Experiment;
        request.experiment = experiment;
        request.runs = page.runs;
        request.kernel = c.kernel;
        request.problem = c.problem;
        batch.remaining.push_back(request);
    }
    state.batch_note.clear();
    if (batch.remaining.empty()) return true;
    batch.total = static_cast<int>(batch.remaining.size());
    state.batch = std::move(batch);
    return true;
}

void cancel_experiment_batch(ExperimentState& state) {
    if (!state.batch) return;
    state.batch_note = format_text("Cancelled after case {} of {}; what came back is kept.",
                                   state.batch->done + (state.batch->in_flight ? 1 : 0), state.batch->total);
    state.batch->remaining.clear();
    // The case in flight still comes back and is kept; nothing more is submitted.
    if (state.batch->in_flight == 0) state.batch.reset();
}

bool run_case_again(ExperimentState& state, model::Experiment experiment, const model::ExperimentCase& c) {
    if (state.batch) return false;
    ExperimentBatch batch;
    batch.experiment = experiment;
    gpu::RunRequest request;
    request.kind = gpu::RequestKind::Experiment;
    request.experiment = experiment;
    request.runs = page_of(state, experiment).runs;
    request.kernel = c.kernel;
    request.problem = c.problem;
    batch.remaining.push_back(request);
    batch.total = 1;
    state.batch_note.clear();
    state.batch = std::move(batch);
    return true;
}

std::optional<gpu::RunRequest> next_experiment_request(ExperimentState& state) {
    if (!state.batch || state.batch->in_flight != 0 || state.batch->remaining.empty()) return std::nullopt;
    gpu::RunRequest next = state.batch->remaining.front();
    state.batch->remaining.erase(state.batch->remaining.begin());
    return next;
}

void experiment_submitted(ExperimentState& state, std::uint64_t id) {
    if (state.batch) state.batch->in_flight = id;
}

bool take_experiment_result(ExperimentState& state, const gpu::RunResult& result, const std::string& device_name) {
    if (result.request.kind != gpu::RequestKind::Experiment) return false;
    ExperimentOutcome outcome;
    outcome.experiment = result.request.experiment;
    outcome.c.kernel = result.request.kernel;
    outcome.c.problem = result.request.problem;
    if (result.ok) {
        outcome.run = result.experiment;
        outcome.stale = result.stale_reads;
        if (!outcome.run) outcome.error = "the GPU answered without the experiment's counts";
    } else {
        outcome.error = result.error;
        outcome.worker_restarted = says_worker_restarted(result.error);
    }
    outcome.source = format_text("measured on {}, this session", device_name.empty() ? "this GPU" : device_name);
    keep_outcome(state, result.request.experiment, std::move(outcome));
    if (state.batch && state.batch->in_flight == result.id) {
        state.batch->in_flight = 0;
        ++state.batch->done;
        if (state.batch->remaining.empty()) state.batch.reset();
    }
    return true;
}

std::variant<ExperimentRecording, std::string> load_experiment_file(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) return format_text("{}: cannot be opened", file.string());
    ExperimentRecording recording;
    try {
        const Json json = Json::parse(in);
        const Json* list = &json;
        if (json.is_object()) {
            list = nullptr;
            for (const char* key : {"results", "cases", "experiments", "runs"})
                if (json.contains(key) && json.at(key).is_array()) list = &json.at(key);
            if (!list) return format_text("{}: no list of results (\"results\": [...]) in it", file.string());
            recording.device = device_name(json);
            recording.date = date_of(json);
        }
        if (!list->is_array()) return format_text("{}: neither a list of results nor an object holding one", file.string());
        for (const Json& entry : *list) recording.outcomes.push_back(read_outcome(entry));
    } catch (const std::exception& error) {
        return format_text("{}: not a recording of experiments ({})", file.string(), error.what());
    }
    // The date may be in the file's name instead: nvidia-h200-2026-11-26.json.
    if (recording.date.empty()) {
        const std::string stem = file.stem().string();
        const std::string tail = stem.size() >= 10 ? stem.substr(stem.size() - 10) : "";
        if (tail.size() == 10 && tail[4] == '-' && tail[7] == '-' &&
            std::all_of(tail.begin(), tail.end(), [](char ch) { return ch == '-' || (ch >= '0' && ch <= '9'); }))
            recording.date = tail;
    }
    const std::string where = recording.device.empty() ? std::string("an unnamed GPU") : recording.device;
    for (ExperimentOutcome& outcome : recording.outcomes)
        outcome.source = recording.date.empty() ? format_text("recorded on {}", where)
                                                : format_text("recorded on {}, {}", where, recording.date);
    return recording;
}

std::vector<std::filesystem::path> committed_experiment_files() {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(paths::data_dir() / "experiments", error))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

bool load_experiment_recording(ExperimentState& state, const std::filesystem::path& file) {
    auto loaded = load_experiment_file(file);
    if (const auto* why = std::get_if<std::string>(&loaded)) {
        state.load_message = *why;
        return false;
    }
    for (ExperimentOutcome& outcome : std::get<ExperimentRecording>(loaded).outcomes) {
        const model::Experiment experiment = outcome.experiment;
        keep_outcome(state, experiment, std::move(outcome));
    }
    return true;
}

void load_committed_experiments(ExperimentState& state) {
    if (state.recordings_loaded) return;
    state.recordings_loaded = true;
    std::vector<std::string> failed;
    for (const std::filesystem::path& file : committed_experiment_files())
        if (!load_experiment_recording(state, file)) failed.push_back(state.load_message);
    state.load_message.clear();
    for (const std::string& why : failed) state.load_message += (state.load_message.empty() ? "" : "\n") + why;
}

}  // namespace ts::views
