// settings_text.hpp — what the settings parser says of a text, for the settings tests.
#pragma once

#include <string>
#include <variant>

#include "settings/settings.hpp"

namespace ts::testing_support {

// The message parse() gives for `text` in a file called "s.ini", or "(parsed)".
inline std::string settings_error(const std::string& text) {
    const auto parsed = settings::parse(text, "s.ini");
    if (const auto* why = std::get_if<std::string>(&parsed)) return *why;
    return "(parsed)";
}

}  // namespace ts::testing_support
