// export_frames.hpp — an animation's frames: which steps of the theatre, the lesson or the ladder
// an export shows, one frame per step, and how to put the app on each of them.
//
// An export moves the view it shows through its steps and then puts it back where the user had
// it (ExportBookmark), so the window is as it was when the export ends or is cancelled:
//
//     const ExportBookmark before = bookmark(state);
//     for (int i = 0; i < sequence.frames; ++i) { show_export_frame(state, subject, i); draw; read pixels; }
//     restore(state, before);
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "views/export/export_state.hpp"
#include "views/theatre/phase_player.hpp"
#include "views/theatre/theatre_state.hpp"

namespace ts::views {

struct AppState;

struct ExportSequence {
    ExportSubject subject = ExportSubject::Theatre;
    int frames = 0;
    // What the frames show: "tiled T = 16, block (0, 0): 4 phases, one frame per sub-step".
    std::string what;
    // A short name for the default file: "theatre-tiled", "lesson-tiling", "ladder".
    std::string file_stem;
};

// The frames an export of `subject` would show from the state on show, or why there are none
// (the theatre cannot play this set-up, no lesson is open).
std::variant<ExportSequence, std::string> export_sequence(const AppState& state, ExportSubject subject);

// Puts the app on frame `frame` (from 0) of `subject`'s sequence: the theatre's player on that
// sub-step (paused), the tensor-core rung's statement, K step or round, the lesson's step, the
// ladder's first frame + 1 rungs.
void show_export_frame(AppState& state, ExportSubject subject, int frame);

// What show_export_frame changes, to put back afterwards.
struct ExportBookmark {
    PhasePlayer player;
    int ring_step = 0, tc_substep = 0, tile_round = 0;
    TheatrePanel panel = TheatrePanel::Source;
    int lesson_step = 0;
    bool lesson_revealed = false;
    std::optional<int> ladder_rungs_shown;
};
ExportBookmark bookmark(const AppState& state);
void restore(AppState& state, const ExportBookmark& bookmark);

}  // namespace ts::views
