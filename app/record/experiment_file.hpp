// experiment_file.hpp — recorded results of the Experiments view (assets/experiments/*.json,
// written by `tilescope-cli experiment --json`) as data: text in, cases, counts and stale
// reads out. Plain C++ and nlohmann-json, no ImGui, so that the fuzz build links it.
//
// A file holds one object with the GPU and date and a list of results, each either a
// RunResult as the wire writes it ({"ok", "error", "request", "experiment": {...},
// "stale_reads": {...}}) or an ExperimentRun alone (its "case" and counts) with an optional
// "stale_reads" beside it; or the list alone. Field names are the wire's (app/gpu/wire.cxx).
// A missing key leaves its default; a key of the wrong type, a number out of its field's
// range or an unknown name makes the file unreadable, with the reason.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/experiment.hpp"

namespace ts::record {

// One result of the file: a case's counts (and the stale reads an instrumented run saw), or
// why the run failed.
struct RecordedExperiment {
    model::Experiment experiment = model::Experiment::MissingFirstSync;
    model::ExperimentCase c;
    std::optional<model::ExperimentRun> run;
    std::optional<model::StaleReadReport> stale;
    std::string error;  // the runner's words when the run failed; empty when it ran
};

struct ExperimentFile {
    std::string device;  // "NVIDIA H200"; empty when the file does not say
    std::string date;    // "YYYY-MM-DD"; empty when the file does not say
    std::vector<RecordedExperiment> results;
};

// The results in `text`, or why it cannot be read; errors start with `source`.
std::variant<ExperimentFile, std::string> parse_experiment_file(std::string_view text, std::string_view source);
// The same from `file`; a file that names no date may end its name with one
// (nvidia-h200-YYYY-MM-DD.json).
std::variant<ExperimentFile, std::string> load_experiment_file(const std::filesystem::path& file);

}  // namespace ts::record
