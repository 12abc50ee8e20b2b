// The latency view's rung checkboxes by name, as the settings file keeps them (latency_rungs):
// the names are the file's, and a choice written to the file and read back checks the same
// boxes (app/window_settings.cxx does the writing and reading with these two functions).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "settings/settings.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lab/latency_view.hpp"

namespace {

using ts::views::LatencyControls;

std::vector<bool> boxes(const LatencyControls& c) { return std::vector<bool>(std::begin(c.rungs), std::end(c.rungs)); }

TEST(LatencyRungs, TheirNamesAreTheSettingsFiles) {
    LatencyControls every;
    std::fill(std::begin(every.rungs), std::end(every.rungs), true);
    const std::vector<std::string> names = ts::views::shown_rung_names(every);
    EXPECT_EQ(names, std::vector<std::string>(std::begin(ts::settings::kLadderRungNames),
                                              std::end(ts::settings::kLadderRungNames)));
    EXPECT_EQ(ts::views::shown_rung_names(LatencyControls{}),
              (std::vector<std::string>{"warptile", "tuned", "mma-async", "persistent"}))
        << "the view's own first choice";
}

TEST(LatencyRungs, NamesCheckExactlyTheirBoxes) {
    LatencyControls c;
    ts::views::show_rungs(c, {"pipelined", "regtile-1d", "turbo"});
    EXPECT_EQ(boxes(c),
              (std::vector<bool>{true, false, false, false, false, true, false, false, false, false, false, false, false,
                                 false, false, false}))
        << "warptile, tuned, mma-async and persistent, checked by default, are unchecked; a name that is no rung is "
           "passed over";
    ts::views::show_rungs(c, {});
    EXPECT_EQ(boxes(c), std::vector<bool>(std::size(c.rungs), false));
}

TEST(LatencyRungs, AChoiceComesBackThroughTheFile) {
    LatencyControls chosen;
    std::fill(std::begin(chosen.rungs), std::end(chosen.rungs), false);
    chosen.rungs[1] = chosen.rungs[3] = chosen.rungs[6] = true;
    ts::settings::Settings saved;
    saved.latency_rungs = ts::views::shown_rung_names(chosen);
    const auto read = ts::settings::parse(ts::settings::to_text(saved), "settings.ini");
    ASSERT_TRUE(std::holds_alternative<ts::settings::Settings>(read));
    const auto& rungs = std::get<ts::settings::Settings>(read).latency_rungs;
    ASSERT_TRUE(rungs.has_value());
    LatencyControls restored;
    ts::views::show_rungs(restored, *rungs);
    EXPECT_EQ(boxes(restored), boxes(chosen));
}

}  // namespace
