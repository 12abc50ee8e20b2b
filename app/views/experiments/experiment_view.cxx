#include "views/experiments/experiment_view.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "paths/data_dir.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/experiments/experiment_results.hpp"
#include "views/theatre/block/race_overlay.hpp"
#include "views/window/side_column.hpp"

namespace ts::views {

using model::Experiment;
using model::format_text;

namespace {

constexpr std::string_view kBreaksC[] = {"every run", "some runs", "never"};
constexpr std::string_view kSlowdowns[] = {"not at all", "a few percent", "about a quarter", "twice as slow"};
constexpr int kExperimentTiles[] = {8, 16, 32};
constexpr int kMaxCases = 6;

// ---- The side panel -------------------------------------------------------------------------

void draw_picker(ExperimentState& experiments) {
    heading("Break the tiled kernel on purpose");
    for (Experiment e : model::kAllExperiments) {
        if (ImGui::RadioButton(std::string(model::experiment_name(e)).c_str(),
                               !experiments.accumulator_shown && experiments.experiment == e)) {
            experiments.experiment = e;
            experiments.accumulator_shown = false;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(model::experiment_text(e).title).c_str());
    }
    heading("Measure the tensor cores");
    if (ImGui::RadioButton("accumulator", experiments.accumulator_shown)) experiments.accumulator_shown = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("How many mantissa bits the tensor cores keep when they add products");
}

void draw_texts(Experiment e) {
    const model::ExperimentText& text = model::experiment_text(e);
    ImGui::PushFont(heading_font());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(std::string(text.title).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(std::string(text.removed).c_str());
    ImGui::PopTextWrapPos();
    muted_text(format_text("The real kernel: {}\nThe variant: {}", text.real_file, text.kernel_file));
}

void draw_prediction(ExperimentPage& page, Experiment e) {
    heading("Before you run it");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(std::string(model::experiment_text(e).predict).c_str());
    ImGui::PopTextWrapPos();
    const auto choices = prediction_choices(e);
    ImGui::TextUnformatted(breaks_tiled(e) ? "C comes out wrong on" : "Slower:");
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (int i = 0; i < static_cast<int>(choices.size()); ++i) {
        // On the same line while it fits (large text wraps the choices onto lines of their own).
        const float wide = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                           ImGui::CalcTextSize(std::string(choices[static_cast<std::size_t>(i)]).c_str()).x;
        if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + wide <= right) ImGui::SameLine();
        if (ImGui::RadioButton(std::string(choices[static_cast<std::size_t>(i)]).c_str(), page.prediction == i))
            page.prediction = i;
    }
    // The runs' answer and the explanation wait for the student's own.
    const auto observed = page.prediction >= 0 ? observed_choice(page, e) : std::nullopt;
    if (observed) {
        const std::string seen(choices[static_cast<std::size_t>(*observed)]);
        if (page.prediction == *observed)
            coloured_text_wrapped(colours::kPass, format_text("You said {}; the runs say {}: right.",
                                                              choices[static_cast<std::size_t>(page.prediction)], seen)
                                                      .c_str());
        else
            coloured_text_wrapped(colours::kWarning, format_text("You said {}; the runs say {}.",
                                                                 choices[static_cast<std::size_t>(page.prediction)], seen)
                                                         .c_str());
    }
    // What usually happens, once the student has committed (or the runs have answered).
    if (page.prediction >= 0) {
        if (ImGui::TreeNode("What usually happens, and why")) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(std::string(model::experiment_text(e).expect).c_str());
            ImGui::PopTextWrapPos();
            ImGui::TreePop();
        }
    } else {
        muted_text("Pick an answer: the runs' verdict and the explanation open once you have.");
    }
}

// "M [ 64 ]": the name before the field, as the sizes are read aloud.
bool int_field(const char* label, int& value, int low, int high, float width) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0.0f, 4.0f);
    ImGui::SetNextItemWidth(width);
    if (!ImGui::InputInt((std::string("##") + label).c_str(), &value, 0, 0)) return false;
    value = std::clamp(value, low, high);
    return true;
}

