#include "views/window/side_column.hpp"

#include <algorithm>

#include "imgui.h"
#include "views/lessons/lesson_panel.hpp"

namespace ts::views {

namespace {

bool panels_open(const Presentation& p, PanelDefault fold) {
    if (p.panels_open) return *p.panels_open;
    if (fold == PanelDefault::Open || (!p.presenter && p.font_scale < 1.5f)) return true;
    return ImGui::GetMainViewport()->WorkSize.x >= kFoldedBelowLines * ImGui::GetFontSize();
}

// A thin bar the column's height with an arrow in its middle, pointing where the panel goes
// when it is clicked.
void draw_fold_handle(Presentation& p, bool open, float bottom_reserve) {
    const float width = std::max(10.0f, ImGui::GetFontSize() * 0.55f);
    const float height = std::max(ImGui::GetContentRegionAvail().y - bottom_reserve, ImGui::GetFrameHeight());
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (ImGui::InvisibleButton("##fold_panels", ImVec2(width, height))) toggle_panels(p);
    const bool hovered = ImGui::IsItemHovered();
    if (hovered)
        ImGui::SetTooltip("%s", open ? "Fold the panel away: the picture takes its width (Ctrl+B)"
                                     : "Unfold the panel: this view's controls (Ctrl+B)");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 bar = ImGui::GetColorU32(hovered ? ImGuiCol_ButtonHovered : ImGuiCol_Button);
    draw->AddRectFilled(at, ImVec2(at.x + width, at.y + height), bar, width * 0.4f);
    // The arrow: ◀ folds, ▶ unfolds.
    const float half = width * 0.32f, mid_x = at.x + width * 0.5f, mid_y = at.y + height * 0.5f;
    const float tip = open ? mid_x - half : mid_x + half, back = open ? mid_x + half : mid_x - half;
    draw->AddTriangleFilled(ImVec2(tip, mid_y), ImVec2(back, mid_y - half * 1.6f), ImVec2(back, mid_y + half * 1.6f),
                            ImGui::GetColorU32(ImGuiCol_Text));
}

}  // namespace

void toggle_panels(Presentation& p) { p.panels_open = !p.panels_shown; }

SideColumn begin_side_column(const ColumnEdits& edits, const AppState& app, const char* panel_id, float width,
                             float bottom_reserve, PanelDefault fold) {
    SideColumn column;
    column.bottom_reserve = bottom_reserve;
    column.panel = panels_open(edits.presentation, fold);
    edits.presentation.panels_shown = column.panel;
    const bool card = app.lesson.lesson || !app.lesson.error.empty();
    column.column = column.panel || card;
    if (!column.column) return column;
    ImGui::BeginChild("##side_column", ImVec2(width, -bottom_reserve), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    // Alone in the column, the card may take all of it.
    draw_lesson_panel(edits.lesson, edits.exporting, app, column.panel ? 0.7f : 1.0f);
    if (!column.panel) return column;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32_WHITE);
    ImGui::BeginChild(panel_id, ImVec2(0.0f, 0.0f), true);
    return column;
}

void end_side_column(Presentation& presentation, const AppState& app, const SideColumn& column) {
    if (column.panel) {
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }
    if (column.column) {
        ImGui::EndChild();
        ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 0.5f);
    }
    // Not on a slide or in an exported frame: it belongs to the window (Ctrl+B still folds).
    if (window_bars_shown(app)) draw_fold_handle(presentation, column.panel, column.bottom_reserve);
}

}  // namespace ts::views
