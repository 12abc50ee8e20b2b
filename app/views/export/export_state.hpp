// export_state.hpp — what the window remembers about exporting an animation: what the user chose
// in the "Export animation…" dialog, and how far the export on its way has come. The dialog
// (export_dialog.hpp) writes the choice and asks for a start or a cancel; the main loop's export
// (app/animation_export.hpp), which alone can render offscreen, reads them and writes back its
// progress and outcome.
#pragma once

#include <array>
#include <string>

namespace ts::views {

// What an animation shows, one frame per step of it (export_frames.hpp).
enum class ExportSubject {
    Theatre,  // the theatre's sequence on show: a block's phases and sub-steps, a rung, a replay
    Lesson,   // the open lesson's steps (and each prediction's answer)
    Ladder,   // the ladders climbing rung by rung
};

// The sizes the dialog offers (the command line takes any).
struct ExportSize {
    int width, height;
};
inline constexpr std::array<ExportSize, 2> kExportSizes{{{1280, 720}, {1920, 1080}}};

struct ExportChoice {
    std::string path;           // the file; its extension says the format (.gif, .webp, .png, .mp4, .webm)
    int width = 1280, height = 720;
    bool presenter = false;     // presenter mode's 2× text and high contrast, as at a projector
    double seconds_per_frame = 0.5;
};

struct ExportState {
    bool dialog_open = false;     // the dialog is up (or asked to open this frame)
    bool focus = false;           // bring it to the front with the keys (it was just opened)
    ExportSubject subject = ExportSubject::Theatre;
    ExportChoice choice;
    std::array<char, 512> path_text{};  // the dialog's path field
    // Set by the dialog, taken by the main loop.
    bool start_requested = false;
    bool cancel_requested = false;
    // Kept up to date by the main loop while an export runs.
    bool running = false;
    bool capturing = false;       // a frame of the export is being drawn: the dialog stays out of it
    bool encoding = false;        // every frame is drawn; the file is being written
    int frames_done = 0;
    int frames_total = 0;
    // How the last export ended: "saved …", or why not (shown in the dialog and the status bar).
    std::string outcome;
    bool outcome_failed = false;
};

}  // namespace ts::views
