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

constexpr const char* kTitles[] = {"Stage", "Latency", "Tuning", "Roofline", "Theatre", "Ladder", "Experiments", "Your kernel"};
// Where even those do not fit in one row (presenter mode's large text on 1920 pixels).
constexpr const char* kShortTitles[] = {"Stage", "Latency", "Tuning", "Roofline", "Theatre", "Ladder", "Break it", "Yours"};
constexpr int kViewCount = static_cast<int>(std::size(kLabViews));

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

// Where the numbers come from, said first: a recording is another machine's past.
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
    if (recording_loading(lab)) muted_text("Loading recordings…");
    if (lab.recording) {
        ImGui::PushFont(heading_font());
        coloured_text_wrapped(colours::kWarning, lab.recording_label.c_str());
        ImGui::PopFont();
    }
    if (state.device && state.device->usable) {
        muted_text(model::format_text("Live: {} ({} measured this session)", state.device->limits.name,
                                      model::counted(static_cast<std::int64_t>(lab.live_points.size()), "point")));
        draw_first_visit_sweep(state);
    } else if (state.device) {
        // Said once here for every lab view: why nothing is measured, and what is shown instead.
        muted_text(model::format_text("Not measuring here: {}. {}", state.device->why_not,
                                      lab.recording              ? "What is drawn comes from the recording."
                                      : recording_loading(lab) ? "What is drawn will come from the recording."
                                                                 : "No recording loaded either: nothing measured to show."));
    } else if (!lab.recording && !recording_loading(lab)) {
        muted_text("No recording loaded and no GPU: nothing measured to show.");
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
    if (state.lab.view == LabView::Latency) {
        draw_latency_controls(state);
        ImGui::Separator();
    }
    if (state.lab.view == LabView::Ladder) {
        draw_ladder_controls(state);
        ImGui::Separator();
    }
    // The hardware's counters beside the model's, at the size the plot shows.
    if (state.lab.view == LabView::Roofline || state.lab.view == LabView::Ladder) {
        const int size = state.lab.view == LabView::Roofline ? kRooflineSize : shown_ladder_size(state.lab);
        draw_counters_panel(state, {size, size, size, 1, model::Dtype::Float32});
        ImGui::Separator();
    }
    draw_occupancy_panel(state);
    ImGui::Separator();
    draw_save(state);
}

// The views as a drop-down list, one line whatever the text size: the open one's name on the
// closed list, each with its key in the open one.
void draw_view_list(LabView& view) {
    int open = 0;
    float widest = 0.0f;
    for (int i = 0; i < kViewCount; ++i) {
        if (view == kLabViews[i]) open = i;
        widest = std::max(widest, ImGui::CalcTextSize(kTitles[i]).x);
    }
    ImGui::SetNextItemWidth(widest + ImGui::GetFrameHeight() + 2.0f * ImGui::GetStyle().FramePadding.x);
    if (ImGui::BeginCombo("##view", kTitles[open])) {
        for (int i = 0; i < kViewCount; ++i) {
            const std::string label = model::format_text("{}  (Ctrl+{})", kTitles[i], i + 1);
            if (ImGui::Selectable(label.c_str(), i == open)) view = kLabViews[i];
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The view on show: Ctrl+1 to Ctrl+%d switch between them", kViewCount);
}

}  // namespace

void draw_view_switcher(AppState& state) {
    LabView& view = state.lab.view;
    const ImGuiIO& io = ImGui::GetIO();
    for (int i = 0; i < kViewCount; ++i)
        if (io.KeyCtrl && imgui_compat::key_pressed(imgui_compat::digit_key(1 + i), false)) view = kLabViews[i];
    // With large text, or a narrow window, the keys leave the labels (F1 lists them), so that the
    // row fits beside the presenter's controls (about 22 lines of text wide). Where even the short
    // titles would not fit (2× text on 1280 pixels), the views go into a drop-down list: a second
    // row of buttons would take the picture's height, which a projector has least of.
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto row_width = [&](const auto& label_of) {
        float width = ImGui::GetFontSize() * 22.0f;
        for (int i = 0; i < kViewCount; ++i)
            width += ImGui::CalcTextSize(label_of(i).c_str()).x + 2.0f * style.FramePadding.x + style.ItemSpacing.x;
        return width;
    };
    const float room = ImGui::GetWindowContentRegionMax().x;
    const bool with_keys =
        row_width([](int i) { return model::format_text("{}  (Ctrl+{})", kTitles[i], i + 1); }) < room;
    const bool short_titles = !with_keys && row_width([](int i) { return std::string(kTitles[i]); }) >= room;
    if (short_titles && row_width([](int i) { return std::string(kShortTitles[i]); }) >= room) {
        draw_view_list(view);
    } else {
        for (int i = 0; i < kViewCount; ++i) {
            if (i > 0) ImGui::SameLine();
            const bool active = view == kLabViews[i];
            // The open view stands out: dark with white text, the others stay light.
            if (active) {
                ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(colours::kA.line));
                ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
            }
            const std::string label = with_keys      ? model::format_text("{}  (Ctrl+{})", kTitles[i], i + 1)
                                      : short_titles ? kShortTitles[i]
                                                     : kTitles[i];
            if (ImGui::Button(label.c_str())) view = kLabViews[i];
            if (!with_keys && ImGui::IsItemHovered()) ImGui::SetTooltip("%s (Ctrl+%d)", kTitles[i], i + 1);
            if (active) ImGui::PopStyleColor(2);
        }
    }
    draw_presenter_controls(state);
    // Every frame passes here whichever view is open, so the first visit to any lab view
    // (the ladder's too) starts the quick sweep.
    start_first_visit_sweep(state);
}

void draw_lab_view(AppState& state, float bottom_reserve) {
    // At most half the window, so that presenter mode's large text leaves the drawing room.
    const float panel_width = std::min(ImGui::GetFontSize() * 27.0f, ImGui::GetContentRegionAvail().x * 0.5f);
    const SideColumn column = begin_side_column(state, "##lab_panel", panel_width, bottom_reserve);
    if (column.panel) draw_lab_panel(state);
    end_side_column(state, column);

    ImGui::SameLine();
    ImGui::BeginChild("##lab_plot", ImVec2(0.0f, -bottom_reserve), false);
    const ImVec2 size = ImGui::GetContentRegionAvail();
    switch (state.lab.view) {
        case LabView::Latency:
            heading("Kernel latency against matrix size");
            draw_latency_plot(state, ImVec2(size.x, size.y - ImGui::GetCursorPosY()));
            break;
        case LabView::Tuning: draw_tuning_view(state, size); break;
        case LabView::Roofline: draw_roofline_view(state, size); break;
        case LabView::Ladder: draw_ladder_view(state, size); break;
        case LabView::Stage:
        case LabView::Theatre:
        case LabView::Experiment:
        case LabView::Kernel: break;
    }
    ImGui::EndChild();
}

}  // namespace ts::views
