// The kernel ladder view (--view ladder) and what the roofline and tuning views show of the
// ladder, drawn without a window or GPU: the bars' numbers from the committed H100 measurement,
// their tooltips, the model's estimates where no GPU can say, every rung on the roofline with
// labels that do not collide, and the tuned rung's candidates from synthetic points.
#include <gtest/gtest.h>

#include "support/app_states.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "imgui_harness.hpp"
#include "imgui_internal.h"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/ladder_rungs.hpp"
#include "views/window/app_state.hpp"
#include "views/lab/lab_view.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/lab/roofline_view.hpp"
#include "views/lab/tuning_view.hpp"
#include "views/lessons/lesson_state.hpp"

using namespace ts::views;
using ts::model::KernelKind;
using ts::test::ImGuiHarness;

namespace {

class Ladder : public ::testing::Test {
protected:
    // The tuned rung's picks come from the shipped table alone, whatever this machine tuned.
    void SetUp() override { setenv("TILESCOPE_TUNING", "/nonexistent/tilescope-tuned-shapes.ini", 1); }
    void TearDown() override { unsetenv("TILESCOPE_TUNING"); }
};

AppState state_with(const std::string& gpu_part, ViewId view = ViewId::Ladder) {
    AppState state;
    state.view = view;
    for (const auto& file : committed_measurements())
        if (file.filename().string().find(gpu_part) != std::string::npos) {
            EXPECT_TRUE(load_measurement(state.lab.measured, file)) << state.lab.measured.load_error;
            return state;
        }
    ADD_FAILURE() << "no committed measurement named " << gpu_part;
    return state;
}

// A GPU that the views take as usable; nothing is ever run on it.
void give_fake_gpu(AppState& state) { ts::testing_support::give_fake_gpu(state); }

const LadderBar& bar_named(const LadderData& data, const std::string& name) {
    const auto found =
        std::find_if(data.bars.begin(), data.bars.end(), [&](const LadderBar& b) { return b.name == name; });
    EXPECT_NE(found, data.bars.end()) << name;
    return found != data.bars.end() ? *found : data.bars.front();
}

ts::record::Point synthetic_point(const std::string& config, std::int64_t size, double gflops) {
    ts::record::Point p;
    p.kernel = "tuned";
    p.config = config;
    p.m = p.n = p.k = size;
    p.dtype = "float";
    p.ok = true;
    p.gflops = gflops;
    p.median_ms = 2.0 * double(size) * double(size) * double(size) / (gflops * 1e6);
    return p;
}

TEST_F(Ladder, BarsFromTheH100MeasurementAt4096) {
    const AppState state = state_with("nvidia-h100-2026-11-24");
    EXPECT_EQ(default_ladder_size(state.lab), 4096);  // the largest size with every bar
    EXPECT_EQ(ladder_sizes(state.lab), (std::vector<int>{128, 256, 512, 1024, 2048, 4096}));
    const LadderData data = ladder_data(state);
    EXPECT_EQ(data.size, 4096);
    std::vector<std::string> names;
    for (const LadderBar& bar : data.bars) names.push_back(bar.name);
    // The tuned rung names the candidate the H100's shipped table picks above 1024: #1.
    EXPECT_EQ(names, (std::vector<std::string>{"tiled T=32", "regtile-1d", "regtile-2d", "vectorized", "conflict-free",
                                               "warptile", "pipelined", "tuned (#1)", "cuBLAS"}));
    const LadderBar& cublas = data.bars.back();
    ASSERT_NE(cublas.point, nullptr);
    EXPECT_TRUE(cublas.is_cublas);
    EXPECT_EQ(cublas.percent_of_cublas, 100.0);
    for (const LadderBar& bar : data.bars) {
        ASSERT_NE(bar.point, nullptr) << bar.name;
        EXPECT_EQ(bar.gflops, bar.point->gflops);
        EXPECT_DOUBLE_EQ(bar.percent_of_cublas, 100.0 * bar.gflops / cublas.gflops) << bar.name;
    }
    // docs/ladders.md's figures for this measurement: 17.2 % for the tiled kernel, 95.9 % for the
    // tuned rung; and at 4096³ every rung faster than the one below it.
    EXPECT_NEAR(bar_named(data, "tiled T=32").percent_of_cublas, 17.2, 0.05);
    EXPECT_NEAR(bar_named(data, "tuned (#1)").percent_of_cublas, 95.9, 0.05);
    for (std::size_t i = 1; i + 1 < data.bars.size(); ++i)
        EXPECT_GT(data.bars[i].gflops, data.bars[i - 1].gflops) << data.bars[i].name;
}

TEST_F(Ladder, IntensityComesFromTheModelsCounts) {
    const LadderData data = ladder_data(state_with("nvidia-h100-2026-11-24"), 4096);
    // FLOPs per byte of 4-byte elements when the tiles divide the sizes: 2·MNK over 4·(MNK/BN
    // loads of A + MNK/BM of B + MN stores of C), i.e. 2K / (4·(K/BN + K/BM + 1)).
    const auto expected = [](double bm, double bn) { return 2.0 * 4096 / (4.0 * (4096 / bn + 4096 / bm + 1)); };
    EXPECT_NEAR(bar_named(data, "tiled T=32").counts.intensity, expected(32, 32), 1e-9);
    EXPECT_NEAR(bar_named(data, "regtile-1d").counts.intensity, expected(64, 64), 1e-9);
    for (const char* name : {"regtile-2d", "vectorized", "conflict-free", "warptile", "pipelined"})
        EXPECT_NEAR(bar_named(data, name).counts.intensity, expected(128, 128), 1e-9) << name;
    EXPECT_NEAR(bar_named(data, "tuned (#1)").counts.intensity, expected(128, 256), 1e-9);
    EXPECT_EQ(data.bars.back().counts.intensity, 0.0);  // cuBLAS: not modelled
    // Two shared loads per FMA in the tiled kernel; 9 per 8 with a column of 8 cells.
    EXPECT_NEAR(bar_named(data, "tiled T=32").counts.shared_loads_per_fma, 2.0, 1e-9);
    EXPECT_NEAR(bar_named(data, "regtile-1d").counts.shared_loads_per_fma, 9.0 / 8.0, 1e-9);
    EXPECT_NEAR(bar_named(data, "regtile-2d").counts.shared_loads_per_fma, 16.0 / 64.0, 1e-9);
}

TEST_F(Ladder, WithoutAGpuRegistersAndOccupancyAreMarkedEstimates) {
    const LadderData data = ladder_data(state_with("nvidia-h100-2026-11-24"), 4096);
    EXPECT_TRUE(data.estimates);
    for (const LadderBar& bar : data.bars) {
        if (bar.is_cublas) {
            EXPECT_EQ(bar.registers_text, "–");
            continue;
        }
        EXPECT_FALSE(bar.from_compiled) << bar.name;
        EXPECT_GT(bar.registers, 0) << bar.name;
        EXPECT_EQ(bar.registers_text, "~" + std::to_string(bar.registers)) << bar.name;
        EXPECT_TRUE(bar.occupancy_text.starts_with("~")) << bar.occupancy_text;
        EXPECT_GT(bar.occupancy, 0.0) << bar.name;
    }
    // The tiled kernel fits the register budget of full occupancy: 32 per thread on an H100.
    EXPECT_EQ(bar_named(data, "tiled T=32").registers, 32);
    EXPECT_EQ(bar_named(data, "tiled T=32").occupancy_text, "~100 %");
}

TEST_F(Ladder, CompiledKernelsReplaceTheEstimateOnAGpu) {
    ImGuiHarness ui;
    AppState state = state_with("nvidia-h100-2026-11-24");
    give_fake_gpu(state);
    // Drawing asks CUDA about each rung's compiled kernel once: an Occupancy request for each of
    // the FP32 ladder's eight rungs and the tensor cores' six.
    ui.frame([&] { draw_ladder_view(state.lab, state, ImVec2(1200, 900)); });
    std::vector<std::string> asked;
    for (const auto& [key, request] : state.lab.measured.to_submit)
        if (key.starts_with("ladder-occupancy/")) {
            EXPECT_EQ(request.kind, ts::gpu::RequestKind::Occupancy);
            EXPECT_EQ(request.problem.m, 4096);
            asked.push_back(key);
        }
    // The tensor-core ladder's FP8 rungs too, in fp8.
    EXPECT_EQ(asked.size(), ts::model::ladder_rungs().size() + ts::model::ladder_rungs(ts::model::Ladder::TensorCores).size());
    EXPECT_TRUE(std::any_of(asked.begin(), asked.end(),
                            [](const std::string& key) { return key.starts_with("ladder-occupancy/persistent"); }));
    EXPECT_NE(std::find(asked.begin(), asked.end(), "ladder-occupancy/tuned float 4096"), asked.end());
    const std::size_t queued = state.lab.measured.to_submit.size();
    ui.frame([&] { draw_ladder_view(state.lab, state, ImVec2(1200, 900)); });
    EXPECT_EQ(state.lab.measured.to_submit.size(), queued);  // not asked again

    // CUDA's answer for regtile-2d: 118 registers, as on the H100. 256 threads × 118
    // registers leave room for 2 blocks of 8 warps of the SM's 64: 25 %.
    ts::gpu::RunResult result;
    result.ok = true;
    result.request.kind = ts::gpu::RequestKind::Occupancy;
    result.request.kernel.kind = KernelKind::RegTile2d;
    result.request.problem = {4096, 4096, 4096, 1, ts::model::Dtype::Float32};
    result.occupancy = ts::gpu::KernelOccupancy{118, 0, 0, 256, 2};
    take_live_result(state.lab.measured, state.lab.panels, result);
    // And for the tuned rung, which ran candidate #4 here (a user's table, say).
    result.request.kernel.kind = KernelKind::Tuned;
    result.tuned_variant = 4;
    result.occupancy = ts::gpu::KernelOccupancy{128, 0, 0, 256, 2};
    take_live_result(state.lab.measured, state.lab.panels, result);

    const LadderData data = ladder_data(state, 4096);
    const LadderBar& regtile = bar_named(data, "regtile-2d");
    EXPECT_TRUE(regtile.from_compiled);
    EXPECT_EQ(regtile.registers_text, "118");
    EXPECT_EQ(regtile.occupancy_text, "25 %");
    const LadderBar& tuned = bar_named(data, "tuned (#4)");
    EXPECT_EQ(tuned.kernel.variant, 4);
    EXPECT_EQ(tuned.registers_text, "128");
    EXPECT_TRUE(data.estimates);  // the other rungs still wait for their answers
}

TEST_F(Ladder, HoverSaysWhatChangedAndComparesTheCountsWithTheMeasurement) {
    const LadderData data = ladder_data(state_with("nvidia-h100-2026-11-24"), 4096);
    const LadderBar& base = bar_named(data, "tiled T=32");
    EXPECT_NE(base.hover.find("kernels/05_tiled.cu"), std::string::npos) << base.hover;
    EXPECT_EQ(base.hover.find("Predicted"), std::string::npos) << base.hover;  // nothing below it

    const LadderBar& below = bar_named(data, "regtile-1d");
    const LadderBar& bar = bar_named(data, "regtile-2d");
    EXPECT_NE(bar.hover.find("regtile-2d  (kernels/07_regtile_2d.cu)"), std::string::npos) << bar.hover;
    EXPECT_NE(bar.hover.find("8×8 register tile"), std::string::npos) << bar.hover;  // what changed
    EXPECT_NE(bar.hover.find("0.25 shared loads per FMA (" + ts::model::fixed(9.0 / 8.0, 2) + ")"), std::string::npos)
        << bar.hover;
    const double predicted = ts::model::predicted_speedup(below.counts, bar.counts);
    EXPECT_GT(predicted, 1.0);
    EXPECT_NE(bar.hover.find("Predicted from the counts: " + ts::model::fixed(predicted, 2) + "× over regtile-1d"),
              std::string::npos)
        << bar.hover;
    EXPECT_NE(bar.hover.find("Measured: " + ts::model::fixed(bar.gflops / below.gflops, 2) + "× over regtile-1d"),
              std::string::npos)
        << bar.hover;
    EXPECT_NE(bar.hover.find(ts::model::fixed(bar.percent_of_cublas, 1) + " % of cuBLAS"), std::string::npos);

    // Where the gain is not in the counts, the text says so and the counts predict no gain.
    const LadderBar& conflict_free = bar_named(data, "conflict-free");
    EXPECT_NE(conflict_free.hover.find("bank conflicts are not in them"), std::string::npos);
    EXPECT_NE(conflict_free.hover.find("Predicted from the counts: 1.00×"), std::string::npos) << conflict_free.hover;
    EXPECT_NE(bar_named(data, "tuned (#1)").hover.find("candidate #1: 128×256×8"), std::string::npos);
    EXPECT_NE(data.bars.back().hover.find("The tuned rung reaches 95.9 % of it"), std::string::npos)
        << data.bars.back().hover;
}

TEST_F(Ladder, HoveringABarShowsItsTooltip) {
    ImGuiHarness ui;
    AppState state = state_with("nvidia-h100-2026-11-24");
    const auto draw = [&](ImVec2 mouse) {
        std::string text;
        for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_ladder_view(state.lab, state, ImVec2(1200, 900)); }, mouse);
        return text;
    };
    const std::string plain = draw(ImVec2(-FLT_MAX, -FLT_MAX));
    EXPECT_NE(plain.find("The kernel ladders at 4096³: FP32, then tensor cores"), std::string::npos) << plain;
    // The tensor cores' panel is there, its bars not measured in a measurement of 2026-11-24.
    EXPECT_NE(plain.find("The tensor cores' ladder"), std::string::npos) << plain;
    EXPECT_NE(plain.find("measured on NVIDIA H100 80GB HBM3, 2026-11-24"), std::string::npos) << plain;
    EXPECT_NE(plain.find("~ marks the model's estimate"), std::string::npos) << plain;
    EXPECT_FALSE(ui.tooltip_open());
    // Down the rows until the regtile-2d bar's tooltip opens.
    bool found = false;
    for (float y = 0; y < 900 && !found; y += 4) {
        const std::string text = draw(ImVec2(300, y));
        found = ui.tooltip_open() && text.find("kernels/07_regtile_2d.cu") != std::string::npos;
    }
    EXPECT_TRUE(found);
}

