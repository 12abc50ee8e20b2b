// supervisor.hpp — runs the window's GPU work in a worker process (worker.hpp) and keeps it
// running. The result is a RunnerBackend, so the Runner in front of it (and the views in
// front of that) work as before: submit, poll, live keys, superseding.
//
// The supervisor notices a worker that exits or crashes, closes its pipe, stops sending its
// heartbeat, sends something that is not a message, overruns the request's deadline, or
// reports that its CUDA context is lost. It then kills it if needed, starts a new one, and
// fails that request with what happened in words a student understands:
//   "the GPU worker stopped during tiled T=32 at 4096×4096×4096: killed by signal 11
//    (Segmentation fault); it was restarted"
// Requests still queued in the Runner simply run on the new worker.
// A worker's first message is its handshake (wire.hpp's Hello); one of another protocol is
// stopped with a sentence naming both versions, and no other is started for it.
//
// A worker elsewhere (SupervisorOptions::server: a server through ssh, a Slurm node) is a
// connection: when it is lost, the failed request's sentence names the server and the launcher
// ("the connection to gpu1 was lost during tiled T=32 float 4096³: ssh exited with status 255
// (Connection reset by peer); reconnecting in 2 s"), and the next request reconnects after a
// delay that grows with each failed try (reconnect_delays_s) and starts over once one succeeds.
//
// The worker's stderr passes through to this process's stderr; when the worker exits by itself,
// its last line there is quoted too ("exited with status 255 (Permission denied (publickey).)").
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runner.hpp"

namespace ts::gpu {

struct SupervisorOptions {
    std::vector<std::string> worker_command;  // program and arguments, e.g. {"/proc/self/exe", "worker"}
    double heartbeat_timeout_s = 5.0;         // silence while a request runs that counts as stopped
    double probe_timeout_s = 60.0;            // the first CUDA call can take seconds
    double min_deadline_s = 10.0;             // no request is stopped sooner (tests shorten it)
    // The model's guess of a request's duration, in seconds; the deadline is generous above
    // it (kernel_deadline_s). Null: every request gets the minimum.
    std::function<double(const RunRequest&)> estimate_s{};
    // Advice for a worker that stopped, from the last line it wrote on stderr (ssh's "Permission
    // denied (publickey)."), added to the failed result's sentence; empty: none. Null: none.
    std::function<std::string(const std::string& last_stderr_line)> explain_stop{};
    // Where the worker runs when it is not this machine ("gpu1", "a Slurm node"), and the program
    // that reaches it ("ssh", "srun"), for the sentences; empty: this machine.
    std::string server{};
    std::string launcher{};
    // The waits before each reconnection after a lost connection or a failed one, the last
    // repeated; empty: a new worker at once (this machine).
    std::vector<double> reconnect_delays_s{};
};

// How long a request may run before its worker is killed: at least `min_s` (10 s), and well
// above the estimate and the request's own time budget.
double kernel_deadline_s(const RunRequest& request, double estimate_s, double min_s = 10.0);

// What the supervisor has seen, for tests and the soak test.
struct SupervisorStats {
    int started = 0;    // worker processes started, the first one included
    int restarts = 0;   // of those, started after one stopped or was stopped
    std::string last_stop;  // why the last worker stopped, in the words of the failed result
    std::atomic<int> worker_pid{0};  // the worker now running (0: none), for tests that kill it
};

class Supervisor;

// The command that starts this very program as a worker: {"/proc/self/exe"'s target, "worker"}, or
// $TILESCOPE_WORKER alone when set (the GUI tests' fake worker, which fails on request without a
// GPU). The window and `tilescope-cli kernel` both start their workers so.
std::vector<std::string> this_program_as_worker();

// A backend that sends probe and run to a worker process it supervises. `stats`, when given,
// is filled in as it goes (read it only while no request runs, or from the Runner's thread).
RunnerBackend supervised_backend(SupervisorOptions options, std::shared_ptr<SupervisorStats> stats = nullptr);

}  // namespace ts::gpu
