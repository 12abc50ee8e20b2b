// Presenter mode without a window: the key list shows every row of the shortcut table, the
// palettes switch what colours:: reads, and the table's keys act on the state when pressed
// as a backend reports them (imgui_compat: by GLFW key code on ImGui 1.86, key events later).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "imgui_harness.hpp"
#include "support/app_states.hpp"
#include "views/window/help_overlay.hpp"
#include "views/window/main_view.hpp"
#include "views/window/shortcuts.hpp"
#include "views/common/theme.hpp"

namespace {

using ts::settings::Palette;
using ts::views::AppState;
using ts::views::ViewId;
namespace keys = ts::views::keys;

struct Modifiers {
    bool ctrl = false, shift = false, alt = false;
};

// One frame of `body` with `key` down (pressed this frame), then one with it up again.
void press(ts::test::ImGuiHarness& harness, ts::imgui_compat::Key key, Modifiers mods,
           const std::function<void()>& body) {
    ImGuiIO& io = ImGui::GetIO();
    ts::imgui_compat::set_modifiers(io, mods.ctrl, mods.shift, mods.alt);
    ts::imgui_compat::set_key_down(io, key, true);
    harness.bare_frame(body);
    ts::imgui_compat::set_key_down(io, key, false);
    ts::imgui_compat::set_modifiers(io, false, false, false);
    harness.bare_frame(body);
}

TEST(HelpOverlay, ListsEveryShortcutOfTheTable) {
    ts::test::ImGuiHarness harness;
    AppState state = ts::testing_support::state_for(12, 16, 8, 4);
    state.presentation.help_open = true;
    const std::string text = harness.frame([&] { ts::views::draw_help_overlay(state.presentation); });
    ASSERT_FALSE(ts::views::shortcuts().empty());
    std::set<std::string> places;
    for (const ts::views::Shortcut& s : ts::views::shortcuts()) {
        EXPECT_NE(text.find(s.keys), std::string::npos) << "keys missing: " << s.keys;
        EXPECT_NE(text.find(s.does), std::string::npos) << "action missing: " << s.does;
        places.insert(s.where);
    }
    for (const std::string& where : places) EXPECT_NE(text.find(where), std::string::npos) << where;
    // The keys other parts handle are listed too: the lesson keys and the theatre's.
    for (const char* word : {"PageDown", "PageUp", "Enter", "Ctrl+L", "Escape", "Space", "Home  End", "F11"})
        EXPECT_NE(text.find(word), std::string::npos) << word;
}

TEST(HelpOverlay, ClosedDrawsNothing) {
    ts::test::ImGuiHarness harness;
    AppState state;
    EXPECT_EQ(harness.frame([&] { ts::views::draw_help_overlay(state.presentation); }).find("F11"), std::string::npos);
}

TEST(Shortcuts, EveryChordBelongsToOneAction) {
    // Two rows answering the same press would both act on it.
    std::set<std::tuple<int, int, bool, bool, bool>> seen;
    for (const ts::views::Shortcut& s : ts::views::shortcuts())
        for (const ts::views::Chord& c : s.chords) {
            if (!c.used()) continue;
            EXPECT_NE(s.command, ts::views::Command::None) << s.keys << " has keys but no action";
            EXPECT_TRUE(seen.insert({c.key, c.character, c.ctrl, c.shift, c.alt}).second) << s.keys;
        }
}

TEST(Shortcuts, F1OpensTheListAndEscapeClosesIt) {
    ts::test::ImGuiHarness harness;
    AppState state;
    const auto body = [&] {
        ts::views::handle_shortcuts(state);
        ts::views::draw_help_overlay(state.presentation);
    };
    press(harness, keys::kF1, {}, body);
    EXPECT_TRUE(state.presentation.help_open);
    EXPECT_FALSE(ts::views::view_has_keys()) << "the view's keys rest while the list is open";
    press(harness, keys::kEscape, {}, body);
    EXPECT_FALSE(state.presentation.help_open);
    press(harness, keys::kF1, {}, body);
    press(harness, keys::kF1, {}, body);
    EXPECT_FALSE(state.presentation.help_open) << "F1 again closes it";
}

TEST(Shortcuts, F5PresenterModeAndBack) {
    ts::test::ImGuiHarness harness;
    AppState state;
    state.presentation.font_scale = 1.5f;
    const auto body = [&] { ts::views::handle_shortcuts(state); };
    press(harness, keys::kF5, {}, body);
    EXPECT_TRUE(state.presentation.presenter);
    EXPECT_EQ(state.presentation.font_scale, 2.0f);
    EXPECT_EQ(state.presentation.palette, Palette::HighContrast);
    press(harness, keys::kF5, {}, body);
    EXPECT_FALSE(state.presentation.presenter);
    EXPECT_EQ(state.presentation.font_scale, 1.5f) << "back to the scale from before";
    EXPECT_EQ(state.presentation.palette, Palette::Default);
}

TEST(Shortcuts, FontScalePaletteAndFullscreenKeys) {
    ts::test::ImGuiHarness harness;
    AppState state;
    const auto body = [&] { ts::views::handle_shortcuts(state); };
    press(harness, keys::kEqual, {.ctrl = true}, body);
    EXPECT_EQ(state.presentation.font_scale, 1.5f);
    press(harness, keys::kEqual, {.ctrl = true, .shift = true}, body);  // Ctrl++
    EXPECT_EQ(state.presentation.font_scale, 2.0f);
    press(harness, keys::kKeypadAdd, {.ctrl = true}, body);
    EXPECT_EQ(state.presentation.font_scale, 3.0f);
    press(harness, keys::kMinus, {.ctrl = true}, body);
    EXPECT_EQ(state.presentation.font_scale, 2.0f);
    press(harness, keys::kZero, {.ctrl = true}, body);
    EXPECT_EQ(state.presentation.font_scale, 1.0f);
    press(harness, keys::kEqual, {}, body);
    EXPECT_EQ(state.presentation.font_scale, 1.0f) << "= without Ctrl is the stage's zoom, not the text";

    press(harness, keys::kF6, {}, body);
    EXPECT_EQ(state.presentation.palette, Palette::HighContrast);
    press(harness, keys::kF6, {}, body);
    EXPECT_EQ(state.presentation.palette, Palette::ColourBlind);
    press(harness, keys::kF6, {}, body);
    EXPECT_EQ(state.presentation.palette, Palette::Default);

    press(harness, keys::kF11, {}, body);
    EXPECT_TRUE(state.presentation.fullscreen);
}

TEST(Shortcuts, CtrlRSaysWhyItCannotRun) {
    ts::test::ImGuiHarness harness;
    AppState state = ts::testing_support::state_for(12, 16, 8, 4);  // no device probed
    press(harness, keys::kR, {.ctrl = true}, [&] { ts::views::handle_shortcuts(state); });
    EXPECT_FALSE(state.run_requested);
    EXPECT_NE(state.presentation.notice.find("Ctrl+R: cannot run now"), std::string::npos)
        << state.presentation.notice;
}

TEST(Shortcuts, ShiftArrowsMoveThePinnedCellOnTheStage) {
    ts::test::ImGuiHarness harness;
    AppState state = ts::testing_support::state_for(12, 16, 8, 4);
    const auto body = [&] { ts::views::handle_shortcuts(state); };
    press(harness, keys::kRight, {.shift = true}, body);
    ASSERT_TRUE(state.selected);
    EXPECT_EQ(*state.selected, (ts::model::Cell{0, 0})) << "the first press pins C[0][0]";
    press(harness, keys::kRight, {.shift = true}, body);
    press(harness, keys::kDown, {.shift = true}, body);
    press(harness, keys::kDown, {.alt = true}, body);
    EXPECT_EQ(*state.selected, (ts::model::Cell{2, 1}));
    press(harness, keys::kUp, {.shift = true}, body);
    press(harness, keys::kUp, {.shift = true}, body);
    press(harness, keys::kUp, {.shift = true}, body);
    EXPECT_EQ(*state.selected, (ts::model::Cell{0, 1})) << "stays inside C";
    press(harness, keys::kDelete, {}, body);
    EXPECT_FALSE(state.selected);
}

TEST(Shortcuts, ShiftArrowsChooseTheTheatresBlock) {
    ts::test::ImGuiHarness harness;
    AppState state = ts::testing_support::state_for(12, 16, 8, 4);  // 4 × 3 blocks
    state.view = ViewId::Theatre;
    state.selected = ts::model::Cell{1, 2};  // thread (2, 1) of block (0, 0)
    const auto body = [&] { ts::views::handle_shortcuts(state); };
    press(harness, keys::kRight, {.shift = true}, body);
    EXPECT_EQ(state.theatre.block.x, 1);
    EXPECT_EQ(state.theatre.block.y, 0);
    EXPECT_EQ(*state.selected, (ts::model::Cell{1, 6})) << "the same thread, one block over";
    press(harness, keys::kDown, {.shift = true}, body);
    press(harness, keys::kDown, {.shift = true}, body);
    press(harness, keys::kDown, {.shift = true}, body);
    EXPECT_EQ(state.theatre.block.y, 2) << "stays inside the grid";
    EXPECT_EQ(*state.selected, (ts::model::Cell{9, 6}));
    press(harness, keys::kLeft, {.alt = true}, body);
    press(harness, keys::kLeft, {.alt = true}, body);
    press(harness, keys::kLeft, {.alt = true}, body);
    EXPECT_EQ(*state.selected, (ts::model::Cell{9, 3}));
    EXPECT_EQ(state.theatre.block.x, 0) << "Alt+arrows: the block follows the pinned cell";
}

TEST(Shortcuts, PlainKeysRestWhileATextFieldHasThem) {
    ts::test::ImGuiHarness harness;
    AppState state;
    ImGui::GetIO().WantTextInput = true;  // as after a frame with a text field active
    const auto body = [&] {
        ImGui::GetIO().WantTextInput = true;
        ImGui::GetIO().WantCaptureKeyboard = true;
        ts::views::handle_shortcuts(state);
    };
    press(harness, keys::kRight, {.shift = true}, body);
    press(harness, keys::kF5, {}, body);
    EXPECT_FALSE(state.selected);
    EXPECT_FALSE(state.presentation.presenter);
}

TEST(Palettes, SwitchWhatTheViewsRead) {
    const ts::views::MatrixColours before = ts::views::colours::kA;
    for (const Palette p : {Palette::HighContrast, Palette::ColourBlind}) {
        ts::views::set_palette(p);
        const ts::views::ColourScheme& scheme = ts::views::colour_scheme(p);
        EXPECT_EQ(ts::views::colours::kA.fill, scheme.a.fill);
        EXPECT_EQ(ts::views::colours::kHighlight, scheme.highlight);
        EXPECT_NE(ts::views::colours::kA.fill, before.fill);
        EXPECT_NE(ts::views::colours::kHighlight, ts::views::kDefaultScheme.highlight);
        // A, B and C, the highlight, pass and error: six colours that must differ.
        const std::set<ImU32> distinct{scheme.a.line, scheme.b.line, scheme.c.line, scheme.highlight, scheme.pass,
                                       scheme.error};
        EXPECT_EQ(distinct.size(), 6u);
    }
    EXPECT_EQ(ts::views::outline_width(2.0f), 2.0f) << "colour-blind keeps the default widths";
    ts::views::set_palette(Palette::HighContrast);
    EXPECT_GT(ts::views::outline_width(2.0f), 2.0f) << "high contrast outlines are thicker";
    ts::views::set_palette(Palette::HighContrast, true);
    EXPECT_GT(ts::views::emphasis_width(2.0f), ts::views::outline_width(2.0f)) << "presenter mode's emphasis";
    ts::views::set_palette(Palette::Default);
    EXPECT_EQ(ts::views::colours::kA.fill, before.fill);
    EXPECT_EQ(ts::views::emphasis_width(3.0f), 3.0f);
}

TEST(Presenter, MainViewDrawsAtEveryScaleAndPalette) {
    // The whole window at each scale and palette, each view: no ImGui assertion, no crash.
    ts::test::ImGuiHarness harness(ImVec2(1920, 1200));
    for (const float scale : ts::settings::kFontScales)
        for (const Palette p : {Palette::Default, Palette::HighContrast, Palette::ColourBlind})
            for (const ViewId view :
                 {ViewId::Stage, ViewId::Latency, ViewId::Tuning, ViewId::Roofline, ViewId::Theatre,
                  ViewId::Ladder}) {
                AppState state = ts::testing_support::state_for(12, 16, 8, 4);
                state.view = view;
                state.presentation.font_scale = scale;
                state.presentation.palette = p;
                state.presentation.help_open = true;
                ts::views::apply_presentation_style(state.presentation);
                harness.bare_frame([&] { ts::views::draw_main_view(state); });
            }
    ts::views::apply_presentation_style({});
}

}  // namespace
