// launcher_kills.hpp — what the tests of a worker elsewhere share: a request the fake worker
// answers (or fails, by its seed), and rounds of killing the launcher (ssh, srun) mid-request,
// each lost request checked for its sentence and the next one for a fresh connection.
#pragma once

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "fake_worker.hpp"
#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"

namespace ts::testing_support {

// Tiled T=`tile` float m³, with the fake worker's seed (1: a normal answer whose median_ms is m).
inline gpu::RunRequest request_of(std::uint64_t seed, std::int64_t m, int tile = 32) {
    gpu::RunRequest request;
    request.kernel = {model::KernelKind::Tiled, 16, 16, tile};
    request.problem = {m, m, m, 1, model::Dtype::Float32};
    request.seed = seed;
    return request;
}

// Kills the launcher (stats.worker_pid) with SIGKILL in the middle of a 1.5 s request, `kills`
// times. Each killed request must fail with a sentence that starts with `starts` and ends with
// `ends`, and the next request must run through a new connection. Returns the rounds that did
// both; `log` says what the server's side wrote, for a failure's message.
inline int survive_launcher_kills(gpu::Runner& runner, const gpu::SupervisorStats& stats, int kills, const std::string& starts,
                                  const std::string& ends, const std::function<std::string()>& log) {
    int survived = 0;
    for (int kill_number = 1; kill_number <= kills; ++kill_number) {
        // 1.5 s on the far side, beating all along; the connection is already open (the probe's,
        // or the last round's), so 0.4 s later the fake worker is in the middle of it.
        const auto id = runner.submit(request_of(static_cast<std::uint64_t>(test::FakeSeed::Slow), 2048, 1));
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        const int pid = stats.worker_pid;
        EXPECT_GT(pid, 0);
        if (pid <= 0 || kill(pid, SIGKILL) != 0) break;
        const gpu::RunResult killed = runner.wait(id);
        EXPECT_FALSE(killed.ok);
        EXPECT_TRUE(killed.error.starts_with(starts)) << "kill " << kill_number << ": " << killed.error;
        EXPECT_TRUE(killed.error.ends_with(ends)) << "kill " << kill_number << ": " << killed.error;
        const std::int64_t m = 100 + kill_number;
        const gpu::RunResult next = runner.wait(runner.submit(request_of(1, m)));
        EXPECT_TRUE(next.ok) << "kill " << kill_number << ": " << next.error << "\n" << log();
        EXPECT_EQ(next.median_ms, static_cast<double>(m));
        EXPECT_EQ(stats.restarts, kill_number);
        if (!killed.ok && next.ok && next.median_ms == static_cast<double>(m)) ++survived;
    }
    return survived;
}

}  // namespace ts::testing_support
