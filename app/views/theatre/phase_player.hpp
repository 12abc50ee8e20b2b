// phase_player.hpp — play, pause, step and scrub through a kernel's sub-steps
// (model/phase_timeline.hpp). The state is plain data so the tests can drive it directly.
#pragma once

#include "model/phase_timeline.hpp"

namespace ts::views {

struct PhasePlayer {
    int step = 0;                    // index into the sub-steps, see model::step_at
    bool playing = false;
    float steps_per_second = 1.0f;
    float carry = 0.0f;              // seconds played since the last step
};

// Moves `delta` sub-steps, kept inside [0, count); any manual move pauses.
void step_by(PhasePlayer& player, int count, int delta);

// While playing, advances one sub-step per 1/steps_per_second seconds; pauses on the last.
void tick(PhasePlayer& player, int count, float seconds);

// How far the keys ask a player of `count` steps to move this frame: ←/→ one, Home/End all of
// them; 0 while a text field has the keyboard or Shift, Alt or Ctrl is down. The tensor-core
// rungs' Source tab steps its statements with it too.
int player_key_steps(int count);

// Space plays/pauses (from the start again once at the end), ←/→ step, Home/End jump.
// Ignored while a text field has the keyboard.
void handle_player_keys(PhasePlayer& player, int count);

// The transport row (buttons, scrub slider over every sub-step, speed) for `timeline`.
void draw_player_controls(PhasePlayer& player, const model::Timeline& timeline);

// The speed slider and the keys, which a lesson can do without.
void draw_player_speed(PhasePlayer& player);

}  // namespace ts::views
