#include "views/window/shortcuts.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

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

void toggle_help(Presentation& p) { p.help_open = !p.help_open; }

void toggle_presenter(Presentation& p) {
    set_presenter(p, !p.presenter);
    p.notice = p.presenter ? "presenter mode (F5 again: off)" : "presenter mode off";
}

void toggle_fullscreen(Presentation& p) { p.fullscreen = !p.fullscreen; }

void toggle_slide(Presentation& p) { p.slide = !p.slide; }

void fold_panels(Presentation& p) {
    toggle_panels(p);
    p.notice = *p.panels_open ? "panel unfolded (Ctrl+B folds it)"
                              : "panel folded: the picture takes its width (Ctrl+B: back)";
}

// Under this many lines of text across, the pictures have too little room for their names and
// captions (3× on a 1280-pixel window leaves 25).
constexpr float kCrampedBelowLines = 36.0f;

void font_size(Presentation& p, int chord) {
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

void font_reset(Presentation& p) {
    p.font_scale = 1.0f;
    p.notice = scale_text(1.0f);
}

void palette(Presentation& p) {
    next_palette(p);
    p.notice = model::format_text("palette: {}", palette_name(p.palette));
}

// Sets the window's run request, as the run panel's button does, or says why it cannot.
void run_on_gpu(Presentation& presentation, bool& run_requested, const AppState& app) {
    if (const auto why = why_no_run(app)) {
        presentation.notice = "Ctrl+R: cannot run now: " + *why;
        return;
    }
    run_requested = true;
    presentation.notice = "Ctrl+R: running on the GPU (results in the stage's panel)";
}

// The pinned cell of C one cell further, pinning C[0][0] when none is. In the theatre its
// block follows, as a click on the cell would choose it. Writes the pinned cell and the theatre.
void move_cell(std::optional<model::Cell>& selected, TheatreState& theatre, const AppState& s, int chord) {
    const int m = static_cast<int>(s.problem.m), n = static_cast<int>(s.problem.n);
    if (m <= 0 || n <= 0) return;
    model::Cell cell{0, 0};
    if (selected)
        cell = {std::clamp(selected->row + kRowStep[chord], 0, m - 1),
                std::clamp(selected->col + kColStep[chord], 0, n - 1)};
    selected = cell;
    if (s.view == ViewId::Theatre && !theatre_error(s)) {
        theatre.pinned_a.reset();
        theatre.pinned_b.reset();
        jump_theatre(theatre, s, block_of_cell(played_config(s), s.problem, cell), std::nullopt, std::nullopt);
    }
}

// In the theatre, the neighbouring block, keeping the pinned thread's place in its block
// when it has one; elsewhere the same as moving the pinned cell. Writes what move_cell() does.
void move_block(std::optional<model::Cell>& selected, TheatreState& theatre, const AppState& s, int chord) {
    if (s.view != ViewId::Theatre) return move_cell(selected, theatre, s, chord);
    if (theatre_error(s)) return;
    const model::KernelConfig config = played_config(s);
    const model::Index2 grid = block_grid(config, s.problem);
    const model::Index2 from = theatre.block;
    const model::Index2 to{std::clamp(from.x + kColStep[chord], 0, grid.x - 1),
                           std::clamp(from.y + kRowStep[chord], 0, grid.y - 1)};
    if (to.x == from.x && to.y == from.y) return;
    if (selected) {
        // The block's strips are clipped to C, so a thread past the edge of a smaller last
        // block has no counterpart there and is released.
        const BlockStrips here = block_strips(config, s.problem, block_of_cell(config, s.problem, *selected));
        const BlockStrips there = block_strips(config, s.problem, to);
        const model::Cell moved{there.row_begin + selected->row - here.row_begin,
                                there.col_begin + selected->col - here.col_begin};
        if (moved.row < there.row_end && moved.col < there.col_end)
            selected = moved;
        else
            selected.reset();
    }
    jump_theatre(theatre, s, to, std::nullopt, std::nullopt);
}

void release(std::optional<model::Cell>& selected, TheatreState& theatre) {
    selected.reset();
    theatre.pinned_a.reset();
    theatre.pinned_b.reset();
}

// "Export animation…" for what is on show: the open lesson, else the theatre or the ladders; other
// views say in the presentation's notice that they have nothing to export.
void export_animation(ExportState& exporting, Presentation& presentation, const AppState& app) {
    if (app.lesson.lesson) open_export_dialog(exporting, app, ExportSubject::Lesson);
    else if (app.view == ViewId::Theatre) open_export_dialog(exporting, app, ExportSubject::Theatre);
    else if (app.view == ViewId::Ladder) open_export_dialog(exporting, app, ExportSubject::Ladder);
    else presentation.notice = "Ctrl+E: the theatre, a lesson and the ladders export animations; this view has no steps";
}

const Shortcut kShortcuts[] = {
    {"F1 or ?", "this list of keys (F1 or Escape closes it)", "Everywhere", {key(keys::kF1), typed('?')},
     Command::ToggleHelp},
    {"F5", "presenter mode: text 2× or larger, high contrast, thick highlights; again: back", "Everywhere",
     {key(keys::kF5)}, Command::TogglePresenter},
    {"F11", "full screen, and back to the window", "Everywhere", {key(keys::kF11)}, Command::ToggleFullscreen},
    {"F7", "slide: the view alone, without the bars above and below it (as exported frames are); again: back",
     "Everywhere", {key(keys::kF7)}, Command::ToggleSlide},
    {"Ctrl+B", "fold the panel left of the picture away, and back (a lesson's card stays)", "Everywhere",
     {ctrl(keys::kB)}, Command::FoldPanels},
    {"Ctrl+=  Ctrl+-", "text larger, smaller: 1×, 1.5×, 2×, 3×", "Everywhere",
     // Ctrl++ is Ctrl+Shift+= on most layouts.
     {ctrl(keys::kEqual), ctrl_shift(keys::kEqual), ctrl(keys::kKeypadAdd), ctrl(keys::kMinus),
      ctrl(keys::kKeypadSubtract)},
     Command::FontSize},
    {"Ctrl+0", "text back to 1×", "Everywhere", {ctrl(keys::kZero)}, Command::FontReset},
    {"F6", "next palette: default, high contrast, colour-blind safe", "Everywhere", {key(keys::kF6)},
     Command::NextPalette},
    {"Ctrl+1 … Ctrl+8", "views: stage, latency, tuning, roofline, theatre, ladder, experiments, your kernel",
     "Everywhere"},
    {"Ctrl+R", "run the set-up on the GPU, as Run on GPU does", "Everywhere", {ctrl(keys::kR)}, Command::RunOnGpu},
    {"Ctrl+E", "export an animation of the theatre, the lesson or the ladders on show (GIF, WebP, PNGs, video)",
     "Everywhere", {ctrl(keys::kE)}, Command::ExportAnimation},
    {"Tab", "hand the keys to the panels: Tab and the arrows move between widgets, Space or Enter presses one",
     "Everywhere"},
    {"Escape", "hand the keys back to the view; close this list, or the lesson list", "Everywhere"},
    {"Shift+← → ↑ ↓", "stage: move the pinned cell of C (pins C[0][0] first); theatre: the next block", "Stage and theatre",
     {shift(keys::kLeft), shift(keys::kRight), shift(keys::kUp), shift(keys::kDown)}, Command::MoveBlock},
    {"Alt+← → ↑ ↓", "move the pinned cell of C, the thread to follow; in the theatre its block comes along",
     "Stage and theatre", {alt(keys::kLeft), alt(keys::kRight), alt(keys::kUp), alt(keys::kDown)}, Command::MoveCell},
    {"Delete", "release the pinned cell (or element of A or B)", "Stage and theatre", {key(keys::kDelete)},
     Command::Release},
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
    Presentation& presentation = state.presentation;
    for (const Shortcut& shortcut : kShortcuts) {
        if (shortcut.command == Command::None) continue;
        for (int i = 0; i < static_cast<int>(shortcut.chords.size()); ++i) {
            if (!shortcut.chords[i].used() || !pressed(shortcut.chords[i])) continue;
            const std::string before = presentation.notice;
            switch (shortcut.command) {
                case Command::None: break;
                case Command::ToggleHelp: toggle_help(presentation); break;
                case Command::TogglePresenter: toggle_presenter(presentation); break;
                case Command::ToggleFullscreen: toggle_fullscreen(presentation); break;
                case Command::ToggleSlide: toggle_slide(presentation); break;
                case Command::FoldPanels: fold_panels(presentation); break;
                case Command::FontSize: font_size(presentation, i); break;
                case Command::FontReset: font_reset(presentation); break;
                case Command::NextPalette: palette(presentation); break;
                case Command::RunOnGpu: run_on_gpu(presentation, state.run_requested, state); break;
                case Command::ExportAnimation: export_animation(state.exporting, presentation, state); break;
                case Command::MoveBlock: move_block(state.selected, state.theatre, state, i); break;
                case Command::MoveCell: move_cell(state.selected, state.theatre, state, i); break;
                case Command::Release: release(state.selected, state.theatre); break;
            }
            if (presentation.notice != before) presentation.notice_is_problem = false;
        }
    }
}

}  // namespace ts::views
