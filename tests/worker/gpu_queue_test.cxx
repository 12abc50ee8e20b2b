// The GPU's queue (gpu/gpu_queue.hpp) with real processes: turns in the order asked, never two at
// once, the number ahead as it changes, a dead holder's turn ended by the kernel, and a queue
// directory that is not one refused with a sentence.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gpu/gpu_queue.hpp"

namespace {

using namespace ts::gpu;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A fresh directory under the system's temporary one, removed at the end.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "tilescope-queue-XXXXXX").string();
        path = mkdtemp(pattern.data());
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

GpuQueue open_queue(const fs::path& dir, const std::string& gpu = "GPU-test") {
    auto opened = GpuQueue::open(dir, gpu);
    if (auto* why = std::get_if<std::string>(&opened)) ADD_FAILURE() << *why;
    return std::get<GpuQueue>(std::move(opened));
}

double now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

// A child process that takes a turn, holds it for `hold`, and appends "name start end" to `log`.
pid_t turn_taker(const fs::path& dir, const std::string& name, std::chrono::milliseconds hold, const fs::path& log) {
    const pid_t pid = fork();
    if (pid != 0) return pid;
    {
        const GpuQueue queue = open_queue(dir);
        GpuTurn turn = queue.take_turn();
        const double start = now_s();
        std::this_thread::sleep_for(hold);
        const double end = now_s();
        std::ofstream(log, std::ios::app) << name << " " << std::to_string(start) << " " << std::to_string(end) << "\n";
    }
    std::_Exit(0);
}

void wait_for(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
}

TEST(GpuQueue, AFreeGpuIsTakenAtOnce) {
    TempDir dir;
    const GpuQueue queue = open_queue(dir.path / "locks");
    const GpuTurn turn = queue.take_turn([](int) { ADD_FAILURE() << "nobody was ahead"; });
    EXPECT_EQ(turn.ahead_at_arrival, 0);
    EXPECT_LT(turn.waited_s, 0.5);
    EXPECT_EQ(queue.queued(), 1);  // this turn's own ticket, until it ends
    // The directory is shared as /tmp is: every user may queue there.
    struct stat st{};
    ASSERT_EQ(stat((dir.path / "locks").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 01777u);
    ASSERT_EQ(stat(queue.lock_path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666u);
}

// Five processes arrive 60 ms apart and each holds the GPU for 150 ms: they run one at a time,
// in the order they came.
TEST(GpuQueue, TurnsComeInTheOrderAskedAndNeverOverlap) {
    TempDir dir;
    const fs::path log = dir.path / "log";
    open_queue(dir.path);
    std::vector<pid_t> children;
    for (int i = 0; i < 5; ++i) {
        children.push_back(turn_taker(dir.path, "p" + std::to_string(i), 150ms, log));
        std::this_thread::sleep_for(60ms);
    }
    for (pid_t child : children) wait_for(child);
    std::ifstream in(log);
    std::vector<std::string> order;
    std::vector<std::pair<double, double>> spans;
    std::string name;
    double start = 0, end = 0;
    while (in >> name >> start >> end) {
        order.push_back(name);
        spans.emplace_back(start, end);
    }
    ASSERT_EQ(order, (std::vector<std::string>{"p0", "p1", "p2", "p3", "p4"}));
    for (std::size_t i = 1; i < spans.size(); ++i) EXPECT_GE(spans[i].first, spans[i - 1].second) << "turn " << i;
}

// While one holds the GPU and another waits, a third is told 2 ahead, then 1, then gets its turn.
TEST(GpuQueue, TheNumberAheadIsToldAsItChanges) {
    TempDir dir;
    const fs::path log = dir.path / "log";
    open_queue(dir.path);
    const pid_t first = turn_taker(dir.path, "first", 400ms, log);
    std::this_thread::sleep_for(100ms);
    const pid_t second = turn_taker(dir.path, "second", 200ms, log);
    std::this_thread::sleep_for(100ms);
    std::vector<int> told;
    const GpuQueue queue = open_queue(dir.path);
    const GpuTurn turn = queue.take_turn([&](int ahead) { told.push_back(ahead); });
    wait_for(first);
    wait_for(second);
    EXPECT_EQ(told, (std::vector<int>{2, 1}));
    EXPECT_EQ(turn.ahead_at_arrival, 2);
    EXPECT_GT(turn.waited_s, 0.3);
}

// A holder killed with SIGKILL holds nothing: the kernel drops its locks with the process, and
// the one waiting goes on at once, passing over the dead one's ticket.
TEST(GpuQueue, ADeadHoldersTurnEnds) {
    TempDir dir;
    const fs::path log = dir.path / "log";
    open_queue(dir.path);
    const pid_t holder = turn_taker(dir.path, "holder", std::chrono::milliseconds(60'000), log);
    std::this_thread::sleep_for(200ms);
    const GpuQueue queue = open_queue(dir.path);
    std::thread killer([holder] {
        std::this_thread::sleep_for(300ms);
        kill(holder, SIGKILL);
    });
    const auto asked = Clock::now();
    const GpuTurn turn = queue.take_turn();
    const double waited = std::chrono::duration<double>(Clock::now() - asked).count();
    killer.join();
    wait_for(holder);
    EXPECT_EQ(turn.ahead_at_arrival, 1);
    EXPECT_GT(waited, 0.25);
    EXPECT_LT(waited, 2.0);
}

TEST(GpuQueue, AQueueDirectoryThatIsNotOneIsRefused) {
    TempDir dir;
    std::ofstream(dir.path / "a-file") << "x";
    auto opened = GpuQueue::open(dir.path / "a-file", "GPU-test");
    ASSERT_TRUE(std::holds_alternative<std::string>(opened));
    EXPECT_NE(std::get<std::string>(opened).find("is not a directory"), std::string::npos) << std::get<std::string>(opened);
    fs::create_symlink(dir.path, dir.path / "a-link");
    opened = GpuQueue::open(dir.path / "a-link", "GPU-test");
    ASSERT_TRUE(std::holds_alternative<std::string>(opened));
    auto missing = GpuQueue::open("/proc/no-such-dir/locks", "GPU-test");
    ASSERT_TRUE(std::holds_alternative<std::string>(missing));
    EXPECT_NE(std::get<std::string>(missing).find("cannot make the GPU's queue directory"), std::string::npos);
}

// A GPU id is only a file name: path syntax in it stays inside the directory.
TEST(GpuQueue, AnIdCannotLeaveTheDirectory) {
    TempDir dir;
    const GpuQueue queue = open_queue(dir.path, "../../etc/passwd");
    EXPECT_EQ(queue.lock_path().parent_path(), dir.path);
    EXPECT_EQ(queue.lock_path().filename().string().find('/'), std::string::npos);
    EXPECT_NE(queue.lock_path().filename().string().front(), '.');
}

TEST(GpuQueue, TheSettingComesFromTheEnvironment) {
    unsetenv("TILESCOPE_GPU_LOCK");
    EXPECT_FALSE(gpu_queue_setting_from_environment().off);
    EXPECT_EQ(gpu_queue_setting_from_environment().dir, fs::path(kDefaultGpuLockDir));
    setenv("TILESCOPE_GPU_LOCK", "off", 1);
    EXPECT_TRUE(gpu_queue_setting_from_environment().off);
    EXPECT_EQ(gpu_queue_setting_from_environment().describe(), "off (TILESCOPE_GPU_LOCK=off)");
    setenv("TILESCOPE_GPU_LOCK", "/srv/class/locks", 1);
    EXPECT_EQ(gpu_queue_setting_from_environment().dir, fs::path("/srv/class/locks"));
    unsetenv("TILESCOPE_GPU_LOCK");
}

}  // namespace