TEST_F(Ladder, ViewDrawsInTheLabLayoutAndKeysSwitchToIt) {
    ImGuiHarness ui;
    AppState state = state_with("nvidia-h100-2026-11-24");
    ts::gpu::DeviceInfo none;
    none.why_not = "no CUDA device: a test";
    state.device = none;
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
    EXPECT_NE(text.find("The kernel ladder"), std::string::npos) << text;
    EXPECT_NE(text.find("Measure the ladders on this GPU (4096³)"), std::string::npos) << text;
    EXPECT_NE(text.find("Measuring needs a CUDA GPU: no CUDA device: a test; the bars come from the measurement."),
              std::string::npos)
        << text;
    EXPECT_EQ(parse_view("ladder"), ViewId::Ladder);
    EXPECT_EQ(view_name(ViewId::Ladder), "ladder");
}

// The lab view's scroll, read from ImGui's own window (the view draws in the child "##lab_plot").
float lab_scroll_y() {
    for (const ImGuiWindow* window : GImGui->Windows)
        if (std::string_view(window->Name).find("##lab_plot") != std::string_view::npos) return window->Scroll.y;
    ADD_FAILURE() << "no ##lab_plot window";
    return -1.0f;
}

// Presses `key` for one frame of the lab view and lets it go the next.
void press(ImGuiHarness& ui, AppState& state, ts::imgui_compat::Key key) {
    ts::imgui_compat::set_key_down(ImGui::GetIO(), key, true);
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    ts::imgui_compat::set_key_down(ImGui::GetIO(), key, false);
    ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
}

