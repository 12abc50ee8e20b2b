// gpu_queue.hpp — one GPU, many students: the worker takes a turn at the GPU for each request that
// runs on it, first come first served, so that no two timings overlap and every timing is honest.
//
// The queue is a directory that every user of the server can write (kDefaultGpuLockDir, created
// with the sticky bit as /tmp is, or $TILESCOPE_GPU_LOCK). Per GPU (named by its UUID) it holds:
//   GPU-….lock           the turn itself: an exclusive flock(2), held while one request runs;
//   GPU-….queue/TICKET   one file per request waiting or running, named by its arrival time and
//                        pid, and flock'ed by its owner, so a ticket whose owner died is seen as
//                        such (its flock is gone with the process) and passed over.
// A request waits until no live ticket is older than its own, then takes the lock. Whoever holds
// the lock without a ticket (an administrator's `flock GPU-….lock command`) is waited for too. The kernel
// releases both flocks when a worker dies, however it dies: a crashed or killed worker never
// holds the GPU. A turn is one request, never a sweep, and the worker stops itself when a request
// overruns its deadline (gpu/worker.cxx), so one student's hung kernel costs the others at most
// one request's time limit.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <variant>

namespace ts::gpu {

inline constexpr const char* kDefaultGpuLockDir = "/tmp/tilescope-gpu-locks";

// Where turns are queued, from $TILESCOPE_GPU_LOCK: unset or empty, the default directory; "off",
// no queue (each request runs at once, as on a GPU of one's own); anything else, a directory.
struct GpuQueueSetting {
    bool off = false;
    std::filesystem::path dir = kDefaultGpuLockDir;
    std::string describe() const;  // "/tmp/tilescope-gpu-locks" or "off (TILESCOPE_GPU_LOCK=off)"
};
GpuQueueSetting gpu_queue_setting_from_environment();

// Holds a turn at the GPU until destroyed (or moved from).
class GpuTurn {
public:
    GpuTurn() = default;
    GpuTurn(GpuTurn&& other) noexcept;
    GpuTurn& operator=(GpuTurn&& other) noexcept;
    GpuTurn(const GpuTurn&) = delete;
    GpuTurn& operator=(const GpuTurn&) = delete;
    ~GpuTurn();

    double waited_s = 0.0;  // from asking to getting the turn
    int ahead_at_arrival = 0;  // live tickets older than this one when it arrived

private:
    friend class GpuQueue;
    void release();
    int m_lock_fd = -1;
    int m_ticket_fd = -1;
    std::filesystem::path m_ticket;
};

class GpuQueue {
public:
    // The queue of the GPU named `gpu_id` (its UUID; other characters than [A-Za-z0-9._-] become
    // '_') in `dir`, which is created (mode 1777) when missing. An error sentence when the directory
    // or the lock cannot be made or opened.
    static std::variant<GpuQueue, std::string> open(const std::filesystem::path& dir, const std::string& gpu_id);

    // Waits for this process's turn, first come first served. `on_wait(ahead)` is called each time
    // the number of requests ahead changes while it waits (ahead ≥ 1: the one running counts), at
    // most every `poll` apart; never when the GPU is free at once.
    GpuTurn take_turn(const std::function<void(int ahead)>& on_wait = {},
                      std::chrono::milliseconds poll = std::chrono::milliseconds(20)) const;

    // Requests waiting or running now (live tickets).
    int queued() const;

    const std::filesystem::path& lock_path() const { return m_lock; }

private:
    std::filesystem::path m_lock;
    std::filesystem::path m_queue;
};

}  // namespace ts::gpu
