// Live requests ("latest wins") on a runner whose backend is a stand-in: the test decides
// when the worker's current request finishes, so what is queued and what is running at
// each submit is known exactly. No GPU involved.
#include <gtest/gtest.h>

#include <condition_variable>
#include <thread>
#include <mutex>
#include <vector>

#include "gpu/runner.hpp"

using namespace ts::gpu;

namespace {

// A backend whose run() waits until the test releases it, and which records what ran.
class GatedBackend {
public:
    RunnerBackend backend() {
        return {[] {
                    DeviceInfo info;
                    info.usable = true;
                    info.limits.name = "stand-in GPU";
                    return info;
                },
                [this](const RunRequest& request) {
                    std::unique_lock lock(m_mutex);
                    m_started.push_back(request.problem.m);
                    m_changed.notify_all();
                    m_changed.wait(lock, [&] { return m_releases > 0; });
                    --m_releases;
                    RunResult result;
                    result.ok = true;
                    result.median_ms = static_cast<double>(request.problem.m);
                    return result;
                }};
    }
    // Blocks until `count` requests have started running.
    void wait_started(std::size_t count) {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_started.size() >= count; });
    }
    void release(int count = 1) {
        std::lock_guard lock(m_mutex);
        m_releases += count;
        m_changed.notify_all();
    }
    std::vector<std::int64_t> started() {
        std::lock_guard lock(m_mutex);
        return m_started;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::int64_t> m_started;  // problem.m of each request, in the order run
    int m_releases = 0;
};

// Requests are told apart by problem.m.
RunRequest request(std::int64_t tag) {
    RunRequest r;
    r.problem.m = tag;
    return r;
}

TEST(RunnerLive, StandInBackendIsUsed) {
    GatedBackend gate;
    Runner runner(gate.backend());
    EXPECT_EQ(runner.wait_for_device().limits.name, "stand-in GPU");
    const std::uint64_t id = runner.submit(request(7));
    gate.release();
    const RunResult result = runner.wait(id);
    EXPECT_TRUE(result.ok);
    EXPECT_EQ(result.median_ms, 7.0);
    EXPECT_TRUE(result.live_key.empty());
    EXPECT_EQ(result.superseded_by, 0u);
}

TEST(RunnerLive, QueuedRequestOfTheSameKeyIsReplaced) {
    GatedBackend gate;
    Runner runner(gate.backend());
    const std::uint64_t first = runner.submit_live("lab", request(1));
    gate.wait_started(1);  // 1 is running; everything below queues behind it
    const std::uint64_t second = runner.submit_live("lab", request(2));
    const std::uint64_t third = runner.submit_live("lab", request(3));
    const std::uint64_t fourth = runner.submit_live("lab", request(4));
    EXPECT_EQ(runner.pending(), 2);  // 1 running, 4 queued

    // 2 and 3 never ran and were answered at once, each naming the request that replaced it.
    const RunResult r2 = runner.wait(second);
    EXPECT_FALSE(r2.ok);
    EXPECT_EQ(r2.superseded_by, third);
    EXPECT_EQ(r2.live_key, "lab");
    EXPECT_NE(r2.error.find("replaced"), std::string::npos) << r2.error;
    EXPECT_EQ(runner.wait(third).superseded_by, fourth);

    gate.release(2);
    // 1 ran to the end, but the sliders had moved on: real numbers, marked stale.
    const RunResult r1 = runner.wait(first);
    EXPECT_TRUE(r1.ok);
    EXPECT_EQ(r1.superseded_by, fourth);
    const RunResult r4 = runner.wait(fourth);
    EXPECT_TRUE(r4.ok);
    EXPECT_EQ(r4.median_ms, 4.0);
    EXPECT_EQ(r4.superseded_by, 0u);
    EXPECT_EQ(gate.started(), (std::vector<std::int64_t>{1, 4}));
}

TEST(RunnerLive, KeysAndPlainRequestsStayApart) {
    GatedBackend gate;
    Runner runner(gate.backend());
    runner.submit(request(100));
    gate.wait_started(1);
    const std::uint64_t a1 = runner.submit_live("a", request(1));
    runner.submit(request(200));                        // plain: never replaced
    const std::uint64_t b1 = runner.submit_live("b", request(10));
    const std::uint64_t a2 = runner.submit_live("a", request(2));
    runner.submit(request(300));
    gate.release(5);
    while (runner.pending() > 0) std::this_thread::yield();

    // a2 took a1's place, ahead of 200; b1 was not touched by a's requests.
    EXPECT_EQ(gate.started(), (std::vector<std::int64_t>{100, 2, 200, 10, 300}));
    EXPECT_EQ(runner.wait(a1).superseded_by, a2);
    EXPECT_EQ(runner.wait(b1).superseded_by, 0u);
    EXPECT_EQ(runner.wait(a2).superseded_by, 0u);
}

TEST(RunnerLive, PollReturnsReplacedRequestsFirstAndMarked) {
    GatedBackend gate;
    Runner runner(gate.backend());
    runner.submit(request(100));
    gate.wait_started(1);
    const std::uint64_t old_id = runner.submit_live("lab", request(1));
    const std::uint64_t new_id = runner.submit_live("lab", request(2));
    // The replaced request is finished before anything ran: the UI sees it on its next poll.
    std::optional<RunResult> first = runner.poll();
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->id, old_id);
    EXPECT_EQ(first->superseded_by, new_id);
    gate.release(2);
    EXPECT_EQ(runner.wait(new_id).median_ms, 2.0);
}

}  // namespace
