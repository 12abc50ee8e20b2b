#include "views/window/help_overlay.hpp"

#include <algorithm>
#include <string_view>

#include "views/window/presenter.hpp"
#include "views/window/shortcuts.hpp"
#include "views/common/scroll_keys.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

void draw_help_overlay(Presentation& p) {
    if (!p.help_open) return;
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput && imgui_compat::key_pressed(keys::kEscape, false)) {
        p.help_open = false;
        return;
    }
    // The keys belong to the list while it is open (view_has_keys() is false next frame).
    imgui_compat::want_capture_keyboard();

    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float width = std::min(viewport->WorkSize.x * 0.92f, ImGui::GetFontSize() * 52.0f);
    ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                   viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                            ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, viewport->WorkSize.y * 0.92f));
    ImGui::SetNextWindowFocus();
    ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32_WHITE);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, std::max(2.0f, ImGui::GetFontSize() * 0.12f));
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize;
    const bool open = ImGui::Begin("Keys  (F1 or Escape closes this list)###keys", &p.help_open, kFlags);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    if (open) {
        // The view's keys rest while the list is open, so the list takes the scrolling keys.
        scroll_with_keys();
        constexpr ImGuiTableFlags kTable = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                           ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_PadOuterX;
        // One table per place the keys work, in the order the table first names it.
        std::string_view done[8];
        int done_count = 0;
        for (const Shortcut& first : shortcuts()) {
            const std::string_view where = first.where;
            if (std::find(done, done + done_count, where) != done + done_count) continue;
            if (done_count < 8) done[done_count++] = where;
            ImGui::Spacing();
            heading(first.where);
            if (!ImGui::BeginTable(first.where, 2, kTable)) continue;
            ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 10.0f);
            ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
            for (const Shortcut& s : shortcuts()) {
                if (where != s.where) continue;
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushFont(heading_font());
                ImGui::TextUnformatted(s.keys);
                ImGui::PopFont();
                ImGui::TableNextColumn();
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextUnformatted(s.does);
                ImGui::PopTextWrapPos();
            }
            ImGui::EndTable();
        }
    }
    ImGui::End();
}

}  // namespace ts::views
