#include "key_names.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>

namespace ts::platform {

namespace {

struct Named {
    std::string_view name;
    int key;
    unsigned character;  // typed without Shift; 0: none
    unsigned shifted;    // typed with Shift (US layout); 0: none
};

constexpr Named kNamed[] = {
    {"pageup", GLFW_KEY_PAGE_UP, 0, 0},   {"pagedown", GLFW_KEY_PAGE_DOWN, 0, 0},
    {"home", GLFW_KEY_HOME, 0, 0},        {"end", GLFW_KEY_END, 0, 0},
    {"left", GLFW_KEY_LEFT, 0, 0},        {"right", GLFW_KEY_RIGHT, 0, 0},
    {"up", GLFW_KEY_UP, 0, 0},            {"down", GLFW_KEY_DOWN, 0, 0},
    {"enter", GLFW_KEY_ENTER, 0, 0},      {"escape", GLFW_KEY_ESCAPE, 0, 0},
    {"space", GLFW_KEY_SPACE, ' ', ' '},  {"tab", GLFW_KEY_TAB, 0, 0},
    {"backspace", GLFW_KEY_BACKSPACE, 0, 0}, {"delete", GLFW_KEY_DELETE, 0, 0},
    {"insert", GLFW_KEY_INSERT, 0, 0},    {"=", GLFW_KEY_EQUAL, '=', '+'},
    {"-", GLFW_KEY_MINUS, '-', '_'},      {"/", GLFW_KEY_SLASH, '/', '?'},
};

constexpr std::string_view kKnown =
    "F1-F12, PageUp, PageDown, Home, End, Left, Right, Up, Down, Enter, Escape, Space, Tab, Backspace, "
    "Delete, Insert, A-Z, 0-9, =, -, +, ?, with ctrl+, shift+ or alt+ before them";

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// One press; its character follows GLFW, which reports none while Ctrl or Alt is held.
std::variant<KeyPress, std::string> parse_one(std::string_view text) {
    const std::string original(trim(text));
    std::string name = lower(original);
    KeyPress press;
    for (bool prefix = true; prefix;) {
        prefix = false;
        for (const auto& [word, mod] : {std::pair{std::string_view("ctrl+"), GLFW_MOD_CONTROL},
                                        std::pair{std::string_view("shift+"), GLFW_MOD_SHIFT},
                                        std::pair{std::string_view("alt+"), GLFW_MOD_ALT}})
            if (name.size() > word.size() && name.starts_with(word)) {
                press.mods |= mod;
                name.erase(0, word.size());
                prefix = true;
            }
    }
    const bool shift = press.mods & GLFW_MOD_SHIFT;
    unsigned character = 0;
    if (name == "+" || name == "?") {  // typed with Shift on a US keyboard
        press.key = name == "+" ? GLFW_KEY_EQUAL : GLFW_KEY_SLASH;
        press.mods |= GLFW_MOD_SHIFT;
        character = name == "+" ? '+' : '?';
    } else if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') {
        press.key = GLFW_KEY_A + (name[0] - 'a');
        character = shift ? std::toupper(name[0]) : name[0];
    } else if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') {
        press.key = GLFW_KEY_0 + (name[0] - '0');
        character = shift ? 0 : name[0];
    } else if (name.size() >= 2 && name[0] == 'f' && std::all_of(name.begin() + 1, name.end(), ::isdigit) &&
               name.size() <= 3 && std::stoi(name.substr(1)) >= 1 && std::stoi(name.substr(1)) <= 12) {
        press.key = GLFW_KEY_F1 + std::stoi(name.substr(1)) - 1;
    } else if (name == "return" || name == "esc") {
        press.key = name == "return" ? GLFW_KEY_ENTER : GLFW_KEY_ESCAPE;
    } else {
        const auto named = std::find_if(std::begin(kNamed), std::end(kNamed), [&](const Named& n) { return n.name == name; });
        if (named == std::end(kNamed))
            return "--keys: unknown key \"" + original + "\"; known: " + std::string(kKnown);
        press.key = named->key;
        character = shift ? named->shifted : named->character;
    }
    if (!(press.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT))) press.character = character;
    return press;
}

}  // namespace

std::variant<std::vector<KeyPress>, std::string> parse_key_list(std::string_view list) {
    std::vector<KeyPress> presses;
    if (trim(list).empty()) return std::string("--keys: no keys given; e.g. --keys \"F11,ctrl+2,PageDown\"");
    while (true) {
        const std::size_t comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        if (trim(item).empty()) return std::string("--keys: an empty name between commas");
        auto one = parse_one(item);
        if (auto* why = std::get_if<std::string>(&one)) return *why;
        presses.push_back(std::get<KeyPress>(one));
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return presses;
}

}  // namespace ts::platform
