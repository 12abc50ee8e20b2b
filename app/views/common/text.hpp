// text.hpp — small text helpers shared by the panels.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

struct ImFont;

namespace ts::views {

// 8589934592 → "8,589,934,592": long counts are read aloud in class, so group the digits.
std::string grouped(std::int64_t value);

// Wrapped text in the muted colour: explanations that support the main numbers.
void muted_text(const std::string& text);

// Whether words `height` tall go here: yes where they leave what follows them in this window at
// least `keep` of the window's height; otherwise (large text on a small screen) they fold under a
// line reading `fold`, drawn here, and go only once someone opens it (a presenter, while talking
// the picture through).
bool room_or_unfolded(float height, const char* fold, float keep = 0.6f);

// muted_text, folding under `fold` as room_or_unfolded says.
void folding_muted_text(const std::string& text, const char* fold, float keep = 0.6f);

// The width `text` takes in `font` at the font's own size, in pixels.
float text_width(ImFont* font, const std::string& text);

// The first of `forms` (longest first) no wider than `width` in `font`; none where none is.
std::optional<std::string> first_fitting(std::initializer_list<std::string> forms, ImFont* font, float width);

// PushTextWrapPos at a screen x: ImGui takes the window's own coordinates, not the screen's, so a
// screen position given as it is wraps as far right again as the window is from the screen's edge.
void push_wrap_at_screen_x(float x);

}  // namespace ts::views
