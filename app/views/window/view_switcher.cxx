#include "views/window/view_switcher.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "model/format.hpp"
#include "platform/imgui_compat.hpp"
#include "views/common/theme.hpp"
#include "views/window/presenter.hpp"

namespace ts::views {

namespace {

constexpr const char* kTitles[] = {"Stage", "Latency", "Tuning", "Roofline", "Theatre", "Ladder", "Experiments", "Your kernel"};
// Where even those do not fit in one row (presenter mode's large text on 1920 pixels).
constexpr const char* kShortTitles[] = {"Stage", "Latency", "Tuning", "Roofline", "Theatre", "Ladder", "Break it", "Yours"};
constexpr int kViewCount = static_cast<int>(std::size(kViewIds));

// The views as a drop-down list, one line whatever the text size: the open one's name on the
// closed list, each with its key in the open one.
void draw_view_list(ViewId& view) {
    int open = 0;
    float widest = 0.0f;
    for (int i = 0; i < kViewCount; ++i) {
        if (view == kViewIds[i]) open = i;
        widest = std::max(widest, ImGui::CalcTextSize(kTitles[i]).x);
    }
    ImGui::SetNextItemWidth(widest + ImGui::GetFrameHeight() + 2.0f * ImGui::GetStyle().FramePadding.x);
    if (ImGui::BeginCombo("##view", kTitles[open])) {
        for (int i = 0; i < kViewCount; ++i) {
            const std::string label = model::format_text("{}  (Ctrl+{})", kTitles[i], i + 1);
            if (ImGui::Selectable(label.c_str(), i == open)) view = kViewIds[i];
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The view on show: Ctrl+1 to Ctrl+%d switch between them", kViewCount);
}

}  // namespace

void draw_view_switcher(ViewId& view, Presentation& presentation) {
    const ImGuiIO& io = ImGui::GetIO();
    for (int i = 0; i < kViewCount; ++i)
        if (io.KeyCtrl && imgui_compat::key_pressed(imgui_compat::digit_key(1 + i), false)) view = kViewIds[i];
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
            const bool active = view == kViewIds[i];
            // The open view stands out: dark with white text, the others stay light.
            if (active) {
                ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(colours::kA.line));
                ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
            }
            const std::string label = with_keys      ? model::format_text("{}  (Ctrl+{})", kTitles[i], i + 1)
                                      : short_titles ? kShortTitles[i]
                                                     : kTitles[i];
            if (ImGui::Button(label.c_str())) view = kViewIds[i];
            if (!with_keys && ImGui::IsItemHovered()) ImGui::SetTooltip("%s (Ctrl+%d)", kTitles[i], i + 1);
            if (active) ImGui::PopStyleColor(2);
        }
    }
    draw_presenter_controls(presentation);
}

}  // namespace ts::views
