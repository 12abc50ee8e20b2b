// export_dialog.cxx — see export_dialog.hpp.
#include "views/export/export_dialog.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "export/animation_file.hpp"
#include "imgui.h"
#include "model/format.hpp"
#include "platform/imgui_compat.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/export/export_frames.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

namespace {

using exporting::AnimationFormat;
namespace keys = imgui_compat::keys;
using model::fixed;
using model::format_text;

constexpr AnimationFormat kFormats[] = {AnimationFormat::Gif, AnimationFormat::Webp, AnimationFormat::PngSeries,
                                        AnimationFormat::Mp4, AnimationFormat::Webm};

// Whether ffmpeg is there does not change while the window is open: asked once.
const std::optional<std::string>& why_unavailable_cached(AnimationFormat format) {
    static const std::optional<std::string> answers[] = {
        exporting::why_unavailable(AnimationFormat::Gif), exporting::why_unavailable(AnimationFormat::Webp),
        exporting::why_unavailable(AnimationFormat::PngSeries), exporting::why_unavailable(AnimationFormat::Mp4),
        exporting::why_unavailable(AnimationFormat::Webm)};
    return answers[static_cast<int>(format)];
}

std::string path_text(const ExportState& exporting) { return std::string(exporting.path_text.data()); }

void set_path_text(ExportState& exporting, const std::string& path) {
    std::snprintf(exporting.path_text.data(), exporting.path_text.size(), "%s", path.c_str());
}

// The path with its extension swapped for `format`'s.
std::string with_extension(const std::string& path, AnimationFormat format) {
    return std::filesystem::path(path).replace_extension(exporting::format_extension(format)).string();
}

std::string duration_text(double seconds) {
    return seconds < 60.0 ? format_text("{} s", fixed(seconds, 1))
                          : format_text("{} min {} s", static_cast<int>(seconds / 60.0),
                                        static_cast<int>(seconds) % 60);
}

void progress(ExportState& exporting) {
    const float fraction = exporting.frames_total > 0
                               ? static_cast<float>(exporting.frames_done) / static_cast<float>(exporting.frames_total)
                               : 0.0f;
    const std::string label = exporting.encoding
                                  ? format_text("writing {}…", path_text(exporting))
                                  : format_text("frame {} of {}", exporting.frames_done, exporting.frames_total);
    ImGui::ProgressBar(exporting.encoding ? 1.0f : fraction, ImVec2(ImGui::GetFontSize() * 24.0f, 0.0f), label.c_str());
    if (exporting.encoding) {
        muted_text("Every frame is drawn; the file is being written.");
        return;
    }
    if (ImGui::Button(exporting.cancel_requested ? "Cancelling…" : "Cancel (Escape)") ||
        imgui_compat::key_pressed(keys::kEscape, false))
        exporting.cancel_requested = true;
}

// The choices, and Export.
void choices(ExportState& exporting, const ExportSequence& sequence) {
    ExportChoice& choice = exporting.choice;
    const float font = ImGui::GetFontSize();

    ImGui::TextUnformatted("Size");
    for (const ExportSize& size : kExportSizes) {
        ImGui::SameLine();
        const std::string label = format_text("{} × {}", size.width, size.height);
        if (ImGui::RadioButton(label.c_str(), choice.width == size.width && choice.height == size.height)) {
            choice.width = size.width;
            choice.height = size.height;
        }
    }
    ImGui::TextUnformatted("Text");
    ImGui::SameLine();
    if (ImGui::RadioButton("1×", !choice.presenter)) choice.presenter = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("presenter 2×", choice.presenter)) choice.presenter = true;
    ImGui::SetNextItemWidth(font * 10.0f);
    float seconds = static_cast<float>(choice.seconds_per_frame);
    if (ImGui::SliderFloat("seconds per frame", &seconds, 0.1f, 5.0f, "%.1f s"))
        choice.seconds_per_frame = std::clamp(static_cast<double>(seconds), 0.1, 5.0);

