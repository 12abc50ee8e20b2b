#include "views/theatre/phase_player.hpp"

#include <algorithm>

#include "imgui.h"
#include "model/format.hpp"
#include "views/window/shortcuts.hpp"

namespace ts::views {

void step_by(PhasePlayer& player, int count, int delta) {
    player.step = std::clamp(player.step + delta, 0, std::max(count - 1, 0));
    player.playing = false;
    player.carry = 0.0f;
}

void tick(PhasePlayer& player, int count, float seconds) {
    player.step = std::clamp(player.step, 0, std::max(count - 1, 0));
    if (!player.playing) return;
    player.carry += seconds;
    const float interval = 1.0f / std::max(player.steps_per_second, 0.01f);
    while (player.carry >= interval && player.step < count - 1) {
        player.carry -= interval;
        ++player.step;
    }
    if (player.step >= count - 1) {
        player.playing = false;
        player.carry = 0.0f;
    }
}

namespace {

bool pressed(Key key) { return imgui_compat::key_pressed(key); }

void toggle_play(PhasePlayer& player, int count) {
    if (!player.playing && player.step >= count - 1) player.step = 0;  // replay from the start
    player.playing = !player.playing;
    player.carry = 0.0f;
}

}  // namespace

int player_key_steps(int count) {
    if (!view_has_plain_keys()) return 0;
    int by = 0;
    if (pressed(keys::kRight)) by += 1;
    if (pressed(keys::kLeft)) by -= 1;
    if (pressed(keys::kHome)) by -= count;
    if (pressed(keys::kEnd)) by += count;
    return by;
}

void handle_player_keys(PhasePlayer& player, int count) {
    if (view_has_plain_keys() && pressed(keys::kSpace)) toggle_play(player, count);
    if (const int by = player_key_steps(count)) step_by(player, count, by);
}

void draw_player_controls(PhasePlayer& player, const model::Timeline& timeline) {
    const int count = timeline.count();
    if (ImGui::Button("|<")) step_by(player, count, -count);
    ImGui::SameLine();
    if (ImGui::Button("< step")) step_by(player, count, -1);
    ImGui::SameLine();
    if (ImGui::Button(player.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4.0f, 0.0f)))
        toggle_play(player, count);
    ImGui::SameLine();
    if (ImGui::Button("step >")) step_by(player, count, 1);
    ImGui::SameLine();
    if (ImGui::Button(">|")) step_by(player, count, count);

    // The slider's label names the sub-step, so scrubbing reads as "phase 3 · compute".
    const model::KernelStep step = model::step_at(timeline, player.step);
    std::string where = step.sub == model::SubStep::Store
                            ? model::format_text("{} / {}: store", player.step + 1, count)
                            : model::format_text("{} / {}: phase {} · {}", player.step + 1, count, step.phase,
                                            model::substep_name(step.sub));
    if (step.k >= 0) where += model::format_text(" i = {}", step.k);
    ImGui::SetNextItemWidth(-1.0f);
    int scrub = player.step;
    if (ImGui::SliderInt("##scrub", &scrub, 0, count - 1, where.c_str())) {
        player.step = scrub;
        player.playing = false;
    }
}

void draw_player_speed(PhasePlayer& player) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    ImGui::SliderFloat("steps/s", &player.steps_per_second, 0.25f, 8.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextUnformatted("keys: Space, ←/→, Home/End");
    ImGui::PopStyleColor();
}

}  // namespace ts::views
