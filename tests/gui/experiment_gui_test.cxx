// The Experiments view and the theatre's race moment in a real window, from the hand-made
// sample measurement (tests/views/data/experiment_sample.json, put where the app looks for
// recorded experiments through TILESCOPE_DATA_DIR): the heat map shows its shades where the
// wrong cells are, and the theatre marks the stale slot, the writer and the reader.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gui_harness.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/block/race_overlay.hpp"

namespace {

using namespace ts::test;
namespace fs = std::filesystem;

bool near(Rgb p, Rgb colour, int tolerance) {
    return std::abs(p.r - colour.r) <= tolerance && std::abs(p.g - colour.g) <= tolerance &&
           std::abs(p.b - colour.b) <= tolerance;
}

// The heat map's colour for a cell wrong in `wrong` of `runs` runs: white to (150, 0, 25).
Rgb shade(int wrong, int runs) {
    const float t = ts::views::wrong_share_value(wrong, runs);
    const auto mix = [&](int low, int high) { return static_cast<int>(low + (high - low) * t + 0.5f); };
    return {mix(255, 150), mix(255, 0), mix(255, 25)};
}

// A data folder like assets/ (its lessons, measurements, traces) with the sample as the only
// recorded experiment; TILESCOPE_DATA_DIR points the app at it while the test runs.
class ExperimentGui : public testing::Test {
protected:
    void SetUp() override {
        // One folder per test: ctest -j runs them side by side.
        const std::string test = testing::UnitTest::GetInstance()->current_test_info()->name();
        m_dir = fs::path(out_path("experiment-data-" + test));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "experiments");
        const fs::path assets = fs::path(TILESCOPE_TRACES_DIR).parent_path();
        for (const auto& entry : fs::directory_iterator(assets))
            if (entry.path().filename() != "experiments") fs::create_directory_symlink(entry.path(), m_dir / entry.path().filename());
        fs::copy_file(TILESCOPE_TEST_DATA_DIR "/experiment_sample.json", m_dir / "experiments" / "sample.json");
        setenv("TILESCOPE_DATA_DIR", m_dir.c_str(), 1);
    }
    void TearDown() override {
        unsetenv("TILESCOPE_DATA_DIR");
        fs::remove_all(m_dir);
    }
    fs::path m_dir;
};

// Where pixels of `colour` lie: their bounding box, or none.
struct Box {
    int count = 0, x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
};
Box find(const Image& image, Rgb colour, int tolerance, const Box* within = nullptr) {
    Box box;
    const int y0 = within ? within->y0 + 2 : 0, y1 = within ? within->y1 - 1 : image.height;
    const int x0 = within ? within->x0 + 2 : 0, x1 = within ? within->x1 - 1 : image.width;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            if (near(image.at(x, y), colour, tolerance)) {
                ++box.count;
                box.x0 = std::min(box.x0, x), box.y0 = std::min(box.y0, y);
                box.x1 = std::max(box.x1, x), box.y1 = std::max(box.y1, y);
            }
    return box;
}

TEST_F(ExperimentGui, TheHeatMapShadesTheRecordedWrongCells) {
    std::string printed;
    const Image image = screenshot("experiment_view.png", "--view experiment --experiment missing-second-sync", &printed);
    ASSERT_EQ(image.width, 1600);
    EXPECT_GT(distinct_colours(image), 50) << "the screenshot looks blank";
    // The sample: C[3][21] wrong in 37 of 50 runs, the rest of C[3][16..31] in 12, C[16..31][41]
    // in 6 (C[28][41] in 20).
    // Inside the map's green outline only: the legend's gradient holds every shade too.
    const Box map = find(image, rgb(ts::views::colours::kC.line), 10);
    ASSERT_GT(map.count, 400) << "no outline of the heat map\n" << printed;
    const Box worst = find(image, shade(37, 50), 6, &map);
    const Box row = find(image, shade(12, 50), 6, &map);
    const Box column = find(image, shade(6, 50), 6, &map);
    ASSERT_GT(worst.count, 4) << "no cell of the 37-run shade\n" << printed;
    ASSERT_GT(row.count, 20) << "no cells of the 12-run shade";
    ASSERT_GT(column.count, 20) << "no cells of the 6-run shade";
    // The worst cell sits in the row's band, inside its span; the column lies right of the row
    // (column 41 against 16..31) and below it (rows 16..31 against 3).
    EXPECT_GE(worst.y0, row.y0 - 1);
    EXPECT_LE(worst.y1, row.y1 + 1);
    EXPECT_GT(worst.x0, row.x0);
    EXPECT_LT(worst.x1, row.x1);
    EXPECT_GT(column.x0, row.x1);
    EXPECT_GT(column.y0, row.y1);
    // The shades are on the right of the side panel, in the results.
    EXPECT_GT(row.x0, image.width / 4);
}

TEST_F(ExperimentGui, TheTheatreMarksTheStaleSlotTheWriterAndTheReader) {
    std::string printed;
    const Image image =
        screenshot("experiment_theatre.png", "--view theatre --experiment missing-second-sync", &printed);
    EXPECT_GT(distinct_colours(image), 50) << "the screenshot looks blank";
    const auto rgb_of = [](ImU32 colour) { return rgb(colour); };
    EXPECT_GT(find(image, rgb_of(ts::views::kRaceSlot), 10).count, 30) << "no red slot\n" << printed;
    EXPECT_GT(find(image, rgb_of(ts::views::kRaceWriter), 10).count, 20) << "no writer outlined";
    EXPECT_GT(find(image, rgb_of(ts::views::kRaceReader), 10).count, 20) << "no reader outlined";
}

// --experiment accumulator opens the accumulator measurement: without a GPU its text and why nothing runs.
TEST_F(ExperimentGui, TheAccumulatorPanelOpensFromItsFlag) {
    std::string printed;
    const Image image = screenshot("experiment_accumulator.png", "--view experiment --experiment accumulator", &printed);
    ASSERT_EQ(image.width, 1600) << printed;
    EXPECT_GT(distinct_colours(image), 20) << "the screenshot looks blank\n" << printed;
}

TEST(ExperimentFlags, AnUnknownExperimentStopsWithTheList) {
    std::string output;
    const int status = run("env -u DISPLAY ", "--experiment missing-third-sync", output);
    EXPECT_EQ(status, 2) << output;
    EXPECT_NE(output.find("missing-first-sync, missing-second-sync, no-bounds-check, bank-conflicts"), std::string::npos)
        << output;
}

}  // namespace
