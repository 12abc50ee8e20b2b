// animation_export.hpp — the main loop's half of "Export animation…": it alone can draw offscreen,
// so it takes the dialog's (or --export-animation's) request, draws one frame of the animation
// per turn of the loop at the chosen size and scale, hands each to the file's writer
// (export/animation_file.hpp), and writes the file once every frame is in, off the UI thread.
// The window keeps its own frames meanwhile: the dialog shows the progress and Cancel.
//
//     window.present();
//     animation_export.step(window, state);   // between frames: it may change the fonts
//     window_settings.after_frame(window, state);
//
// While it runs, the state on show is moved through the animation's steps, in the export's
// presentation (presenter 2× or 1×); both are put back once the last frame is drawn or the export
// is cancelled. A cancelled or failed export leaves no file behind.
#pragma once

#include <future>
#include <memory>
#include <string>
#include <variant>

#include "export/animation_file.hpp"
#include "platform/window.hpp"
#include "views/export/export_frames.hpp"
#include "views/window/app_state.hpp"

namespace ts::app {

class AnimationExport {
public:
    // Starts what the state asks for (ExportState::start_requested), draws the next frame, takes
    // a cancel, or picks up the written file; does nothing when no export is asked for or running.
    void step(platform::Window& window, views::AppState& state);
    bool busy() const { return m_writer != nullptr || m_writing.valid(); }

private:
    // Opens the file and puts the export's presentation on (the user's is kept to put back).
    void start(platform::Window& window, views::ExportState& exporting, views::Presentation& presentation,
               const views::AppState& app);
    // Draws the next frame offscreen and hands it to the writer.
    void export_next_frame(platform::Window& window, views::AppState& state);
    // Puts the view and the presentation back as the user had them.
    void put_back(platform::Window& window, views::AppState& state);
    // The export's outcome, in its state and in the presentation's notice.
    void end(views::ExportState& exporting, views::Presentation& presentation, std::string outcome, bool failed);

    std::unique_ptr<exporting::AnimationWriter> m_writer;
    std::future<std::variant<exporting::FinishedAnimation, std::string>> m_writing;
    views::ExportSubject m_subject = views::ExportSubject::Theatre;
    views::ExportChoice m_choice;
    views::ExportBookmark m_bookmark;
    views::Presentation m_presentation;  // the user's, while the export's is on
    views::ViewId m_view = views::ViewId::Theatre;  // the view exported, whatever the window shows meanwhile
    bool m_put_back = true;
    int m_frame = 0;
    int m_frames = 0;
};

}  // namespace ts::app
