// The setup panel, run panel and status bar, drawn without a window; the checks read the
// text ImGui would have put on screen.
#include <gtest/gtest.h>


#include "gpu/clock_watch.hpp"
#include "imgui_harness.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "views/window/app_state.hpp"
#include "views/window/run_panel.hpp"
#include "views/common/text.hpp"
#include "views/window/setup_panel.hpp"
#include "views/window/status_bar.hpp"

namespace {

using ts::views::AppState;

ts::gpu::DeviceInfo no_device() {
    ts::gpu::DeviceInfo info;
    info.why_not = "no CUDA device: cudaGetDeviceCount returned 100 (no CUDA-capable device is detected)";
    return info;
}

ts::gpu::DeviceInfo h100() {
    ts::gpu::DeviceInfo info;
    info.usable = true;
    info.limits.name = "NVIDIA H100 80GB HBM3";
    info.limits.is_preset = false;
    info.limits.sm_count = 132;
    info.limits.compute_major = 9;
    info.limits.compute_minor = 0;
    info.limits.global_memory_bytes = 80LL << 30;
    return info;
}

TEST(StatusBar, SaysModelModeWhenTheRunnerHasNoDevice) {
    const std::string text = ts::views::device_status(no_device());
    EXPECT_EQ(text, no_device().why_not + " — model mode");
}

TEST(StatusBar, AddsWhatTheBackendLeftOut) {
    ts::gpu::DeviceInfo info;
    info.why_not = "TileScope was built without CUDA (nvcc not found at build time) — model mode";
    EXPECT_EQ(ts::views::device_status(info),
              "no CUDA device: TileScope was built without CUDA (nvcc not found at build time) — model mode");
}

TEST(StatusBar, ShowsProbingThenTheGpu) {
    EXPECT_EQ(ts::views::device_status(std::nullopt), "probing GPU…");
    const std::string text = ts::views::device_status(h100());
    EXPECT_NE(text.find("NVIDIA H100 80GB HBM3"), std::string::npos) << text;
    EXPECT_NE(text.find("132 SMs"), std::string::npos) << text;
    EXPECT_NE(text.find("80.0 GiB"), std::string::npos) << text;
}

TEST(StatusBar, DrawsTheStatus) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.device = no_device();
    const std::string text = imgui.frame([&] { ts::views::draw_status_bar(state); });
    EXPECT_NE(text.find("model mode"), std::string::npos) << text;
}

// A notice the full device line would push off the bar gets its room: the line goes short.
TEST(StatusBar, ALongDeviceLineGoesShortForANotice) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.device = no_device();
    const std::string full = ts::views::device_status(state.device);
    EXPECT_EQ(ts::views::short_device_status(state.device), "no CUDA device — model mode");
    EXPECT_EQ(ts::views::short_device_status(h100()), "GPU: NVIDIA H100 80GB HBM3");
    state.presentation.notice = std::string(200, 'n');
    const std::string text = imgui.frame([&] { ts::views::draw_status_bar(state); });
    EXPECT_EQ(text.find(full), std::string::npos) << text;
    EXPECT_NE(text.find("no CUDA device — model mode"), std::string::npos) << text;
    EXPECT_NE(text.find(state.presentation.notice), std::string::npos) << text;
    // Without a notice, the whole line.
    state.presentation.notice.clear();
    EXPECT_NE(imgui.frame([&] { ts::views::draw_status_bar(state); }).find(full), std::string::npos);
}

// On its own too: a reason longer than the window (2× text, presenter mode) would run off it.
TEST(StatusBar, ALongDeviceLineGoesShortWhereItWouldRunOffTheWindow) {
    ts::test::ImGuiHarness imgui(ImVec2(500, 300));
    AppState state;
    state.device = no_device();
    state.device->why_not = "no NVIDIA driver found (libcuda could not be loaded): install the NVIDIA driver to run "
                            "kernels; until then TileScope works in model mode";
    const std::string full = ts::views::device_status(state.device);
    const std::string text = imgui.frame([&] { ts::views::draw_status_bar(state); });
    EXPECT_EQ(text.find(full), std::string::npos) << text;
    EXPECT_NE(text.find("no CUDA device — model mode"), std::string::npos) << text;
    // A window wide enough has the whole line.
    ts::test::ImGuiHarness wide;
    EXPECT_NE(wide.frame([&] { ts::views::draw_status_bar(state); }).find(full), std::string::npos);
}

TEST(SetupPanel, TileOf64ShowsTheModelsReason) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.kernel.kind = ts::model::KernelKind::Tiled;
    state.kernel.tile = 64;
    const auto why = ts::model::check_launch(state.kernel, state.problem, ts::model::generic_limits());
    ASSERT_TRUE(why);
    const std::string text = imgui.frame([&] { ts::views::draw_setup_panel(state.problem, state.kernel, state); });
    EXPECT_NE(text.find("Cannot launch"), std::string::npos) << text;
    EXPECT_NE(text.find("4096 threads per block"), std::string::npos) << text;
    // The panel must not quietly fix the value the student typed.
    EXPECT_EQ(state.kernel.tile, 64);
}

