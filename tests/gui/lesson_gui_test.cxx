// The guided lessons in the real binary, in a window (under xvfb-run when there is no
// display): every step of every lesson walked with --lesson-walk, the keys a teacher uses,
// and a broken lesson file that must not stop the app.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>


#include "gui_harness.hpp"
#include "views/lessons/lesson_panel.hpp"
#include "views/lessons/lesson_state.hpp"
#include "views/common/theme.hpp"

namespace {

using ts::test::Image;
using ts::test::load_png;
using ts::test::rgb;

// The lesson card sits at the top of the side column in its own pale yellow.
int band_pixels(const Image& image) { return image.count(rgb(ts::views::kLessonBand), 0.0f, 0.0f, 1.0f, 0.5f); }

// Pixels that differ between two pictures of the same size, as a fraction.
double difference(const Image& a, const Image& b) {
    if (a.width != b.width || a.height != b.height) return 1.0;
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.pixels.size(); i += 3)
        if (a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1] || a.pixels[i + 2] != b.pixels[i + 2])
            ++differ;
    return static_cast<double>(differ) / static_cast<double>(a.pixels.size() / 3);
}

TEST(LessonGui, EveryStepOfEveryLessonIsDrawnWithItsPanel) {
    const std::string dir = ts::test::out_path("lesson_walk");
    std::filesystem::remove_all(dir);
    const auto lessons = ts::views::list_lessons();
    ASSERT_FALSE(lessons.empty());
    for (const auto& entry : lessons) {
        ASSERT_TRUE(entry.error.empty()) << entry.error;
        std::string output;
        ASSERT_EQ(ts::test::run_in_window("--lesson " + entry.name + " --lesson-walk '" + dir + "'", output), 0)
            << output;
        const auto lesson = std::get<ts::lessons::Lesson>(ts::views::load_lesson(entry.file));
        for (int step = 1; step <= static_cast<int>(lesson.steps.size()); ++step) {
            const std::string stem = dir + "/" + entry.name + "-step-" + std::to_string(step);
            SCOPED_TRACE(stem);
            const Image image = load_png(stem + ".png");
            EXPECT_EQ(image.width, 1600);
            EXPECT_EQ(image.height, 1000);
            EXPECT_GT(band_pixels(image), 20000) << "no lesson panel";
            if (lesson.steps[step - 1].predict.empty()) continue;
            const Image answer = load_png(stem + "-answer.png");
            EXPECT_GT(band_pixels(answer), 20000) << "no lesson panel with the answer";
            EXPECT_GT(difference(image, answer), 0.0005) << "revealing the answer changed nothing";
        }
    }
}

TEST(LessonGui, PageDownGoesWhereStepOpens) {
    const Image by_keys = ts::test::screenshot("lesson_keys.png", "--lesson row-major --keys PageDown,PageDown");
    const Image by_flag = ts::test::screenshot("lesson_step3.png", "--lesson row-major --step 3");
    EXPECT_LT(difference(by_keys, by_flag), 0.01) << "PageDown twice did not reach step 3";
    const Image back = ts::test::screenshot("lesson_back.png", "--lesson row-major --step 3 --keys PageUp,PageUp");
    const Image first = ts::test::screenshot("lesson_step1.png", "--lesson row-major");
    EXPECT_LT(difference(back, first), 0.01) << "PageUp twice did not return to step 1";
    EXPECT_GT(difference(first, by_flag), 0.05) << "steps 1 and 3 look alike";
}

TEST(LessonGui, CtrlLListsTheLessonsAndEnterOpensOne) {
    const Image list = ts::test::screenshot("lesson_list.png", "--keys ctrl+l");
    EXPECT_GT(list.count(rgb(ts::views::kLessonBand), 0.25f, 0.2f, 0.75f, 0.8f), 20000) << "no lesson list";
    const Image chosen = ts::test::screenshot("lesson_chosen.png", "--keys ctrl+l,Down,Enter");
    const Image opened = ts::test::screenshot("lesson_opened.png", "--lesson naive-kernel");
    EXPECT_LT(difference(chosen, opened), 0.01) << "Down and Enter did not open the second lesson";
    const Image closed = ts::test::screenshot("lesson_list_closed.png", "--keys ctrl+l,Escape");
    EXPECT_EQ(closed.count(rgb(ts::views::kLessonBand)), 0) << "Escape left the list open";
}

// On a 1080p projector at 2× the card stays in the side column, and the picture keeps the
// height: C of the 12×16×8 tiling lesson is drawn whole, about 270 × 200 pixels (with the card
// as a strip across the top, C was pushed off the bottom of the canvas).
TEST(LessonGui, PresenterModeLeavesThePictureTheWindowsHeight) {
    std::string output;
    const Image image = ts::test::screenshot(
        "lesson_presenter_1080p.png", "--presenter --width 1920 --height 1080 --lesson tiling --step 3", &output);
    ASSERT_EQ(image.width, 1920) << output;
    EXPECT_GT(image.count(rgb(ts::views::kLessonBand), 0.0f, 0.0f, 0.45f, 1.0f), 100000) << "no card on the left";
    EXPECT_EQ(image.count(rgb(ts::views::kLessonBand), 0.46f, 0.0f, 1.0f, 1.0f), 0) << "the card crosses the picture";
    // Presenter mode's high-contrast palette has its own green for C: count greens.
    const auto green = [](ts::test::Rgb p) { return p.g > p.r + 30 && p.g > p.b + 20; };
    EXPECT_GT(image.count_if(green, 0.46f, 0.0f, 1.0f, 1.0f), 20000) << "C is drawn small";
}

TEST(LessonGui, ABrokenLessonFileIsReportedAndTheAppCarriesOn) {
    const std::string file = ts::test::out_path("broken.lesson");
    std::ofstream(file) << "title: Broken\nstep: One\ncolour: red\ntext: Hi.\n";
    std::string output;
    const Image image = ts::test::screenshot("lesson_broken.png", "--lesson-file '" + file + "'", &output);
    EXPECT_NE(output.find(file + ":3: unknown key \"colour\""), std::string::npos) << output;
    // The message is red text: count reddish pixels, as anti-aliasing blends its edges.
    const auto red = [](ts::test::Rgb p) { return p.r > 150 && p.g < 110 && p.b < 110; };
    EXPECT_GT(image.count_if(red, 0.0f, 0.0f, 1.0f, 0.2f), 1000) << "no red message";
    EXPECT_GT(band_pixels(image), 10000);
}

}  // namespace
