// slurm_cluster.hpp — a throwaway one-node Slurm cluster for the tests of `--gpu slurm`, with the
// fake worker as the node's `tilescope`, where there is no GPU (issue #46).
//
// [SECTION] The programs: the daemons, the clients, and why the tests skip without them
// [SECTION] The folder: munged's key, slurm.conf, gres.conf, and the node's `tilescope`
// [SECTION] The daemons: munged -F, slurmctld -D and slurmd -D, each a child of the test
// [SECTION] Ready: sinfo shows the node idle within 30 s, else the daemons' logs say why
// [SECTION] The end: jobs cancelled, daemons stopped, what is left of their steps killed
// [SECTION] ScopedEnvironment: the test's SLURM_CONF and PATH while the cluster lives
//
// Everything lives in one temporary folder, removed at the end: no system service is touched,
// and neither /etc/munge nor /etc/slurm is read (munged has its own key and socket; slurm.conf
// names its own state, spool, pid and log files, and an empty SPANK plugin list). The node
// runs what srun asks for as the test's own user, with the test's environment: srun passes it
// on, so the `tilescope` first on the test's PATH is the one the node runs.
#pragma once

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "support/run_command.hpp"

extern char** environ;

namespace ts::testing_support {

// [SECTION] The programs

// The file `name` names on $PATH, or empty. With `also_sbin`, /usr/sbin/`name` when $PATH has
// none: Debian installs the daemons there, and a user's $PATH often lacks it.
inline std::string find_slurm_program(const std::string& name, bool also_sbin = false) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (also_sbin && access(("/usr/sbin/" + name).c_str(), X_OK) == 0) return "/usr/sbin/" + name;
    return {};
}

// The daemons, and the clients the tests run: srun is the one the supervisor starts (found on
// $PATH, as it finds it), sinfo and squeue watch the cluster, scancel ends its jobs, sbatch
// gives the GPU to another job.
inline constexpr const char* kSlurmDaemons[] = {"munged", "slurmctld", "slurmd"};
inline constexpr const char* kSlurmClients[] = {"srun", "sinfo", "squeue", "scancel", "sbatch"};

// Why the Slurm tests cannot run here (a program of Slurm or MUNGE is missing), or nothing.
inline std::optional<std::string> why_no_slurm() {
    for (const char* daemon : kSlurmDaemons)
        if (find_slurm_program(daemon, true).empty())
            return std::string(daemon) + " is not installed (slurm-wlm and munge; scripts/install-deps)";
    for (const char* client : kSlurmClients)
        if (find_slurm_program(client).empty())
            return std::string(client) + " is not on PATH (slurm-wlm; scripts/install-deps)";
    return std::nullopt;
}

