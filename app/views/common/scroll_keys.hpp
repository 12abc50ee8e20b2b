// scroll_keys.hpp — the keys that scroll the current window: ↑ ↓ two lines, PageUp PageDown most
// of its height, Home End its top and bottom. The list of keys (F1) scrolls with them, and so do
// the ladders, which at 2× text are taller than a projector's screen: a presentation clicker
// sends PageDown, and the tensor cores' ladder comes into view.
#pragma once

namespace ts::views {

struct ScrollKeys {
    bool pages = true;  // PageUp and PageDown too (not while an open lesson steps with them)
};

// Scrolls ImGui's current window by the keys pressed this frame. The caller decides whether the
// keys are its to take (the view has them, or a list that holds them is open).
void scroll_with_keys(ScrollKeys keys = {});

}  // namespace ts::views
