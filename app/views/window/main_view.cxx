#include "views/window/main_view.hpp"

#include <algorithm>

#include "views/experiments/experiment_view.hpp"
#include "views/export/export_dialog.hpp"
#include "views/kernel/kernel_view.hpp"
#include "views/window/help_overlay.hpp"
#include "views/lab/lab_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/lessons/lesson_panel.hpp"
#include "views/window/run_panel.hpp"
#include "views/window/setup_panel.hpp"
#include "views/window/shortcuts.hpp"
#include "views/window/side_column.hpp"
#include "views/stage/stage_view.hpp"
#include "views/window/status_bar.hpp"
#include "views/window/view_switcher.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

void draw_main_view(AppState& state) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("TileScope", nullptr, kFlags);
    handle_shortcuts(state);
    draw_help_overlay(state.presentation);  // its own window, on top of this one
    draw_export_dialog(state.exporting, state);  // its own window too, left out of the frames it exports

    // A slide, and an exported frame, is the view alone: the switcher, the buttons beside it and
    // the status bar are the window's (and "no CUDA device" would repeat in every frame).
    const bool window_chrome = window_bars_shown(state);
    const float status_height = window_chrome ? ImGui::GetFrameHeightWithSpacing() : 0.0f;
    if (window_chrome) {
        draw_view_switcher(state.view, state.presentation);
        // Every frame with the window's bars passes here whichever view is open, so the first
        // visit to any lab view (the ladder's too) starts the quick sweep.
        start_first_visit_sweep(state.lab.measured, state);
        ImGui::SameLine();
        draw_lessons_button(state.lesson);
    }
    handle_lesson_keys(state);
    draw_lesson_list(state.lesson);
    // Every view but the stage fills the window above the status bar.
    if (state.view != ViewId::Stage) {
        switch (state.view) {
            case ViewId::Theatre: draw_theatre_view(state, status_height); break;
            case ViewId::Kernel:
                // "Show in the theatre" under your kernel's trace: the trace, its problem and T become the window's.
                if (draw_kernel_view(state.kernel_editor, state.lab, state.view, column_edits(state), state,
                                     status_height)) {
                    const auto& trace = *state.kernel_editor.recorded->trace;
                    add_trace(state.theatre.traces, trace);
                    state.problem = trace.problem;
                    state.kernel = trace.config;
                    state.view = ViewId::Theatre;
                }
                break;
            case ViewId::Experiment: draw_experiment_view(state, status_height); break;
            default: draw_lab_view(state.lab, column_edits(state), state, status_height); break;
        }
        if (window_chrome) {
            ImGui::Separator();
            draw_status_bar(state);
        }
        ImGui::End();
        return;
    }
    // Wide enough for the traffic table at the body font size, but at most half the window,
    // so that presenter mode's large text leaves the drawing room.
    const float panel_width = std::min(ImGui::GetFontSize() * 27.0f, ImGui::GetContentRegionAvail().x * 0.5f);
    const SideColumn column = begin_side_column(column_edits(state), state, "##panels", panel_width, status_height,
                                                 PanelDefault::FoldedWhenCrowded);
    if (column.panel) {
        draw_setup_panel(state.problem, state.kernel, state);
        ImGui::Spacing();
        ImGui::Separator();
        ImGui::Spacing();
        draw_run_panel(state.run_requested, state);
        ImGui::Spacing();
        draw_gpu_panel(state.gpu_choice, ImGui::GetTime());
    }
    end_side_column(state.presentation, state, column);

    ImGui::SameLine();
    ImGui::BeginChild("##stage", ImVec2(0.0f, -status_height), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    draw_stage_view(state.camera, state.selected, state.picture, state);
    ImGui::EndChild();

    if (window_chrome) {
        ImGui::Separator();
        draw_status_bar(state);
    }
    ImGui::End();
}

}  // namespace ts::views
