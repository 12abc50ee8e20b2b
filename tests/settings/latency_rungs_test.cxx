// The settings file keeps the latency plot's rungs (latency_rungs) and the Experiments view
// as the last view: written, read back equal, and every way the line can be wrong said with
// "FILE:LINE: what".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "settings/settings.hpp"
#include "support/settings_text.hpp"

namespace {

using ts::settings::Settings;

using ts::testing_support::settings_error;

Settings parsed(const std::string& text) {
    auto result = ts::settings::parse(text, "s.ini");
    EXPECT_TRUE(std::holds_alternative<Settings>(result)) << std::get<std::string>(result);
    return std::holds_alternative<Settings>(result) ? std::get<Settings>(result) : Settings{};
}

TEST(LatencyRungsSetting, AbsentUntilSaved) {
    EXPECT_FALSE(Settings{}.latency_rungs.has_value()) << "without the key the latency view keeps its own choice";
    EXPECT_EQ(ts::settings::to_text(Settings{}).find("latency_rungs"), std::string::npos);
}

TEST(LatencyRungsSetting, RoundTripsInTheLaddersOrder) {
    Settings s;
    s.latency_rungs = std::vector<std::string>{"regtile-1d", "warptile", "tuned"};
    const std::string text = ts::settings::to_text(s);
    EXPECT_NE(text.find("latency_rungs = regtile-1d, warptile, tuned\n"), std::string::npos) << text;
    EXPECT_EQ(parsed(text), s);

    // Written by hand in any order and spacing: kept in the ladder's order.
    EXPECT_EQ(parsed("latency_rungs =tuned,regtile-1d ,  warptile\n").latency_rungs, s.latency_rungs);
    // Every rung, and none: both are choices of their own.
    const std::vector<std::string> all(std::begin(ts::settings::kLadderRungNames),
                                       std::end(ts::settings::kLadderRungNames));
    s.latency_rungs = all;
    EXPECT_EQ(parsed(ts::settings::to_text(s)), s);
    s.latency_rungs = std::vector<std::string>{};
    EXPECT_NE(ts::settings::to_text(s).find("latency_rungs =\n"), std::string::npos);
    EXPECT_EQ(parsed(ts::settings::to_text(s)), s);
    EXPECT_TRUE(parsed("latency_rungs =\n").latency_rungs.has_value());
}

TEST(LatencyRungsSetting, AWrongLineSaysFileLineAndWhat) {
    EXPECT_EQ(settings_error("view = stage\nlatency_rungs = warptile, turbo\n"),
              "s.ini:2: latency_rungs = warptile, turbo: \"turbo\" is no rung; expected names from regtile-1d, "
              "regtile-2d, vectorized, conflict-free, warptile, pipelined, tuned, wmma, mma, mma-async, wgmma, "
              "warp-specialized, persistent, tc-tuned, fp8, fp8-blocks, separated by commas");
    EXPECT_EQ(settings_error("latency_rungs = tuned, tuned\n"), "s.ini:1: latency_rungs = tuned, tuned: tuned is named twice");
    EXPECT_EQ(settings_error("latency_rungs = warptile,\n"),
              "s.ini:1: latency_rungs = warptile,: \"\" is no rung; expected names from regtile-1d, regtile-2d, "
              "vectorized, conflict-free, warptile, pipelined, tuned, wmma, mma, mma-async, wgmma, warp-specialized, "
              "persistent, tc-tuned, fp8, fp8-blocks, separated by commas");
    EXPECT_EQ(settings_error("latency_rungs = tuned\nlatency_rungs = warptile\n"),
              "s.ini:2: latency_rungs is set twice (first on line 1)");
}

TEST(LatencyRungsSetting, TheExperimentsViewIsALastViewToo) {
    // The window saves "view = experiment" when it closes on the Experiments view: the next
    // start must read it back, not set the whole file aside as corrupt.
    EXPECT_EQ(parsed("view = experiment\n").view, "experiment");
}

}  // namespace
