// text.hpp — small text helpers shared by the panels.
#pragma once

#include <cstdint>
#include <string>

namespace ts::views {

// 8589934592 → "8,589,934,592": long counts are read aloud in class, so group the digits.
std::string grouped(std::int64_t value);

// Wrapped text in the muted colour: explanations that support the main numbers.
void muted_text(const std::string& text);

}  // namespace ts::views