// Both ladders are taller than a short screen: the keys scroll the view, and a clicker's PageDown
// brings the tensor cores' ladder up, unless a lesson is open, whose steps PageDown turns.
TEST_F(Ladder, KeysScrollTheLaddersAndPageDownLeavesAnOpenLessonItsSteps) {
    namespace keys = ts::imgui_compat::keys;
    ImGuiHarness ui(ImVec2(1000, 420));
    AppState state = state_with("nvidia-h200-2026-11-26");
    for (int i = 0; i < 3; ++i) ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_EQ(lab_scroll_y(), 0.0f);
    press(ui, state, keys::kPageDown);
    const float page = lab_scroll_y();
    EXPECT_GT(page, 100.0f);
    press(ui, state, keys::kEnd);
    const float bottom = lab_scroll_y();
    EXPECT_GT(bottom, page);
    press(ui, state, keys::kPageUp);
    EXPECT_NEAR(lab_scroll_y(), std::max(bottom - page, 0.0f), 1.0f);
    press(ui, state, keys::kHome);
    EXPECT_EQ(lab_scroll_y(), 0.0f);
    press(ui, state, keys::kDown);
    EXPECT_GT(lab_scroll_y(), 0.0f);
    press(ui, state, keys::kHome);

    // A lesson on its card, the view left where it is (open_lesson would switch to the lesson's).
    auto loaded = load_lesson(ts::lessons::lessons_dir() / "04-tiling.lesson");
    ASSERT_TRUE(std::holds_alternative<ts::lessons::Lesson>(loaded));
    state.lesson.lesson = std::get<ts::lessons::Lesson>(loaded);
    press(ui, state, keys::kPageDown);
    EXPECT_EQ(lab_scroll_y(), 0.0f);
    press(ui, state, keys::kEnd);
    EXPECT_EQ(lab_scroll_y(), bottom);
}

