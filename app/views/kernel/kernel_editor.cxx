#include "views/kernel/kernel_editor.hpp"

#include <algorithm>
#include <cstdio>

#include "views/common/theme.hpp"

namespace ts::views {

namespace {

struct EditContext {
    std::string* text = nullptr;
    int jump_offset = -1;  // ≥ 0: put the cursor here this frame
    bool jumped = false;
    int cursor = -1;       // where the cursor is, while the field is active
};

int edit_callback(ImGuiInputTextCallbackData* data) {
    auto* context = static_cast<EditContext*>(data->UserData);
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        // ImGui asks for room: grow the string and hand its buffer back.
        context->text->resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = context->text->data();
        return 0;
    }
    if (data->EventFlag == ImGuiInputTextFlags_CallbackAlways) {
        if (context->jump_offset >= 0) {
            data->CursorPos = data->SelectionStart = data->SelectionEnd =
                std::min(context->jump_offset, data->BufTextLen);
            context->jumped = true;
        }
        context->cursor = data->CursorPos;
    }
    return 0;
}

struct TextShape {
    int lines = 1;
    int widest = 0;  // characters (UTF-8 sequences) of the longest line
};

TextShape shape_of(const std::string& text) {
    TextShape shape;
    int width = 0;
    for (const char c : text) {
        if (c == '\n') {
            shape.widest = std::max(shape.widest, width);
            width = 0;
            ++shape.lines;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            width += c == '\t' ? 4 : 1;
        }
    }
    shape.widest = std::max(shape.widest, width);
    return shape;
}

int line_of_offset(const std::string& text, int offset) {
    const auto end = text.begin() + std::clamp(offset, 0, static_cast<int>(text.size()));
    return 1 + static_cast<int>(std::count(text.begin(), end, '\n'));
}

}  // namespace

bool input_string(const char* label, std::string& text, ImGuiInputTextFlags flags) {
    EditContext context{&text};
    return ImGui::InputText(label, text.data(), text.capacity() + 1, flags | ImGuiInputTextFlags_CallbackResize,
                            edit_callback, &context);
}

int line_start_offset(const std::string& text, int line) {
    std::size_t at = 0;
    for (int l = 1; l < line; ++l) {
        const std::size_t newline = text.find('\n', at);
        if (newline == std::string::npos) return static_cast<int>(text.size());
        at = newline + 1;
    }
    return static_cast<int>(at);
}

bool draw_kernel_editor(KernelEditorState& state, ImVec2 size) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(colours::kBackground));
    ImGui::BeginChild("##kernel_editor", size, true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(code_font());
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line_height = ImGui::GetTextLineHeight();
    const float char_width = ImGui::CalcTextSize("0").x;
    const TextShape shape = shape_of(state.source);
    const float gutter = char_width * (shape.lines >= 1000 ? 6.0f : 5.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float text_top = origin.y + style.FramePadding.y;
    const float field_width = std::max(ImGui::GetContentRegionAvail().x - gutter,
                                       char_width * static_cast<float>(shape.widest + 4) + 2.0f * style.FramePadding.x);
    // One line more than the text holds: a new line typed at the end has its room before the next frame.
    const float field_height = line_height * static_cast<float>(shape.lines + 1) + 2.0f * style.FramePadding.y;

    // Under the text, first: the line numbers and the tints of the lines the compiler spoke of.
    // The field's own background is cleared below so they show through.
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 clip_min = ImGui::GetWindowPos();
    const float visible_top = clip_min.y, visible_bottom = clip_min.y + ImGui::GetWindowHeight();
    const int first = std::max(0, static_cast<int>((visible_top - text_top) / line_height));
    const int last = std::min(shape.lines - 1, static_cast<int>((visible_bottom - text_top) / line_height) + 1);
    const bool stale = state.compiled_revision != state.revision;
    for (int i = first; i <= last; ++i) {
        const float y = text_top + line_height * static_cast<float>(i);
        // The compiler's word first; else what the last trace found there (a race, a conflict).
        std::optional<model::Severity> severity = worst_on_line(state, i + 1);
        if (!severity) severity = recorded_on_line(state, i + 1);
        if (severity) {
            const ImU32 colour = *severity == model::Severity::Error ? colours::kError : colours::kWarning;
            // Faint once the text has changed since that compile: the line may have moved.
            draw->AddRectFilled(ImVec2(origin.x + gutter, y), ImVec2(origin.x + gutter + field_width, y + line_height),
                                with_alpha(colour, stale ? 18 : 40));
            draw->AddRectFilled(ImVec2(origin.x, y), ImVec2(origin.x + char_width * 0.6f, y + line_height),
                                with_alpha(colour, stale ? 110 : 255));
        }
        char number[16];
        std::snprintf(number, sizeof number, "%d", i + 1);
        const float width = ImGui::CalcTextSize(number).x;
        draw->AddText(ImVec2(origin.x + gutter - width - char_width, y), colours::kMuted, number);
    }

    EditContext context{&state.source};
    if (state.jump_to_line) {
        context.jump_offset = line_start_offset(state.source, *state.jump_to_line);
        // Once: the line scrolled into view, and the field below asked to take the keys, so that on
        // a later frame, active, it takes the cursor. ImGui 1.86 does; 1.90 gives the keys to the
        // field's own child window instead and the field never calls back: after a few frames the
        // jump ends there, the line in view.
        if (!state.jump_focused) {
            ImGui::SetKeyboardFocusHere(0);
            ImGui::SetScrollY(std::max(0.0f, line_height * static_cast<float>(*state.jump_to_line - 4)));
            state.jump_focused = true;
            state.jump_frames = 0;
        } else if (++state.jump_frames > 3) {
            state.jump_to_line.reset();
            state.jump_focused = false;
            context.jump_offset = -1;
        }
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x + gutter, origin.y));
    ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
    const bool changed = ImGui::InputTextMultiline(
        "##source", state.source.data(), state.source.capacity() + 1, ImVec2(field_width, field_height),
        ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_CallbackAlways,
        edit_callback, &context);
    ImGui::PopStyleColor();
    // The jump is done once the field, now active, has taken the cursor (the frame after the focus).
    if (context.jumped) {
        state.jump_to_line.reset();
        state.jump_focused = false;
    }

    // Follow the cursor: a line typed below the visible part scrolls into view.
    if (context.cursor >= 0 && context.cursor != state.followed_cursor && !state.jump_to_line) {
        state.followed_cursor = context.cursor;
        const float y = line_height * static_cast<float>(line_of_offset(state.source, context.cursor) - 1);
        const float scroll = ImGui::GetScrollY(), visible = ImGui::GetWindowHeight() - 2.0f * line_height;
        if (y < scroll) ImGui::SetScrollY(y);
        else if (y > scroll + visible) ImGui::SetScrollY(y - visible);
    }
    ImGui::PopFont();
    ImGui::EndChild();
    ImGui::PopStyleColor();
    if (changed) source_changed(state);
    return changed;
}

}  // namespace ts::views
