// shortcuts.hpp — every key TileScope answers to, in one table: the help overlay (F1) lists
// it, and handle_shortcuts() acts on the rows that have a command. Rows without one are
// handled where they act (the view switcher, the stage, the theatre's player, the lessons)
// and are listed here so that the overlay shows them all. Each command's action takes the
// piece of the state it changes (the presentation; the pinned cell and the theatre; ...):
// handle_shortcuts() hands it over.
#pragma once

#include <array>
#include <span>

#include "imgui.h"
#include "platform/imgui_compat.hpp"

namespace ts::views {

struct AppState;

// The keys as the running Dear ImGui names them (imgui_compat.hpp).
namespace keys = imgui_compat::keys;
using imgui_compat::Key;

// One way to trigger a shortcut: a key with exactly these modifiers, or a typed character
// (for '?', whichever keys a keyboard layout types it with).
struct Chord {
    Key key = keys::kNone;
    ImWchar character = 0;
    bool ctrl = false, shift = false, alt = false;
    bool repeat = false;  // held down, it acts again and again (moving), or once (toggling)
    bool used() const { return key != keys::kNone || character != 0; }
};

// What a row's keys do, when the table handles them (handle_shortcuts()).
enum class Command {
    None,  // another part of TileScope handles these keys
    ToggleHelp,
    TogglePresenter,
    ToggleFullscreen,
    ToggleSlide,
    FoldPanels,
    FontSize,
    FontReset,
    NextPalette,
    RunOnGpu,
    ExportAnimation,
    MoveBlock,
    MoveCell,
    Release,
};

struct Shortcut {
    const char* keys;   // as the overlay writes them
    const char* does;
    const char* where;  // "Everywhere", "Stage", "Theatre", "Lessons", ...
    std::array<Chord, 5> chords{};
    // What pressing chords[i] does; the command is told i (which of the chords was pressed).
    Command command = Command::None;
};

std::span<const Shortcut> shortcuts();

// Whether the keys without Ctrl or a function key (Space, arrows, PageDown, Enter, letters)
// belong to the view now. They do not while a widget has the keyboard: a text field is
// being edited, or Tab has handed the keys to the panels' widgets (Escape hands them back),
// or the key overlay is open. Every handler of such keys asks this first.
bool view_has_keys();
// view_has_keys() with no Ctrl, Alt or Shift held: the plain keys of a view (the theatre's
// player, the stage's panning, the ladders' scrolling), which leave Shift and Alt with the arrows
// to the table's chords (moving the pinned cell or block).
bool view_has_plain_keys();

// Acts on the table's keys pressed this frame. Call once per frame, before the views draw.
// It takes the whole AppState: the commands write across features (the presentation, the run
// request, the pinned cell, the theatre, the export window).
void handle_shortcuts(AppState& state);

}  // namespace ts::views