TEST_F(Ladder, TheChosenSizeAndLivePointsChangeTheBars) {
    AppState state = state_with("nvidia-h100-2026-11-24");
    state.lab.choices.ladder_size = 1024;
    LadderData data = ladder_data(state);
    EXPECT_EQ(data.size, 1024);
    EXPECT_EQ(bar_named(data, "tuned (#3)").kernel.variant, 3);  // the H100's pick at 1024
    // A live point replaces the recorded one.
    ts::gpu::RunResult result;
    result.ok = true;
    result.request.kernel.kind = KernelKind::RegTile2d;
    result.request.problem = {1024, 1024, 1024, 1, ts::model::Dtype::Float32};
    result.median_ms = 1.0;
    result.gflops = 2147.48;
    take_live_result(state.lab.measured, state.lab.panels, result);
    data = ladder_data(state);
    EXPECT_EQ(bar_named(data, "regtile-2d").gflops, 2147.48);
}

TEST_F(Ladder, MeasureQueuesEveryRungAndCublas) {
    const std::vector<ts::gpu::RunRequest> requests = ladder_requests(2048);
    ASSERT_EQ(requests.size(), ts::model::ladder_rungs().size() + 1);
    for (std::size_t i = 0; i < ts::model::ladder_rungs().size(); ++i)
        EXPECT_EQ(ts::model::describe(requests[i].kernel), ts::model::describe(ts::model::ladder_rungs()[i].kernel));
    EXPECT_EQ(requests.back().kernel.kind, KernelKind::Cublas);
    for (const ts::gpu::RunRequest& r : requests) {
        EXPECT_EQ(r.problem.m, 2048);
        EXPECT_EQ(r.problem.k, 2048);
        EXPECT_EQ(r.problem.dtype, ts::model::Dtype::Float32);
        EXPECT_EQ(r.kind, ts::gpu::RequestKind::Measure);
        EXPECT_TRUE(r.adaptive);
    }
    EXPECT_EQ(requests.front().kernel.tile, 32);
}

