// Issue #46: the window with its GPU worker elsewhere, through the real parts: the lab through a
// one-node Slurm cluster's srun (tests/worker/slurm_cluster.hpp), and the ladder and a lab
// screenshot through an sshd of the test's own (tests/worker/sshd_server.hpp), with the fake
// worker serving on the far side. Each skips with the reason where its parts are not installed.
#include <gtest/gtest.h>

#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "gui_harness.hpp"
#include "views/common/theme.hpp"
#include "worker/slurm_cluster.hpp"
#include "worker/sshd_server.hpp"

namespace {

using namespace ts::test;

// Pixels near the theme's warning colour in the window's last 30 rows, where the status bar is.
int count_status_bar_warning_pixels(const Image& image) {
    const float top = 1.0f - 30.0f / static_cast<float>(image.height);
    return image.count_near(rgb(ts::views::colours::kWarning), 40, 0.0f, top, 1.0f, 1.0f);
}
using ts::testing_support::ScopedEnvironment;
using ts::testing_support::SlurmCluster;
using ts::testing_support::SshdServer;

TEST(RemoteGpuGui, TheLabMeasuresThroughSrun) {
    if (const auto why = ts::testing_support::why_no_slurm()) GTEST_SKIP() << *why;
    SlurmCluster cluster(std::filesystem::absolute(FAKE_WORKER_PATH).string());
    ASSERT_TRUE(cluster.ok()) << cluster.why();
    ScopedEnvironment client(cluster.env());
    std::string output;
    const int status = run_in_window("--no-settings --lab-benchmark 5 --gpu slurm", output);
    ASSERT_EQ(status, 0) << output << "\n" << cluster.log();
    // The fake worker on the cluster's node named the device; the benchmark's figures followed.
    EXPECT_NE(output.find("lab benchmark on Fake GPU "), std::string::npos) << output;
    EXPECT_NE(output.find("slider-to-point latency, first new point:"), std::string::npos) << output;
}

TEST(RemoteGpuGui, TheLadderRunsThroughSsh) {
    if (const auto why = ts::testing_support::why_no_sshd()) GTEST_SKIP() << *why;
    const SshdServer server(std::filesystem::absolute(FAKE_WORKER_PATH).string());
    ASSERT_TRUE(server.ok()) << server.why();
    std::string output;
    const Image shot = screenshot("remote_ladder", "--view ladder --run --gpu ssh://127.0.0.1:" + std::to_string(server.port()),
                                  &output);
    EXPECT_GT(shot.width, 0) << output;
    EXPECT_NE(server.log().find("Accepted publickey for"), std::string::npos) << server.log();
    EXPECT_EQ(output.find("failed"), std::string::npos) << output;
}

// A request waiting its turn: another holds the GPU's lock on the server (as an administrator's
// `flock` would), and the lab's status bar says so while the window goes on drawing.
TEST(RemoteGpuGui, TheLabWaitingForTheGpuSaysSo) {
    if (const auto why = ts::testing_support::why_no_sshd()) GTEST_SKIP() << *why;
    std::string pattern = (std::filesystem::temp_directory_path() / "tilescope-gui-locks-XXXXXX").string();
    const std::string locks = mkdtemp(pattern.data());
    const SshdServer server(std::filesystem::absolute(FAKE_WORKER_PATH).string(), SshdServer::ClientKey::Authorized, {},
                            {"TILESCOPE_GPU_LOCK=" + locks, "FAKE_WORKER_GPU_UUID=GPU-held"});
    ASSERT_TRUE(server.ok()) << server.why();
    const int held = open((locks + "/GPU-held.lock").c_str(), O_RDWR | O_CREAT, 0666);
    ASSERT_EQ(flock(held, LOCK_EX), 0);
    std::string output;
    const Image shot = screenshot("remote_waiting", "--view latency --frames 300 --gpu ssh://127.0.0.1:" +
                                                        std::to_string(server.port()),
                                  &output);
    close(held);
    std::filesystem::remove_all(locks);
    EXPECT_GT(shot.width, 0) << output;
    // The waiting line is drawn in the warning colour in the status bar, right of the GPU's name:
    // amber pixels in the bottom row of text that a window without it does not have.
    EXPECT_NE(server.log().find("Accepted publickey for"), std::string::npos) << server.log();
    EXPECT_GT(count_status_bar_warning_pixels(shot), 100) << "no waiting line in the status bar\n" << output;
}

}  // namespace