    // The format follows the path's extension; choosing one here rewrites it.
    const auto parsed = exporting::format_of_path(path_text(exporting));
    const AnimationFormat* format = std::get_if<AnimationFormat>(&parsed);
    ImGui::SetNextItemWidth(font * 10.0f);
    if (ImGui::BeginCombo("format", format ? std::string(exporting::format_name(*format)).c_str() : "?")) {
        for (const AnimationFormat f : kFormats) {
            const auto& why = why_unavailable_cached(f);
            ImGui::BeginDisabled(why.has_value());
            if (ImGui::Selectable(std::string(exporting::format_name(f)).c_str(), format && *format == f))
                set_path_text(exporting, with_extension(path_text(exporting), f));
            ImGui::EndDisabled();
            if (why && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why->c_str());
        }
        ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(font * 24.0f);
    ImGui::InputText("file", exporting.path_text.data(), exporting.path_text.size());
    if (format && *format == AnimationFormat::PngSeries)
        muted_text("A PNG series is written as NAME-0001.png, NAME-0002.png, … beside the name given.");

    ImGui::Spacing();
    ImGui::TextWrapped("%s", format_text("{} frames of {} × {}, each held {} ({} in all).", sequence.frames, choice.width,
                                         choice.height, duration_text(choice.seconds_per_frame),
                                         duration_text(choice.seconds_per_frame * sequence.frames))
                                 .c_str());
    std::optional<std::string> why_not;
    if (!format) why_not = std::get<std::string>(parsed);
    else if (const auto& why = why_unavailable_cached(*format)) why_not = *why;
    if (why_not) coloured_text_wrapped(colours::kError, why_not->c_str());

    ImGui::BeginDisabled(why_not.has_value());
    // Enter exports too, while no text field has the keys (the window just opened has them).
    const bool enter = !ImGui::GetIO().WantTextInput && ImGui::IsWindowFocused() &&
                       (imgui_compat::key_pressed(keys::kEnter, false) || imgui_compat::key_pressed(keys::kKeypadEnter, false));
    if ((ImGui::Button("Export (Enter)") || enter) && !why_not) {
        choice.path = path_text(exporting);
        exporting.start_requested = true;
        exporting.outcome.clear();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Close")) exporting.dialog_open = false;
}

}  // namespace

void open_export_dialog(ExportState& exporting, const AppState& app, ExportSubject subject) {
    const bool same_subject = exporting.subject == subject && exporting.path_text[0] != '\0';
    exporting.subject = subject;
    exporting.dialog_open = true;
    exporting.focus = true;
    exporting.outcome.clear();
    if (same_subject) return;  // keeps the file and format chosen last time
    const auto sequence = export_sequence(app, subject);
    const std::string stem = "tilescope-" + (std::holds_alternative<ExportSequence>(sequence)
                                                 ? std::get<ExportSequence>(sequence).file_stem
                                                 : std::string("animation"));
    set_path_text(exporting, stem + ".gif");
    // At a projector, the picture the room sees.
    exporting.choice.presenter = app.presentation.presenter;
}

void draw_export_button(ExportState& exporting, const AppState& app, ExportSubject subject) {
    // The exported frames show the view, not the means of exporting it.
    if (exporting.capturing) return;
    const auto sequence = export_sequence(app, subject);
    const std::string* why_not = std::get_if<std::string>(&sequence);
    ImGui::BeginDisabled(why_not != nullptr || exporting.running);
    if (ImGui::Button("Export animation…")) open_export_dialog(exporting, app, subject);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", why_not ? ("Nothing to export: " + *why_not).c_str()
                                        : "An animated GIF or WebP, a PNG series, or a video, one frame per step, "
                                          "drawn offscreen at the size you choose");
}

void draw_export_dialog(ExportState& exporting, const AppState& app) {
    if (!exporting.dialog_open || exporting.capturing) return;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                   viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (exporting.focus) ImGui::SetNextWindowFocus();
    exporting.focus = false;
    bool open = true;
    if (!ImGui::Begin("Export animation", exporting.running ? nullptr : &open,
                      ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::End();
        return;
    }
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    const auto sequence = export_sequence(app, exporting.subject);
    if (const auto* why = std::get_if<std::string>(&sequence)) {
        coloured_text_wrapped(colours::kError, ("Nothing to export: " + *why).c_str());
        if (ImGui::Button("Close")) open = false;
    } else {
        ImGui::TextWrapped("%s", std::get<ExportSequence>(sequence).what.c_str());
        ImGui::Spacing();
        if (exporting.running) progress(exporting);
        else choices(exporting, std::get<ExportSequence>(sequence));
    }
    if (!exporting.outcome.empty())
        coloured_text_wrapped(exporting.outcome_failed ? colours::kError : colours::kPass, exporting.outcome.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
    if (!open) exporting.dialog_open = false;
}

}  // namespace ts::views