// The tensor-core ladder from synthetic BF16 points: TFLOP/s, % of cuBLAS BF16, the model's block
// counts in the tooltip, and the sweep that measures both ladders.
TEST_F(Ladder, TheTensorCoresHaveTheirOwnLadder) {
    AppState state = state_with("nvidia-h100-2026-11-24");
    const double rates[] = {120000, 125000, 250000, 480000, 560000, 640000, 650000};
    for (std::size_t i = 0; i < ts::model::tensor_core_rungs().size(); ++i) {
        ts::record::Point p = synthetic_point(ts::model::describe(ts::model::tensor_core_rungs()[i].kernel), 4096, rates[i]);
        p.dtype = "bf16";
        // A measurement says which candidate tc-tuned ran (the table may pick another today).
        if (ts::model::tensor_core_rungs()[i].kernel.kind == KernelKind::TcTuned) p.ran_candidate = 2;
        state.lab.measured.measurement->points.push_back(p);
    }
    ts::record::Point cublas = synthetic_point("cublas", 4096, 700000);
    cublas.dtype = "bf16";
    state.lab.measured.measurement->points.push_back(cublas);

    const LadderData data = ladder_data(state, 4096, ts::views::Ladder::TensorCores);
    EXPECT_EQ(data.dtype, "bf16");
    // Seven 16-bit rungs, the two FP8 rungs (in fp8, not measured here), cuBLAS BF16.
    ASSERT_EQ(data.bars.size(), 10u);
    EXPECT_EQ(data.bars.front().name, "wmma");
    EXPECT_EQ(data.bars[5].name, "persistent");
    EXPECT_EQ(data.bars[7].name, "fp8");
    EXPECT_EQ(data.bars[8].name, "fp8-blocks");
    EXPECT_EQ(data.bars[8].point, nullptr);
    EXPECT_NE(data.bars[8].hover.find("In fp8: e4m3 inputs with block scales"), std::string::npos) << data.bars[8].hover;
    EXPECT_EQ(data.bars.back().name, "cuBLAS BF16");
    EXPECT_NEAR(data.bars[5].percent_of_cublas, 100.0 * 640000 / 700000, 1e-9);
    // 18's blocks: 128×256 in clusters of two sharing B, so B is read once per 256 rows of C.
    const LadderBar& persistent = data.bars[5];
    EXPECT_NEAR(persistent.counts.intensity, 4096.0 * 4096 * 4096 / (4096.0 * 4096 * 16 + 4096.0 * 4096 * 16), 1e-9);
    EXPECT_NE(persistent.hover.find("kernels/18_persistent.cu"), std::string::npos) << persistent.hover;
    EXPECT_NE(persistent.hover.find("640 TFLOP/s, 91.4 % of cuBLAS"), std::string::npos) << persistent.hover;
    EXPECT_NE(persistent.hover.find("128×256 block tiles in clusters of 2 sharing B"), std::string::npos)
        << persistent.hover;
    EXPECT_NE(persistent.hover.find("Measured: 1.14× over warp-specialized"), std::string::npos) << persistent.hover;
    // The counts' prediction: 128×256 tiles (85.3 FLOP/B) to the same tiles in clusters sharing B
    // (128): 1.5× were global traffic the limit; measured 1.14×, so the hover says where they part.
    EXPECT_NE(persistent.hover.find("Predicted from the counts, were global traffic the limit: 1.50× over "
                                    "warp-specialized (85.3 → 128.0 FLOP/B)"),
              std::string::npos)
        << persistent.hover;
    EXPECT_NE(persistent.hover.find("Where the two part"), std::string::npos) << persistent.hover;
    // mma-async keeps mma's tiles: no change in traffic, 1× predicted; measured 2×.
    EXPECT_NE(data.bars[2].hover.find("1.00× over mma (64.0 → 64.0 FLOP/B)"), std::string::npos) << data.bars[2].hover;
    // 19 as recorded: the candidate that ran, its shape in the hover.
    const LadderBar& tc_tuned = data.bars[6];
    EXPECT_EQ(tc_tuned.name, "tc-tuned (#2)");
    EXPECT_EQ(tc_tuned.kernel.variant, 2);
    EXPECT_NE(tc_tuned.hover.find("At 4096³ it runs candidate #2: 128×256×64, 3 stages, no cluster"), std::string::npos)
        << tc_tuned.hover;
    EXPECT_EQ(tc_tuned.hover.find("does not say which candidate ran"), std::string::npos) << tc_tuned.hover;
    // A measurement from before points kept their candidate: today's table answers, and says so.
    state.lab.measured.measurement->points[state.lab.measured.measurement->points.size() - 2].ran_candidate.reset();
    const LadderBar unsure = ladder_data(state, 4096, ts::views::Ladder::TensorCores).bars[6];
    EXPECT_EQ(unsure.name, "tc-tuned (#4)") << "the shipped table's pick for an H100 at 4096³";
    EXPECT_NE(unsure.hover.find("does not say which candidate ran"), std::string::npos) << unsure.hover;
    EXPECT_NE(data.bars.back().hover.find("The tc-tuned rung reaches 92.9 % of it"), std::string::npos)
        << data.bars.back().hover;
    // The view's line between the panels puts the two cuBLAS lines side by side.
    ImGuiHarness ui;
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_ladder_view(state.lab, state, ImVec2(1200, 900)); });
    EXPECT_NE(text.find("here cuBLAS runs"), std::string::npos) << text;

    // Measuring sweeps both ladders, FP32 first, each with its cuBLAS.
    const std::vector<ts::gpu::RunRequest> both = both_ladders_requests(2048);
    ASSERT_EQ(both.size(),
              ts::model::ladder_rungs().size() + 1 + ts::model::ladder_rungs(ts::model::Ladder::TensorCores).size() + 1);
    const auto fp8 = std::find_if(both.begin(), both.end(),
                                  [](const ts::gpu::RunRequest& r) { return r.kernel.kind == KernelKind::Fp8Blocks; });
    ASSERT_NE(fp8, both.end());
    EXPECT_EQ(fp8->problem.dtype, ts::model::Dtype::Fp8E4M3);
    EXPECT_EQ(fp8->problem.fp8_scaling, ts::model::Fp8Scaling::Block);
    EXPECT_EQ(both.back().kernel.kind, KernelKind::Cublas);
    EXPECT_EQ(both.back().problem.dtype, ts::model::Dtype::BFloat16);
    EXPECT_EQ(both.front().problem.dtype, ts::model::Dtype::Float32);
}

