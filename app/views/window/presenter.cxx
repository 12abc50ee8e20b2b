#include "views/window/presenter.hpp"

#include <algorithm>

#include "views/window/app_state.hpp"
#include "platform/imgui_compat.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

void set_presenter(Presentation& p, bool on) {
    if (on == p.presenter) return;
    p.presenter = on;
    if (on) {
        p.ordinary_font_scale = p.font_scale;
        p.ordinary_palette = p.palette;
        p.font_scale = std::max(p.font_scale, kPresenterFontScale);
        if (p.palette == settings::Palette::Default) p.palette = settings::Palette::HighContrast;
    } else {
        p.font_scale = p.ordinary_font_scale;
        p.palette = p.ordinary_palette;
    }
}

void next_palette(Presentation& p) {
    switch (p.palette) {
        case settings::Palette::Default: p.palette = settings::Palette::HighContrast; break;
        case settings::Palette::HighContrast: p.palette = settings::Palette::ColourBlind; break;
        case settings::Palette::ColourBlind: p.palette = settings::Palette::Default; break;
    }
}

void apply_presentation_style(const Presentation& p) {
    set_palette(p.palette, p.presenter);
    // Scaled from a fresh 1× style each time: scaling the current one would compound.
    ImGuiStyle style;
    apply_style(style);
    style.ScaleAllSizes(p.font_scale);
    imgui_compat::keep_font_scale(style);
    ImGui::GetStyle() = style;
}

void draw_presenter_controls(AppState& state) {
    Presentation& p = state.presentation;
    // On the switcher's line when they fit there, else on the next.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("Presenter (F5)").x +
                        style.ItemSpacing.x + ImGui::CalcTextSize("Keys (F1)").x + 2.0f * style.FramePadding.x;
    const float right = ImGui::GetWindowContentRegionMax().x;
    ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
    if (ImGui::GetCursorPosX() + width > right) ImGui::NewLine();
    bool presenter = p.presenter;
    if (ImGui::Checkbox("Presenter (F5)", &presenter)) set_presenter(p, presenter);
    ImGui::SameLine();
    if (ImGui::Button("Keys (F1)")) p.help_open = !p.help_open;
}

}  // namespace ts::views