inline std::string quoted_for_sh(const std::string& word) {
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

class SlurmCluster {
public:
    // The partition the node is in, the cluster's default.
    static constexpr const char* kPartition = "class";
    // Seconds from the start of the daemons to the node idle, at most.
    static constexpr int kReadyLimitS = 30;

    // Starts the cluster, whose node runs `worker_program` (an absolute path) for
    // `tilescope worker`. Check ok() and why().
    explicit SlurmCluster(const std::string& worker_program) {
        if (!make_folder()) return;
        if (!write_munge_key()) return;
        if (!choose_ports()) return;
        if (!write_configs()) return;
        if (!write_node_program(worker_program)) return;
        if (!start_munged()) return;
        if (!start_daemon(Daemon::Controller)) return;
        if (!start_daemon(Daemon::Node)) return;
        wait_until_idle();
    }
    ~SlurmCluster() { end(); }
    SlurmCluster(const SlurmCluster&) = delete;
    SlurmCluster& operator=(const SlurmCluster&) = delete;

    bool ok() const { return m_why.empty(); }
    const std::string& why() const { return m_why; }

    // What a client of this cluster needs in its environment: SLURM_CONF, and PATH with the
    // folder that holds the node's `tilescope` first (srun passes the client's PATH on).
    std::vector<std::pair<std::string, std::string>> env() const {
        const char* path = std::getenv("PATH");
        return {{"SLURM_CONF", at("slurm.conf")}, {"PATH", at("bin") + ":" + (path ? path : "/usr/bin:/bin")}};
    }

    // The daemons' logs (their last lines), for a failing test to show.
    std::string log() const {
        std::string text;
        for (const char* name : {"munged.log", "slurmctld.log", "slurmd.log"}) text += "== " + std::string(name) + "\n" + tail(name, 40);
        return text;
    }

    // `squeue -h -o FORMAT` on this cluster: one line per job ("%P %b": partition and GRES).
    std::string queue(const std::string& format) const {
        return run_command(client("squeue") + " -h -o " + quoted_for_sh(format)).output;
    }

    // Gives the node's GPU to another job (a batch job that sleeps `seconds`), as another
    // student's would be; returns once that job runs, or false after 10 s.
    bool occupy_gpu(int seconds) {
        const CommandOutcome submitted =
            run_command(client("sbatch") + " --gres=gpu:1 --output=" + quoted_for_sh(at("occupier.out")) +
                        " --wrap=" + quoted_for_sh("sleep " + std::to_string(seconds)));
        if (submitted.exit_code != 0) return failed("sbatch could not submit the occupying job: " + submitted.output);
        for (int waited_ms = 0; waited_ms < 10000; waited_ms += 50) {
            if (queue("%T") == "RUNNING\n") return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return failed("the occupying job did not run within 10 s (squeue: " + queue("%T %R") + ")");
    }

private:
    enum class Daemon { Controller, Node };

    std::filesystem::path m_folder;
    std::string m_why;
    std::string m_node;
    std::string m_user;
    int m_controller_port = 0;
    int m_node_port = 0;
    pid_t m_munged = 0;
    pid_t m_controller = 0;
    pid_t m_node_daemon = 0;

    bool failed(const std::string& why) {
        m_why = why;
        return false;
    }
    std::string at(const std::string& name) const { return (m_folder / name).string(); }
    bool write_file(const std::string& name, const std::string& text, mode_t mode = 0600) {
        {
            std::ofstream out(m_folder / name, std::ios::binary);
            out << text;
            if (!out) return failed("cannot write " + at(name));
        }
        if (chmod(at(name).c_str(), mode) != 0) return failed("cannot set the mode of " + at(name));
        return true;
    }
    std::string tail(const std::string& name, int lines) const {
        std::ifstream in(m_folder / name);
        std::vector<std::string> kept;
        for (std::string line; std::getline(in, line);) {
            kept.push_back(line);
            if (static_cast<int>(kept.size()) > lines) kept.erase(kept.begin());
        }
        std::string text;
        for (const std::string& line : kept) text += line + "\n";
        return text;
    }
    // A client program of this cluster, as a command line for sh.
    std::string client(const char* program) const {
        return "SLURM_CONF=" + quoted_for_sh(at("slurm.conf")) + " " + quoted_for_sh(find_slurm_program(program));
    }

    // [SECTION] The folder

    bool make_folder() {
        const std::filesystem::path base = std::filesystem::temp_directory_path();
        std::string pattern = (base / "tilescope-slurm.XXXXXX").string();
        if (!mkdtemp(pattern.data())) return failed("cannot make a temporary folder in " + base.string());
        m_folder = pattern;
        std::error_code made;
        for (const char* sub : {"state", "spool", "bin"}) std::filesystem::create_directory(m_folder / sub, made);
        if (made) return failed("cannot make the folders of " + m_folder.string() + ": " + made.message());
        char host[256] = {};
        gethostname(host, sizeof host - 1);
        m_node = host;
        m_node = m_node.substr(0, m_node.find('.'));  // slurmd knows itself by the short name
        const passwd* account = getpwuid(geteuid());
        if (!account) return failed("cannot find the name of user " + std::to_string(geteuid()));
        m_user = account->pw_name;
        return true;
    }

    // MUNGE's key: 1024 random bytes, readable by its owner only (munged refuses it otherwise).
    bool write_munge_key() {
        std::random_device random;
        std::string key(1024, '\0');
        for (char& byte : key) byte = static_cast<char>(random() & 0xff);
        return write_file("munge.key", key, 0400);
    }

    // Two ports nobody listens on now, for slurmctld and slurmd. Another process could take one
    // before the daemon does; then that daemon exits at once and the fixture says so.
    bool choose_ports() {
        int fds[2] = {-1, -1};
        int ports[2] = {0, 0};
        for (int i = 0; i < 2; ++i) {
            fds[i] = socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(INADDR_ANY);
            socklen_t length = sizeof address;
            if (fds[i] >= 0 && bind(fds[i], reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                getsockname(fds[i], reinterpret_cast<sockaddr*>(&address), &length) == 0)
                ports[i] = ntohs(address.sin_port);
        }
        for (const int fd : fds)
            if (fd >= 0) close(fd);  // both held until here, so the two differ
        if (ports[0] == 0 || ports[1] == 0) return failed("cannot find two free ports");
        m_controller_port = ports[0];
        m_node_port = ports[1];
        return true;
    }

    bool write_configs() {
        const long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
        const std::string config =
            "ClusterName=tilescope-test\n"
            "SlurmctldHost=" + m_node + "(127.0.0.1)\n"
            "SlurmUser=" + m_user + "\n"
            "SlurmdUser=" + m_user + "\n"
            "SlurmctldPort=" + std::to_string(m_controller_port) + "\n"
            "SlurmdPort=" + std::to_string(m_node_port) + "\n"
            "AuthType=auth/munge\n"
            "AuthInfo=socket=" + at("munge.socket") + "\n"
            "CredType=cred/munge\n"
            "StateSaveLocation=" + at("state") + "\n"
            "SlurmdSpoolDir=" + at("spool") + "\n"
            "SlurmctldPidFile=" + at("slurmctld.pid") + "\n"
            "SlurmdPidFile=" + at("slurmd.pid") + "\n"
            "SlurmctldLogFile=" + at("slurmctld.log") + "\n"
            "SlurmdLogFile=" + at("slurmd.log") + "\n"
            "PlugStackConfig=" + at("plugstack.conf") + "\n"
            "MailProg=/bin/true\n"
            "ProctrackType=proctrack/linuxproc\n"
            "TaskPlugin=task/none\n"
            "JobAcctGatherType=jobacct_gather/none\n"
            "MpiDefault=none\n"
            "SelectType=select/cons_tres\n"
            "SelectTypeParameters=CR_Core\n"
            "GresTypes=gpu\n"
            "NodeName=" + m_node + " NodeAddr=127.0.0.1 CPUs=" + std::to_string(cpus) + " Gres=gpu:1 State=UNKNOWN\n"
            "PartitionName=" + kPartition + " Nodes=" + m_node + " Default=YES State=UP\n";
        // slurmd drops a GPU without a File ("Removing file-less GPU"): this one's device is
        // /dev/null, a character device every machine has, which slurmd only looks at.
        // AutoDetect off: on a machine with GPUs, slurmd counts only this one.
        // Slurm 24.05 and later start a cgroup plugin in slurmd even with proctrack/linuxproc, and
        // fail where no cgroup file system is mounted (a chroot, a container): "disabled", which
        // those versions know and older ones refuse, turns it off.
        const bool cgroups_optional = slurm_version_at_least(24, 5);
        return write_file("slurm.conf", config, 0644) && write_file("plugstack.conf", "", 0644) &&
               write_file("gres.conf", "AutoDetect=off\nName=gpu Count=1 File=/dev/null\n", 0644) &&
               (!cgroups_optional || write_file("cgroup.conf", "CgroupPlugin=disabled\n", 0644));
    }

    // Whether slurmd is this version or newer, from `slurmd -V` ("slurm-wlm 22.05.8", "slurm 24.11.5").
    static bool slurm_version_at_least(int major, int minor) {
        const std::string said = run_command(find_slurm_program("slurmd", true) + " -V").output;
        const std::size_t digits = said.find_first_of("0123456789");
        int found_major = 0, found_minor = 0;
        if (digits == std::string::npos || std::sscanf(said.c_str() + digits, "%d.%d", &found_major, &found_minor) != 2)
            return false;
        return found_major > major || (found_major == major && found_minor >= minor);
    }

    // srun on the node runs `tilescope worker`: this `tilescope`, first on the client's PATH.
    bool write_node_program(const std::string& worker_program) {
        // exec: the task's process is the fake worker itself (it takes no arguments).
        return write_file("bin/tilescope", "#!/bin/sh\nexec " + quoted_for_sh(worker_program) + "\n", 0755);
    }

    // [SECTION] The daemons

    // Starts `argv` with stdin from /dev/null and stdout and stderr into `log_name`, with
    // SLURM_CONF naming this cluster's slurm.conf: slurmd reads gres.conf beside the slurm.conf
    // that SLURM_CONF names, whatever -f says. The daemon gets SIGTERM if the test dies.
    pid_t start_process(std::vector<std::string> argv, const std::string& log_name) {
        std::vector<std::string> environment;
        for (char** variable = environ; *variable; ++variable)
            if (std::string_view(*variable).substr(0, 11) != "SLURM_CONF=") environment.emplace_back(*variable);
        environment.push_back("SLURM_CONF=" + at("slurm.conf"));
        std::vector<char*> argv_pointers, environment_pointers;
        for (std::string& word : argv) argv_pointers.push_back(word.data());
        argv_pointers.push_back(nullptr);
        for (std::string& variable : environment) environment_pointers.push_back(variable.data());
        environment_pointers.push_back(nullptr);
        const std::string log = at(log_name);
        const pid_t pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            const int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
            const int null_fd = open("/dev/null", O_RDWR);
            if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
            if (log_fd >= 0) {
                dup2(log_fd, STDOUT_FILENO);
                dup2(log_fd, STDERR_FILENO);
            }
            execve(argv_pointers[0], argv_pointers.data(), environment_pointers.data());
            _exit(127);
        }
        return pid;
    }

    // Whether `pid` has exited (then it is reaped and set to 0).
    static bool exited(pid_t& pid) {
        if (pid <= 0) return true;
        if (waitpid(pid, nullptr, WNOHANG) != pid) return false;
        pid = 0;
        return true;
    }

    bool start_munged() {
        // --force: munged run by root refuses to start without it. -F: it stays the test's child,
        // and logs on stderr (into munged.log).
        m_munged = start_process({find_slurm_program("munged", true), "-F", "--force", "--key-file=" + at("munge.key"),
                                  "--socket=" + at("munge.socket"), "--pid-file=" + at("munged.pid"),
                                  "--log-file=" + at("munged.log"), "--seed-file=" + at("munged.seed")},
                                 "munged.log");
        if (m_munged < 0) return failed("cannot start munged");
        for (int waited_ms = 0; waited_ms < 10000; waited_ms += 20) {
            if (std::filesystem::exists(m_folder / "munge.socket")) return true;
            if (exited(m_munged)) return failed("munged exited before it made its socket:\n" + tail("munged.log", 40));
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return failed("munged did not make its socket within 10 s:\n" + tail("munged.log", 40));
    }

    // -D: in the foreground, the test's child. Their log files are in slurm.conf; what they say
    // on stderr before they open them (a config they refuse) goes to NAME.stderr.
    bool start_daemon(Daemon daemon) {
        const char* name = daemon == Daemon::Controller ? "slurmctld" : "slurmd";
        pid_t& pid = daemon == Daemon::Controller ? m_controller : m_node_daemon;
        pid = start_process({find_slurm_program(name, true), "-D", "-f", at("slurm.conf")}, std::string(name) + ".stderr");
        if (pid < 0) {
            pid = 0;
            return failed(std::string("cannot start ") + name);
        }
        return true;
    }

    // [SECTION] Ready

    std::string node_state() const { return run_command(client("sinfo") + " -h -o %T").output; }

    void wait_until_idle() {
        const auto begun = std::chrono::steady_clock::now();
        std::string state;
        while (std::chrono::steady_clock::now() - begun < std::chrono::seconds(kReadyLimitS)) {
            const std::pair<pid_t*, const char*> daemons[] = {{&m_munged, "munged"}, {&m_controller, "slurmctld"}, {&m_node_daemon, "slurmd"}};
            for (const auto& [pid, name] : daemons)
                if (exited(*pid)) {
                    failed(std::string(name) + " exited before the node was idle:\n" + tail(std::string(name) + ".stderr", 20) +
                           log());
                    return;
                }
            state = node_state();
            if (state == "idle\n") return;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        failed("the node was not idle within " + std::to_string(kReadyLimitS) + " s (sinfo: " + state + "):\n" + log());
    }

    // [SECTION] The end

    // Ends `pid` with SIGTERM, then SIGKILL when it has not exited within 5 s.
    static void stop_process(pid_t& pid) {
        if (pid <= 0) return;
        kill(pid, SIGTERM);
        for (int waited_ms = 0; waited_ms < 5000; waited_ms += 20) {
            if (exited(pid)) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        pid = 0;
    }

    // The processes, other than this one, whose environment names this cluster's slurm.conf:
    // slurmd's job steps (slurmstepd) and their tasks, which outlive slurmd.
    std::vector<pid_t> processes_of_this_cluster() const {
        const std::string mark = "SLURM_CONF=" + at("slurm.conf");
        std::vector<pid_t> found;
        std::error_code no_proc;
        for (const auto& entry : std::filesystem::directory_iterator("/proc", no_proc)) {
            const std::string name = entry.path().filename().string();
            if (name.find_first_not_of("0123456789") != std::string::npos) continue;
            const pid_t pid = std::stoi(name);
            if (pid == getpid()) continue;
            std::ifstream in(entry.path() / "environ", std::ios::binary);
            for (std::string variable; std::getline(in, variable, '\0');)
                if (variable == mark) {
                    found.push_back(pid);
                    break;
                }
        }
        return found;
    }

    void end() {
        if (m_controller > 0 && m_node_daemon > 0) {
            // The jobs first, while slurmd can still end their steps; then the node is idle.
            run_command(client("scancel") + " --user=" + quoted_for_sh(m_user));
            for (int waited_ms = 0; waited_ms < 10000 && node_state() != "idle\n"; waited_ms += 100)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        stop_process(m_node_daemon);
        stop_process(m_controller);
        stop_process(m_munged);
        for (const pid_t leftover : processes_of_this_cluster()) kill(leftover, SIGKILL);
        if (!m_folder.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(m_folder, ignored);
        }
    }
};

// [SECTION] ScopedEnvironment

// Sets environment variables for as long as it lives, then puts back what was there.
class ScopedEnvironment {
public:
    explicit ScopedEnvironment(const std::vector<std::pair<std::string, std::string>>& variables) {
        for (const auto& [name, value] : variables) {
            const char* old = std::getenv(name.c_str());
            m_old.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
            setenv(name.c_str(), value.c_str(), 1);
        }
    }
    ~ScopedEnvironment() {
        for (const auto& [name, old] : m_old) {
            if (old)
                setenv(name.c_str(), old->c_str(), 1);
            else
                unsetenv(name.c_str());
        }
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> m_old;
};

}  // namespace ts::testing_support