TEST(SetupPanel, ValidSetupShowsTheLaunch) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.problem.m = 40;
    state.problem.n = 28;
    state.problem.k = 36;
    state.kernel.kind = ts::model::KernelKind::Tiled;
    state.kernel.tile = 8;
    const std::string text = imgui.frame([&] { ts::views::draw_setup_panel(state.problem, state.kernel, state); });
    EXPECT_EQ(text.find("Cannot launch"), std::string::npos) << text;
    EXPECT_NE(text.find("grid (4, 5) blocks of (8, 8) threads"), std::string::npos) << text;
    EXPECT_NE(text.find("1,280 threads, 160 of them ghosts"), std::string::npos) << text;
    EXPECT_NE(text.find("phases along K: 5"), std::string::npos) << text;
}

// tc-tuned offers its own candidates: the combo shows the one chosen in tc-tuned's words.
TEST(SetupPanel, TcTunedShowsItsShapeChoice) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.kernel.kind = ts::model::KernelKind::TcTuned;
    std::string text = imgui.frame([&] { ts::views::draw_setup_panel(state.problem, state.kernel, state); });
    EXPECT_NE(text.find("tuner's pick for GPU, size"), std::string::npos) << text;
    state.kernel.variant = 1;
    text = imgui.frame([&] { ts::views::draw_setup_panel(state.problem, state.kernel, state); });
    EXPECT_NE(text.find("#1: 128×128×64, 5 stages, clusters of 2"), std::string::npos) << text;
}

TEST(SetupPanel, ChecksAgainstTheRealDeviceWhenThereIsOne) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.device = h100();
    const std::string text = imgui.frame([&] { ts::views::draw_setup_panel(state.problem, state.kernel, state); });
    EXPECT_NE(text.find("checked against: NVIDIA H100 80GB HBM3"), std::string::npos) << text;
}

TEST(RunPanel, ExplainsWhyItCannotRun) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.device = no_device();
    const std::string text = imgui.frame([&] { ts::views::draw_run_panel(state.run_requested, state); });
    EXPECT_NE(text.find("Unavailable: no CUDA device"), std::string::npos) << text;
    EXPECT_FALSE(state.run_requested);
}

TEST(RunPanel, ShowsAMeasuredRun) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.device = h100();
    ts::gpu::RunResult result;
    result.ok = true;
    result.request.problem.m = result.request.problem.n = result.request.problem.k = 1024;
    result.samples_ms.assign(10, 0.25);
    result.median_ms = 0.25;
    result.gflops = 8589.9;
    result.checked = true;
    result.check_passed = true;
    result.check_summary = "max rel. error 3.1e-07 (tolerance 1.2e-05): pass";
    result.p20_ms = 0.24;
    result.p80_ms = 0.26;
    result.noise = 0.004;
    result.model_bandwidth_gbs = 1234.0;
    result.timing_warning = "the GPU clock changed during sampling";
    result.clocks.readings = 1;
    result.clocks.mean_sm_mhz = 1690;
    result.clocks.limits = ts::gpu::kClockLimitSwPowerCap;
    state.run.last = result;
    const std::string text = imgui.frame([&] { ts::views::draw_run_panel(state.run_requested, state); });
    EXPECT_NE(text.find(ts::model::human_seconds(0.25e-3)), std::string::npos) << text;
    EXPECT_NE(text.find("8589.9 GFLOP/s"), std::string::npos) << text;
    EXPECT_NE(text.find("10 (after 2 warm-up)"), std::string::npos) << text;
    EXPECT_NE(text.find("check passed"), std::string::npos) << text;
    EXPECT_NE(text.find("max rel. error 3.1e-07"), std::string::npos) << text;
    EXPECT_NE(text.find("0.4 %"), std::string::npos) << text;
    EXPECT_NE(text.find("1234 GB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("the GPU clock changed"), std::string::npos) << text;
    EXPECT_NE(text.find("SM 1690 MHz (held back by the power cap)"), std::string::npos) << text;
}

TEST(RunPanel, ShowsAFailedRun) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    ts::gpu::RunResult result;
    result.error = "cudaLaunchKernel: invalid configuration argument (kernels/02_tiled.cu:71)";
    state.run.last = result;
    const std::string text = imgui.frame([&] { ts::views::draw_run_panel(state.run_requested, state); });
    EXPECT_NE(text.find("Run failed: cudaLaunchKernel: invalid configuration argument"), std::string::npos) << text;
}

TEST(RunPanel, ShowsTheModelsTraffic) {
    ts::test::ImGuiHarness imgui;
    AppState state;
    state.problem.m = state.problem.n = state.problem.k = 64;
    state.kernel.kind = ts::model::KernelKind::Tiled;
    state.kernel.tile = 16;
    const std::string text = imgui.frame([&] { ts::views::draw_run_panel(state.run_requested, state); });
    // Naive: 2·M·N·K loads; tiled: T = 16 times fewer.
    EXPECT_NE(text.find("524,288"), std::string::npos) << text;
    EXPECT_NE(text.find("32,768"), std::string::npos) << text;
    EXPECT_NE(text.find("16.0× fewer"), std::string::npos) << text;
}

