// experiment_state.hpp — what the Experiments view (--view experiment, Ctrl+7) remembers:
// for each of the four experiments its cases, the student's guess and every result that came
// back, live or recorded; the batch of GPU runs in progress; and the stale read the theatre
// is asked to show. Results are kept per experiment, so switching views or experiments loses
// nothing measured.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpu/runner.hpp"
#include "model/experiment.hpp"
#include "model/index_math.hpp"
#include "record/experiment_file.hpp"
#include "views/experiments/accumulator_panel.hpp"

namespace ts::views {

// One case's answer: live from this session's GPU, or read from a measurement. Its case,
// counts, stale reads and error are what a measurement file records (record::RecordedExperiment);
// a live one fills them from the runner's answer.
struct ExperimentOutcome : record::RecordedExperiment {
    bool worker_restarted = false;  // the error says the GPU worker stopped and was restarted (a fault)
    bool recorded = false;          // from assets/experiments/*.json, not measured this session
    std::string source;             // "measured on NVIDIA H200, YYYY-MM-DD" or "measured on NVIDIA H100, this session"
    int serial = 0;                 // unique per outcome: names its heat-map texture
};

struct ExperimentPage {
    std::vector<model::ExperimentCase> cases;  // model::default_experiment_cases until edited
    int runs = model::kDefaultExperimentRuns;
    // What the student committed to before running: an index into prediction_choices(experiment)
    // (experiment_view.hpp); -1: no guess yet. Compared with the runs once they are back.
    int prediction = -1;
    // The newest outcome of each case run so far; a live one replaces a recorded one of the same case.
    std::vector<ExperimentOutcome> outcomes;
};

// "Run N times on the GPU": one request per case, submitted one at a time so Cancel stops
// after the case in flight, whose result is still kept.
struct ExperimentBatch {
    model::Experiment experiment = model::Experiment::MissingFirstSync;
    std::vector<gpu::RunRequest> remaining;
    int total = 0;
    int done = 0;
    std::uint64_t in_flight = 0;  // the id of the request running; 0: none yet
    bool submit_next = true;      // the main loop hands `remaining`'s first to the runner
};

// The stale read the theatre shows ("Show in the theatre"): set by the view, drawn by
// theatre/block/race_overlay.cxx while the theatre stands on its block, phase and sub-step.
struct RaceMoment {
    model::Experiment experiment = model::Experiment::MissingSecondSync;
    model::StaleRead read;
    int tile = 16;
    std::string caption;       // explain_stale_read's text
    std::string size_note;     // why the theatre shows another size than the case's, or empty
    model::Problem problem;    // the problem the theatre was put on
    model::Index2 block;       // where the theatre stands: the read's block and phase, or their stand-ins
    int phase = 0;
    int k = 0;                 // the tile loop's i at which the reader reads the slot
};

struct ExperimentState {
    model::Experiment experiment = model::Experiment::MissingFirstSync;
    std::array<ExperimentPage, 4> pages;  // by static_cast<int>(Experiment)
    std::optional<ExperimentBatch> batch;
    std::string batch_note;               // "cancelled after case 2 of 3", shown until the next run
    std::string load_message;             // why a recorded file could not be read; empty when all could
    bool measurements_loaded = false;       // assets/experiments was looked at
    std::optional<RaceMoment> race;
    int next_serial = 1;
    int selected_read = 0;                // which stale read of the list is expanded
    // The accumulator measurement (accumulator_panel.hpp), shown instead of `experiment` when chosen.
    bool accumulator_shown = false;
    AccumulatorPanelState accumulator;
};

ExperimentState make_experiment_state();
ExperimentPage& page_of(ExperimentState& state, model::Experiment experiment);
const ExperimentPage& page_of(const ExperimentState& state, model::Experiment experiment);

// Keeps `outcome` in its experiment's page, replacing an older one of the same case (a
// recorded outcome never replaces a live one).
void keep_outcome(ExperimentState& state, model::Experiment experiment, ExperimentOutcome outcome);
// The outcome of `c` in the page, or null.
const ExperimentOutcome* outcome_of(const ExperimentPage& page, const model::ExperimentCase& c);
bool same_case(const model::ExperimentCase& a, const model::ExperimentCase& b);

// Whether an error says the variant faulted and the GPU worker was restarted.
bool says_worker_restarted(const std::string& error);

// Starts a batch of the page's cases (each checked by check_experiment_case first; the ones
// that fail are kept as outcomes with their reason). False when a batch is already running.
bool start_experiment_batch(ExperimentState& state, model::Experiment experiment);
void cancel_experiment_batch(ExperimentState& state);
// Runs one case again, as a batch of its own (a failed case's "Run this case again"); false
// when a batch is already running.
bool run_case_again(ExperimentState& state, model::Experiment experiment, const model::ExperimentCase& c);

// The main loop's part (app_state.cxx): the next request to submit, if any; and a finished
// result, taken when it is an Experiment request (true), with `device_name` saying where it ran.
std::optional<gpu::RunRequest> next_experiment_request(ExperimentState& state);
void experiment_submitted(ExperimentState& state, std::uint64_t id);
bool take_experiment_result(ExperimentState& state, const gpu::RunResult& result, const std::string& device_name);

// ---- Recorded results (tilescope-cli experiment --json) --------------------------------------
// The file's format and its parsing are record/experiment_file.hpp's (no ImGui, fuzzed); here
// its results become outcomes, each saying where it was recorded.
struct ExperimentMeasurement {
    std::string device;  // "NVIDIA H200"
    std::string date;    // "YYYY-MM-DD"
    std::vector<ExperimentOutcome> outcomes;
};
// The file's results, or why it cannot be read (missing, not JSON, a field of the wrong type).
std::variant<ExperimentMeasurement, std::string> load_experiment_file(const std::filesystem::path& file);
// The committed measurements: data_dir()/experiments/*.json, by name.
std::vector<std::filesystem::path> committed_experiment_files();
// Loads `file` into the pages (recorded outcomes); false with load_message set when it fails.
bool load_experiment_measurement(ExperimentState& state, const std::filesystem::path& file);
// Once: every committed measurement. Messages of files that fail go to load_message.
void load_committed_experiments(ExperimentState& state);

}  // namespace ts::views
