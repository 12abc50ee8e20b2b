// Where the GPU work runs, as the window shows and changes it (views/window/gpu_panel.hpp and the
// status bar): a GPU on a server named "on HOST", the worker's state in words, the Test button's
// answer, and a switch of the runner to another target only while nothing is pending.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "imgui_harness.hpp"
#include "views/window/app_state.hpp"
#include "views/window/gpu_panel.hpp"
#include "views/window/status_bar.hpp"

namespace {

using namespace ts;
using gpu::WorkerStatus;

gpu::DeviceInfo h100_on(const std::string& host) {
    gpu::DeviceInfo info;
    info.usable = true;
    info.limits.name = "NVIDIA H100 80GB HBM3";
    info.limits.is_preset = false;
    info.limits.sm_count = 132;
    info.limits.compute_major = 9;
    info.driver_version = "13.0";
    info.runtime_version = "13.0";
    info.host = host;
    info.remote = !host.empty();
    info.gpu_lock = "/tmp/tilescope-gpu-locks/GPU-5f3c.lock";
    return info;
}

// A backend that answers at once, with the device it is given; requests wait until `release`.
struct Scripted {
    gpu::DeviceInfo device;
    std::shared_ptr<std::atomic<bool>> release = std::make_shared<std::atomic<bool>>(true);
    gpu::RunnerBackend backend() const {
        return {.probe = [device = device] { return device; },
                .run = [release = release](const gpu::RunRequest& request) {
                    while (!*release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
                    gpu::RunResult result;
                    result.request = request;
                    result.ok = true;
                    return result;
                }};
    }
};

template <typename Done>
bool eventually(Done done) {
    for (int i = 0; i < 400 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return done();
}

TEST(GpuStatus, AServersGpuIsNamedWithItsHost) {
    EXPECT_NE(views::device_status(h100_on("gpu1")).find("GPU: NVIDIA H100 80GB HBM3 on gpu1 · 132 SMs"), std::string::npos);
    EXPECT_EQ(views::short_device_status(h100_on("gpu1")), "GPU: NVIDIA H100 80GB HBM3 on gpu1");
    // This machine's GPU is named alone, as before.
    EXPECT_EQ(views::short_device_status(h100_on("")), "GPU: NVIDIA H100 80GB HBM3");
    // A server that could not be reached says so in its own sentence, not as "no CUDA device".
    gpu::DeviceInfo unreachable;
    unreachable.remote = true;
    unreachable.host = "gpu1";
    unreachable.why_not = "could not connect to gpu1 for starting CUDA: ssh exited with status 255; reconnecting in 2 s";
    EXPECT_EQ(views::device_status(unreachable), unreachable.why_not + " — model mode");
}

TEST(GpuStatus, TheWorkersStateInWords) {
    EXPECT_EQ(views::worker_status_text({.phase = WorkerStatus::Phase::Ready, .server = "gpu1"}), "");
    EXPECT_EQ(views::worker_status_text({.phase = WorkerStatus::Phase::Connecting, .server = "gpu1"}), "connecting to gpu1…");
    EXPECT_EQ(views::worker_status_text({.phase = WorkerStatus::Phase::Waiting, .server = "gpu1", .ahead = 2}),
              "waiting for the GPU: 2 ahead");
    EXPECT_EQ(views::worker_status_text({.phase = WorkerStatus::Phase::Reconnecting, .server = "gpu1", .retry_in_s = 2.3}),
              "connection to gpu1 lost: reconnecting in 3 s");
}

TEST(GpuStatus, TheStatusBarShowsAWaitingRequest) {
    test::ImGuiHarness imgui;
    views::AppState state;
    state.device = h100_on("gpu1");
    state.worker = {.phase = WorkerStatus::Phase::Waiting, .server = "gpu1", .ahead = 2};
    const std::string text = imgui.frame([&] { views::draw_status_bar(state); });
    EXPECT_NE(text.find("on gpu1"), std::string::npos) << text;
    EXPECT_NE(text.find("waiting for the GPU: 2 ahead"), std::string::npos) << text;
}

TEST(GpuPanel, TestConnectsWithoutSwitchingAndSaysWhatAnswered) {
    Scripted server{h100_on("gpu1")};
    Scripted here{h100_on("")};
    gpu::Runner runner(here.backend());
    views::GpuChoice choice;
    choice.backend_for = [&](const gpu::WorkerTarget& target) {
        return target.kind == gpu::WorkerTargetKind::Local ? here.backend() : server.backend();
    };
    choice.on_server = true;
    choice.server = "ssh://ana@gpu1";
    choice.tested = "ssh://ana@gpu1";
    choice.test = std::make_shared<gpu::Runner>(choice.backend_for(std::get<gpu::WorkerTarget>(gpu::parse_worker_target(choice.server))));
    std::optional<gpu::DeviceInfo> device = runner.wait_for_device();
    ASSERT_TRUE(eventually([&] {
        views::apply_gpu_choice(choice, device, runner);
        return !choice.test;
    }));
    EXPECT_TRUE(choice.test_ok);
    EXPECT_EQ(choice.test_result,
              "NVIDIA H100 80GB HBM3 on gpu1: driver 13.0, CUDA 13.0, GPU queue /tmp/tilescope-gpu-locks/GPU-5f3c.lock");
    EXPECT_EQ(choice.in_use, "local");  // tested, not switched
    EXPECT_FALSE(device->remote);
    // The panel draws the answer.
    test::ImGuiHarness imgui;
    const std::string text = imgui.frame([&] {
        ImGui::SetNextItemOpen(true);
        views::draw_gpu_panel(choice, 0.0);
    });
    EXPECT_NE(text.find("on gpu1: driver 13.0"), std::string::npos) << text;
    EXPECT_NE(text.find("in use: this machine"), std::string::npos) << text;
}

TEST(GpuPanel, UseSwitchesTheRunnerOnceNothingIsPending) {
    Scripted server{h100_on("gpu1")};
    Scripted here{h100_on("")};
    here.release->store(false);
    gpu::Runner runner(here.backend());
    views::GpuChoice choice;
    choice.backend_for = [&](const gpu::WorkerTarget& target) {
        return target.kind == gpu::WorkerTargetKind::Local ? here.backend() : server.backend();
    };
    std::optional<gpu::DeviceInfo> device = runner.wait_for_device();
    const auto pending = runner.submit(gpu::RunRequest{});
    choice.switch_to = std::get<gpu::WorkerTarget>(gpu::parse_worker_target("ssh://ana@gpu1"));
    views::apply_gpu_choice(choice, device, runner);
    EXPECT_EQ(choice.pending, 1);
    EXPECT_EQ(choice.in_use, "local");  // a request is pending: not yet
    EXPECT_TRUE(device.has_value());
    here.release->store(true);
    EXPECT_TRUE(runner.wait(pending).ok);
    views::apply_gpu_choice(choice, device, runner);
    EXPECT_EQ(choice.in_use, "ssh://ana@gpu1");
    EXPECT_FALSE(choice.switch_to);
    EXPECT_FALSE(device.has_value());  // probed anew
    const gpu::DeviceInfo probed = runner.wait_for_device();
    EXPECT_EQ(probed.host, "gpu1");
    // Ids go on: a result of the old backend can never be taken for one of the new.
    EXPECT_GT(runner.submit(gpu::RunRequest{}), pending);
}

}  // namespace
