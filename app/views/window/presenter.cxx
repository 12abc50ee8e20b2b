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

bool window_bars_shown(const AppState& state) { return !state.presentation.slide && !state.exporting.capturing; }

void draw_presenter_controls(Presentation& p) {
    // On the switcher's line when they fit there, their key hints dropped if that makes them fit
    // (F1 lists the keys), else on the next line with the hints.
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto width_of = [&](const char* presenter, const char* keys) {
        return ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(presenter).x +
               style.ItemSpacing.x + ImGui::CalcTextSize(keys).x + 2.0f * style.FramePadding.x;
    };
    const float right = ImGui::GetWindowContentRegionMax().x;
    // Two lines of text apart from the switcher, or half a line where that is what makes them fit
    // (3× text on 1280 pixels).
    ImGui::SameLine(0.0f, 0.0f);
    const float start = ImGui::GetCursorPosX();
    // Room for the lessons button after these, without its own hint.
    const float after = ImGui::CalcTextSize("Lessons").x + 2.0f * style.FramePadding.x + style.ItemSpacing.x;
    const auto fits = [&](float gap, const char* presenter, const char* keys) {
        return start + gap * ImGui::GetFontSize() + width_of(presenter, keys) + after <= right;
    };
    bool hints = fits(2.0f, "Presenter (F5)", "Keys (F1)");
    const float gap = hints || fits(2.0f, "Presenter", "Keys") ? 2.0f : 0.5f;
    if (hints || fits(gap, "Presenter", "Keys")) {
        ImGui::SameLine(0.0f, gap * ImGui::GetFontSize());
    } else {
        ImGui::NewLine();
        hints = true;
    }
    bool presenter = p.presenter;
    if (ImGui::Checkbox(hints ? "Presenter (F5)###presenter" : "Presenter###presenter", &presenter))
        set_presenter(p, presenter);
    ImGui::SameLine();
    if (ImGui::Button(hints ? "Keys (F1)###keys" : "Keys###keys")) p.help_open = !p.help_open;
}

}  // namespace ts::views
