#include "views/lessons/lesson_state.hpp"

#include <algorithm>
#include <utility>

#include "views/lab/counters_panel.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lessons/lesson_answers.hpp"
#include "lessons/lesson_keys.hpp"
#include "lessons/lesson_parser.hpp"
#include "lessons/lesson_setup.hpp"
#include "model/format.hpp"
#include "views/theatre/theatre_flags.hpp"

namespace ts::views {

using lessons::LessonError;
using lessons::SettingsInForce;
using model::format_text;

namespace {

// The shared checks speak of command-line flags; a lesson author reads key names.
std::string in_lesson_words(std::string message) {
    constexpr std::pair<std::string_view, std::string_view> kFlagToKey[] = {
        {"--select-block", "block"}, {"--block", "block-size"}, {"--k-step", "k-step"}, {"--step", "sub-step"},
        {"--hover-a", "hover-a"},    {"--hover-b", "hover-b"},  {"--panel", "panel"},   {"--phase", "phase"},
        {"--tile", "tile"},          {"--kernel", "kernel"},    {"--dtype", "dtype"},   {"--m", "m"},
        {"--n", "n"},                {"--k", "k"},
    };
    for (const auto& [flag, key] : kFlagToKey)
        for (auto at = message.find(flag); at != std::string::npos; at = message.find(flag, at + key.size()))
            message.replace(at, flag.size(), key);
    return message;
}

std::vector<int> pair_of(const SettingsInForce& settings, const std::string& key) {
    const auto pair = lessons::parse_pair(lessons::value_of(settings, key));
    if (!pair) return {};
    return {pair->first, pair->second};
}

std::optional<int> number_of(const SettingsInForce& settings, const std::string& key) {
    const auto number = lessons::parse_whole(lessons::value_of(settings, key));
    if (!number) return std::nullopt;
    return static_cast<int>(*number);
}

std::optional<LatencyAxis> parse_axis(std::string_view word) {
    if (word == "latency") return LatencyAxis::LatencyLinear;
    if (word == "latency-log") return LatencyAxis::LatencyLog;
    if (word == "gflops") return LatencyAxis::Gflops;
    if (word == "speedup") return LatencyAxis::Speedup;
    return std::nullopt;
}

// `experiment: NAME` as --experiment NAME opens it: in the Experiments view, that experiment;
// with view: theatre, the theatre on the most telling stale read of its results where one is
// loaded (a missing-sync experiment run here or recorded), else the theatre stays where the
// step's own keys put it, so the lesson works without a GPU or a measurement. In other views
// the experiment is only remembered, for the answers. A stale read shown at an earlier step
// is taken back unless this one shows it again.
// The whole state: the experiments' and, on a stale read, the theatre, problem and kernel.
// `experiment: accumulator` opens the Experiments view on the accumulator's measurement, as
// --experiment accumulator does (with another view, it is only remembered); a later step without it
// goes back to the broken kernels' pages.
std::optional<std::string> apply_experiment(AppState& state, const std::string& name) {
    state.experiments.race.reset();
    state.experiments.accumulator_shown = name == lessons::kAccumulatorExperiment;
    if (name.empty() || state.experiments.accumulator_shown) return std::nullopt;
    const auto experiment = model::parse_experiment(name);
    if (!experiment)
        return format_text("experiment must be one of {}, {} or none, got \"{}\"", model::experiment_names(),
                           lessons::kAccumulatorExperiment, name);
    state.experiments.experiment = *experiment;
    // The answers read the recorded outcomes too, whichever view the step shows.
    load_committed_experiments(state.experiments);
    if (state.view == ViewId::Experiment) open_experiment(state, *experiment, false);
    // Only the missing-sync experiments have stale reads to show.
    const bool has_stale_reads = *experiment == model::Experiment::MissingFirstSync ||
                                 *experiment == model::Experiment::MissingSecondSync;
    if (state.view == ViewId::Theatre && has_stale_reads) open_experiment(state, *experiment, true);
    return std::nullopt;
}

// Everything the settings in force describe, written into `state`; the first value that
// does not fit, in the lesson's words.
// The whole state: problem, kernel, view, pinned cell, camera, theatre, the lab's kernels, axis and
// metric.
std::optional<std::string> apply_settings(AppState& state, const SettingsInForce& settings) {
    auto setup = lessons::resolve_lesson_setup(settings);
    if (auto* why = std::get_if<std::string>(&setup)) return in_lesson_words(*why);
    state.problem = std::get<cli::Setup>(setup).problem;
    state.kernel = std::get<cli::Setup>(setup).kernel;
    state.problem.batch = number_of(settings, "batch").value_or(1);

    const std::string view = lessons::value_of(settings, "view", "stage");
    const auto parsed_view = parse_view(view);
    if (!parsed_view)
        return format_text("view must be stage, latency, tuning, roofline, theatre, ladder or experiment, got \"{}\"",
                           view);
    state.view = *parsed_view;
    // The lab's occupancy panel knows the naive and tiled kernels: it shows the lesson's.
    if (state.kernel.kind == model::KernelKind::Naive || state.kernel.kind == model::KernelKind::Tiled)
        state.lab.panels.occupancy_kernel = state.kernel;
    // The counters panel reads the lesson's kernel, where it is one the panel offers.
    if (offers_counters_for(state.lab, state.kernel)) state.lab.panels.counters_kernel = state.kernel;
    if (const auto axis = parse_axis(lessons::value_of(settings, "axis", "latency-log"))) state.lab.choices.latency.axis = *axis;
    // What the ladder view's bars and the roofline's heights measure, as --bars sets it: speed unless
    // a step says energy.
    state.lab.choices.metric =
        lessons::value_of(settings, "metric", "speed") == "energy" ? LadderMetric::Energy : LadderMetric::Speed;

    state.selected.reset();
    if (const auto cell = pair_of(settings, "select"); !cell.empty()) {
        if (!model::inside(cell[0], cell[1], static_cast<int>(state.problem.m), static_cast<int>(state.problem.n)))
            return format_text("select {},{} is outside C, which has {} rows and {} columns (both count from 0)", cell[0],
                          cell[1], state.problem.m, state.problem.n);
        state.selected = model::Cell{cell[0], cell[1]};
    }
    state.camera = StageCamera{};  // new sizes: the whole stage fits again

    // The theatre starts from its defaults at every step, as it does when the app opens,
    // so a step shows the same picture however the student got there. Traces from the
    // GPU are kept: a step whose problem they fit replays them.
    TheatreState theatre;
    theatre.traces = std::move(state.theatre.traces);
    state.theatre = std::move(theatre);
    TheatreFlags flags;
    flags.select_block = pair_of(settings, "block");
    flags.phase = number_of(settings, "phase");
    flags.step = lessons::value_of(settings, "sub-step");
    flags.k_step = number_of(settings, "k-step");
    flags.side_by_side = lessons::value_of(settings, "side-by-side", "no") == "yes";
    flags.panel = lessons::value_of(settings, "panel");
    flags.hover_a = pair_of(settings, "hover-a");
    flags.hover_b = pair_of(settings, "hover-b");
    if (auto why = apply_theatre_flags(state.theatre, state.problem, state, flags)) return in_lesson_words(*why);
    return apply_experiment(state, lessons::value_of(settings, "experiment"));
}

// Which line made the settings fail: they are added back one at a time, in file order, and
// the first whose addition fails takes the blame (a size set in step 5 that leaves step 2's
// block outside the grid is blamed on step 5's line).
LessonError blame(const lessons::Lesson& lesson, const SettingsInForce& settings, const std::string& message,
                  int fallback_line) {
    std::vector<lessons::Setting> ordered;
    for (const auto& [key, setting] : settings) ordered.push_back(setting);
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
    SettingsInForce prefix;
    for (const lessons::Setting& setting : ordered) {
        prefix[setting.key] = setting;
        AppState scratch;
        if (auto why = apply_settings(scratch, prefix)) return {lesson.file, setting.line, *why};
    }
    return {lesson.file, fallback_line, message};
}

}  // namespace

std::optional<LessonError> apply_lesson_step(AppState& state, const lessons::Lesson& lesson, int index) {
    if (index < 0 || index >= static_cast<int>(lesson.steps.size()))
        return LessonError{lesson.file, 0,
                           format_text("step {} does not exist: the lesson has steps 1 to {}", index + 1,
                                  lesson.steps.size())};
    const lessons::Step& step = lesson.steps[index];
    const SettingsInForce settings = lessons::settings_through(lesson, index);
    if (auto why = apply_settings(state, settings)) return blame(lesson, settings, *why, step.line);

    const auto launch = launch_error(state);
    if (step.expect_error && !launch)
        return LessonError{lesson.file, step.expect_error_line,
                           "expect-error: yes, but this step's launch is fine; remove the line, or set what the GPU "
                           "would refuse (such as tile: 64)"};
    if (!step.expect_error && launch)
        return LessonError{lesson.file, step.line,
                           format_text("this step's launch would fail ({}); if the lesson means to show that, add "
                                  "`expect-error: yes`",
                                  *launch)};
    if (step.answer)
        if (auto why = check_answer(state, *step.answer)) return LessonError{lesson.file, step.answer->line, *why};
    return std::nullopt;
}

std::optional<LessonError> check_lesson(const lessons::Lesson& lesson) {
    AppState scratch;
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i)
        if (auto why = apply_lesson_step(scratch, lesson, i)) return why;
    return std::nullopt;
}

