#include "fonts.hpp"

#include <filesystem>

#include "imgui_compat.hpp"

namespace ts::platform {

namespace {

constexpr const char* kRegular = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
constexpr const char* kMono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

// Latin-1 plus the few symbols the views write: Greek (Σ), dashes and the ellipsis, arrows,
// the minus sign and ≤ ≥. ImGui keeps a pointer to this array, so it must outlive the atlas.
constexpr ImWchar kGlyphs[] = {
    0x0020, 0x00FF,  // Basic Latin + Latin-1 (× · µ)
    0x0391, 0x03C9,  // Greek
    0x2010, 0x2027,  // ‐ – — … •
    0x2190, 0x2193,  // ← ↑ → ↓
    0x2212, 0x2212,  // −
    0x2264, 0x2265,  // ≤ ≥
    0,
};

}  // namespace

LoadedFonts load_fonts(ImFontAtlas& atlas, float scale) {
    LoadedFonts loaded;
    atlas.Clear();
    imgui_compat::apply_font_scale(scale);
    const float bake = imgui_compat::font_bake_scale(scale);
    std::error_code error;
    if (!std::filesystem::exists(kRegular, error) || !std::filesystem::exists(kBold, error)) {
        loaded.warning = std::string("font ") + kRegular +
                         " not found (install fonts-dejavu-core); using Dear ImGui's built-in font";
        ImFont* builtin = atlas.AddFontDefault();
        loaded.fonts = {builtin, builtin, builtin, builtin};
        return loaded;
    }
    // 17 px body text is the smallest that reads comfortably from the back of a lecture room.
    loaded.fonts.body = atlas.AddFontFromFileTTF(kRegular, 17.0f * bake, nullptr, kGlyphs);
    loaded.fonts.heading = atlas.AddFontFromFileTTF(kBold, 20.0f * bake, nullptr, kGlyphs);
    loaded.fonts.small = atlas.AddFontFromFileTTF(kRegular, 14.0f * bake, nullptr, kGlyphs);
    // Code lines up in columns (the compiler's column numbers, the indentation): a fixed-width face
    // of the same package, the body font where it is missing.
    loaded.fonts.code = std::filesystem::exists(kMono, error)
                            ? atlas.AddFontFromFileTTF(kMono, 16.0f * bake, nullptr, kGlyphs)
                            : loaded.fonts.body;
    return loaded;
}

}  // namespace ts::platform
