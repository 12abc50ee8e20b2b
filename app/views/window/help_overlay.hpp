// help_overlay.hpp — the list of keys (F1 or ?): every row of the shortcut table, grouped by
// where it works, over the middle of the window.
#pragma once

namespace ts::views {

struct Presentation;

// Draws the list while presentation.help_open; F1 or Escape closes it. While it is
// open the view's own keys rest, and ↑ ↓ PageUp PageDown Home End scroll it.
void draw_help_overlay(Presentation& presentation);

}  // namespace ts::views