TEST_F(Ladder, RooflinePlotsEveryRung) {
    ImGuiHarness ui;
    AppState state = state_with("nvidia-h200-2026-11-24", ViewId::Roofline);
    const std::vector<RooflineMark> marks = roofline_marks(state);
    std::vector<std::string> rungs;
    for (const RooflineMark& m : marks)
        if (m.rung) rungs.push_back(m.name);
    EXPECT_EQ(rungs, (std::vector<std::string>{"tiled T=32", "regtile-1d", "regtile-2d", "vectorized", "conflict-free",
                                               "warptile", "pipelined", "tuned (#1)"}));
    for (const RooflineMark& m : marks) {
        EXPECT_GT(m.intensity, 0.0) << m.name;
        EXPECT_GT(m.gflops, 0.0) << m.name;
    }
    const auto mark = [&](const std::string& name) {
        const auto found = std::find_if(marks.begin(), marks.end(), [&](const RooflineMark& m) { return m.name == name; });
        EXPECT_NE(found, marks.end()) << name;
        return found != marks.end() ? *found : RooflineMark{};
    };
    // At 2048³: 2K / (4·(K/BN + K/BM + 1)), as the ladder view's column.
    EXPECT_NEAR(mark("regtile-2d").intensity, 2.0 * 2048 / (4.0 * (16 + 16 + 1)), 1e-9);
    EXPECT_NEAR(mark("regtile-1d").intensity, 2.0 * 2048 / (4.0 * (32 + 32 + 1)), 1e-9);
    EXPECT_EQ(mark("tuned (#1)").colour, ladder_colour(KernelKind::Tuned));

    // Drawn as one series joined in the order of the climb, each point's tooltip naming its rung.
    for (int i = 0; i < 2; ++i) ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    const auto& series = state.lab.choices.roofline_plot.series;
    const auto ladder =
        std::find_if(series.begin(), series.end(), [](const PlotSeries& s) { return s.name.starts_with("kernel ladder"); });
    ASSERT_NE(ladder, series.end());
    ASSERT_EQ(ladder->points.size(), rungs.size());
    for (std::size_t i = 0; i < rungs.size(); ++i) {
        EXPECT_TRUE(ladder->points[i].note.starts_with(rungs[i] + ": ")) << ladder->points[i].note;
        EXPECT_NE(ladder->points[i].note.find("FLOP/B (model)"), std::string::npos);
    }
    EXPECT_TRUE(std::any_of(series.begin(), series.end(), [](const PlotSeries& s) { return s.name == "naive 32×32"; }));
}

// Energy instead of time: the bars' length and label become TFLOP per joule against cuBLAS's, the
// tooltip gives joules per matmul, the roofline's heights GFLOP/J; a rung measured without energy says
// so rather than drawing a bar of nothing. The ladder's own sweep asks for the energy.
TEST_F(Ladder, EnergyReplacesSpeedInTheBarsAndTheRoofline) {
    ImGuiHarness ui;
    AppState state = state_with("nvidia-h100-2026-11-24");
    const auto with_energy = [&](const std::string& config, std::int64_t size, double gflops, double joules) {
        ts::record::Point p = synthetic_point(config, size, gflops);
        p.kernel = config;
        p.joules_per_matmul = joules;
        p.tflop_per_j = 2.0 * double(size) * double(size) * double(size) / joules * 1e-12;
        p.avg_watts = 600.0;
        p.energy_sm_clock_mhz = 1755;
        p.energy_note = "synthetic";
        state.lab.measured.measurement->points.push_back(p);
    };
    // After the recorded points of the same size: the last point of a kernel and size is the one shown.
    with_energy("tiled T=32", 2048, 9000.0, 4.0);
    with_energy("cublas", 2048, 50000.0, 1.0);
    state.lab.choices.ladder_size = 2048;
    state.lab.choices.metric = LadderMetric::Energy;
    const LadderData data = ladder_data(state);
    const LadderBar& tiled = bar_named(data, "tiled T=32");
    EXPECT_NEAR(tiled.tflop_per_j, 2.0 * 2048.0 * 2048.0 * 2048.0 / 4.0 * 1e-12, 1e-9);
    EXPECT_NEAR(tiled.energy_percent_of_cublas, 25.0, 1e-9);  // four times cuBLAS's joules
    EXPECT_NE(tiled.hover.find("Energy: 4.00 J per matmul"), std::string::npos) << tiled.hover;
    EXPECT_EQ(bar_named(data, "regtile-1d").tflop_per_j, 0.0);  // the recorded point has no energy
    state.view = ViewId::Ladder;
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_NE(text.find("work per joule"), std::string::npos) << text;
    EXPECT_NE(text.find("Under a power cap"), std::string::npos) << text;

    state.view = ViewId::Roofline;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_NE(text.find("in energy"), std::string::npos) << text;
    const Plot& plot = state.lab.choices.roofline_energy_plot;
    EXPECT_EQ(plot.y.unit, "GFLOP/J");
    const auto ladder =
        std::find_if(plot.series.begin(), plot.series.end(), [](const PlotSeries& s) { return s.name == "kernel ladder"; });
    ASSERT_NE(ladder, plot.series.end());
    ASSERT_EQ(ladder->points.size(), 1u);  // tiled T=32 alone has energy at 2048³
    EXPECT_NEAR(ladder->points[0].y, 2.0 * 2048.0 * 2048.0 * 2048.0 / 4.0 * 1e-9, 1e-6);
    EXPECT_TRUE(std::any_of(plot.series.begin(), plot.series.end(),
                            [](const PlotSeries& s) { return s.name.starts_with("cuBLAS (level only"); }));

    for (const ts::gpu::RunRequest& r : ladder_requests(2048)) EXPECT_TRUE(r.energy);
}

