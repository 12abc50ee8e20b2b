#include "views/window/shortcuts.hpp"

#include <algorithm>
#include <cstdio>

#include "views/window/app_state.hpp"
#include "views/window/side_column.hpp"
#include "views/export/export_dialog.hpp"
#include "model/format.hpp"
#include "views/theatre/theatre_logic.hpp"

namespace ts::views {

namespace {

using settings::palette_name;

Chord key(Key code) { return {.key = code}; }
Chord ctrl(Key code) { return {.key = code, .ctrl = true}; }
Chord ctrl_shift(Key code) { return {.key = code, .ctrl = true, .shift = true}; }
Chord shift(Key code) { return {.key = code, .shift = true, .repeat = true}; }
Chord alt(Key code) { return {.key = code, .alt = true, .repeat = true}; }
Chord typed(ImWchar c) { return {.character = c}; }

// The direction of chords {←, →, ↑, ↓} as (rows, columns).
constexpr int kRowStep[] = {0, 0, -1, 1};
constexpr int kColStep[] = {-1, 1, 0, 0};

std::string scale_text(float scale) {
    char text[32];
    std::snprintf(text, sizeof text, "text %g×", scale);
    return text;
}

void toggle_help(AppState& s, int) { s.presentation.help_open = !s.presentation.help_open; }

void toggle_presenter(AppState& s, int) {
    set_presenter(s.presentation, !s.presentation.presenter);
    s.presentation.notice = s.presentation.presenter ? "presenter mode (F5 again: off)" : "presenter mode off";
}

void toggle_fullscreen(AppState& s, int) { s.presentation.fullscreen = !s.presentation.fullscreen; }

void toggle_slide(AppState& s, int) { s.presentation.slide = !s.presentation.slide; }

void fold_panels(AppState& s, int) {
    toggle_panels(s.presentation);
    s.presentation.notice = *s.presentation.panels_open ? "panel unfolded (Ctrl+B folds it)"
                                                        : "panel folded: the picture takes its width (Ctrl+B: back)";
}

// Under this many lines of text across, the pictures have too little room for their names and
// captions (3× on a 1280-pixel window leaves 25).
constexpr float kCrampedBelowLines = 36.0f;

void font_size(AppState& s, int chord) {
    Presentation& p = s.presentation;
    const float before = p.font_scale;
    p.font_scale = settings::step_font_scale(p.font_scale, chord < 3 ? 1 : -1);
    p.notice = scale_text(p.font_scale);
    // The new fonts come with the next frame: the line width from this one's, scaled.
    const float lines = ImGui::GetMainViewport()->WorkSize.x / (ImGui::GetFontSize() * p.font_scale / before);
    // Said first, short: at such sizes the status bar holds few words.
    if (lines < kCrampedBelowLines)
        p.notice += model::format_text(": cramped, the window is {} lines of text wide (pictures want {}; F11: full "
                                       "screen)",
                                       static_cast<int>(lines), static_cast<int>(kCrampedBelowLines));
}

void font_reset(AppState& s, int) {
    s.presentation.font_scale = 1.0f;
    s.presentation.notice = scale_text(1.0f);
}

void palette(AppState& s, int) {
    next_palette(s.presentation);
    s.presentation.notice = model::format_text("palette: {}", palette_name(s.presentation.palette));
}

void run_on_gpu(AppState& s, int) {
    if (const auto why = why_no_run(s)) {
        s.presentation.notice = "Ctrl+R: cannot run now: " + *why;
        return;
    }
    s.run_requested = true;
    s.presentation.notice = "Ctrl+R: running on the GPU (results in the stage's panel)";
}

// The pinned cell of C one cell further, pinning C[0][0] when none is. In the theatre its
// block follows, as a click on the cell would choose it.
void move_cell(AppState& s, int chord) {
    const int m = static_cast<int>(s.problem.m), n = static_cast<int>(s.problem.n);
    if (m <= 0 || n <= 0) return;
    model::Cell cell{0, 0};
    if (s.selected)
        cell = {std::clamp(s.selected->row + kRowStep[chord], 0, m - 1),
                std::clamp(s.selected->col + kColStep[chord], 0, n - 1)};
    s.selected = cell;
    if (s.view == ViewId::Theatre && !theatre_error(s)) {
        s.theatre.pinned_a.reset();
        s.theatre.pinned_b.reset();
        jump_theatre(s.theatre, s, block_of_cell(played_config(s), s.problem, cell), std::nullopt, std::nullopt);
    }
}

// In the theatre, the neighbouring block, keeping the pinned thread's place in its block
// when it has one; elsewhere the same as moving the pinned cell.
void move_block(AppState& s, int chord) {
    if (s.view != ViewId::Theatre) return move_cell(s, chord);
    if (theatre_error(s)) return;
    const model::KernelConfig config = played_config(s);
    const model::Index2 grid = block_grid(config, s.problem);
    const model::Index2 from = s.theatre.block;
    const model::Index2 to{std::clamp(from.x + kColStep[chord], 0, grid.x - 1),
                           std::clamp(from.y + kRowStep[chord], 0, grid.y - 1)};
    if (to.x == from.x && to.y == from.y) return;
    if (s.selected) {
        // The block's strips are clipped to C, so a thread past the edge of a smaller last
        // block has no counterpart there and is released.
        const BlockStrips here = block_strips(config, s.problem, block_of_cell(config, s.problem, *s.selected));
        const BlockStrips there = block_strips(config, s.problem, to);
        const model::Cell moved{there.row_begin + s.selected->row - here.row_begin,
                                there.col_begin + s.selected->col - here.col_begin};
        if (moved.row < there.row_end && moved.col < there.col_end)
            s.selected = moved;
        else
            s.selected.reset();
    }
    jump_theatre(s.theatre, s, to, std::nullopt, std::nullopt);
}

void release(AppState& s, int) {
    s.selected.reset();
    s.theatre.pinned_a.reset();
    s.theatre.pinned_b.reset();
}

// "Export animation…" for what is on show: the open lesson, else the theatre or the ladders.
void export_animation(AppState& s, int) {
    if (s.lesson.lesson) open_export_dialog(s, ExportSubject::Lesson);
    else if (s.view == ViewId::Theatre) open_export_dialog(s, ExportSubject::Theatre);
    else if (s.view == ViewId::Ladder) open_export_dialog(s, ExportSubject::Ladder);
    else s.presentation.notice = "Ctrl+E: the theatre, a lesson and the ladders export animations; this view has no steps";
}

const Shortcut kShortcuts[] = {
    {"F1 or ?", "this list of keys (F1 or Escape closes it)", "Everywhere", {key(keys::kF1), typed('?')}, toggle_help},
    {"F5", "presenter mode: text 2× or larger, high contrast, thick highlights; again: back", "Everywhere",
     {key(keys::kF5)}, toggle_presenter},
    {"F11", "full screen, and back to the window", "Everywhere", {key(keys::kF11)}, toggle_fullscreen},
    {"F7", "slide: the view alone, without the bars above and below it (as exported frames are); again: back",
     "Everywhere", {key(keys::kF7)}, toggle_slide},
    {"Ctrl+B", "fold the panel left of the picture away, and back (a lesson's card stays)", "Everywhere",
     {ctrl(keys::kB)}, fold_panels},
    {"Ctrl+=  Ctrl+-", "text larger, smaller: 1×, 1.5×, 2×, 3×", "Everywhere",
     // Ctrl++ is Ctrl+Shift+= on most layouts.
     {ctrl(keys::kEqual), ctrl_shift(keys::kEqual), ctrl(keys::kKeypadAdd), ctrl(keys::kMinus),
      ctrl(keys::kKeypadSubtract)},
     font_size},
    {"Ctrl+0", "text back to 1×", "Everywhere", {ctrl(keys::kZero)}, font_reset},
    {"F6", "next palette: default, high contrast, colour-blind safe", "Everywhere", {key(keys::kF6)}, palette},
    {"Ctrl+1 … Ctrl+8", "views: stage, latency, tuning, roofline, theatre, ladder, experiments, your kernel",
     "Everywhere"},
    {"Ctrl+R", "run the set-up on the GPU, as Run on GPU does", "Everywhere", {ctrl(keys::kR)}, run_on_gpu},
    {"Ctrl+E", "export an animation of the theatre, the lesson or the ladders on show (GIF, WebP, PNGs, video)",
     "Everywhere", {ctrl(keys::kE)}, export_animation},
    {"Tab", "hand the keys to the panels: Tab and the arrows move between widgets, Space or Enter presses one",
     "Everywhere"},
    {"Escape", "hand the keys back to the view; close this list, or the lesson list", "Everywhere"},
    {"Shift+← → ↑ ↓", "stage: move the pinned cell of C (pins C[0][0] first); theatre: the next block", "Stage and theatre",
     {shift(keys::kLeft), shift(keys::kRight), shift(keys::kUp), shift(keys::kDown)}, move_block},
    {"Alt+← → ↑ ↓", "move the pinned cell of C, the thread to follow; in the theatre its block comes along",
     "Stage and theatre", {alt(keys::kLeft), alt(keys::kRight), alt(keys::kUp), alt(keys::kDown)}, move_cell},
    {"Delete", "release the pinned cell (or element of A or B)", "Stage and theatre", {key(keys::kDelete)}, release},
    {"← → ↑ ↓", "pan the stage when zoomed in", "Stage"},
    {"+  -", "zoom the stage in, out", "Stage"},
    {"Space", "play, pause", "Theatre"},
    {"←  →", "one step back, forward", "Theatre"},
    {"Home  End", "the first step, the last", "Theatre"},
    // At 2× text the tensor cores' ladder lies below the screen; a clicker sends PageDown.
    {"↑ ↓", "scroll the ladders two lines", "Ladder"},
    {"PageDown", "scroll the ladders a page down (with a lesson open: its next step)", "Ladder"},
    {"PageUp", "a page up (with a lesson open: its step before)", "Ladder"},
    {"Home  End", "the top of the ladders, the bottom", "Ladder"},
    {"PageDown", "next lesson step", "Lessons"},
    {"PageUp", "previous lesson step", "Lessons"},
    {"Enter", "reveal the answer", "Lessons"},
    {"Ctrl+L", "the list of lessons (Escape closes it)", "Lessons"},
};

bool pressed(const Chord& chord) {
    const ImGuiIO& io = ImGui::GetIO();
    if (chord.character != 0) {
        if (io.KeyCtrl || io.KeyAlt || !view_has_keys()) return false;
        return std::find(io.InputQueueCharacters.begin(), io.InputQueueCharacters.end(), chord.character) !=
               io.InputQueueCharacters.end();
    }
    if (io.KeyCtrl != chord.ctrl || io.KeyShift != chord.shift || io.KeyAlt != chord.alt) return false;
    // Ctrl chords and function keys work while the panels have the keys, not inside a text field.
    const bool free = chord.ctrl || imgui_compat::is_function_key(chord.key) ? !io.WantTextInput : view_has_keys();
    return free && imgui_compat::key_pressed(chord.key, chord.repeat);
}

}  // namespace

std::span<const Shortcut> shortcuts() { return kShortcuts; }

bool view_has_keys() { return !ImGui::GetIO().WantCaptureKeyboard; }

bool view_has_plain_keys() {
    const ImGuiIO& io = ImGui::GetIO();
    return view_has_keys() && !io.KeyShift && !io.KeyAlt && !io.KeyCtrl;
}

void handle_shortcuts(AppState& state) {
    for (const Shortcut& shortcut : kShortcuts) {
        if (!shortcut.act) continue;
        for (int i = 0; i < static_cast<int>(shortcut.chords.size()); ++i) {
            if (!shortcut.chords[i].used() || !pressed(shortcut.chords[i])) continue;
            const std::string before = state.presentation.notice;
            shortcut.act(state, i);
            if (state.presentation.notice != before) state.presentation.notice_is_problem = false;
        }
    }
}

}  // namespace ts::views
