// The run panel's round trip on a real GPU: the button's request goes through the runner
// and the measured result comes back into the panel. Skips where no CUDA device is usable.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "imgui_harness.hpp"
#include "model/format.hpp"
#include "views/window/app_state.hpp"
#include "views/window/run_panel.hpp"

namespace {

TEST(RunOnGpu, ButtonRequestComesBackMeasured) {
    ts::gpu::Runner runner;
    const ts::gpu::DeviceInfo device = runner.wait_for_device();
    if (!device.usable) GTEST_SKIP() << device.why_not;

    ts::views::AppState state;
    state.problem.m = 256;
    state.problem.n = 192;
    state.problem.k = 160;
    state.kernel.kind = ts::model::KernelKind::Tiled;
    state.kernel.tile = 16;
    state.run_requested = true;  // what pressing "Run on GPU" does
    ts::views::exchange_with_runner(state, runner, 0.0);
    ASSERT_NE(state.run.pending_id, 0u) << "the request was not submitted";

    // The UI polls once a frame; here a frame is 10 ms.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (state.run.pending_id != 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ts::views::exchange_with_runner(state, runner, 0.0);
    }
    ASSERT_EQ(state.run.pending_id, 0u) << "no result within 60 s";
    ASSERT_TRUE(state.run.last);
    const ts::gpu::RunResult& result = *state.run.last;
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_TRUE(result.check_passed) << result.check_summary;

    ts::test::ImGuiHarness imgui;
    const std::string text = imgui.frame([&] { ts::views::draw_run_panel(state.run_requested, state); });
    EXPECT_NE(text.find(ts::model::human_seconds(result.median_ms * 1e-3)), std::string::npos) << text;
    EXPECT_NE(text.find("check passed"), std::string::npos) << text;
}

}  // namespace
