// animation_export.cxx — see animation_export.hpp.
#include "animation_export.hpp"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <utility>

#include "frame.hpp"
#include "model/format.hpp"
#include "views/common/theme.hpp"

namespace ts::app {

namespace {

using model::format_text;

// ImGui sizes windows, tables and the lesson card from the previous frame, so each picture is
// drawn a few times at its size and step before it is read.
constexpr int kDrawsPerFrame = kSettleFrames + 1;

}  // namespace

void AnimationExport::step(platform::Window& window, views::AppState& state) {
    views::ExportState& exporting = state.exporting;
    if (m_writing.valid()) {
        if (m_writing.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
        auto written = m_writing.get();
        m_writer.reset();
        if (auto* why = std::get_if<std::string>(&written)) {
            end(exporting, state.presentation, "Not exported: " + *why, true);
            return;
        }
        const auto& done = std::get<exporting::FinishedAnimation>(written);
        const std::string where =
            done.files.size() == 1
                ? std::filesystem::absolute(done.files.front()).string()
                : format_text("{} … {}", std::filesystem::absolute(done.files.front()).string(),
                              done.files.back().filename().string());
        end(exporting, state.presentation,
            format_text("Saved {}: {} frames of {} × {}, {}", where, done.frames, m_choice.width, m_choice.height,
                        model::human_bytes(static_cast<std::int64_t>(done.bytes))),
            false);
        return;
    }
    if (!m_writer) {
        if (exporting.start_requested) start(window, exporting, state.presentation, state);
        return;
    }
    if (exporting.cancel_requested) {
        m_writer.reset();  // its destructor removes what it had written
        put_back(window, state);
        end(exporting, state.presentation, "Export cancelled: nothing was written.", true);
        return;
    }
    export_next_frame(window, state);
}

void AnimationExport::start(platform::Window& window, views::ExportState& exporting, views::Presentation& presentation,
                            const views::AppState& app) {
    exporting.start_requested = false;
    exporting.cancel_requested = false;
    m_subject = exporting.subject;
    m_choice = exporting.choice;
    const auto sequence = views::export_sequence(app, m_subject);
    if (const auto* why = std::get_if<std::string>(&sequence)) {
        end(exporting, presentation, "Nothing to export: " + *why, true);
        return;
    }
    m_frames = std::get<views::ExportSequence>(sequence).frames;
    const auto format = exporting::format_of_path(m_choice.path);
    if (const auto* why = std::get_if<std::string>(&format)) {
        end(exporting, presentation, *why, true);
        return;
    }
    auto opened = exporting::AnimationWriter::open(
        m_choice.path, std::get<exporting::AnimationFormat>(format),
        {.width = m_choice.width, .height = m_choice.height, .seconds_per_frame = m_choice.seconds_per_frame});
    if (const auto* why = std::get_if<std::string>(&opened)) {
        end(exporting, presentation, *why, true);
        return;
    }
    m_writer = std::move(std::get<std::unique_ptr<exporting::AnimationWriter>>(opened));
    m_frame = 0;
    m_bookmark = views::bookmark(app);
    m_view = app.view;
    m_put_back = false;

    // The export's presentation: 1× or presenter mode's 2× from the user's ordinary palette, the
    // monitor's content scale left out, so that the same choice gives the same pictures anywhere.
    m_presentation = presentation;
    views::Presentation exported = presentation;
    if (exported.presenter) views::set_presenter(exported, false);
    exported.font_scale = 1.0f;
    exported.ordinary_font_scale = 1.0f;
    if (m_choice.presenter) views::set_presenter(exported, true);
    exported.help_open = false;
    presentation = exported;
    window.set_font_scale(exported.font_scale, false);
    views::set_fonts({window.fonts().heading, window.fonts().small, window.fonts().code});
    views::apply_presentation_style(exported);

    exporting.running = true;
    exporting.encoding = false;
    exporting.frames_done = 0;
    exporting.frames_total = m_frames;
    exporting.outcome.clear();
}

void AnimationExport::export_next_frame(platform::Window& window, views::AppState& state) {
    views::ExportState& exporting = state.exporting;
    // The frames show the view the export started in, even if the user has gone to another since.
    const views::ViewId shown = std::exchange(state.view, m_view);
    views::show_export_frame(state, m_subject, m_frame);
    // What a picture leaves out: the export's own window and buttons, tooltips, a blinking cursor.
    exporting.capturing = true;
    const bool without_tooltips = std::exchange(state.picture_without_tooltips, true);
    ImGuiIO& io = ImGui::GetIO();
    const bool blink = std::exchange(io.ConfigInputTextCursorBlink, false);
    for (int draw = 0; draw < kDrawsPerFrame; ++draw)
        draw_frame(window, state, {.offscreen = OffscreenSize{m_choice.width, m_choice.height}});
    io.ConfigInputTextCursorBlink = blink;
    state.picture_without_tooltips = without_tooltips;
    exporting.capturing = false;
    state.view = shown;

    auto pixels = window.read_offscreen();
    std::optional<std::string> why;
    if (auto* error = std::get_if<std::string>(&pixels)) why = *error;
    else why = m_writer->add_frame(std::get<std::vector<unsigned char>>(pixels));
    if (why) {
        m_writer.reset();
        put_back(window, state);
        end(exporting, state.presentation, "Not exported: " + *why, true);
        return;
    }
    exporting.frames_done = ++m_frame;
    if (m_frame < m_frames) return;
    // Every frame is in: the view goes back to the user, and the file is written meanwhile.
    put_back(window, state);
    exporting.encoding = true;
    m_writing = std::async(std::launch::async, [writer = m_writer.get()] { return writer->finish(); });
}

void AnimationExport::put_back(platform::Window& window, views::AppState& state) {
    if (std::exchange(m_put_back, true)) return;
    views::restore(state, m_bookmark);
    state.presentation = m_presentation;
    window.set_font_scale(m_presentation.font_scale);
    views::set_fonts({window.fonts().heading, window.fonts().small, window.fonts().code});
    views::apply_presentation_style(m_presentation);
}

void AnimationExport::end(views::ExportState& exporting, views::Presentation& presentation, std::string outcome,
                          bool failed) {
    exporting.running = false;
    exporting.encoding = false;
    exporting.start_requested = false;
    exporting.cancel_requested = false;
    exporting.outcome = std::move(outcome);
    exporting.outcome_failed = failed;
    presentation.notice = exporting.outcome;
    presentation.notice_is_problem = failed;
    // Also where a script running the window (--export-animation, --keys) reads it.
    std::cerr << "tilescope: " << exporting.outcome << "\n";
}

}  // namespace ts::app
