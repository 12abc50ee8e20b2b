#include "views/theatre/bank_map.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "model/format.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/theatre_paint.hpp"

namespace ts::views {

using model::format_text;

namespace {

constexpr ImU32 kConflict = kBankConflictColour;
// The four phases of a 128-bit access (quarter-warps), told apart in the bank map.
constexpr ImU32 kPhaseColours[] = {IM_COL32(40, 120, 200, 255), IM_COL32(210, 110, 20, 255),
                                   IM_COL32(40, 150, 80, 255), IM_COL32(150, 70, 180, 255)};

}  // namespace

std::string bank_summary(const model::BankMap& map) {
    if (map.wavefronts <= map.ideal)
        return model::counted(map.wavefronts, "wavefront") + ": no conflict";
    return format_text("{} wavefronts where {} would do: {}-way conflict", map.wavefronts, map.ideal, map.degree);
}

void draw_bank_map(ImDrawList* draw, const Rect& area, const std::vector<model::LaneAccess>& accesses,
                   const std::string& title) {
    const model::BankMap map = model::bank_map(accesses);
    ImFont* font = small_font();
    float y = area.min.y;
    y += wrapped_text(draw, {area.min.x, y}, colours::kC.text, title, area.width());
    y += wrapped_text(draw, {area.min.x, y}, map.wavefronts > map.ideal ? kConflict : colours::kPass, bank_summary(map),
                      area.width());
    // One row per (phase, 32-word line of shared memory) the access touches, phase by phase:
    // each phase is served on its own, so its rows show its conflicts alone.
    std::vector<std::pair<int, int>> rows;
    for (std::size_t i = 0; i < map.words.size(); ++i) rows.push_back({map.phase_of[i], map.words[i] / 32});
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    const int shown_rows = std::min<int>(static_cast<int>(rows.size()), 12);
    const float top = y + 2.0f;
    const std::string widest = map.phases > 1 ? "lanes 24-31 " : "";
    const float label_w = text_width(font, widest);
    const float w = (area.width() - label_w) / 32.0f;
    const float h = std::min(w * 1.4f, (area.max.y - top) / static_cast<float>(std::max(shown_rows, 1)));
    if (h < 3.0f) return;
    const float x0 = area.min.x + label_w;
    std::map<std::pair<int, int>, std::vector<int>> words_of;  // (phase, bank) → words
    for (std::size_t i = 0; i < map.words.size(); ++i) words_of[{map.phase_of[i], map.banks[i]}].push_back(map.words[i]);
    for (int bank = 0; bank < 32; ++bank) {
        const float x = x0 + w * static_cast<float>(bank);
        draw->AddRectFilled({x, top}, {x + w, top + h * static_cast<float>(shown_rows)}, IM_COL32(245, 245, 245, 255));
        draw->AddRect({x, top}, {x + w, top + h * static_cast<float>(shown_rows)}, IM_COL32(210, 210, 210, 255));
    }
    const int lanes_per_phase = 32 / map.phases;
    for (int row = 0; row < shown_rows; ++row) {
        const int phase = rows[static_cast<std::size_t>(row)].first;
        const float y_row = top + h * static_cast<float>(row);
        const bool first_of_phase = row == 0 || rows[static_cast<std::size_t>(row) - 1].first != phase;
        if (first_of_phase && map.phases > 1) {
            if (row > 0) draw->AddLine({area.min.x, y_row}, {area.max.x, y_row}, colours::kMuted, 1.5f);
            if (imgui_compat::font_size(font) <= h * 1.2f)
                text_at(draw, font, {area.min.x, y_row}, kPhaseColours[phase % 4],
                        format_text("lanes {}-{}", phase * lanes_per_phase, phase * lanes_per_phase + lanes_per_phase - 1));
        }
    }
    for (std::size_t i = 0; i < map.words.size(); ++i) {
        const auto found = std::find(rows.begin(), rows.end(), std::pair{map.phase_of[i], map.words[i] / 32});
        const auto row = found - rows.begin();
        if (row >= shown_rows) continue;
        const float x = x0 + w * static_cast<float>(map.banks[i]);
        const float y_word = top + h * static_cast<float>(row);
        auto distinct = words_of[{map.phase_of[i], map.banks[i]}];
        std::sort(distinct.begin(), distinct.end());
        const bool clash = std::unique(distinct.begin(), distinct.end()) - distinct.begin() > 1;
        draw->AddRectFilled({x + 1, y_word + 1}, {x + w - 1, y_word + h - 1},
                            with_alpha(kPhaseColours[map.phase_of[i] % 4], 190));
        if (clash) draw->AddRect({x, y_word}, {x + w, y_word + h}, kConflict, 0.0f, 0, 2.5f);
        const std::string lane = std::to_string(map.lanes[i]);
        if (text_width(font, lane) + 2.0f <= w && imgui_compat::font_size(font) <= h)
            text_at(draw, font,
                    {x + (w - text_width(font, lane)) * 0.5f, y_word + (h - imgui_compat::font_size(font)) * 0.5f},
                    IM_COL32(255, 255, 255, 255), lane);
    }
}

}  // namespace ts::views
