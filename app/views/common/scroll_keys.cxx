#include "views/common/scroll_keys.hpp"

#include <algorithm>

#include "platform/imgui_compat.hpp"

namespace ts::views {

namespace {

bool pressed(imgui_compat::Key key) { return imgui_compat::key_pressed(key, true); }

}  // namespace

void scroll_with_keys(ScrollKeys keys) {
    namespace k = imgui_compat::keys;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float page = ImGui::GetWindowHeight() * 0.8f;
    float y = ImGui::GetScrollY();
    if (pressed(k::kDown)) y += line * 2.0f;
    if (pressed(k::kUp)) y -= line * 2.0f;
    if (keys.pages && pressed(k::kPageDown)) y += page;
    if (keys.pages && pressed(k::kPageUp)) y -= page;
    if (pressed(k::kHome)) y = 0.0f;
    if (pressed(k::kEnd)) y = ImGui::GetScrollMaxY();
    if (y != ImGui::GetScrollY()) ImGui::SetScrollY(std::clamp(y, 0.0f, ImGui::GetScrollMaxY()));
}

}  // namespace ts::views
