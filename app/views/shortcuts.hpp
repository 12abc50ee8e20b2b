// shortcuts.hpp — every key TileScope answers to, in one table: the help overlay (F1) lists
// it, and handle_shortcuts() acts on the rows that have an action. Rows without one are
// handled where they act (the view switcher, the stage, the theatre's player, the lessons)
// and are listed here so that the overlay shows them all.
#pragma once

#include <array>
#include <span>

#include "imgui.h"

namespace ts::views {

struct AppState;

// Key codes as Dear ImGui 1.86 sees them: the backend's, GLFW's (app/platform checks that
// these match GLFW_KEY_*). ImGui 1.86 has no names of its own for function keys.
namespace keys {
inline constexpr int kF1 = 290, kF5 = 294, kF6 = 295, kF11 = 300;
inline constexpr int kRight = 262, kLeft = 263, kDown = 264, kUp = 265, kDelete = 261, kEscape = 256;
inline constexpr int kPageUp = 266, kPageDown = 267;
inline constexpr int kEqual = 61, kMinus = 45, kZero = 48, kR = 82;
inline constexpr int kKeypadSubtract = 333, kKeypadAdd = 334;
}  // namespace keys

// One way to trigger a shortcut: a key with exactly these modifiers, or a typed character
// (for '?', whichever keys a keyboard layout types it with).
struct Chord {
    int key = -1;
    ImWchar character = 0;
    bool ctrl = false, shift = false, alt = false;
    bool repeat = false;  // held down, it acts again and again (moving), or once (toggling)
    bool used() const { return key >= 0 || character != 0; }
};

struct Shortcut {
    const char* keys;   // as the overlay writes them
    const char* does;
    const char* where;  // "Everywhere", "Stage", "Theatre", "Lessons", ...
    std::array<Chord, 5> chords{};
    // What pressing chords[i] does; null: another part of TileScope handles these keys.
    void (*act)(AppState& state, int chord) = nullptr;
};

std::span<const Shortcut> shortcuts();

// Whether the keys without Ctrl or a function key (Space, arrows, PageDown, Enter, letters)
// belong to the view now. They do not while a widget has the keyboard: a text field is
// being edited, or Tab has handed the keys to the panels' widgets (Escape hands them back),
// or the key overlay is open. Every handler of such keys asks this first.
bool view_has_keys();

// Acts on the table's keys pressed this frame. Call once per frame, before the views draw.
void handle_shortcuts(AppState& state);

}  // namespace ts::views
