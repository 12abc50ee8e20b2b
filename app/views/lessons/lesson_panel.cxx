#include "views/lessons/lesson_panel.hpp"

#include "views/export/export_dialog.hpp"

#include <algorithm>
#include <cstdlib>

#include "views/lessons/lesson_answers.hpp"
#include "views/lessons/lesson_state.hpp"
#include "views/window/shortcuts.hpp"
#include "model/format.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

bool key_pressed(Key key) { return imgui_compat::key_pressed(key); }

bool enter_pressed() { return key_pressed(keys::kEnter) || key_pressed(keys::kKeypadEnter); }

void open_list(LessonProgress& progress) {
    // Read afresh each time, so a lesson file edited during a class shows its new state.
    progress.list = list_lessons();
    progress.list_open = true;
    progress.list_cursor = 0;
    for (int i = 0; i < static_cast<int>(progress.list.size()); ++i)
        if (progress.lesson && progress.list[i].name == progress.lesson->name) progress.list_cursor = i;
}

// The lesson at `index` of the list, read and checked, is asked for (handle_lesson_keys opens it).
void choose_from_list(LessonProgress& progress, int index) {
    if (index < 0 || index >= static_cast<int>(progress.list.size())) return;
    const LessonListEntry& entry = progress.list[index];
    if (!entry.error.empty()) return;  // listed so its author sees why; it cannot be opened
    auto loaded = load_lesson(entry.file);
    progress.list_open = false;
    if (auto* lesson = std::get_if<lessons::Lesson>(&loaded))
        progress.asked_lesson = std::move(*lesson);
    else
        progress.error = std::get<lessons::LessonError>(loaded).text();
}

std::optional<double> typed_guess(const LessonProgress& progress) {
    const char* text = progress.guess.data();
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text) return std::nullopt;
    return value;
}

const lessons::Step* current_step(const LessonProgress& progress) {
    if (!progress.lesson || progress.step < 0) return nullptr;
    return &progress.lesson->steps[progress.step];
}

void draw_prediction(LessonProgress& progress, const AppState& app, const lessons::Step& step) {
    // "Predict:" in the heading font on the question's first line: no line of its own.
    ImGui::PushFont(heading_font());
    ImGui::TextUnformatted("Predict:");
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextWrapped("%s", step.predict.c_str());
    if (!progress.revealed) {
        if (progress.focus_guess) {
            ImGui::SetKeyboardFocusHere();
            progress.focus_guess = false;
        }
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
        constexpr ImGuiInputTextFlags kFlags =
            ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_EnterReturnsTrue;
        if (ImGui::InputTextWithHint("##guess", "your guess", progress.guess.data(), progress.guess.size(), kFlags))
            progress.revealed = true;
        const char* reveal = "Reveal (Enter)";
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(reveal).x + ImGui::GetStyle().FramePadding.x * 2)
            ImGui::NewLine();
        if (ImGui::Button(reveal)) progress.revealed = true;
        return;
    }
    const RevealedAnswer answer = compute_answer(app, *step.answer);
    ImGui::PushFont(heading_font());
    ImGui::TextUnformatted(format_text("Answer: {}", answer.shown).c_str());
    ImGui::PopFont();
    const auto guess = typed_guess(progress);
    if (guess && answer.value)
        ImGui::TextWrapped("Your guess, %s: %s.", progress.guess.data(), judge_guess(*guess, *answer.value).c_str());
    else if (!guess)
        ImGui::TextUnformatted("No guess typed.");
    muted_text(answer.how);
}

void draw_step(LessonProgress& progress, ExportState& exporting, const AppState& app) {
    const lessons::Lesson& lesson = *progress.lesson;
    const lessons::Step& step = lesson.steps[progress.step];
    const int count = static_cast<int>(lesson.steps.size());

    // The lesson's name small, then the step's title large, the buttons, the text and the
    // question, one under the other: the card is as narrow as the column it sits in.
    muted_text(format_text("Lesson: {} · step {} of {}", lesson.title, progress.step + 1, count));
    ImGui::PushFont(heading_font());
    ImGui::PushStyleColor(ImGuiCol_Text, colours::kA.text);
    ImGui::TextWrapped("%s", step.title.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();

    // The buttons on one row; their key hints go when the column is too narrow for them.
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* with_keys[] = {"< Previous (PgUp)", "Next (PgDn) >", "Close lesson"};
    const char* without_keys[] = {"< Previous", "Next >", "Close"};
    float width = 0.0f;
    for (const char* label : with_keys) width += ImGui::CalcTextSize(label).x + style.FramePadding.x * 2;
    width += 2 * style.ItemSpacing.x;
    const char* const* labels = width <= ImGui::GetContentRegionAvail().x ? with_keys : without_keys;
    ImGui::BeginDisabled(progress.step == 0);
    if (ImGui::Button(labels[0])) progress.asked_step = progress.step - 1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(progress.step + 1 >= count);
    if (ImGui::Button(labels[1])) progress.asked_step = progress.step + 1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(labels[2])) {
        close_lesson(progress);
        return;
    }
    ImGui::Spacing();

    ImGui::TextWrapped("%s", step.text.c_str());
    if (!step.predict.empty()) {
        ImGui::Spacing();
        ImGui::Separator();
        draw_prediction(progress, app, step);
    }
    if (progress.step + 1 == count) muted_text("The last step. Ctrl+L opens the list of lessons.");
    draw_export_button(exporting, app, ExportSubject::Lesson);
}

