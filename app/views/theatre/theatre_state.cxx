#include "views/theatre/theatre_state.hpp"

namespace ts::views {

namespace {
struct PanelName {
    TheatrePanel panel;
    std::string_view name;
};
constexpr PanelName kPanels[] = {
    {TheatrePanel::Source, "source"}, {TheatrePanel::Thread, "thread"}, {TheatrePanel::Warp, "warp"},
    {TheatrePanel::Sms, "sms"}, {TheatrePanel::Fragments, "fragments"}, {TheatrePanel::Smem, "smem"},
    {TheatrePanel::Stages, "stages"}, {TheatrePanel::Tiles, "tiles"}};
}  // namespace

std::string_view panel_name(TheatrePanel panel) { return kPanels[static_cast<int>(panel)].name; }

std::optional<TheatrePanel> parse_panel(std::string_view text) {
    for (const PanelName& p : kPanels)
        if (p.name == text) return p.panel;
    return std::nullopt;
}

}  // namespace ts::views