void draw_cases(ExperimentPage& page, Experiment e, bool locked) {
    heading("Cases");
    ImGui::BeginDisabled(locked);
    const float w = ImGui::GetFontSize() * 3.4f;
    int remove = -1;
    for (int i = 0; i < static_cast<int>(page.cases.size()); ++i) {
        model::ExperimentCase& c = page.cases[static_cast<std::size_t>(i)];
        ImGui::PushID(i);
        int m = static_cast<int>(c.problem.m), n = static_cast<int>(c.problem.n), k = static_cast<int>(c.problem.k);
        ImGui::TextUnformatted(format_text("{}.", i + 1).c_str());
        ImGui::SameLine();
        if (int_field("M", m, 1, 4096, w)) c.problem.m = m;
        ImGui::SameLine();
        if (int_field("N", n, 1, 4096, w)) c.problem.n = n;
        ImGui::SameLine();
        if (int_field("K", k, 1, 16384, w)) c.problem.k = k;
        if (breaks_tiled(e)) {
            ImGui::SameLine();
            ImGui::TextUnformatted("T");
            ImGui::SameLine(0.0f, 4.0f);
            ImGui::SetNextItemWidth(w);
            if (ImGui::BeginCombo("##T", std::to_string(c.kernel.tile).c_str())) {
                for (int t : kExperimentTiles)
                    if (ImGui::Selectable(std::to_string(t).c_str(), c.kernel.tile == t))
                        c.kernel = model::experiment_kernel(e, t);
                ImGui::EndCombo();
            }
        }
        ImGui::SameLine();
        if (page.cases.size() > 1 && ImGui::SmallButton("remove")) remove = i;
        if (const auto why = model::check_experiment_case(e, c)) coloured_text_wrapped(colours::kError, why->c_str());
        ImGui::PopID();
    }
    if (remove >= 0) page.cases.erase(page.cases.begin() + remove);
    if (static_cast<int>(page.cases.size()) < kMaxCases && ImGui::Button("Add a case")) page.cases.push_back(page.cases.back());
    ImGui::SameLine();
    if (ImGui::Button("Default cases")) page.cases = model::default_experiment_cases(e);
    if (!breaks_tiled(e)) muted_text("The conflict-free rung has its own shape: only the sizes change.");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
    ImGui::SliderInt("runs per case", &page.runs, 1, 1000, "%d", ImGuiSliderFlags_AlwaysClamp);
    ImGui::EndDisabled();
}

void draw_run_controls(ExperimentState& experiments, const AppState& app, Experiment e) {
    ExperimentPage& page = page_of(experiments, e);
    const bool running = experiments.batch.has_value();
    const bool can_run = usable_gpu(app) && !running;
    ImGui::BeginDisabled(!can_run);
    const std::string label = format_text("Run {} times on the GPU", page.runs);
    if (ImGui::Button(label.c_str())) start_experiment_batch(experiments, e);
    ImGui::EndDisabled();
    if (running) {
        const ExperimentBatch& batch = *experiments.batch;
        muted_text(format_text("{}: case {} of {}…", model::experiment_name(batch.experiment),
                               std::min(batch.done + 1, batch.total), batch.total));
        const float cancel = ImGui::CalcTextSize("Cancel").x + ImGui::GetStyle().FramePadding.x * 2.0f;
        ImGui::ProgressBar(static_cast<float>(batch.done) / static_cast<float>(std::max(batch.total, 1)),
                           ImVec2(std::max(ImGui::GetFontSize() * 4.0f,
                                           ImGui::GetContentRegionAvail().x - cancel - ImGui::GetStyle().ItemSpacing.x),
                                  0.0f));
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) cancel_experiment_batch(experiments);
    }
    if (!experiments.batch_note.empty()) muted_text(experiments.batch_note);
    if (!app.device) {
        muted_text("Still probing for a CUDA GPU…");
    } else if (!app.device->usable) {
        // Why nothing runs here, and what the view shows instead.
        coloured_text_wrapped(colours::kWarning, format_text("Not running here: {}.", app.device->why_not).c_str());
        muted_text("What the model knows is shown all the same: what each variant takes out, the out-of-bounds "
                   "accesses worked out from the indices, the bank map; and recorded results where there are some.");
    }
    if (!experiments.load_message.empty())
        coloured_text_wrapped(colours::kError, ("Recorded results: " + experiments.load_message).c_str());
}

}  // namespace


std::span<const std::string_view> prediction_choices(Experiment experiment) {
    if (experiment == Experiment::BankConflicts) return kSlowdowns;
    return kBreaksC;
}

