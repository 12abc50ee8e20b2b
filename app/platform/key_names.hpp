// key_names.hpp — key presses by name, for --keys: "F11,ctrl+2,PageDown,shift+Right,F1".
// Plain C++ on GLFW's key codes (its header only), so the parsing has cpu tests.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ts::platform {

struct KeyPress {
    int key = 0;             // GLFW_KEY_*
    int mods = 0;            // GLFW_MOD_CONTROL | GLFW_MOD_SHIFT | GLFW_MOD_ALT
    unsigned character = 0;  // what GLFW would also report as typed text; 0: nothing
    bool operator==(const KeyPress&) const = default;
};

// Names are case-insensitive: F1–F12, PageUp, PageDown, Home, End, Left, Right, Up, Down,
// Enter, Escape, Space, Tab, Backspace, Delete, Insert, A–Z, 0–9, "=", "-", "+", "?", each
// with any of the prefixes ctrl+, shift+ and alt+; separated by commas. Returns the presses,
// or what is wrong with the list (naming the key names it knows).
std::variant<std::vector<KeyPress>, std::string> parse_key_list(std::string_view list);

}  // namespace ts::platform
