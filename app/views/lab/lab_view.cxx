#include "views/lab/lab_view.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "views/lab/error_speed_view.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/lab/counters_panel.hpp"
#include "model/format.hpp"
#include "views/window/shortcuts.hpp"
#include "views/lab/occupancy_panel.hpp"
#include "views/lab/roofline_view.hpp"
#include "views/window/side_column.hpp"
#include "views/window/status_bar.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/export/export_dialog.hpp"
#include "views/lab/tuning_view.hpp"

namespace ts::views {

namespace {

// The quick sweep of a first visit, while it runs: how far, and a way to stop it. Or why it
// never started, where a user might wonder (a GPU is there, yet nothing filled in).
void draw_first_visit_sweep(LabMeasurements& measured, const AppState& app) {
    if (measured.sweep.active() && measured.sweep.first_visit) {
        muted_text(model::format_text("Measuring on {}{}: {} of {} points…", app.device->limits.name, on_host(*app.device),
                                      measured.sweep.done, measured.sweep.total));
        const float cancel = ImGui::CalcTextSize("Cancel").x + ImGui::GetStyle().FramePadding.x * 2.0f;
        ImGui::ProgressBar(float(measured.sweep.done) / float(measured.sweep.total),
                           ImVec2(std::max(ImGui::GetFontSize() * 4.0f,
                                           ImGui::GetContentRegionAvail().x - cancel - ImGui::GetStyle().ItemSpacing.x),
                                  0.0f));
        ImGui::SameLine();
        if (ImGui::Button("Cancel##first_visit")) cancel_sweep(measured);
    } else if (!measured.first_visit.passed_over.empty()) {
        muted_text("No automatic sweep: " + measured.first_visit.passed_over + ".");
    }
}

}  // namespace

bool draw_sweep_progress(LabMeasurements& measured) {
    if (!measured.sweep.active() || measured.sweep.first_visit) return false;
    ImGui::ProgressBar(float(measured.sweep.done) / float(measured.sweep.total),
                       ImVec2(ImGui::GetFontSize() * 12.0f, 0),
                       model::format_text("{} of {}", measured.sweep.done, measured.sweep.total).c_str());
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) cancel_sweep(measured);
    return true;
}

namespace {

// Where the numbers come from, said first: a measurement is another machine's past.
void draw_source(LabMeasurements& measured, const AppState& app) {
    if (measured.unfinished) {
        coloured_text_wrapped(colours::kWarning,
                              model::format_text("TileScope ended unexpectedly during the session of {}; it kept {}.",
                                                 measured.unfinished->started,
                                                 model::counted(measured.unfinished->points, "measurement"))
                                  .c_str());
        if (ImGui::Button("Reopen them")) reopen_unfinished(measured);
        ImGui::SameLine();
        if (ImGui::Button("Discard")) discard_unfinished(measured);
        ImGui::Separator();
    }
    if (!measured.load_error.empty())
        coloured_text_wrapped(colours::kError, ("Cannot load: " + measured.load_error).c_str());
    if (measurement_loading(measured)) muted_text("Loading measurements…");
    if (measured.measurement) {
        ImGui::PushFont(heading_font());
        coloured_text_wrapped(colours::kWarning, measured.measurement_label.c_str());
        ImGui::PopFont();
    }
    if (app.device && app.device->usable) {
        muted_text(model::format_text("Live: {}{} ({} measured this session)", app.device->limits.name, on_host(*app.device),
                                      model::counted(static_cast<std::int64_t>(measured.live_points.size()), "point")));
        draw_first_visit_sweep(measured, app);
    } else if (app.device) {
        // Said once here for every lab view: why nothing is measured, and what is shown instead.
        muted_text(model::format_text("Not measuring here: {}. {}", app.device->why_not,
                                      measured.measurement              ? "What is drawn comes from the measurement."
                                      : measurement_loading(measured) ? "What is drawn will come from the measurement."
                                                                 : "No measurement loaded either: nothing measured to show."));
    } else if (!measured.measurement && !measurement_loading(measured)) {
        muted_text("No measurement loaded and no GPU: nothing measured to show.");
    }
}

void draw_save(LabMeasurements& measured, const AppState& app) {
    if (measured.live_points.empty()) return;
    heading("Save this session");
    char path[256];
    std::snprintf(path, sizeof path, "%s", measured.save_path.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
    if (ImGui::InputText("##save_path", path, sizeof path)) measured.save_path = path;
    ImGui::SameLine();
    if (ImGui::Button("Save JSON")) {
        const auto why =
            save_session(measured, measured.save_path, app.device ? app.device->limits.name : "unknown GPU",
                         app.device && app.device->remote ? app.device->host : "");
        measured.save_message = why ? *why : "saved " + measured.save_path + " (open it with --load)";
    }
    if (!measured.save_message.empty()) muted_text(measured.save_message);
}

}  // namespace

void draw_lab_view(LabState& lab, const ColumnEdits& edits, const AppState& app, float bottom_reserve) {
    // At most half the window, so that presenter mode's large text leaves the drawing room.
    const float panel_width = std::min(ImGui::GetFontSize() * 27.0f, ImGui::GetContentRegionAvail().x * 0.5f);
    const SideColumn column = begin_side_column(edits, app, "##lab_panel", panel_width, bottom_reserve);
    // The lab views' panel: where the numbers come from, the view's own controls, the counters,
    // the occupancy and saving.
    if (column.panel) {
        draw_source(lab.measured, app);
        ImGui::Separator();
        if (app.view == ViewId::Latency) {
            draw_latency_controls(lab, app);
            ImGui::Separator();
        }
        if (app.view == ViewId::Ladder) {
            draw_ladder_page_choice(lab.choices.ladder_page);
            draw_ladder_controls(lab, app);
            ImGui::Spacing();
            draw_export_button(edits.exporting, app, ExportSubject::Ladder);
            ImGui::Separator();
        }
        // The hardware's counters beside the model's, at the size the plot shows.
        if (app.view == ViewId::Roofline || app.view == ViewId::Ladder) {
            const int size = app.view == ViewId::Roofline ? kRooflineSize : shown_ladder_size(lab);
            draw_counters_panel(lab, app, {size, size, size, 1, model::Dtype::Float32});
            ImGui::Separator();
        }
        draw_occupancy_panel(lab, app);
        ImGui::Separator();
        draw_save(lab.measured, app);
    }
    end_side_column(edits.presentation, app, column);

    ImGui::SameLine();
    ImGui::BeginChild("##lab_plot", ImVec2(0.0f, -bottom_reserve), false);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    switch (app.view) {
        case ViewId::Latency:
            heading("Kernel latency against matrix size");
            draw_latency_plot(lab, app, ImVec2(size.x, size.y - ImGui::GetCursorPosY()));
            break;
        case ViewId::Tuning: draw_tuning_view(lab.measured, app, size); break;
        case ViewId::Roofline: draw_roofline_view(lab, app, size); break;
        case ViewId::Ladder:
            // An exported climb (ladder_rungs_shown set) is of the bars, whichever page is open.
            if (lab.choices.ladder_page == LadderPage::Errors && !lab.choices.ladder_rungs_shown)
                draw_error_speed_view(lab, app, size);
            else draw_ladder_view(lab, app, size);
            break;
        case ViewId::Stage:
        case ViewId::Theatre:
        case ViewId::Experiment:
        case ViewId::Kernel: break;
    }
    ImGui::EndChild();
}

}  // namespace ts::views
