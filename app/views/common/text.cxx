#include "views/common/text.hpp"

#include <cfloat>

#include "imgui.h"
#include "platform/imgui_compat.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

std::string grouped(std::int64_t value) {
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

float text_width(ImFont* font, const std::string& text) {
    return font->CalcTextSizeA(imgui_compat::font_size(font), FLT_MAX, 0.0f, text.c_str()).x;
}

std::optional<std::string> first_fitting(std::initializer_list<std::string> forms, ImFont* font, float width) {
    for (const std::string& form : forms)
        if (text_width(font, form) <= width) return form;
    return std::nullopt;
}

void muted_text(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours::kMuted);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

bool room_or_unfolded(float height, const char* fold, float keep) {
    return ImGui::GetContentRegionAvail().y - height >= ImGui::GetWindowHeight() * keep ||
           ImGui::TreeNodeEx(fold, ImGuiTreeNodeFlags_NoTreePushOnOpen);
}

void push_wrap_at_screen_x(float x) { ImGui::PushTextWrapPos(x - ImGui::GetWindowPos().x + ImGui::GetScrollX()); }

void folding_muted_text(const std::string& text, const char* fold, float keep) {
    const float height = ImGui::CalcTextSize(text.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
    if (room_or_unfolded(height, fold, keep)) muted_text(text);
}

}  // namespace ts::views
