// --keys: names to GLFW key presses, as the GLFW backend would report them.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "platform/key_names.hpp"

namespace {

using ts::platform::KeyPress;
using ts::platform::parse_key_list;

std::vector<KeyPress> keys(const std::string& list) {
    auto parsed = parse_key_list(list);
    if (auto* why = std::get_if<std::string>(&parsed)) {
        ADD_FAILURE() << *why;
        return {};
    }
    return std::get<std::vector<KeyPress>>(parsed);
}

std::string key_list_error(const std::string& list) {
    auto parsed = parse_key_list(list);
    if (auto* why = std::get_if<std::string>(&parsed)) return *why;
    return "(parsed)";
}

TEST(KeyNames, TheIssuesExample) {
    const std::vector<KeyPress> expected{{GLFW_KEY_F11, 0, 0},
                                         {GLFW_KEY_2, GLFW_MOD_CONTROL, 0},
                                         {GLFW_KEY_PAGE_DOWN, 0, 0},
                                         {GLFW_KEY_RIGHT, GLFW_MOD_SHIFT, 0},
                                         {GLFW_KEY_F1, 0, 0}};
    EXPECT_EQ(keys("F11,ctrl+2,PageDown,shift+Right,F1"), expected);
}

TEST(KeyNames, CaseAndSpacesDoNotMatter) {
    EXPECT_EQ(keys(" pagedown , CTRL+L ,Shift+ALT+left"),
              (std::vector<KeyPress>{{GLFW_KEY_PAGE_DOWN, 0, 0},
                                     {GLFW_KEY_L, GLFW_MOD_CONTROL, 0},
                                     {GLFW_KEY_LEFT, GLFW_MOD_SHIFT | GLFW_MOD_ALT, 0}}));
}

TEST(KeyNames, TypedCharactersComeWithTheirKeys) {
    // GLFW reports text only without Ctrl and Alt; '?' and '+' need Shift on a US keyboard.
    EXPECT_EQ(keys("?"), (std::vector<KeyPress>{{GLFW_KEY_SLASH, GLFW_MOD_SHIFT, '?'}}));
    EXPECT_EQ(keys("+"), (std::vector<KeyPress>{{GLFW_KEY_EQUAL, GLFW_MOD_SHIFT, '+'}}));
    EXPECT_EQ(keys("ctrl++"), (std::vector<KeyPress>{{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT, 0}}));
    EXPECT_EQ(keys("ctrl+="), (std::vector<KeyPress>{{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL, 0}}));
    EXPECT_EQ(keys("-,a,shift+a,space"), (std::vector<KeyPress>{{GLFW_KEY_MINUS, 0, '-'},
                                                                {GLFW_KEY_A, 0, 'a'},
                                                                {GLFW_KEY_A, GLFW_MOD_SHIFT, 'A'},
                                                                {GLFW_KEY_SPACE, 0, ' '}}));
    EXPECT_EQ(keys("Enter,Esc,Return,Escape,Tab,Home,End,F5,F12"),
              (std::vector<KeyPress>{{GLFW_KEY_ENTER, 0, 0},
                                     {GLFW_KEY_ESCAPE, 0, 0},
                                     {GLFW_KEY_ENTER, 0, 0},
                                     {GLFW_KEY_ESCAPE, 0, 0},
                                     {GLFW_KEY_TAB, 0, 0},
                                     {GLFW_KEY_HOME, 0, 0},
                                     {GLFW_KEY_END, 0, 0},
                                     {GLFW_KEY_F5, 0, 0},
                                     {GLFW_KEY_F12, 0, 0}}));
}

TEST(KeyNames, UnknownNamesAreClearErrors) {
    const std::string known =
        "; known: F1-F12, PageUp, PageDown, Home, End, Left, Right, Up, Down, Enter, Escape, Space, Tab, Backspace, "
        "Delete, Insert, A-Z, 0-9, =, -, +, ?, with ctrl+, shift+ or alt+ before them";
    EXPECT_EQ(key_list_error("F1,Hyper"), "--keys: unknown key \"Hyper\"" + known);
    EXPECT_EQ(key_list_error("F13"), "--keys: unknown key \"F13\"" + known);
    EXPECT_EQ(key_list_error("F0"), "--keys: unknown key \"F0\"" + known);
    EXPECT_EQ(key_list_error("ctrl+"), "--keys: unknown key \"ctrl+\"" + known);
    EXPECT_EQ(key_list_error("F1,,F2"), "--keys: an empty name between commas");
    EXPECT_EQ(key_list_error(""), "--keys: no keys given; e.g. --keys \"F11,ctrl+2,PageDown\"");
}

}  // namespace
