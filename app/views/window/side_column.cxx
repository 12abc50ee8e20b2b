#include "views/window/side_column.hpp"

#include "imgui.h"
#include "views/lessons/lesson_panel.hpp"

namespace ts::views {

void begin_side_column(AppState& state, const char* panel_id, float width, float bottom_reserve) {
    ImGui::BeginChild("##side_column", ImVec2(width, -bottom_reserve), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    draw_lesson_panel(state);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32_WHITE);
    ImGui::BeginChild(panel_id, ImVec2(0.0f, 0.0f), true);
}

void end_side_column() {
    ImGui::EndChild();
    ImGui::PopStyleColor();
    ImGui::EndChild();
}

}  // namespace ts::views