std::optional<int> observed_choice(const ExperimentPage& page, Experiment experiment) {
    bool any = false;
    if (experiment == Experiment::BankConflicts) {
        double worst = -1.0;
        for (const ExperimentOutcome& o : page.outcomes)
            if (o.run && o.run->broken_ms > 0 && o.run->real_ms > 0) {
                any = true;
                worst = std::max(worst, o.run->broken_ms / o.run->real_ms - 1.0);
            }
        if (!any) return std::nullopt;
        return worst < 0.02 ? 0 : worst < 0.15 ? 1 : worst < 0.6 ? 2 : 3;
    }
    bool every = true, never = true;
    for (const ExperimentOutcome& o : page.outcomes) {
        if (!o.run || o.run->runs <= 0) continue;
        any = true;
        if (o.run->wrong_runs < o.run->runs) every = false;
        if (o.run->wrong_runs > 0) never = false;
    }
    if (!any) return std::nullopt;
    return every ? 0 : never ? 2 : 1;
}

// The whole state: it switches the view, and in the theatre sets the problem, kernel and theatre
// on the stale read (show_race_in_theatre).
std::optional<std::string> open_experiment(AppState& state, Experiment experiment, bool in_theatre) {
    state.experiments.experiment = experiment;
    if (!in_theatre) {
        state.view = ViewId::Experiment;
        return std::nullopt;
    }
    if (!watches_shared_memory(experiment))
        return format_text("{} has no stale read to show in the theatre (only the missing-sync experiments do)",
                           model::experiment_name(experiment));
    load_committed_experiments(state.experiments);
    for (const ExperimentOutcome& outcome : page_of(state.experiments, experiment).outcomes) {
        if (!outcome.stale) continue;
        if (const auto read = model::most_telling(*outcome.stale)) {
            const model::ExperimentCase& c = outcome.stale->c.problem.m > 0 ? outcome.stale->c : outcome.c;
            show_race_in_theatre(state, race_moment(experiment, c, *read));
            return std::nullopt;
        }
    }
    std::string note = format_text("no result of {} with a stale read to show (none recorded in {})",
                                   model::experiment_name(experiment), (paths::data_dir() / "experiments").string());
    if (!state.experiments.load_message.empty()) note += "; " + state.experiments.load_message;
    return note;
}

// The whole state: the side column (the window's) takes it, and "Show in the theatre" puts the
// theatre, problem and kernel on a stale read.
void draw_experiment_view(AppState& state, float bottom_reserve) {
    ExperimentState& experiments = state.experiments;
    load_committed_experiments(experiments);
    const Experiment e = experiments.experiment;
    ExperimentPage& page = page_of(experiments, e);

    const float panel_width = std::min(ImGui::GetFontSize() * 30.0f, ImGui::GetContentRegionAvail().x * 0.42f);
    const SideColumn column =
        begin_side_column(column_edits(state), state, "##experiment_panel", panel_width, bottom_reserve);
    if (column.panel && experiments.accumulator_shown) {
        draw_picker(experiments);
    } else if (column.panel) {
        draw_picker(experiments);
        ImGui::Separator();
        draw_texts(e);
        ImGui::Separator();
        draw_prediction(page, e);
        ImGui::Separator();
        draw_cases(page, e, experiments.batch.has_value());
        ImGui::Separator();
        draw_run_controls(experiments, state, e);
    }
    end_side_column(state.presentation, state, column);

    ImGui::SameLine();
    ImGui::BeginChild("##experiment_results", ImVec2(0.0f, -bottom_reserve), false);
    if (experiments.accumulator_shown) {
        std::optional<std::string> why_no_gpu;
        if (!usable_gpu(state))
            why_no_gpu = state.device ? state.device->why_not : std::string("the GPU is still being probed");
        else if (state.device->limits.compute_major != 9 || state.device->limits.compute_minor != 0)
            why_no_gpu = "needs an H100/H200: wgmma is sm_90a, and this GPU is " + state.device->limits.name;
        draw_accumulator_panel(experiments.accumulator, why_no_gpu);
        ImGui::EndChild();
        return;
    }
    const auto asked = draw_experiment_results(experiments, state, e);
    ImGui::EndChild();
    if (asked) show_race_in_theatre(state, *asked);
}

}  // namespace ts::views
