#include "theme.hpp"

namespace ts::views {

namespace {
Fonts g_fonts;
}

void set_fonts(const Fonts& fonts) { g_fonts = fonts; }
ImFont* heading_font() { return g_fonts.heading ? g_fonts.heading : ImGui::GetFont(); }
ImFont* small_font() { return g_fonts.small ? g_fonts.small : ImGui::GetFont(); }

void apply_style(ImGuiStyle& style) {
    ImGui::StyleColorsLight(&style);
    style.WindowPadding = ImVec2(14, 12);
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(10, 8);
    style.ItemInnerSpacing = ImVec2(8, 6);
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.WindowRounding = 0.0f;
    style.ChildRounding = 0.0f;
    style.FrameBorderSize = 1.0f;
    style.WindowBorderSize = 0.0f;
    style.Colors[ImGuiCol_WindowBg] = ImGui::ColorConvertU32ToFloat4(colours::kBackground);
    style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
    style.Colors[ImGuiCol_Text] = ImVec4(0.08f, 0.08f, 0.08f, 1.0f);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.45f, 0.45f, 0.45f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    style.Colors[ImGuiCol_Border] = ImVec4(0.0f, 0.0f, 0.0f, 0.22f);
}

void heading(const char* text) {
    ImGui::PushFont(heading_font());
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

void coloured_text_wrapped(ImU32 colour, const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

}  // namespace ts::views