void draw_error(LessonProgress& progress) {
    coloured_text_wrapped(colours::kError, format_text("Could not open the lesson: {}", progress.error).c_str());
    if (ImGui::Button("Dismiss")) progress.error.clear();
    ImGui::SameLine();
    if (ImGui::Button("Lessons (Ctrl+L)")) open_list(progress);
}

void draw_list(LessonProgress& progress) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(viewport->WorkSize.x * 0.45f, 0.0f),
                                        ImVec2(viewport->WorkSize.x * 0.8f, viewport->WorkSize.y * 0.8f));
    ImGui::SetNextWindowFocus();
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove;
    ImGui::PushStyleColor(ImGuiCol_WindowBg, kLessonBand);
    bool open = true;
    ImGui::Begin("Lessons", &open, kFlags);
    ImGui::TextUnformatted("Up and Down choose, Enter opens, Escape closes.");
    muted_text(format_text("From {}", lessons::lessons_dir().string()));
    ImGui::Separator();
    if (progress.list.empty()) muted_text("No lesson files (*.lesson) were found there.");
    for (int i = 0; i < static_cast<int>(progress.list.size()); ++i) {
        const LessonListEntry& entry = progress.list[i];
        ImGui::PushID(i);
        if (entry.error.empty()) {
            const std::string label = format_text("{}. {}  ({})", i + 1, entry.title, entry.name);
            if (ImGui::Selectable(label.c_str(), i == progress.list_cursor)) choose_from_list(progress, i);
            if (i == progress.list_cursor) ImGui::SetScrollHereY();
        } else {
            coloured_text_wrapped(colours::kError, format_text("{}. {} (skipped): {}", i + 1, entry.name, entry.error).c_str());
        }
        ImGui::PopID();
    }
    if (progress.list_cursor < static_cast<int>(progress.list.size())) {
        ImGui::Separator();
        muted_text(progress.list[progress.list_cursor].summary);
    }
    ImGui::End();
    ImGui::PopStyleColor();
    if (!open) progress.list_open = false;
}

}  // namespace

// The whole state: a lesson step sets up the window (apply_lesson_step), whether a key or a
// button of the card or the list asked for it.
void handle_lesson_keys(AppState& state) {
    LessonProgress& progress = state.lesson;
    // What the card's and the list's buttons asked for in the last frame, or Enter in the list now.
    const auto take_what_was_asked = [&] {
        if (progress.asked_lesson) {
            lessons::Lesson lesson = std::move(*progress.asked_lesson);
            progress.asked_lesson.reset();
            open_lesson(state, std::move(lesson));
        }
        if (progress.asked_step) {
            const int index = *progress.asked_step;
            progress.asked_step.reset();
            go_to_lesson_step(state, index);
        }
    };
    take_what_was_asked();
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && imgui_compat::key_pressed(keys::kL, false)) {
        if (progress.list_open)
            progress.list_open = false;
        else
            open_list(progress);
        return;
    }
    if (progress.list_open) {
        const int count = static_cast<int>(progress.list.size());
        if (key_pressed(keys::kEscape)) progress.list_open = false;
        if (count > 0 && key_pressed(keys::kDown)) progress.list_cursor = (progress.list_cursor + 1) % count;
        if (count > 0 && key_pressed(keys::kUp)) progress.list_cursor = (progress.list_cursor + count - 1) % count;
        if (enter_pressed()) {
            choose_from_list(progress, progress.list_cursor);
            take_what_was_asked();
        }
        return;
    }
    if (!progress.lesson) return;
    // Clickers send PageDown and PageUp whatever has the keyboard, so these always work.
    if (key_pressed(keys::kPageDown)) go_to_lesson_step(state, progress.step + 1);
    if (key_pressed(keys::kPageUp)) go_to_lesson_step(state, progress.step - 1);
    // A field being typed in takes its own Enter (the guess field reveals through it).
    const lessons::Step* step = current_step(progress);
    if (step && !step->predict.empty() && !io.WantTextInput && enter_pressed()) progress.revealed = true;
}

void draw_lessons_button(LessonProgress& progress) {
    // The key hint goes when the row of view buttons has no room for it (large fonts).
    const char* label = "Lessons (Ctrl+L)";
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2)
        label = "Lessons";
    if (ImGui::Button(label)) open_list(progress);
}

void draw_lesson_panel(LessonProgress& progress, ExportState& exporting, const AppState& app, float share) {
    if (!progress.lesson && progress.error.empty()) return;
    // Sized by the last frame's content, within `share` of the column (70 %, so that the view's
    // own panel keeps a few lines below it); a longer step scrolls.
    const float most = ImGui::GetContentRegionAvail().y * share;
    const float height = std::clamp(progress.panel_height, ImGui::GetFrameHeightWithSpacing() * 2.0f, most);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, kLessonBand);
    // A scrollbar only when the step is longer than the card may be: one that came and went
    // would change where the text wraps, and so the height it was measured at.
    const ImGuiWindowFlags flags = progress.panel_height <= most ? ImGuiWindowFlags_NoScrollbar : 0;
    ImGui::BeginChild("##lesson", ImVec2(0.0f, height), true, flags);
    if (progress.top_frames > 0) {
        ImGui::SetScrollY(0.0f);
        --progress.top_frames;
    }
    if (progress.lesson)
        draw_step(progress, exporting, app);
    else
        draw_error(progress);
    progress.panel_height = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

void draw_lesson_list(LessonProgress& progress) {
    if (progress.list_open) draw_list(progress);
}

}  // namespace ts::views
