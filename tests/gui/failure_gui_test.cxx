// Issue #22 in a real window: `tilescope --view tuning --run` with a GPU worker that is killed
// (SIGKILL) while it measures the tiled kernel with T = 1. The fake worker of the supervisor's
// tests stands in for the GPU ($TILESCOPE_WORKER), so this runs anywhere: the other points are
// measured, the T = 1 bar is drawn failed in red in its place, and stderr has one line with the
// supervisor's sentence.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gui_harness.hpp"
#include "views/common/theme.hpp"

namespace {

using namespace ts::test;

// Sets environment variables for the tilescope runs of one test, and unsets them after.
class Environment {
public:
    void set(const char* name, const std::string& value) {
        setenv(name, value.c_str(), 1);
        m_names.push_back(name);
    }
    ~Environment() {
        for (const char* name : m_names) unsetenv(name);
    }

private:
    std::vector<const char*> m_names;
};

int count_of(const std::string& text, const std::string& part) {
    int n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
    return n;
}

// `args` with --run in a window whose GPU worker is the fake one, killed (SIGKILL) whenever it
// measures `killed` (FAKE_WORKER_KILL's series). `output` gets what the app wrote.
Image screenshot_with_worker_killed(const std::string& killed, const std::string& file, const std::string& args,
                                    std::string* output) {
    Environment env;
    env.set("TILESCOPE_WORKER", FAKE_WORKER_PATH);
    env.set("FAKE_WORKER_KILL", killed);
    env.set("XDG_STATE_HOME", out_path("failure_gui_state"));  // its session journal, not the user's
    return screenshot(file, args, output);
}

// A failed bar's fill: the theme's red seven eighths of the way to white.
Rgb pale_red() {
    const Rgb red = rgb(ts::views::colours::kError);
    return {red.r + (255 - red.r) * 7 / 8, red.g + (255 - red.g) * 7 / 8, red.b + (255 - red.b) * 7 / 8};
}

TEST(FailureGui, AWorkerKilledMidSweepLeavesAFailedBarWithItsSentence) {
    std::string output;
    const Image image = screenshot_with_worker_killed("tiled T=1", "tuning_failed.png", "--view tuning --run", &output);
    ASSERT_GT(image.width, 0) << output;

    const std::string sentence =
        "the GPU worker stopped during tiled T=1 float 2048³: killed by signal 9 (SIGKILL: Killed); it was restarted";
    EXPECT_EQ(count_of(output, "tilescope: --run: failed: " + sentence + "\n"), 1) << output;
    EXPECT_EQ(count_of(output, "--run: failed:"), 1) << "only T = 1 failed\n" << output;

    // The failed bar: the theme's red outline and "failed", on a pale red fill, right of the
    // side panel. Nothing else in the tuning view is red.
    const Rgb red = rgb(ts::views::colours::kError);
    const Rgb pale = pale_red();
    EXPECT_GT(image.count_near(red, 16, 0.25f, 0.0f, 1.0f, 0.95f), 300) << "no red outline or word";
    EXPECT_GT(image.count_near(pale, 3, 0.25f, 0.0f, 1.0f, 0.95f), 2000) << "no pale red bar";
}

// Every line --run wrote about a failed request.
std::vector<std::string> failure_lines(const std::string& output) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = output.find('\n', start)) != std::string::npos; start = end + 1)
        if (output.compare(start, 26, "tilescope: --run: failed: ") == 0) lines.push_back(output.substr(start, end - start));
    return lines;
}

// The latency view with the tiled T=32 series killed at every size: a red × on the plot's
// bottom edge at each size, and one stderr line per failed request (the preview and the full
// measurement of 2048³, and the first visit's sweep).
TEST(FailureGui, FailedPointsAreMarkedOnTheLatencyPlot) {
    std::string output;
    const Image image =
        screenshot_with_worker_killed("tiled T=32", "latency_failed.png", "--view latency --run", &output);
    ASSERT_GT(image.width, 0) << output;
    const auto lines = failure_lines(output);
    EXPECT_GE(lines.size(), 2u) << output;
    for (const std::string& line : lines) {
        EXPECT_NE(line.find("the GPU worker stopped during tiled T=32 float "), std::string::npos) << line;
        EXPECT_NE(line.find("killed by signal 9 (SIGKILL: Killed); it was restarted"), std::string::npos) << line;
    }
    const Rgb red = rgb(ts::views::colours::kError);
    EXPECT_GT(image.count_near(red, 16, 0.3f, 0.1f, 1.0f, 0.92f), 100) << "no red × on the plot";
}

// The ladder view with the warptile rung killed: its bar is drawn failed in its row.
TEST(FailureGui, AFailedRungIsAFailedBar) {
    std::string output;
    const Image image = screenshot_with_worker_killed("warptile", "ladder_failed.png", "--view ladder --run", &output);
    ASSERT_GT(image.width, 0) << output;
    const auto lines = failure_lines(output);
    ASSERT_EQ(lines.size(), 1u) << output;
    EXPECT_NE(lines[0].find("the GPU worker stopped during warptile float "), std::string::npos) << lines[0];
    EXPECT_GT(image.count_near(pale_red(), 3, 0.25f, 0.0f, 1.0f, 0.95f), 2000) << "no pale red bar";
}

}  // namespace
