// Presenter mode, keys and settings in the real binary, in a window (under xvfb-run when
// there is no display): text at 2× and 3× is larger and crisp, the palettes colour what they
// should, --keys presses keys as a person would, and settings written by one run are read by
// the next.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gui_harness.hpp"
#include "views/common/theme.hpp"

namespace {

using ts::settings::Palette;
using ts::test::Image;
using ts::test::Rgb;
using ts::test::rgb;
namespace fs = std::filesystem;

bool dark(Rgb p) { return std::max({p.r, p.g, p.b}) < 60; }

// The first run of rows, from the top, that hold dark pixels in the left part of the window:
// the view switcher (its buttons, or its drop-down list with large text), whose size follows
// the font scale. As [first, end) rows.
std::pair<int, int> first_row(const Image& image) {
    int first = -1;
    for (int y = 0; y < image.height; ++y) {
        bool any = false;
        for (int x = 0; x < image.width * 2 / 5 && !any; ++x) any = dark(image.at(x, y));
        if (any && first < 0) first = y;
        if (!any && first >= 0) return {first, y};
    }
    return {0, 0};
}
int first_row_height(const Image& image) { return first_row(image).second - first_row(image).first; }

// Of the pixels of the switcher row that are not background, the share that is in between
// black and white: text from bitmaps stretched by a scale is mostly such blurred edge.
double grey_share(const Image& image, int rows) {
    int grey = 0, ink = 0;
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < image.width * 2 / 5; ++x) {
            const Rgb p = image.at(x, y);
            const bool neutral = std::abs(p.r - p.g) < 8 && std::abs(p.g - p.b) < 8;
            if (!neutral || p.r > 235) continue;
            ++ink;
            if (p.r >= 60) ++grey;
        }
    return ink ? double(grey) / ink : 1.0;
}