TEST_F(Ladder, RooflineLabelsNeverOverlap) {
    // Five rungs at one intensity and nearly one speed, and two others nearby.
    const std::vector<ImVec2> anchors = {{600, 300}, {600, 304}, {600, 309}, {600, 311}, {600, 316}, {560, 330}, {640, 290}};
    const std::vector<ImVec2> sizes(anchors.size(), ImVec2(110, 17));
    const ImVec2 area_min(100, 50), area_max(800, 600);
    const auto labels = place_roofline_labels(anchors, sizes, area_min, area_max, 2.0f);
    ASSERT_EQ(labels.size(), anchors.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        EXPECT_GE(labels[i].min.y, area_min.y);
        EXPECT_LE(labels[i].max.y, area_max.y);
        EXPECT_LE(labels[i].max.x, area_max.x);
        EXPECT_NEAR(labels[i].max.x - labels[i].min.x, 110.0f, 0.01f);
        for (std::size_t j = 0; j < i; ++j) {
            const bool apart = labels[i].min.x >= labels[j].max.x || labels[j].min.x >= labels[i].max.x ||
                               labels[i].min.y >= labels[j].max.y || labels[j].min.y >= labels[i].max.y;
            EXPECT_TRUE(apart) << i << " and " << j;
        }
    }
    // A point near the right edge gets its label on its left.
    const std::vector<ImVec2> edge = {{790, 200}};
    const std::vector<ImVec2> edge_size = {{110, 17}};
    EXPECT_LT(place_roofline_labels(edge, edge_size, area_min, area_max, 2.0f)[0].max.x, 790.0f);
}

// More labels near the top of a short plot than fit above one another on one side (the
// tensor-core rungs in presenter mode): some go to the other side of their points, none overlap
// and none leaves the plot. In a plot too small for them all, the names without room are not
// shown rather than drawn over others.
TEST_F(Ladder, RooflineLabelsOfACrowdedColumnStayInsideAndApart) {
    const std::vector<ImVec2> anchors = {{600, 62}, {604, 64}, {608, 66}, {612, 70}, {600, 80}, {600, 90}, {600, 100}, {596, 104}};
    const std::vector<ImVec2> sizes(anchors.size(), ImVec2(110, 30));
    const auto check = [&](ImVec2 area_min, ImVec2 area_max) {
        const auto labels = place_roofline_labels(anchors, sizes, area_min, area_max, 2.0f);
        int shown = 0, left = 0;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (!labels[i].shown) continue;
            ++shown;
            left += labels[i].max.x <= anchors[i].x;
            EXPECT_GE(labels[i].min.y, area_min.y) << i;
            EXPECT_LE(labels[i].max.y, area_max.y) << i;
            EXPECT_GE(labels[i].min.x, area_min.x) << i;
            EXPECT_LE(labels[i].max.x, area_max.x) << i;
            for (std::size_t j = 0; j < i; ++j) {
                if (!labels[j].shown) continue;
                const bool apart = labels[i].min.x >= labels[j].max.x || labels[j].min.x >= labels[i].max.x ||
                                   labels[i].min.y >= labels[j].max.y || labels[j].min.y >= labels[i].max.y;
                EXPECT_TRUE(apart) << i << " and " << j;
            }
        }
        return std::pair(shown, left);
    };
    // 210 pixels high: 8 labels of 30 do not fit on one side, and do on two.
    const auto [shown, left] = check(ImVec2(100, 50), ImVec2(800, 260));
    EXPECT_EQ(shown, 8);
    EXPECT_GT(left, 0);
    // 70 pixels high and 260 wide: two labels a side at most.
    const auto [few, unused] = check(ImVec2(460, 50), ImVec2(720, 120));
    EXPECT_GE(few, 2);
    EXPECT_LE(few, 4);
}