TEST(Grouped, GroupsDigitsInThrees) {
    EXPECT_EQ(ts::views::grouped(0), "0");
    EXPECT_EQ(ts::views::grouped(999), "999");
    EXPECT_EQ(ts::views::grouped(1000), "1,000");
    EXPECT_EQ(ts::views::grouped(8589934592), "8,589,934,592");
    EXPECT_EQ(ts::views::grouped(-1234567), "-1,234,567");
}

// The shortest labels: the first form that fits the room, none where none does.
TEST(FirstFitting, TakesTheFirstFormThatFitsElseNone) {
    ts::test::ImGuiHarness ui;
    ui.frame([&] {
        ImFont* font = ImGui::GetFont();
        const std::string long_form = "8,679 GFLOP/s · 16.9 % of cuBLAS", short_form = "8,679 · 16.9 %";
        const float short_w = ts::views::text_width(font, short_form), long_w = ts::views::text_width(font, long_form);
        EXPECT_EQ(ts::views::first_fitting({long_form, short_form}, font, long_w), long_form);
        EXPECT_EQ(ts::views::first_fitting({long_form, short_form}, font, long_w - 1.0f), short_form);
        EXPECT_EQ(ts::views::first_fitting({long_form, short_form}, font, short_w - 1.0f), std::nullopt);
    });
}

// A window away from the screen's left edge, as the lab's views are (right of the side panel): the
// wrap lands at the screen x asked for. PushTextWrapPos given that screen x as it is wraps as far
// right again as the window is from the edge (the ladder view's line between its panels ran off
// the view that way).
TEST(WrapAtScreenX, WrapsAtThatScreenXInAWindowAwayFromTheEdge) {
    ts::test::ImGuiHarness ui;
    const std::string words =
        "The tensor cores' ladder, BF16 inputs and FP32 sums: here cuBLAS runs 14.3× faster than in FP32, "
        "so each bar below is a percentage of cuBLAS BF16.";
    ImVec2 helper_min, helper_max, plain_max;
    float limit = 0.0f, line = 0.0f;
    ui.frame([&] {
        ImGui::SetCursorPos(ImVec2(400, 0));
        ImGui::BeginChild("right of a side panel", ImVec2(900, 400));
        limit = ImGui::GetCursorScreenPos().x + 500;
        line = ImGui::GetTextLineHeight();
        ts::views::push_wrap_at_screen_x(limit);
        ImGui::TextUnformatted(words.c_str());
        helper_min = ImGui::GetItemRectMin();
        helper_max = ImGui::GetItemRectMax();
        ImGui::PopTextWrapPos();
        ImGui::PushTextWrapPos(limit);
        ImGui::TextUnformatted(words.c_str());
        plain_max = ImGui::GetItemRectMax();
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
    });
    EXPECT_LE(helper_max.x, limit + 1.0f);
    EXPECT_GT(helper_max.y - helper_min.y, 1.5f * line) << "the words wrap onto a second line";
    EXPECT_GT(plain_max.x, limit + 100.0f) << "a screen x taken as the window's own wraps further right";
}

TEST(AppState, NeverSubmitsWithoutAUsableDevice) {
    // Built without CUDA (or on a machine without a GPU) the runner reports no device; a
    // press of the button must then do nothing rather than queue a run that fails.
    ts::gpu::Runner runner;
    const ts::gpu::DeviceInfo device = runner.wait_for_device();
    if (device.usable) GTEST_SKIP() << "a CUDA device is usable here";
    AppState state;
    state.run_requested = true;
    ts::views::exchange_with_runner(state, runner, 0.0);
    ASSERT_TRUE(state.device);
    EXPECT_FALSE(state.device->usable);
    EXPECT_EQ(state.run.pending_id, 0u);
    EXPECT_FALSE(state.run_requested);
    EXPECT_EQ(runner.pending(), 0);
}

TEST(AppState, LaunchErrorUsesTheDeviceLimits) {
    AppState state;
    state.kernel.kind = ts::model::KernelKind::Naive;
    state.kernel.block_x = 64;
    state.kernel.block_y = 32;  // 2048 threads
    EXPECT_TRUE(ts::views::launch_error(state));
    EXPECT_TRUE(ts::views::why_no_run(state));
    state.kernel.block_y = 16;
    EXPECT_FALSE(ts::views::launch_error(state));
    EXPECT_EQ(ts::views::launch_limits(state).name, ts::model::generic_limits().name);
    state.device = h100();
    EXPECT_EQ(ts::views::launch_limits(state).name, "NVIDIA H100 80GB HBM3");
    EXPECT_FALSE(ts::views::why_no_run(state));
}

}  // namespace