std::variant<lessons::Lesson, LessonError> load_lesson(const std::filesystem::path& file) {
    auto read = lessons::read_lesson(file);
    if (auto* lesson = std::get_if<lessons::Lesson>(&read))
        if (auto why = check_lesson(*lesson)) return *why;
    return read;
}

std::vector<LessonListEntry> list_lessons(const std::filesystem::path& dir) {
    std::vector<LessonListEntry> entries;
    for (const auto& file : lessons::lesson_files(dir)) {
        LessonListEntry entry{lessons::lesson_name(file), "", "", file, ""};
        auto loaded = load_lesson(file);
        if (auto* lesson = std::get_if<lessons::Lesson>(&loaded)) {
            entry.title = lesson->title;
            entry.summary = lesson->summary;
        } else {
            entry.error = std::get<LessonError>(loaded).text();
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

bool open_lesson(AppState& state, lessons::Lesson lesson, int index) {
    LessonProgress& progress = state.lesson;
    progress.lesson = std::move(lesson);
    progress.error.clear();
    progress.step = -1;
    go_to_lesson_step(state, index);
    return progress.lesson.has_value();
}

void go_to_lesson_step(AppState& state, int index) {
    LessonProgress& progress = state.lesson;
    if (!progress.lesson) return;
    index = std::clamp(index, 0, static_cast<int>(progress.lesson->steps.size()) - 1);
    if (index == progress.step) return;
    if (auto why = apply_lesson_step(state, *progress.lesson, index)) {
        progress.error = why->text();
        progress.lesson.reset();
        return;
    }
    progress.step = index;
    progress.guess = {};
    progress.focus_guess = !progress.lesson->steps[index].predict.empty();
    progress.top_frames = 3;
    progress.revealed = false;
}

void close_lesson(LessonProgress& progress) {
    progress.lesson.reset();
    progress.error.clear();
    progress.list_open = false;
}

}  // namespace ts::views