TEST_F(Ladder, CandidateHeatMapFromSyntheticPoints) {
    AppState state;
    state.view = ViewId::Tuning;
    // #1 fastest at 2048 and 4096, #3 at 1024; #2 not measured at 4096.
    const double rates[5][3] = {{20000, 40000, 42000}, {25000, 48000, 50000}, {22000, 44000, 0}, {32000, 41000, 40000},
                                {21000, 45000, 47000}};
    const int sizes[3] = {1024, 2048, 4096};
    for (int v = 0; v < 5; ++v)
        for (int s = 0; s < 3; ++s)
            if (rates[v][s] > 0)
                state.lab.measured.live_points.push_back(synthetic_point(ts::model::format_text("tuned #{}", v), sizes[s], rates[v][s]));
    const CandidateData data = candidate_data(state.lab, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(data.sizes, (std::vector<int>{1024, 2048, 4096}));
    ASSERT_EQ(data.cells.size(), 15u);
    EXPECT_TRUE(data.any_measured);
    EXPECT_EQ(data.best, (std::vector<int>{3, 1, 1}));
    EXPECT_EQ(data.picks, (std::vector<int>{3, 1, 1}));  // the shipped table's H100 rows
    EXPECT_EQ(data.pick_source, "shipped table");
    EXPECT_DOUBLE_EQ(data.at(1, 1).relative, 1.0);
    EXPECT_DOUBLE_EQ(data.at(0, 1).relative, 40000.0 / 48000.0);
    EXPECT_DOUBLE_EQ(data.at(4, 2).relative, 47000.0 / 50000.0);
    EXPECT_EQ(data.at(2, 2).point, nullptr);
    EXPECT_EQ(data.at(2, 2).relative, 0.0);
    // Another GPU falls back to candidate 0 everywhere.
    EXPECT_EQ(candidate_data(state.lab, "Some Other GPU").picks, (std::vector<int>{0, 0, 0}));

    ImGuiHarness ui;
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_NE(text.find("The tuned rung's candidates (float)"), std::string::npos) << text;
    EXPECT_EQ(text.find("Not measured yet"), std::string::npos) << text;
}

TEST_F(Ladder, CandidateHeatMapWithoutPointsSaysHowToFillIt) {
    ImGuiHarness ui;
    AppState state = state_with("nvidia-h100-2026-11-24", ViewId::Tuning);  // the measurement has no candidates yet
    const CandidateData data = candidate_data(state.lab, "NVIDIA H100 80GB HBM3");
    EXPECT_FALSE(data.any_measured);
    EXPECT_EQ(data.best, (std::vector<int>{-1, -1, -1}));
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_NE(text.find("Not measured yet: Measure on a GPU"), std::string::npos) << text;
    EXPECT_NE(text.find("load a measurement that has them"), std::string::npos) << text;

    // On a GPU the button measures every candidate at every size.
    give_fake_gpu(state);
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    EXPECT_NE(text.find("Measure the candidates"), std::string::npos) << text;
    const std::vector<ts::gpu::RunRequest> requests = candidate_requests();
    ASSERT_EQ(requests.size(), 15u);
    for (const ts::gpu::RunRequest& r : requests) {
        EXPECT_EQ(r.kernel.kind, KernelKind::Tuned);
        EXPECT_GE(r.kernel.variant, 0);
        EXPECT_LT(r.kernel.variant, ts::model::kTunedCandidateCount);
        EXPECT_EQ(r.problem.dtype, ts::model::Dtype::Float32);
    }
    EXPECT_EQ(ts::model::describe(requests.back().kernel), "tuned #4");
}

}  // namespace

// Each label goes inside its bar or after it, never past the bars' width: the full bar shortens
// until that holds. Room 1000 and padding 10: a label fits inside a bar 8 wider than itself, or
// after a bar that ends by 1000 − 4 − its width. The lengths tried step down by 2.5 from the full.
TEST(LadderBars, TheFullBarLeavesEveryLabelRoom) {
    using ts::views::longest_bar_fitting_labels;
    // Every label inside its bar at the full length: the full length.
    EXPECT_FLOAT_EQ(longest_bar_fitting_labels(std::vector<float>{300, 300}, std::vector<float>{0.4f, 1.0f}, 990, 1000, 10, 40),
                    990.0f);
    // The half bar (495) cannot hold 600 inside, nor end by 396 to take it after: at 790 it ends
    // at 395, while the full bar still holds its 300 inside.
    EXPECT_FLOAT_EQ(longest_bar_fitting_labels(std::vector<float>{600, 300}, std::vector<float>{0.5f, 1.0f}, 990, 1000, 10, 40),
                    790.0f);
    // Labels of 700: the 60 % bar takes its label after it only from 493 down, and the full bar
    // holds its own neither inside (708) nor after until it ends by 296: 295. Not allowed below
    // 400, nothing fits.
    EXPECT_FLOAT_EQ(longest_bar_fitting_labels(std::vector<float>{700, 700}, std::vector<float>{0.6f, 1.0f}, 990, 1000, 10, 40),
                    295.0f);
    EXPECT_EQ(longest_bar_fitting_labels(std::vector<float>{700, 700}, std::vector<float>{0.6f, 1.0f}, 990, 1000, 10, 400),
              0.0f);
    // A bar with no label to place (share 0: not measured, or failed) does not count.
    EXPECT_FLOAT_EQ(longest_bar_fitting_labels(std::vector<float>{5000, 300}, std::vector<float>{0.0f, 1.0f}, 990, 1000, 10, 40),
                    990.0f);
}
