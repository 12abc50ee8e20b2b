#include "views/experiments/experiment_results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "model/format.hpp"
#include "model/index_math.hpp"
#include "model/ladder.hpp"
#include "model/ladder_access.hpp"
#include "platform/imgui_compat.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/experiments/wrong_map.hpp"
#include "views/theatre/bank_map.hpp"
#include "views/theatre/block/race_overlay.hpp"

namespace ts::views {

using model::Experiment;
using model::fixed;
using model::format_text;

namespace {

constexpr int kListedReads = 6;  // stale reads listed besides the most telling one
// Recorded results are drawn faded until live ones replace them.
constexpr float kRecordedAlpha = 0.6f;

std::string case_name(Experiment e, const model::ExperimentCase& c) {
    const model::Problem& p = c.problem;
    if (!breaks_tiled(e)) return format_text("{} × {} × {}, {}", p.m, p.n, p.k, model::describe(c.kernel));
    return format_text("{} × {} × {}, T = {}", p.m, p.n, p.k, c.kernel.tile);
}

std::int64_t block_count(Experiment e, const model::ExperimentCase& c, const model::ExperimentRun* run) {
    if (run && run->blocks > 0) return run->blocks;
    if (!breaks_tiled(e)) return 0;
    const std::int64_t t = std::max(c.kernel.tile, 1);
    return model::ceil_div64(c.problem.m, t) * model::ceil_div64(c.problem.n, t);
}

void number_row(const char* name, const std::string& value) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(value.c_str());
}

std::string error_text(double error) {
    if (error <= 0.0) return "0";
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", error);
    return text;
}

void draw_numbers(Experiment e, const ExperimentOutcome& outcome) {
    const model::ExperimentRun& run = *outcome.run;
    if (!ImGui::BeginTable("##numbers", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
    const std::int64_t cells = run.c.problem.m * run.c.problem.n;
    number_row("runs", std::to_string(run.runs));
    number_row("runs with a wrong cell", format_text("{} of {}", run.wrong_runs, run.runs));
    number_row("most wrong cells in one run",
               format_text("{} ({} % of C)", grouped(run.wrong_cells_worst),
                           fixed(cells > 0 ? 100.0 * static_cast<double>(run.wrong_cells_worst) / static_cast<double>(cells) : 0.0, 2)));
    number_row("cells ever wrong", grouped(run.cells_ever_wrong));
    number_row("largest error", error_text(run.max_error));
    number_row("NaN cells", grouped(run.nan_cells));
    if (e == Experiment::NoBoundsCheck) {
        const std::int64_t predicted = model::predicted_stray_writes(run.c);
        number_row("stray writes past C", format_text("{} ({} per run; predicted {})", grouped(run.stray_writes),
                                                      run.runs > 0 ? grouped(run.stray_writes / run.runs) : "0",
                                                      grouped(predicted)));
        if (run.stray_reads > 0) number_row("guard elements read", grouped(run.stray_reads));
    } else {
        number_row("stray writes", grouped(run.stray_writes));
    }
    number_row("blocks", grouped(run.blocks));
    if (run.map.bin_rows > 1 || run.map.bin_cols > 1)
        number_row("heat-map bin", format_text("{} × {} cells", run.map.bin_rows, run.map.bin_cols));
    ImGui::EndTable();
}

// ---- Stale reads ----------------------------------------------------------------------------

std::string read_line(const model::StaleRead& r) {
    const std::string from = r.value_phase >= 0 ? format_text("phase {}'s value", r.value_phase) : "a value of no phase";
    return format_text("block ({}, {}) phase {}: thread ({}, {}) read {}s[{}][{}], got {} ({}), writer ({}, {})", r.block_x,
                       r.block_y, r.phase, r.reader_x, r.reader_y, r.operand == 'A' ? "A" : "B", r.slot_row, r.slot_col,
                       fixed(r.got, 0), from, r.writer_x, r.writer_y);
}

// The stale read whose "Show in the theatre" was clicked, if one was.
std::optional<RaceMoment> draw_stale_reads(Experiment e, const ExperimentOutcome& outcome) {
    const model::StaleReadReport& report = *outcome.stale;
    const model::ExperimentCase& c = report.c.problem.m > 0 ? report.c : outcome.c;
    heading("What an instrumented run saw");
    muted_text(format_text("Every thread compared each value it read from As and Bs with what the phase should hold: "
                           "{} of {} reads were stale{}.",
                           grouped(report.stale_reads), grouped(report.reads_checked),
                           report.launches > 1 ? format_text(" (launch {} was the first to see any)", report.launches)
                                               : std::string()));
    const auto telling = model::most_telling(report);
    if (!telling) {
        muted_text("No stale read in this launch: this time every thread happened to wait long enough.");
        return std::nullopt;
    }
    std::optional<RaceMoment> asked;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(model::explain_stale_read(e, *telling, std::max(c.kernel.tile, 1)).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PushID("telling");
    if (ImGui::Button("Show in the theatre")) asked = race_moment(e, c, *telling);
    ImGui::PopID();
    const int more = std::min<int>(kListedReads, static_cast<int>(report.reads.size()));
    if (more <= 1) return asked;
    ImGui::TextUnformatted((more == static_cast<int>(report.reads.size())
                                ? format_text("All {} recorded:", more)
                                : format_text("The first {} of the {} recorded:", more, report.reads.size()))
                               .c_str());
    ImGui::PushFont(small_font());
    for (int i = 0; i < more; ++i) {
        const model::StaleRead& r = report.reads[static_cast<std::size_t>(i)];
        ImGui::PushID(i);
        if (ImGui::SmallButton("Show in the theatre")) asked = race_moment(e, c, r);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", model::explain_stale_read(e, r, std::max(c.kernel.tile, 1)).c_str());
        ImGui::SameLine();
        ImGui::TextUnformatted(read_line(r).c_str());
        ImGui::PopID();
    }
    ImGui::PopFont();
    return asked;
}

// ---- bank-conflicts: the bank map and the measured slow-down --------------------------------

// The As store of warp 0 that the missing padding hurts most, in the real rung and unpadded.
struct StorePair {
    std::vector<model::LaneAccess> padded, unpadded;
    std::string what;
    std::string unpadded_label;
};

StorePair costliest_as_store() {
    const model::LadderShape real = model::ladder_shape(model::experiment_kernel(Experiment::BankConflicts, 0));
    const auto comparison = model::layout_comparison(real, model::Operand::A);
    StorePair best;
    if (!comparison) return best;
    best.unpadded_label = comparison->label;
    int best_cost = -1;
    for (const model::LadderLoad& load : model::ladder_thread_loads(real, 0)) {
        if (load.operand != model::Operand::A) continue;
        for (int part = 0; part < load.width; ++part) {
            auto unpadded = model::warp_store_accesses(comparison->other, 0, model::Operand::A, load.instruction, part);
            const model::BankMap map = model::bank_map(unpadded);
            if (map.wavefronts - map.ideal <= best_cost) continue;
            best_cost = map.wavefronts - map.ideal;
            best.unpadded = std::move(unpadded);
            best.padded = model::warp_store_accesses(real, 0, model::Operand::A, load.instruction, part);
            best.what = format_text("warp 0 storing value {} of its float4 of A (load {}) into As", part, load.instruction);
        }
    }
    return best;
}

void draw_bank_maps() {
    heading("The bank map of the As store");
    const StorePair pair = costliest_as_store();
    if (pair.padded.empty()) {
        muted_text("The model has no comparison layout for this rung's As.");
        return;
    }
    muted_text(format_text("From the model, {}: each box a word of shared memory in its bank (0–31), numbered with "
                           "its lane; a bank asked for two different words in one phase is outlined red.",
                           pair.what));
    const float gap = ImGui::GetFontSize();
    const float width = (ImGui::GetContentRegionAvail().x - gap) * 0.5f;
    // draw_bank_map's rows: one per (phase, 128-byte line) an access touches, 1.4 bank widths tall,
    // under two lines of small text.
    const auto rows_of = [](const std::vector<model::LaneAccess>& accesses) {
        const model::BankMap map = model::bank_map(accesses);
        std::vector<std::pair<int, int>> rows;
        for (std::size_t i = 0; i < map.words.size(); ++i) rows.push_back({map.phase_of[i], map.words[i] / 32});
        std::sort(rows.begin(), rows.end());
        return static_cast<int>(std::unique(rows.begin(), rows.end()) - rows.begin());
    };
    const int rows = std::min(12, std::max(rows_of(pair.padded), rows_of(pair.unpadded)));
    const float height = imgui_compat::font_size(small_font()) * 3.0f + width / 32.0f * 1.4f * static_cast<float>(rows) + 4.0f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Dummy({width * 2.0f + gap, height});
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw_bank_map(draw, {at, {at.x + width, at.y + height}}, pair.unpadded, "bank-conflicts (" + pair.unpadded_label + ")");
    draw_bank_map(draw, {{at.x + width + gap, at.y}, {at.x + 2.0f * width + gap, at.y + height}}, pair.padded,
                  "the real rung, 09 (padded by 4)");
}

void draw_slowdown(const model::ExperimentRun& run) {
    if (run.broken_ms <= 0.0 || run.real_ms <= 0.0) {
        muted_text("No times in this result.");
        return;
    }
    const double percent = 100.0 * (run.broken_ms / run.real_ms - 1.0);
    ImGui::TextUnformatted(format_text("Without the padding: {} % {}", fixed(std::fabs(percent), 1),
                                       percent >= 0 ? "slower" : "faster (within the noise?)")
                               .c_str());
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float label = ImGui::CalcTextSize("without padding (broken) ").x;
    const float full = std::max(ImGui::GetContentRegionAvail().x - label - ImGui::GetFontSize() * 6.0f, 50.0f);
    const double longest = std::max(run.broken_ms, run.real_ms);
    const auto bar = [&](const char* name, double ms, ImU32 colour) {
        ImGui::TextUnformatted(name);
        ImGui::SameLine(label);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float w = static_cast<float>(ms / longest) * full;
        const float h = ImGui::GetFontSize();
        draw->AddRectFilled(at, {at.x + w, at.y + h}, colour);
        ImGui::Dummy({full, h});
        ImGui::SameLine();
        ImGui::TextUnformatted(format_text("{} ms", fixed(ms, 3)).c_str());
    };
    bar("without padding (broken)", run.broken_ms, IM_COL32(200, 60, 40, 255));
    bar("with padding (09)", run.real_ms, IM_COL32(25, 130, 105, 255));
}

// ---- One case's outcome ---------------------------------------------------------------------

// Writes the experiments' state ("Run this case again"); returns the stale read asked for in the theatre.
std::optional<RaceMoment> draw_outcome(ExperimentState& experiments, const AppState& app, Experiment e, int index,
                                       const ExperimentOutcome& outcome) {
    std::optional<RaceMoment> asked;
    ImGui::PushID(outcome.serial);
    const model::ExperimentRun* run = outcome.run ? &*outcome.run : nullptr;
    ImGui::PushFont(heading_font());
    const std::int64_t blocks = block_count(e, outcome.c, run);
    ImGui::TextUnformatted(format_text("Case {}: {}{}", index + 1, case_name(e, outcome.c),
                                       blocks > 0 ? format_text(", {} blocks", grouped(blocks)) : std::string())
                               .c_str());
    ImGui::PopFont();
    if (outcome.recorded)
        coloured_text_wrapped(colours::kWarning, (outcome.source + " (a measurement: live results replace it)").c_str());
    else if (!outcome.source.empty())
        muted_text(outcome.source);

    if (!outcome.error.empty()) {
        if (outcome.worker_restarted) {
            ImGui::PushFont(heading_font());
            coloured_text_wrapped(colours::kError,
                                  "The variant faulted; the GPU worker restarted, the app and your other results are fine.");
            ImGui::PopFont();
        }
        // A case refused before running says "not run: why"; one that ran and failed, "failed: why".
        const bool refused = outcome.error.starts_with("not run");
        coloured_text_wrapped(colours::kError, (refused ? outcome.error : "failed: " + outcome.error).c_str());
        // Exactly this case again (issue #22); the batch's Run button runs them all.
        if (!refused && !outcome.recorded && usable_gpu(app)) {
            ImGui::BeginDisabled(experiments.batch.has_value());
            if (ImGui::SmallButton("Run this case again")) run_case_again(experiments, e, outcome.c);
            ImGui::EndDisabled();
        }
    }
    if (run) {
        if (outcome.recorded) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, kRecordedAlpha);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(model::summarize_run(*run).c_str());
        ImGui::PopTextWrapPos();
        if (e == Experiment::BankConflicts) {
            draw_slowdown(*run);
        } else {
            const float side = std::min(ImGui::GetContentRegionAvail().x * 0.45f, ImGui::GetFontSize() * 22.0f);
            ImGui::BeginGroup();
            draw_wrong_map(outcome, side);
            draw_wrong_map_legend(run->runs, side);
            ImGui::EndGroup();
            // The numbers beside the map where they fit, else under it.
            const float beside = ImGui::GetContentRegionAvail().x - side - ImGui::GetFontSize();
            if (beside >= ImGui::GetFontSize() * 20.0f) ImGui::SameLine(0.0f, ImGui::GetFontSize());
            ImGui::BeginGroup();
            draw_numbers(e, outcome);
            ImGui::EndGroup();
        }
        if (outcome.recorded) ImGui::PopStyleVar();
    }
    if (outcome.stale && watches_shared_memory(e)) {
        if (outcome.recorded) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, kRecordedAlpha);
        asked = draw_stale_reads(e, outcome);
        if (outcome.recorded) ImGui::PopStyleVar();
    } else if (run && watches_shared_memory(e)) {
        muted_text(model::watchable(outcome.c.problem)
                       ? "No instrumented run came with this result."
                       : "Too large to watch: the instrumented run needs every element of A and B exact in float "
                         "(M·K and K·N under 2^24).");
    }
    ImGui::PopID();
    return asked;
}

// ---- The results column ---------------------------------------------------------------------

void draw_model_part(Experiment e, const ExperimentPage& page) {
    if (e == Experiment::NoBoundsCheck) {
        heading("From the indices alone");
        muted_text("What the variant's threads touch past the matrices, worked out before any run:");
        for (int i = 0; i < static_cast<int>(page.cases.size()); ++i) {
            const model::ExperimentCase& c = page.cases[static_cast<std::size_t>(i)];
            ImGui::PushFont(heading_font());
            ImGui::TextUnformatted(format_text("Case {}: {}", i + 1, case_name(e, c)).c_str());
            ImGui::PopFont();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(model::explain_out_of_bounds(c).c_str());
            ImGui::PopTextWrapPos();
            muted_text(format_text("Predicted stray writes past C per run: {}", grouped(model::predicted_stray_writes(c))));
        }
        ImGui::Separator();
    }
    if (e == Experiment::BankConflicts) {
        draw_bank_maps();
        ImGui::Separator();
    }
}

}  // namespace

std::optional<RaceMoment> draw_experiment_results(ExperimentState& experiments, const AppState& app, Experiment e) {
    ExperimentPage& page = page_of(experiments, e);
    draw_model_part(e, page);
    heading("What the GPU found");
    // The cases in the panel's order, then any other case a measurement or an earlier edit brought.
    std::vector<const ExperimentOutcome*> shown;
    for (const model::ExperimentCase& c : page.cases)
        if (const ExperimentOutcome* outcome = outcome_of(page, c)) shown.push_back(outcome);
    for (const ExperimentOutcome& outcome : page.outcomes)
        if (std::find(shown.begin(), shown.end(), &outcome) == shown.end()) shown.push_back(&outcome);
    if (shown.empty()) {
        muted_text(usable_gpu(app) ? "Nothing run yet: make your guess, then press Run."
                                     : "Nothing measured to show: no GPU here, and no recorded results of this "
                                       "experiment (assets/experiments/).");
        return std::nullopt;
    }
    std::optional<RaceMoment> asked;
    for (int i = 0; i < static_cast<int>(shown.size()); ++i) {
        if (i > 0) ImGui::Separator();
        if (auto read = draw_outcome(experiments, app, e, i, *shown[static_cast<std::size_t>(i)])) asked = read;
    }
    return asked;
}

}  // namespace ts::views
