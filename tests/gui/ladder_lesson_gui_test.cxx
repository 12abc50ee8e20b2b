// The kernel ladder's lessons (register-tiles … pipelining, then tensor-cores and
// hopper-tensor-cores, precision, eight-bits and power-and-clocks) in the real binary, in a window
// (under xvfb-run when there is no display), walked the way a teacher does: Ctrl+L to the
// first of them, PageDown through every step, Enter to reveal each prediction. Every picture
// must hold the lesson card and a view that is not blank, and the keys must land where
// --lesson-walk (and --step) do.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>


#include "gui_harness.hpp"
#include "views/lessons/lesson_panel.hpp"
#include "views/lessons/lesson_state.hpp"

namespace {

using ts::test::Image;
using ts::test::load_png;
using ts::test::rgb;

// The FP32 ladder's path, and the tensor cores' after it, to FP8 and energy.
const std::vector<std::string> kPath = {"register-tiles", "wider-loads",  "bank-conflicts",      "warp-tiles",
                                        "pipelining",     "tensor-cores", "hopper-tensor-cores", "precision",
                                        "eight-bits",     "power-and-clocks"};

int band_pixels(const Image& image) { return image.count(rgb(ts::views::kLessonBand), 0.0f, 0.0f, 1.0f, 0.5f); }

// Pixels that differ between two pictures of the same size, as a fraction of the box
// [x0, x1) × [y0, y1) (fractions of the size).
double difference(const Image& a, const Image& b, float x0 = 0, float y0 = 0, float x1 = 1, float y1 = 1) {
    if (a.width != b.width || a.height != b.height) return 1.0;
    std::size_t differ = 0, total = 0;
    for (int y = static_cast<int>(y0 * a.height); y < static_cast<int>(y1 * a.height); ++y)
        for (int x = static_cast<int>(x0 * a.width); x < static_cast<int>(x1 * a.width); ++x) {
            differ += !(a.at(x, y) == b.at(x, y));
            ++total;
        }
    return total > 0 ? static_cast<double>(differ) / static_cast<double>(total) : 0.0;
}

// The view beside the side column (its right 60 %, below the view buttons) draws something:
// many colours, and a fair share of pixels that are not its most common colour, the
// background in any palette.
struct Drawn {
    int colours = 0;      // distinct colours, 4 bits a channel
    double covered = 0;   // share of pixels that differ from the most common colour
};
Drawn drawn(const Image& image) {
    std::map<int, int> histogram;
    int total = 0;
    for (int y = image.height / 10; y < image.height; ++y)
        for (int x = image.width * 2 / 5; x < image.width; ++x) {
            const ts::test::Rgb p = image.at(x, y);
            ++histogram[(p.r >> 4) << 8 | (p.g >> 4) << 4 | (p.b >> 4)];
            ++total;
        }
    int most = 0;
    for (const auto& [colour, count] : histogram) most = std::max(most, count);
    return {static_cast<int>(histogram.size()), total > 0 ? 1.0 - static_cast<double>(most) / total : 0.0};
}

void expect_not_blank(const Image& image, const std::string& what) {
    ASSERT_GT(image.width, 0) << what;
    EXPECT_GT(band_pixels(image), 20000) << what << ": no lesson card";
    const Drawn d = drawn(image);
    EXPECT_GE(d.colours, 12) << what << ": the view is nearly one colour";
    EXPECT_GT(d.covered, 0.02) << what << ": the view is blank";
}

std::string page_downs(int count) {
    std::string keys;
    for (int i = 0; i < count; ++i) keys += (keys.empty() ? "" : ",") + std::string("PageDown");
    return keys;
}

TEST(LadderLessonGui, TheLessonListOpensThePathAfterMeasuredSpeedup) {
    // The ninth entry of Ctrl+L's list: eight Downs from the first.
    std::string keys = "ctrl+l";
    for (int i = 0; i < 8; ++i) keys += ",Down";
    const Image chosen = ts::test::screenshot("ladder_lesson_chosen.png", "--keys " + keys + ",Enter");
    const Image opened = ts::test::screenshot("ladder_lesson_opened.png", "--lesson register-tiles");
    expect_not_blank(opened, "register-tiles step 1");
    EXPECT_LT(difference(chosen, opened), 0.01) << "Ctrl+L, 8 × Down and Enter did not open register-tiles";
}

TEST(LadderLessonGui, PageDownAndEnterWalkEveryStepOfThePath) {
    const std::string dir = ts::test::out_path("ladder_lesson_walk");
    std::filesystem::remove_all(dir);
    for (const std::string& name : kPath) {
        SCOPED_TRACE(name);
        std::string output;
        ASSERT_EQ(ts::test::run_in_window("--lesson " + name + " --lesson-walk '" + dir + "'", output), 0) << output;
        const auto lessons = ts::views::list_lessons();
        const auto entry = std::find_if(lessons.begin(), lessons.end(), [&](const auto& e) { return e.name == name; });
        ASSERT_NE(entry, lessons.end());
        const auto lesson = std::get<ts::lessons::Lesson>(ts::views::load_lesson(entry->file));
        for (int step = 1; step <= static_cast<int>(lesson.steps.size()); ++step) {
            const std::string stem = name + "-step-" + std::to_string(step);
            SCOPED_TRACE(stem);
            const Image walked = load_png(dir + "/" + stem + ".png");
            expect_not_blank(walked, stem);
            const bool predicts = !lesson.steps[static_cast<std::size_t>(step) - 1].predict.empty();
            // The keys a teacher presses: PageDown to the step, Enter to reveal its answer.
            std::string keys = page_downs(step - 1);
            if (predicts) keys += std::string(keys.empty() ? "" : ",") + "Enter";
            if (keys.empty()) continue;  // step 1 without a question: the walk's picture is it
            const Image by_keys = ts::test::screenshot("ladder_keys_" + stem + ".png",
                                                       "--lesson " + name + " --keys " + keys);
            expect_not_blank(by_keys, stem + " by keys");
            // The view, and the lesson card with its question and answer, are what --lesson-walk
            // drew; the panels under the card may stand scrolled otherwise.
            const Image expected = load_png(dir + "/" + stem + (predicts ? "-answer.png" : ".png"));
            EXPECT_LT(difference(by_keys, expected, 0.34f, 0.0f, 1.0f, 1.0f), 0.01)
                << "the keys did not reach the view --lesson-walk shows";
            EXPECT_LT(difference(by_keys, expected, 0.0f, 0.0f, 0.33f, 0.35f), 0.01)
                << "the lesson card differs from --lesson-walk's";
        }
    }
}

TEST(LadderLessonGui, PresenterModeDrawsTheRungsInTheTheatre) {
    // 2× text on a 1080p projector: the bank map of the vectorized kernel, and the pipeline.
    for (const auto& [name, step] : {std::pair{"bank-conflicts", 2}, std::pair{"pipelining", 2}}) {
        const std::string stem = std::string(name) + "-step-" + std::to_string(step);
        std::string output;
        const Image image = ts::test::screenshot(
            "ladder_presenter_" + stem + ".png",
            "--presenter --width 1920 --height 1080 --lesson " + std::string(name) + " --step " + std::to_string(step),
            &output);
        ASSERT_EQ(image.width, 1920) << output;
        EXPECT_GT(image.count(rgb(ts::views::kLessonBand), 0.0f, 0.0f, 0.45f, 1.0f), 100000) << stem << ": no card";
        const Drawn d = drawn(image);
        EXPECT_GE(d.colours, 12) << stem;
        EXPECT_GT(d.covered, 0.02) << stem;
    }
}

}  // namespace
