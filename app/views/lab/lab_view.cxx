#include "views/lab/lab_view.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "views/lab/ladder_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/lab/counters_panel.hpp"
#include "model/format.hpp"
#include "views/window/shortcuts.hpp"
#include "views/lab/occupancy_panel.hpp"
#include "views/lab/roofline_view.hpp"
#include "views/window/side_column.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/lab/tuning_view.hpp"

namespace ts::views {

namespace {

// The quick sweep of a first visit, while it runs: how far, and a way to stop it. Or why it
// never started, where a user might wonder (a GPU is there, yet nothing filled in).
void draw_first_visit_sweep(AppState& state) {
    LabState& lab = state.lab;
    if (lab.sweep.active() && lab.sweep.first_visit) {
        muted_text(model::format_text("Measuring on {}: {} of {} points…", state.device->limits.name, lab.sweep.done,
                                      lab.sweep.total));
        const float cancel = ImGui::CalcTextSize("Cancel").x + ImGui::GetStyle().FramePadding.x * 2.0f;
        ImGui::ProgressBar(float(lab.sweep.done) / float(lab.sweep.total),
                           ImVec2(std::max(ImGui::GetFontSize() * 4.0f,
                                           ImGui::GetContentRegionAvail().x - cancel - ImGui::GetStyle().ItemSpacing.x),
                                  0.0f));
        ImGui::SameLine();
        if (ImGui::Button("Cancel##first_visit")) cancel_sweep(lab);
    } else if (!lab.first_visit.passed_over.empty()) {
        muted_text("No automatic sweep: " + lab.first_visit.passed_over + ".");
    }
}

}  // namespace

bool draw_sweep_progress(LabState& lab) {
    if (!lab.sweep.active() || lab.sweep.first_visit) return false;
    ImGui::ProgressBar(float(lab.sweep.done) / float(lab.sweep.total), ImVec2(ImGui::GetFontSize() * 12.0f, 0),
                       model::format_text("{} of {}", lab.sweep.done, lab.sweep.total).c_str());
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) cancel_sweep(lab);
    return true;
}

namespace {

// Where the numbers come from, said first: a measurement is another machine's past.
void draw_source(AppState& state) {
    LabState& lab = state.lab;
    if (lab.unfinished) {
        coloured_text_wrapped(colours::kWarning,
                              model::format_text("TileScope ended unexpectedly during the session of {}; it kept {}.",
                                                 lab.unfinished->started,
                                                 model::counted(lab.unfinished->points, "measurement"))
                                  .c_str());
        if (ImGui::Button("Reopen them")) reopen_unfinished(lab);
        ImGui::SameLine();
        if (ImGui::Button("Discard")) discard_unfinished(lab);
        ImGui::Separator();
    }
    if (!lab.load_error.empty()) coloured_text_wrapped(colours::kError, ("Cannot load: " + lab.load_error).c_str());
    if (measurement_loading(lab)) muted_text("Loading measurements…");
    if (lab.measurement) {
        ImGui::PushFont(heading_font());
        coloured_text_wrapped(colours::kWarning, lab.measurement_label.c_str());
        ImGui::PopFont();
    }
    if (state.device && state.device->usable) {
        muted_text(model::format_text("Live: {} ({} measured this session)", state.device->limits.name,
                                      model::counted(static_cast<std::int64_t>(lab.live_points.size()), "point")));
        draw_first_visit_sweep(state);
    } else if (state.device) {
        // Said once here for every lab view: why nothing is measured, and what is shown instead.
        muted_text(model::format_text("Not measuring here: {}. {}", state.device->why_not,
                                      lab.measurement              ? "What is drawn comes from the measurement."
                                      : measurement_loading(lab) ? "What is drawn will come from the measurement."
                                                                 : "No measurement loaded either: nothing measured to show."));
    } else if (!lab.measurement && !measurement_loading(lab)) {
        muted_text("No measurement loaded and no GPU: nothing measured to show.");
    }
}

void draw_save(AppState& state) {
    LabState& lab = state.lab;
    if (lab.live_points.empty()) return;
    heading("Save this session");
    char path[256];
    std::snprintf(path, sizeof path, "%s", lab.save_path.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
    if (ImGui::InputText("##save_path", path, sizeof path)) lab.save_path = path;
    ImGui::SameLine();
    if (ImGui::Button("Save JSON")) {
        const auto why = save_session(lab, lab.save_path, state.device ? state.device->limits.name : "unknown GPU");
        lab.save_message = why ? *why : "saved " + lab.save_path + " (open it with --load)";
    }
    if (!lab.save_message.empty()) muted_text(lab.save_message);
}

// The lab views' panel: where the numbers come from, the view's own controls, the counters,
// the occupancy and saving.
void draw_lab_panel(AppState& state) {
    draw_source(state);
    ImGui::Separator();
    if (state.view == ViewId::Latency) {
        draw_latency_controls(state);
        ImGui::Separator();
    }
    if (state.view == ViewId::Ladder) {
        draw_ladder_controls(state);
        ImGui::Separator();
    }
    // The hardware's counters beside the model's, at the size the plot shows.
    if (state.view == ViewId::Roofline || state.view == ViewId::Ladder) {
        const int size = state.view == ViewId::Roofline ? kRooflineSize : shown_ladder_size(state.lab);
        draw_counters_panel(state, {size, size, size, 1, model::Dtype::Float32});
        ImGui::Separator();
    }
    draw_occupancy_panel(state);
    ImGui::Separator();
    draw_save(state);
}

}  // namespace

void draw_lab_view(AppState& state, float bottom_reserve) {
    // At most half the window, so that presenter mode's large text leaves the drawing room.
    const float panel_width = std::min(ImGui::GetFontSize() * 27.0f, ImGui::GetContentRegionAvail().x * 0.5f);
    const SideColumn column = begin_side_column(state, "##lab_panel", panel_width, bottom_reserve);
    if (column.panel) draw_lab_panel(state);
    end_side_column(state.presentation, state, column);

    ImGui::SameLine();
    ImGui::BeginChild("##lab_plot", ImVec2(0.0f, -bottom_reserve), false);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    switch (state.view) {
        case ViewId::Latency:
            heading("Kernel latency against matrix size");
            draw_latency_plot(state, ImVec2(size.x, size.y - ImGui::GetCursorPosY()));
            break;
        case ViewId::Tuning: draw_tuning_view(state, size); break;
        case ViewId::Roofline: draw_roofline_view(state, size); break;
        case ViewId::Ladder: draw_ladder_view(state, size); break;
        case ViewId::Stage:
        case ViewId::Theatre:
        case ViewId::Experiment:
        case ViewId::Kernel: break;
    }
    ImGui::EndChild();
}

}  // namespace ts::views