std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A fresh folder per test, for settings files.
fs::path folder() {
    const auto* test = testing::UnitTest::GetInstance()->current_test_info();
    const fs::path dir = ts::test::out_path(std::string("presenter_") + test->name() + "_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

TEST(PresenterGui, TextIsLargerAndCrispAtTwoAndThreeTimes) {
    // The same palette throughout, so that only the scale differs.
    const Image one = ts::test::screenshot("presenter_1x.png", "--palette high-contrast --width 1920 --height 1200");
    const Image two = ts::test::screenshot("presenter_2x.png", "--presenter --width 1920 --height 1200");
    const Image three =
        ts::test::screenshot("presenter_3x.png", "--presenter --font-scale 3 --width 1920 --height 1200");
    const int h1 = first_row_height(one), h2 = first_row_height(two), h3 = first_row_height(three);
    ASSERT_GT(h1, 10);
    EXPECT_GE(h2, h1 * 17 / 10) << h1 << " px at 1×, " << h2 << " at 2×";
    EXPECT_GE(h3, h1 * 25 / 10) << h1 << " px at 1×, " << h3 << " at 3×";
    // Crisp: fonts rebuilt at the larger size keep their edges about a pixel wide, so the
    // share of grey does not grow with the scale as it would for stretched bitmaps. Over the
    // switcher's row alone (below it the picture begins), which at 2× and 3× is the same
    // drop-down list and checkbox (at 1×, a row of buttons).
    const double g2 = grey_share(two, first_row(two).second), g3 = grey_share(three, first_row(three).second);
    EXPECT_LT(g3, g2 + 0.05) << "grey share " << g2 << " at 2×, " << g3 << " at 3×";
}

TEST(PresenterGui, PalettesColourTheMatrices) {
    const auto count = [](const Image& image, ImU32 colour) { return image.count(rgb(colour), 0.3f); };
    const Image standard = ts::test::screenshot("palette_default.png", "--select 5,6");
    for (const auto& [palette, name] :
         {std::pair{Palette::HighContrast, "high-contrast"}, std::pair{Palette::ColourBlind, "colour-blind"}}) {
        const ts::views::ColourScheme& scheme = ts::views::colour_scheme(palette);
        const Image image = ts::test::screenshot(std::string("palette_") + name + ".png",
                                                 std::string("--select 5,6 --palette ") + name);
        EXPECT_GT(count(image, scheme.a.fill), 400) << name << ": no A";
        EXPECT_GT(count(image, scheme.b.fill), 400) << name << ": no B";
        EXPECT_GT(count(image, scheme.c.fill), 400) << name << ": no C";
        EXPECT_GT(count(image, scheme.highlight), 300) << name << ": no highlight";
        EXPECT_EQ(count(image, ts::views::kDefaultScheme.a.fill), 0) << name << ": the default A is still there";
        EXPECT_EQ(count(standard, scheme.a.fill), 0) << name << "'s A in the default palette";
    }
    EXPECT_GT(count(standard, ts::views::kDefaultScheme.highlight), 300);
}

TEST(PresenterGui, PresenterModeEmphasisesThePinnedThread) {
    // --presenter is 2× and high contrast plus the emphasis: compare with those alone.
    const ImU32 highlight = ts::views::colour_scheme(Palette::HighContrast).highlight;
    const Image plain = ts::test::screenshot("emphasis_off.png", "--select 5,6 --palette high-contrast --font-scale 2");
    const Image presenter = ts::test::screenshot("emphasis_on.png", "--select 5,6 --presenter");
    // Both fold the stage's panel (large text on 1600 pixels): the picture may lie anywhere.
    const int before = plain.count(rgb(highlight)), after = presenter.count(rgb(highlight));
    EXPECT_GT(after, before * 3 / 2) << before << " highlight pixels without presenter mode, " << after << " with";
}

TEST(PresenterGui, F1ShowsTheKeyList) {
    const auto white = [](const Image& image) { return image.count(Rgb{255, 255, 255}, 0.3f, 0.3f, 0.7f, 0.7f); };
    const Image without = ts::test::screenshot("keys_none.png", "");
    const Image with = ts::test::screenshot("keys_f1.png", "--keys F1");
    const int box = static_cast<int>(0.4f * with.width) * static_cast<int>(0.4f * with.height);
    EXPECT_LT(white(without), box / 4);
    EXPECT_GT(white(with), box / 2) << "no white key list over the middle of the window";
}

TEST(PresenterGui, ShiftArrowChoosesTheBlockAsSelectBlockDoes) {
    const Image keys = ts::test::screenshot("theatre_shift_right.png", "--view theatre --keys shift+Right");
    const Image flag = ts::test::screenshot("theatre_select_block.png", "--view theatre --select-block 1,0");
    const Image start = ts::test::screenshot("theatre_block_0.png", "--view theatre");
    EXPECT_EQ(keys.pixels, flag.pixels) << "Shift+Right from block (0, 0) is not --select-block 1,0";
    EXPECT_NE(start.pixels, flag.pixels);
}

// Width and height from a PNG's header.
std::pair<int, int> png_size(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char header[24] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    const auto big_endian = [&](int at) { return header[at] << 24 | header[at + 1] << 16 | header[at + 2] << 8 | header[at + 3]; };
    return {big_endian(16), big_endian(20)};
}

TEST(PresenterGui, F11FillsTheScreenAndComesBack) {
    // On a screen of a known size: a virtual one of 1920×1080, whatever display the tests have.
    const fs::path full = ts::test::out_path("fullscreen.png"), back = ts::test::out_path("fullscreen_back.png");
    const std::string xvfb = "xvfb-run -a -s '-screen 0 1920x1080x24' ";
    std::string output;
    ASSERT_EQ(ts::test::run(xvfb, "--keys F11 --screenshot '" + full.string() + "'", output), 0) << output;
    EXPECT_EQ(png_size(full), std::pair(1920, 1080));
    ASSERT_EQ(ts::test::run(xvfb, "--keys F11,F11 --screenshot '" + back.string() + "'", output), 0) << output;
    EXPECT_EQ(png_size(back), std::pair(1600, 1000)) << "not back to the window's size";
}

TEST(PresenterGui, SettingsOfOneRunAreReadByTheNext) {
    const fs::path file = folder() / "settings.ini";
    // F6: high contrast; Ctrl+=: 1.5×; the window's size and the view as the flags set them.
    std::string output;
    ts::test::screenshot("settings_first.png",
                         "--settings '" + file.string() + "' --width 1200 --height 800 --view theatre --keys F6,ctrl+=",
                         &output);
    const std::string text = read(file);
    for (const char* line : {"palette = high-contrast\n", "font_scale = 1.5\n", "view = theatre\n",
                             "window_width = 1200\n", "window_height = 800\n", "presenter = false\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "missing from\n" << text;

    const Image next = ts::test::screenshot("settings_next.png", "--settings '" + file.string() + "'", &output);
    EXPECT_EQ(next.width, 1200);
    EXPECT_EQ(next.height, 800);
    // At 1.5× on 1200 pixels the theatre folds its panel: A may lie anywhere.
    EXPECT_GT(next.count(rgb(ts::views::colour_scheme(Palette::HighContrast).a.fill)), 400)
        << "the palette was not read back";
    EXPECT_EQ(next.count(rgb(ts::views::kDefaultScheme.a.fill)), 0);
}

TEST(PresenterGui, CorruptSettingsAreReportedSetAsideAndIgnored) {
    const fs::path file = folder() / "settings.ini";
    std::ofstream(file) << "view = theatre\npalette = purple\n";
    std::string output;
    const Image image = ts::test::screenshot("settings_corrupt.png", "--settings '" + file.string() + "'", &output);
    EXPECT_NE(output.find(file.string() + ":2: palette = purple: expected default, high-contrast or colour-blind; " +
                          "set aside as " + file.string() + ".corrupt; using the default settings"),
              std::string::npos)
        << output;
    EXPECT_TRUE(fs::exists(file.string() + ".corrupt"));
    EXPECT_EQ(read(file.string() + ".corrupt"), "view = theatre\npalette = purple\n");
    EXPECT_GT(image.count(rgb(ts::views::kDefaultScheme.a.fill), 0.3f), 400) << "not the default palette";
    // The stage, not the corrupt file's theatre; and the message in the status bar, in red.
    EXPECT_GT(image.count_near(rgb(ts::views::kDefaultScheme.error), 24, 0.0f, 0.95f, 1.0f, 1.0f), 50);
    EXPECT_NE(read(file).find("palette = default"), std::string::npos) << "a good file was not written again";
}

TEST(PresenterGui, UnwritableSettingsFolderIsAMessage) {
    const fs::path blocker = folder() / "not-a-folder";
    std::ofstream(blocker) << "a file where the folder should be";
    std::string output;
    ts::test::screenshot("settings_unwritable.png", "--settings '" + (blocker / "settings.ini").string() + "'",
                         &output);
    EXPECT_NE(output.find("settings not saved: cannot create " + blocker.string()), std::string::npos) << output;
}

TEST(PresenterGui, UnknownKeyNamesExitWithTwo) {
    std::string output;
    EXPECT_EQ(ts::test::run_in_window("--keys F1,Hyper", output), 2);
    EXPECT_NE(output.find("--keys: unknown key \"Hyper\""), std::string::npos) << output;
}

}  // namespace
