// worker_target.hpp — where the GPU worker runs (its target), and the exact program and
// arguments that start it there. No GPU, no process: the supervisor (supervisor.hpp) starts
// what worker_argv() gives it as SupervisorOptions::worker_command.
//
//   --gpu local                        this program, `tilescope worker`, as a child process (the default)
//   --gpu ssh://[user@]host[:port]     ssh -T -o BatchMode=yes … [-p PORT] [-l USER] -- HOST tilescope worker
//   --gpu slurm  |  slurm:PARTITION    srun --gres=gpu:1 --unbuffered [--partition=PARTITION] tilescope worker
//   --worker-command ARG…              the arguments as given: any other launcher
//
// Nothing passes through a shell on this side, and the command run on the server is fixed,
// never built from what the user typed. A host, user or partition is refused before any process
// starts when it could be read as an option ("-oProxyCommand=…") or as shell syntax
// ("host;rm …", "$(id)"), as ssh and srun hand the remote command to a shell there. The
// parse returns the target or that sentence; worker_argv() takes only a parsed target, so a
// refused one can never reach it.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "supervisor.hpp"

namespace ts::gpu {

enum class WorkerTargetKind {
    Local,    // this machine: this program as a child process
    Ssh,      // a server, through the system's OpenSSH client
    Slurm,    // a node of a Slurm cluster, through srun
    Command,  // a launcher given as an argument list (--worker-command)
};

struct WorkerTarget {
    WorkerTargetKind kind = WorkerTargetKind::Local;
    std::string user;       // Ssh: the login name; empty: ssh's own choice (~/.ssh/config, then the local user)
    std::string host;       // Ssh: a name, an address, an ~/.ssh/config alias, or an IPv6 address without brackets
    int port = 0;           // Ssh: 1..65535; 0: ssh's own choice
    std::string partition;  // Slurm: empty: the cluster's default partition
    std::vector<std::string> command;  // Command: the program and its arguments

    bool operator==(const WorkerTarget&) const = default;
};

// The command run on the server or the cluster's node: fixed, whatever the target.
inline constexpr std::string_view kRemoteWorkerProgram = "tilescope";
inline constexpr std::string_view kRemoteWorkerArgument = "worker";

// `--gpu SPEC`: local, ssh://[user@]host[:port], slurm or slurm:PARTITION. The target, or one
// sentence saying why SPEC is refused (it starts with "--gpu", for "tilescope: " to precede).
std::variant<WorkerTarget, std::string> parse_worker_target(std::string_view spec);

// `--worker-command ARG…`: the program and its arguments, used as given (no shell). The target,
// or the sentence when the list is empty or its program is an empty word.
std::variant<WorkerTarget, std::string> worker_target_from_command(std::vector<std::string> command);

// What the supervisor runs to start a worker at `target`: Local is this_program_as_worker().
std::vector<std::string> worker_argv(const WorkerTarget& target);

// For SupervisorOptions::explain_stop: what to do when the worker at `target` stopped with
// `last_stderr_line` as its last words. For ssh's "Permission denied": set up a key (ssh-keygen,
// ssh-copy-id, ssh once in a terminal). Empty when there is no advice.
std::string advice_for_ssh_failure(const WorkerTarget& target, const std::string& last_stderr_line);

// The supervisor's options for a worker at `target`: its command, the advice for ssh's failures,
// and for a server or a Slurm node, the place and launcher its sentences name and the growing
// waits before each reconnection (2, 4, 8, 16, then every 30 s).
SupervisorOptions supervisor_options(const WorkerTarget& target);

// The target as --gpu would be written ("ssh://ana@gpu1:2222"), or the command's words.
std::string describe(const WorkerTarget& target);

}  // namespace ts::gpu
