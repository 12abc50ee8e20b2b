#include "views/common/theme.hpp"

#include <span>

namespace ts::views {

namespace {

Fonts g_fonts;
settings::Palette g_palette = settings::Palette::Default;
bool g_presenter = false;

// Black on white: every text and outline at the strongest contrast a projector keeps, fills
// a step stronger than the default's so that A, B and C still read as three colours when the
// projector washes them out, and outlines half as thick again.
constexpr ColourScheme kHighContrast{
    {IM_COL32(170, 205, 245, 255), IM_COL32(170, 205, 245, 255), IM_COL32(0, 60, 160, 255), IM_COL32(0, 0, 0, 255)},
    {IM_COL32(250, 200, 140, 255), IM_COL32(250, 200, 140, 255), IM_COL32(150, 70, 0, 255), IM_COL32(0, 0, 0, 255)},
    {IM_COL32(175, 230, 185, 255), IM_COL32(125, 205, 145, 255), IM_COL32(0, 100, 40, 255), IM_COL32(0, 0, 0, 255)},
    IM_COL32(215, 215, 215, 255),
    IM_COL32(90, 90, 90, 255),
    IM_COL32(210, 0, 110, 255),
    IM_COL32(0, 0, 0, 255),
    IM_COL32(45, 45, 45, 255),
    IM_COL32(180, 0, 0, 255),
    IM_COL32(0, 110, 30, 255),
    IM_COL32(140, 70, 0, 255),
    IM_COL32(255, 255, 255, 255),
    IM_COL32(0, 0, 0, 255),
    1.6f};

// Okabe and Ito's palette (2008), which people with every common colour-vision deficiency
// tell apart: A blue, B orange, C bluish green, the highlight reddish purple; pass and error
// are a darker blue and vermillion rather than green and red, which deuteranopes and
// protanopes confuse.
constexpr ColourScheme kColourBlind{
    {IM_COL32(200, 225, 242, 255), IM_COL32(200, 225, 242, 255), IM_COL32(0, 114, 178, 255), IM_COL32(0, 80, 130, 255)},
    {IM_COL32(250, 228, 180, 255), IM_COL32(250, 228, 180, 255), IM_COL32(230, 159, 0, 255), IM_COL32(135, 90, 0, 255)},
    {IM_COL32(195, 235, 220, 255), IM_COL32(155, 215, 195, 255), IM_COL32(0, 158, 115, 255), IM_COL32(0, 100, 72, 255)},
    IM_COL32(232, 232, 232, 255),
    IM_COL32(150, 150, 150, 255),
    IM_COL32(204, 121, 167, 255),
    IM_COL32(30, 30, 30, 255),
    IM_COL32(95, 95, 95, 255),
    IM_COL32(213, 94, 0, 255),
    IM_COL32(0, 90, 150, 255),
    IM_COL32(150, 100, 0, 255),
    IM_COL32(248, 248, 246, 255),
    IM_COL32(20, 20, 20, 255),
    1.0f};

}  // namespace

const ColourScheme& colour_scheme(settings::Palette palette) {
    switch (palette) {
        case settings::Palette::HighContrast: return kHighContrast;
        case settings::Palette::ColourBlind: return kColourBlind;
        case settings::Palette::Default: break;
    }
    return kDefaultScheme;
}

void set_palette(settings::Palette palette, bool presenter) {
    g_palette = palette;
    g_presenter = presenter;
    detail::g_scheme = colour_scheme(palette);
}

settings::Palette current_palette() { return g_palette; }

float outline_width(float base) { return base * detail::g_scheme.outline; }

// Twice as thick in presenter mode: a 3 px outline is a hairline from the back of a room.
float emphasis_width(float base) { return outline_width(base) * (g_presenter ? 2.0f : 1.0f); }

void set_fonts(const Fonts& fonts) { g_fonts = fonts; }
ImFont* heading_font() { return g_fonts.heading ? g_fonts.heading : ImGui::GetFont(); }
ImFont* small_font() { return g_fonts.small ? g_fonts.small : ImGui::GetFont(); }
ImFont* code_font() { return g_fonts.code ? g_fonts.code : ImGui::GetFont(); }

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
    style.Colors[ImGuiCol_Text] = ImGui::ColorConvertU32ToFloat4(detail::g_scheme.text);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.45f, 0.45f, 0.45f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    style.Colors[ImGuiCol_Border] = ImVec4(0.0f, 0.0f, 0.0f, 0.22f);
    if (g_palette == settings::Palette::HighContrast) {
        // Widgets outlined in black and the keyboard's focus frame unmissable.
        style.FrameBorderSize = 2.0f;
        style.Colors[ImGuiCol_Border] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
        style.Colors[ImGuiCol_TextDisabled] = ImGui::ColorConvertU32ToFloat4(colours::kMuted);
        style.Colors[ImGuiCol_Separator] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
        style.Colors[ImGuiCol_NavHighlight] = ImGui::ColorConvertU32ToFloat4(colours::kHighlight);
    }
}

void heading(const char* text) {
    ImGui::PushFont(heading_font());
    // Wrapped at the window's edge: at 2× text beside the side panel a long title reaches it.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
}

void coloured_text_wrapped(ImU32 colour, const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

ImU32 rung_bar_colour(const model::RungInfo& row) {
    constexpr ImU32 kFp32[] = {rung_curve_colour(model::RungColour::Tiled), IM_COL32(80, 175, 190, 255),
                               IM_COL32(45, 160, 165, 255),  IM_COL32(30, 145, 135, 255),
                               IM_COL32(25, 130, 105, 255),  IM_COL32(20, 115, 80, 255),
                               IM_COL32(15, 100, 60, 255),   IM_COL32(5, 80, 40, 255)};
    constexpr ImU32 kTensorCores[] = {IM_COL32(240, 170, 80, 255), IM_COL32(230, 145, 60, 255),
                                      IM_COL32(215, 120, 45, 255), IM_COL32(195, 90, 40, 255),
                                      IM_COL32(165, 65, 35, 255),  IM_COL32(130, 40, 30, 255),
                                      IM_COL32(95, 20, 20, 255),
                                      // the FP8 rungs above them: the ramp turns to violet, another type
                                      IM_COL32(110, 40, 120, 255), IM_COL32(75, 25, 100, 255)};
    const auto shade = [&](std::span<const ImU32> ramp) {
        return row.position >= 0 && row.position < static_cast<int>(ramp.size()) ? ramp[row.position]
                                                                                  : rung_curve_colour(model::RungColour::None);
    };
    switch (row.ladder) {
        case model::Ladder::Fp32: return shade(kFp32);
        case model::Ladder::TensorCores: return shade(kTensorCores);
        case model::Ladder::None: break;
    }
    return rung_curve_colour(row.colour == model::RungColour::Cublas ? model::RungColour::Cublas
                                                                     : model::RungColour::None);
}

}  // namespace ts::views
