// The settings file: a round trip, every way a file can be corrupt with its exact
// "FILE:LINE: what" message, the corrupt file set aside and the defaults used, and an
// unwritable folder reported rather than thrown.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "settings/settings.hpp"
#include "support/settings_text.hpp"

namespace {

using ts::settings::Palette;
using ts::settings::Settings;
namespace fs = std::filesystem;

// A fresh folder per test.
class SettingsFile : public testing::Test {
protected:
    void SetUp() override {
        const auto* test = testing::UnitTest::GetInstance()->current_test_info();
        dir = fs::temp_directory_path() /
              ("tilescope_settings_" + std::to_string(getpid()) + "_" + test->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
        path = dir / "settings.ini";
    }
    void TearDown() override { fs::remove_all(dir); }
    void write(const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

    fs::path dir, path;
};

Settings everything_changed() {
    Settings s;
    s.window_width = 1280;
    s.window_height = 720;
    s.window_x = -40;
    s.window_y = 25;
    s.fullscreen = true;
    s.presenter = true;
    s.font_scale = 1.5f;
    s.palette = Palette::ColourBlind;
    s.view = "theatre";
    s.theatre_panel = "warp";
    s.imgui_layout = "[Window][Lessons]\nPos=60,60\nSize=400,300\n\n";
    return s;
}

using ts::testing_support::settings_error;

TEST(Settings, DefaultsRoundTrip) {
    const auto parsed = ts::settings::parse(ts::settings::to_text(Settings{}), "s.ini");
    ASSERT_TRUE(std::holds_alternative<Settings>(parsed)) << std::get<std::string>(parsed);
    EXPECT_EQ(std::get<Settings>(parsed), Settings{});
}

TEST(Settings, EveryFieldRoundTrips) {
    const Settings s = everything_changed();
    const auto parsed = ts::settings::parse(ts::settings::to_text(s), "s.ini");
    ASSERT_TRUE(std::holds_alternative<Settings>(parsed)) << std::get<std::string>(parsed);
    EXPECT_EQ(std::get<Settings>(parsed), s);
}

TEST(Settings, ReadsWhatPeopleWrite) {
    const auto parsed = ts::settings::parse(
        "# mine\n\n  palette=color-blind   \r\n; a comment\nfont_scale = 2\nview =latency\n", "s.ini");
    ASSERT_TRUE(std::holds_alternative<Settings>(parsed)) << std::get<std::string>(parsed);
    const Settings& s = std::get<Settings>(parsed);
    EXPECT_EQ(s.palette, Palette::ColourBlind);
    EXPECT_EQ(s.font_scale, 2.0f);
    EXPECT_EQ(s.view, "latency");
    EXPECT_EQ(s.window_width, 1600) << "what the file does not name keeps its default";
}

TEST(Settings, EachCorruptCaseSaysFileLineAndWhat) {
    EXPECT_EQ(settings_error("window_width = abc\n"),
              "s.ini:1: window_width = abc: expected a whole number from 320 to 16384");
    EXPECT_EQ(settings_error("# ok\nwindow_height = 100\n"),
              "s.ini:2: window_height = 100: expected a whole number from 240 to 16384");
    EXPECT_EQ(settings_error("window_x = 99999\n"), "s.ini:1: window_x = 99999: expected a whole number from -32768 to 32768");
    EXPECT_EQ(settings_error("presenter = yes\n"), "s.ini:1: presenter = yes: expected true or false");
    EXPECT_EQ(settings_error("\n\nfont_scale = 9\n"), "s.ini:3: font_scale = 9: expected a number from 0.75 to 4");
    EXPECT_EQ(settings_error("font_scale = big\n"), "s.ini:1: font_scale = big: expected a number from 0.75 to 4");
    EXPECT_EQ(settings_error("palette = purple\n"),
              "s.ini:1: palette = purple: expected default, high-contrast or colour-blind");
    EXPECT_EQ(settings_error("view = kitchen\n"),
              "s.ini:1: view = kitchen: expected one of stage, latency, tuning, roofline, theatre, ladder, experiment");
    EXPECT_EQ(settings_error("theatre_panel = sms2\n"),
              "s.ini:1: theatre_panel = sms2: expected one of source, thread, warp");
    EXPECT_EQ(settings_error("colour = red\n"),
              "s.ini:1: unknown key \"colour\" (known: window_width, window_height, window_x, window_y, fullscreen, "
              "presenter, font_scale, palette, view, theatre_panel, latency_rungs, gpu_server, gpu_on_server)");
    EXPECT_EQ(settings_error("view = stage\nfullscreen\n"), "s.ini:2: expected \"key = value\", found \"fullscreen\"");
    EXPECT_EQ(settings_error("palette = default\nview = stage\npalette = default\n"),
              "s.ini:3: palette is set twice (first on line 1)");
    EXPECT_EQ(settings_error("[window]\n"), "s.ini:1: unknown section [window] (only [imgui] is known)");
    EXPECT_EQ(settings_error("view = stage\n\xff\xfe garbage\n"),
              "s.ini:2: unreadable line: not UTF-8 text, or it holds control characters");
    EXPECT_EQ(settings_error(std::string("view = st\0age\n", 14)),
              "s.ini:1: unreadable line: not UTF-8 text, or it holds control characters");
}

TEST(Settings, ImGuiLayoutIsKeptAsItIs) {
    // ImGui's own text may hold anything: it is not ours to check.
    const auto parsed = ts::settings::parse("view = roofline\n[imgui]\n[Window][X]\nstrange = 1\n", "s.ini");
    ASSERT_TRUE(std::holds_alternative<Settings>(parsed)) << std::get<std::string>(parsed);
    EXPECT_EQ(std::get<Settings>(parsed).imgui_layout, "[Window][X]\nstrange = 1\n");
}

TEST_F(SettingsFile, MissingFileGivesTheDefaultsQuietly) {
    const auto loaded = ts::settings::load(path);
    EXPECT_EQ(loaded.settings, Settings{});
    EXPECT_FALSE(loaded.problem);
}

TEST_F(SettingsFile, SavedFileLoadsBack) {
    const Settings s = everything_changed();
    const fs::path nested = dir / "a" / "b" / "settings.ini";
    ASSERT_EQ(ts::settings::save(nested, s), std::nullopt);
    const auto loaded = ts::settings::load(nested);
    EXPECT_FALSE(loaded.problem) << *loaded.problem;
    EXPECT_EQ(loaded.settings, s);
    EXPECT_FALSE(fs::exists(nested.string() + ".tmp")) << "the temporary file stays behind";
}

TEST_F(SettingsFile, CorruptFileIsSetAsideAndTheDefaultsUsed) {
    write("palette = high-contrast\nfont_scale = 2\nwindow_width = huge\n");
    const auto loaded = ts::settings::load(path);
    EXPECT_EQ(loaded.settings, Settings{}) << "nothing of a corrupt file is used, not even its good lines";
    ASSERT_TRUE(loaded.problem);
    EXPECT_EQ(*loaded.problem, path.string() + ":3: window_width = huge: expected a whole number from 320 to 16384; " +
                                   "set aside as " + path.string() + ".corrupt; using the default settings");
    EXPECT_FALSE(fs::exists(path));
    ASSERT_TRUE(fs::exists(path.string() + ".corrupt"));
    std::ifstream aside(path.string() + ".corrupt");
    std::stringstream text;
    text << aside.rdbuf();
    EXPECT_EQ(text.str(), "palette = high-contrast\nfont_scale = 2\nwindow_width = huge\n") << "kept as it was";

    // The next run starts clean, and a save writes a good file again.
    EXPECT_FALSE(ts::settings::load(path).problem);
    EXPECT_EQ(ts::settings::save(path, Settings{}), std::nullopt);
    EXPECT_FALSE(ts::settings::load(path).problem);
}

TEST_F(SettingsFile, UnwritableFolderIsAMessageNotACrash) {
    // A folder that cannot be created because a file has its name: fails even as root.
    write("not a folder");
    const auto why = ts::settings::save(path / "settings.ini", Settings{});
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("cannot create " + path.string()), std::string::npos) << *why;
}

TEST(Settings, DefaultPathFollowsXdg) {
    EXPECT_EQ(ts::settings::default_path("/cfg", "/home/ann"), fs::path("/cfg/tilescope/settings.ini"));
    EXPECT_EQ(ts::settings::default_path(nullptr, "/home/ann"), fs::path("/home/ann/.config/tilescope/settings.ini"));
    EXPECT_EQ(ts::settings::default_path("relative", "/home/ann"), fs::path("/home/ann/.config/tilescope/settings.ini"))
        << "the XDG specification ignores a relative XDG_CONFIG_HOME";
    EXPECT_EQ(ts::settings::default_path("", ""), fs::path());
}

TEST(Settings, FontScaleSteps) {
    using ts::settings::step_font_scale;
    EXPECT_EQ(step_font_scale(1.0f, 1), 1.5f);
    EXPECT_EQ(step_font_scale(1.5f, 1), 2.0f);
    EXPECT_EQ(step_font_scale(2.0f, 1), 3.0f);
    EXPECT_EQ(step_font_scale(3.0f, 1), 3.0f) << "3× is the largest step";
    EXPECT_EQ(step_font_scale(3.0f, -1), 2.0f);
    EXPECT_EQ(step_font_scale(1.0f, -1), 1.0f);
    EXPECT_EQ(step_font_scale(1.75f, 1), 2.0f) << "a scale from --font-scale steps to the next in the list";
    EXPECT_EQ(step_font_scale(1.75f, -1), 1.5f);
}

TEST(Settings, PaletteNames) {
    for (const Palette p : {Palette::Default, Palette::HighContrast, Palette::ColourBlind})
        EXPECT_EQ(ts::settings::parse_palette(ts::settings::palette_name(p)), p);
    EXPECT_EQ(ts::settings::parse_palette("color-blind"), Palette::ColourBlind);
    EXPECT_EQ(ts::settings::parse_palette("dark"), std::nullopt);
}

}  // namespace
