#include "views/experiments/experiment_state.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "paths/data_dir.hpp"
#include "record/experiment_file.hpp"

namespace ts::views {

using model::format_text;

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
        if (outcome.recorded && !kept.recorded) return;  // a measurement never hides a live result
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

std::variant<ExperimentMeasurement, std::string> load_experiment_file(const std::filesystem::path& file) {
    auto loaded = record::load_experiment_file(file);
    if (auto* why = std::get_if<std::string>(&loaded)) return std::move(*why);
    record::ExperimentFile& read = std::get<record::ExperimentFile>(loaded);
    ExperimentMeasurement measurement;
    measurement.device = std::move(read.device);
    measurement.date = std::move(read.date);
    const std::string where = measurement.device.empty() ? std::string("an unnamed GPU") : measurement.device;
    const std::string source = measurement.date.empty() ? format_text("measured on {}", where)
                                                      : format_text("measured on {}, {}", where, measurement.date);
    for (record::RecordedExperiment& result : read.results) {
        ExperimentOutcome outcome;
        static_cast<record::RecordedExperiment&>(outcome) = std::move(result);
        outcome.worker_restarted = says_worker_restarted(outcome.error);
        outcome.recorded = true;
        outcome.source = source;
        measurement.outcomes.push_back(std::move(outcome));
    }
    return measurement;
}

std::vector<std::filesystem::path> committed_experiment_files() {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(paths::data_dir() / "experiments", error))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

bool load_experiment_measurement(ExperimentState& state, const std::filesystem::path& file) {
    auto loaded = load_experiment_file(file);
    if (const auto* why = std::get_if<std::string>(&loaded)) {
        state.load_message = *why;
        return false;
    }
    for (ExperimentOutcome& outcome : std::get<ExperimentMeasurement>(loaded).outcomes) {
        const model::Experiment experiment = outcome.experiment;
        keep_outcome(state, experiment, std::move(outcome));
    }
    return true;
}

void load_committed_experiments(ExperimentState& state) {
    if (state.measurements_loaded) return;
    state.measurements_loaded = true;
    std::vector<std::string> failed;
    for (const std::filesystem::path& file : committed_experiment_files())
        if (!load_experiment_measurement(state, file)) failed.push_back(state.load_message);
    state.load_message.clear();
    for (const std::string& why : failed) state.load_message += (state.load_message.empty() ? "" : "\n") + why;
}

}  // namespace ts::views
