// text.hpp — small text helpers shared by the panels.
#pragma once

#include <cstdint>
#include <string>

struct ImFont;

namespace ts::views {

// 8589934592 → "8,589,934,592": long counts are read aloud in class, so group the digits.
std::string grouped(std::int64_t value);

// Wrapped text in the muted colour: explanations that support the main numbers.
void muted_text(const std::string& text);

// muted_text, unless it would leave what follows it in this window less than `keep` of the
// window's height (large text on a small screen): then it folds under a line reading `fold`, for
// the presenter to open while talking the picture through.
void folding_muted_text(const std::string& text, const char* fold, float keep = 0.6f);

// The width `text` takes in `font` at the font's own size, in pixels.
float text_width(ImFont* font, const std::string& text);

}  // namespace ts::views
