#include "views/kernel/kernel_results.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/experiments/wrong_map.hpp"
#include "views/theatre/theatre_traces.hpp"

namespace ts::views {

namespace {

using model::format_text;
using model::problem_size_text;

void coloured(ImU32 colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

void draw_check(const ExperimentOutcome& outcome) {
    const model::Problem& p = outcome.c.problem;
    ImGui::PushID(outcome.serial);
    if (!outcome.error.empty()) {
        coloured(colours::kError, format_text("{}: failed. {}", problem_size_text(p), outcome.error));
        ImGui::PopID();
        return;
    }
    const model::ExperimentRun& run = *outcome.run;
    if (run.wrong_runs == 0 && run.stray_writes == 0) {
        coloured(colours::kPass, format_text("{}: right in all {} runs (largest error {})", problem_size_text(p), run.runs,
                                             model::scientific(run.max_error)));
        ImGui::PopID();
        return;
    }
    coloured(colours::kError,
             format_text("{}: wrong in {} of {} runs, up to {} of {} cells in one run", problem_size_text(p), run.wrong_runs,
                         run.runs, run.wrong_cells_worst, p.m * p.n));
    const float side = std::min(ImGui::GetContentRegionAvail().x * 0.35f, ImGui::GetFontSize() * 12.0f);
    ImGui::BeginGroup();
    draw_wrong_map(outcome, side);
    draw_wrong_map_legend(run.runs, side);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("cells wrong in some run: %lld", static_cast<long long>(run.cells_ever_wrong));
    ImGui::Text("NaN cells: %lld (a NaN read from past a guard zone shows as one)", static_cast<long long>(run.nan_cells));
    ImGui::Text("stores past C's ends: %lld", static_cast<long long>(run.stray_writes));
    if (!run.note.empty()) ImGui::TextUnformatted(run.note.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    ImGui::PopID();
}

std::string timing_text(const gpu::RunResult& r) {
    if (!r.ok) return "failed: " + r.error;
    return format_text("{} ms, {} GFLOP/s (median of {}, {}), {}", model::fixed(r.median_ms, 3),
                       model::fixed(r.gflops, 0), r.samples_ms.size(), r.hot ? "hot L2" : "L2 flushed before each",
                       r.checked ? (r.check_passed ? "C right" : "C WRONG: " + r.check_summary) : "not checked");
}

// The trace's shared memory, sentence by sentence as describe_shared words it: amber for bank
// conflicts (and where shared memory was not recorded), red for races (a barrier is missing).
void draw_shared(const model::SharedReport& shared) {
    for (const model::SharedSentence& sentence : model::describe_shared(shared)) {
        switch (sentence.tone) {
            case model::SharedTone::Race: coloured(colours::kError, sentence.text); break;
            case model::SharedTone::Conflict:
            case model::SharedTone::NotRecorded: coloured(colours::kWarning, sentence.text); break;
            case model::SharedTone::Plain: ImGui::TextWrapped("%s", sentence.text.c_str()); break;
        }
    }
}

// True when "Show in the theatre" was clicked.
bool draw_trace(const KernelEditorState& editor) {
    const gpu::RunResult& r = *editor.recorded;
    ImGui::Spacing();
    ImGui::Text("Recorded at %s:", problem_size_text(r.request.problem).c_str());
    if (!r.ok) {
        coloured(colours::kError, r.error);
        return false;
    }
    const gpu::UserTraceReport& report = *r.user_trace;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(report.counts_text.c_str());
    ImGui::Text("%lld accesses noted; the most barriers a thread passed: %d. %s", static_cast<long long>(report.events),
                report.counts.most_barriers, report.c_summary.c_str());
    ImGui::PopTextWrapPos();
    draw_shared(report.shared);
    if (!r.trace) {
        coloured(colours::kWarning, "The theatre cannot draw it: " + report.theatre_note);
        return false;
    }
    const auto difference = model::compare_with_model(*r.trace);
    coloured(difference ? colours::kWarning : colours::kPass,
             difference ? "Shaped like the tiled rung, but not its loads: " + *difference
                        : format_text("Shaped like the tiled rung with T = {}: every thread's loads in every phase are "
                                      "the model's.",
                                      r.trace->config.tile));
    return ImGui::Button("Show in the theatre");
}

}  // namespace

bool draw_kernel_results(const KernelEditorState& editor) {
    bool to_theatre = false;
    heading("On the GPU");
    if (editor.checks.empty() && !editor.mine && !editor.recorded)
        muted_text("Run checks launches your kernel at five sizes, each cell of C against the reference; Measure "
                   "times it beside a rung; Record notes every access of every thread.");
    if (editor.recorded) to_theatre = draw_trace(editor);
    if (!editor.checks.empty()) {
        ImGui::TextUnformatted("Checks (C filled with a NaN before each launch, guard zones around A, B and C):");
        for (const ExperimentOutcome& outcome : editor.checks) draw_check(outcome);
    }
    if (editor.mine) {
        ImGui::Spacing();
        const model::Problem& p = editor.mine->request.problem;
        ImGui::Text("Measured at %s:", problem_size_text(p).c_str());
        ImGui::BulletText("yours: %s  %s", editor.name.c_str(), timing_text(*editor.mine).c_str());
        if (editor.theirs) {
            ImGui::BulletText("%s  %s", model::describe(editor.theirs->request.kernel).c_str(),
                              timing_text(*editor.theirs).c_str());
            if (editor.mine->ok && editor.theirs->ok && editor.theirs->median_ms > 0)
                ImGui::Text("yours takes %s× the time of %s", model::fixed(editor.mine->median_ms / editor.theirs->median_ms, 2).c_str(),
                            model::describe(editor.theirs->request.kernel).c_str());
        }
    }
    return to_theatre;
}

}  // namespace ts::views
