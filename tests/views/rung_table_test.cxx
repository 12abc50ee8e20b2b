// One row added to the table of rungs (model/rung_info.hpp) reaches every place that lists the
// rungs, with no other change: bench's plans and --kernel's names, the latency lab's checkboxes,
// and the ladder view's bars and the requests that measure them. And the shipped rows give the
// names, settings keys, colours and first choices the lists they replaced spelled out.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <variant>
#include <vector>

#include "cli/setup_options.hpp"
#include "cli/sweep.hpp"
#include "imgui_harness.hpp"
#include "model/rung_info.hpp"
#include "settings/settings.hpp"
#include "views/common/theme.hpp"
#include "views/lab/lab_view.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/window/app_state.hpp"

namespace {

using namespace ts::views;
using ts::model::KernelKind;
using ts::test::ImGuiHarness;

// A kind past the enum's own: a rung that lives in this test's table alone.
constexpr KernelKind kNewRung = static_cast<KernelKind>(100);

// The shipped table and one more FP32 rung above tuned, plotted at first in the latency lab: its
// row before cuBLAS's, as a new kernel's would be.
std::vector<ts::model::RungInfo> table_with_a_new_rung() {
    std::vector<ts::model::RungInfo> table(std::begin(ts::model::kRungTable), std::end(ts::model::kRungTable));
    table.insert(table.end() - 1, {kNewRung, "double-buffered", "20_double_buffered.cu", ts::model::rung_dtypes::kFloat,
                     ts::model::Arch::Any, ts::model::Ladder::Fp32, 8, ts::model::RungColour::Teal,
                     ts::model::LabPlot::On, false, "A test's rung: one row in the table and nothing else."});
    return table;
}

std::vector<std::string> names_of(const std::vector<ts::cli::Setup>& plan) {
    std::vector<std::string> names;
    for (const ts::cli::Setup& setup : plan) names.emplace_back(ts::model::kernel_name(setup.kernel.kind));
    return names;
}

TEST(RungTable, ANewRowJoinsBenchsPlansAndKernelsNames) {
    const auto table = table_with_a_new_rung();
    const ts::model::ScopedRungTable scoped(table);
    EXPECT_NE(ts::cli::kernel_names().find(", double-buffered, cublas"), std::string::npos) << ts::cli::kernel_names();

    ts::cli::SweepLists lists;
    lists.kernel = "ladder";
    const auto ladder = ts::cli::expand_sweep(lists);
    ASSERT_TRUE(std::holds_alternative<std::vector<ts::cli::Setup>>(ladder)) << std::get<std::string>(ladder);
    EXPECT_EQ(names_of(std::get<0>(ladder)),
              (std::vector<std::string>{"tiled", "regtile-1d", "regtile-2d", "vectorized", "conflict-free", "warptile",
                                        "pipelined", "tuned", "double-buffered", "cublas"}))
        << "the ladder's plan climbs to the new rung, cuBLAS on top";

    lists.kernel = "double-buffered";
    const auto alone = ts::cli::expand_sweep(lists);
    ASSERT_TRUE(std::holds_alternative<std::vector<ts::cli::Setup>>(alone)) << std::get<std::string>(alone);
    EXPECT_EQ(names_of(std::get<0>(alone)), std::vector<std::string>{"double-buffered"}) << "--kernel takes its name";

    const std::vector<std::string> everything = names_of(ts::cli::default_sweep());
    EXPECT_NE(std::find(everything.begin(), everything.end(), "double-buffered"), everything.end())
        << "bench's default plan measures it";
}

TEST(RungTable, ANewRowGetsACheckboxInTheLatencyLab) {
    const auto table = table_with_a_new_rung();
    const ts::model::ScopedRungTable scoped(table);
    AppState state;
    state.view = ViewId::Latency;
    EXPECT_EQ(shown_rung_names(state.lab.choices.latency),
              (std::vector<std::string>{"warptile", "tuned", "double-buffered", "mma-async", "persistent"}))
        << "ticked at first, as its row says, in the ladder's order";
    const std::vector<ts::gpu::RunRequest> sweep = first_visit_requests(state.lab.choices.latency);
    EXPECT_TRUE(std::any_of(sweep.begin(), sweep.end(), [](const ts::gpu::RunRequest& r) { return r.kernel.kind == kNewRung; }))
        << "the first visit's sweep measures it";
    ImGuiHarness ui;
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    // The checkboxes in order: the FP32 ladder's up to tuned, the new rung, then the tensor cores'.
    std::size_t at = text.find("kernel ladder, rungs");
    for (const char* label : {"regtile-1d", "pipelined", "tuned", "double-buffered", "tensor cores, rungs", "wmma"}) {
        ASSERT_NE(at, std::string::npos) << text;
        at = text.find(label, at);
        EXPECT_NE(at, std::string::npos) << label << " after the checkboxes before it\n" << text;
    }
}

TEST(RungTable, ANewRowGetsABarOnTheLadderView) {
    const auto table = table_with_a_new_rung();
    const ts::model::ScopedRungTable scoped(table);
    AppState state;
    state.view = ViewId::Ladder;
    const LadderData data = ladder_data(state, 4096, ts::model::Ladder::Fp32);
    ASSERT_GE(data.bars.size(), 2u);
    const LadderBar& added = data.bars[data.bars.size() - 2];
    EXPECT_EQ(added.name, "double-buffered") << "the top rung, under cuBLAS";
    EXPECT_EQ(added.kernel.kind, kNewRung);
    EXPECT_NE(added.hover.find("kernels/20_double_buffered.cu"), std::string::npos) << added.hover;
    EXPECT_NE(added.hover.find("one row in the table and nothing else"), std::string::npos) << added.hover;

    const std::vector<ts::gpu::RunRequest> requests = ladder_requests(4096, ts::model::Ladder::Fp32);
    ASSERT_GE(requests.size(), 2u);
    EXPECT_EQ(requests[requests.size() - 2].kernel.kind, kNewRung) << "Measure the ladders measures it";

    // The view draws its bar with the others (not measured: an outline and its name).
    ImGuiHarness ui;
    for (int i = 0; i < 2; ++i) ui.frame([&] { draw_ladder_view(state.lab, state, ImVec2(1600, 1000)); });
}

TEST(RungTable, TheShippedRowsKeepTheNamesColoursAndFirstChoicesTheListsHad) {
    EXPECT_EQ(ts::cli::kernel_names(),
              "naive, naive-row, row-per-thread, column-per-thread, tiled, regtile-1d, regtile-2d, vectorized, "
              "conflict-free, warptile, pipelined, tuned, wmma, mma, mma-async, wgmma, warp-specialized, persistent, "
              "tc-tuned, fp8, fp8-blocks, cublas")
        << "--kernel's help";
    EXPECT_EQ(std::vector<std::string>(std::begin(ts::settings::kLadderRungNames), std::end(ts::settings::kLadderRungNames)),
              (std::vector<std::string>{"regtile-1d", "regtile-2d", "vectorized", "conflict-free", "warptile",
                                        "pipelined", "tuned", "wmma", "mma", "mma-async", "wgmma", "warp-specialized",
                                        "persistent", "tc-tuned", "fp8", "fp8-blocks"}))
        << "the names a settings file's latency_rungs may hold";
    EXPECT_EQ(ts::model::lab_rung_defaults(),
              (std::vector<bool>{false, false, false, false, true, false, true, false, false, true, false, false, true,
                                 false, false, false}))
        << "warptile and tuned, mma-async and persistent ticked at first";

    // The latency plot's curve for each rung checkbox, in the checkboxes' order.
    const std::vector<ImU32> curves = {
        IM_COL32(40, 160, 140, 255), IM_COL32(140, 150, 30, 255), IM_COL32(215, 165, 0, 255),
        IM_COL32(235, 115, 15, 255), IM_COL32(150, 30, 90, 255),  IM_COL32(225, 95, 130, 255),
        IM_COL32(20, 120, 50, 255),  IM_COL32(165, 115, 55, 255), IM_COL32(120, 80, 170, 255),
        IM_COL32(0, 140, 190, 255),  IM_COL32(190, 60, 160, 255), IM_COL32(90, 125, 40, 255),
        IM_COL32(95, 40, 20, 255),   IM_COL32(200, 30, 60, 255),  IM_COL32(240, 170, 0, 255),
        IM_COL32(75, 60, 200, 255)};
    const std::vector<ts::model::RungInfo> rungs = ts::model::lab_rungs();
    ASSERT_EQ(rungs.size(), curves.size());
    for (std::size_t i = 0; i < rungs.size(); ++i)
        EXPECT_EQ(rung_curve_colour(rungs[i].colour), curves[i]) << rungs[i].name;
    EXPECT_EQ(kernel_curve_colour(KernelKind::Naive), IM_COL32(205, 60, 40, 255));
    EXPECT_EQ(kernel_curve_colour(KernelKind::NaiveRowFromX), IM_COL32(150, 60, 170, 255));
    EXPECT_EQ(kernel_curve_colour(KernelKind::Tiled), IM_COL32(10, 50, 120, 255));
    EXPECT_EQ(kernel_curve_colour(KernelKind::Cublas), IM_COL32(60, 60, 60, 255));

    // The ladder view's bars and the roofline's points, by kind in KernelKind's order.
    const ImU32 grey = IM_COL32(120, 120, 120, 255);
    const std::vector<ImU32> bars = {
        grey, grey, grey, grey, IM_COL32(10, 50, 120, 255), IM_COL32(80, 175, 190, 255), IM_COL32(45, 160, 165, 255),
        IM_COL32(30, 145, 135, 255), IM_COL32(25, 130, 105, 255), IM_COL32(20, 115, 80, 255),
        IM_COL32(15, 100, 60, 255), IM_COL32(5, 80, 40, 255), IM_COL32(240, 170, 80, 255),
        IM_COL32(230, 145, 60, 255), IM_COL32(215, 120, 45, 255), IM_COL32(195, 90, 40, 255),
        IM_COL32(165, 65, 35, 255), IM_COL32(130, 40, 30, 255), IM_COL32(95, 20, 20, 255), IM_COL32(110, 40, 120, 255), IM_COL32(75, 25, 100, 255),
        IM_COL32(60, 60, 60, 255)};
    ASSERT_EQ(std::size(ts::model::kAllKernelKinds), bars.size());
    for (std::size_t i = 0; i < bars.size(); ++i)
        EXPECT_EQ(ladder_colour(ts::model::kAllKernelKinds[i]), bars[i]) << ts::model::kernel_name(ts::model::kAllKernelKinds[i]);
}

TEST(RungTable, WithoutTheTestsTableTheNewRowIsGone) {
    {
        const auto table = table_with_a_new_rung();
        const ts::model::ScopedRungTable scoped(table);
        EXPECT_EQ(ts::model::rung_table().size(), std::size(ts::model::kRungTable) + 1);
    }
    EXPECT_EQ(ts::model::rung_table().size(), std::size(ts::model::kRungTable));
    EXPECT_EQ(ts::cli::kernel_names().find("double-buffered"), std::string::npos);
}

}  // namespace
