// sshd_server.hpp — a throwaway OpenSSH server on 127.0.0.1 for the tests of `--gpu ssh://`,
// with the fake worker on the server's side where there is no GPU (issue #46). It can also run
// in another network namespace, on an address there (SshdPlace; netem_link.hpp makes one).
//
// [SECTION] The server: /usr/sbin/sshd -D -e -f <its config>, on a free port of 127.0.0.1,
//           a host key and a user key made by ssh-keygen, keys only, ForceCommand the fake worker
// [SECTION] The client: an `ssh` first on $PATH that runs /usr/bin/ssh -F <the test's config>,
//           so that the supervisor's exact argv (worker_argv) reaches the real client
//
// Everything lives in one temporary folder, removed at the end: no system service is touched,
// and nothing in the user's ~/.ssh is read or written (the client's config names its key, its
// known hosts and no agent). The one thing outside the folder: sshd run as root insists on its
// privilege-separation directory /run/sshd, which the openssh-server package's service creates
// when it starts; where it is missing, the fixture makes it, empty, as that service would.
#pragma once

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/run_command.hpp"

namespace ts::testing_support {

inline constexpr const char* kSshdProgram = "/usr/sbin/sshd";
inline constexpr const char* kSshProgram = "/usr/bin/ssh";
inline constexpr const char* kSshKeygenProgram = "/usr/bin/ssh-keygen";

// Why the ssh tests cannot run here (a program of OpenSSH is missing), or nothing.
inline std::optional<std::string> why_no_sshd() {
    for (const char* program : {kSshdProgram, kSshProgram, kSshKeygenProgram})
        if (access(program, X_OK) != 0)
            return std::string(program) + " is not installed (openssh-server and openssh-client; scripts/install-deps)";
    return std::nullopt;
}

// A word for sh, quoted whole.
inline std::string shell_quoted(const std::string& word) {
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

// Where sshd listens: by default 127.0.0.1 of the test's own network namespace. `prefix`
// starts sshd elsewhere, e.g. {"/usr/sbin/ip", "netns", "exec", NAME}, which then execs sshd
// in the same process; `address` is then one of that namespace's, reachable from the test's.
struct SshdPlace {
    std::string address = "127.0.0.1";
    std::vector<std::string> prefix;
};

class SshdServer {
public:
    enum class ClientKey { Authorized, Refused };

    // Starts sshd serving `fake_worker` (an absolute path) to every login. With ClientKey::Refused
    // the server authorizes another key than the one the client offers. `session_environment`
    // ("NAME=value"): what each login's worker finds in its environment, as an administrator's
    // sshd SetEnv gives it (a session does not inherit the test's). Check ok() and why().
    SshdServer(const std::string& fake_worker, ClientKey client_key = ClientKey::Authorized, SshdPlace place = {},
               std::vector<std::string> session_environment = {})
        : m_place(std::move(place)), m_session_environment(std::move(session_environment)) {
        if (!make_folder()) return;
        if (!make_keys(client_key)) return;
        if (!write_server_config(fake_worker)) return;
        if (!start_server()) return;
        write_client_side();
    }
    ~SshdServer() {
        if (m_path_replaced) setenv("PATH", m_old_path.c_str(), 1);
        if (m_pid > 0) {
            // Ends the listener; each session ends with its client, which the test has closed.
            kill(m_pid, SIGTERM);
            waitpid(m_pid, nullptr, 0);
        }
        if (!m_folder.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(m_folder, ignored);
        }
    }
    SshdServer(const SshdServer&) = delete;
    SshdServer& operator=(const SshdServer&) = delete;

    bool ok() const { return m_why.empty(); }
    const std::string& why() const { return m_why; }
    int port() const { return m_port; }
    const std::string& address() const { return m_place.address; }
    // What sshd wrote (-e: its log on stderr), for a failing test to show.
    std::string log() const {
        std::ifstream in(m_folder / "sshd.log");
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

private:
    SshdPlace m_place;
    std::vector<std::string> m_session_environment;
    std::filesystem::path m_folder;
    std::string m_why;
    int m_port = 0;
    pid_t m_pid = 0;
    std::string m_old_path;
    bool m_path_replaced = false;

    bool failed(const std::string& why) {
        m_why = why;
        return false;
    }
    std::string at(const char* name) const { return (m_folder / name).string(); }
    bool write_file(const char* name, const std::string& text, mode_t mode = 0600) {
        {
            std::ofstream out(m_folder / name);
            out << text;
            if (!out) return failed("cannot write " + at(name));
        }
        chmod(at(name).c_str(), mode);
        return true;
    }
    std::string read_file(const char* name) const {
        std::ifstream in(m_folder / name);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    bool make_folder() {
        const std::filesystem::path base = std::filesystem::temp_directory_path();
        std::string pattern = (base / "tilescope-sshd.XXXXXX").string();
        if (!mkdtemp(pattern.data())) return failed("cannot make a temporary folder in " + base.string());
        m_folder = pattern;
        return true;
    }

    bool make_key(const char* name) {
        const CommandOutcome made = run_command(std::string(kSshKeygenProgram) + " -q -t ed25519 -N '' -C tilescope-test -f " +
                                                shell_quoted(at(name)));
        if (made.exit_code != 0) return failed("ssh-keygen could not make " + at(name) + ": " + made.output);
        return true;
    }

    bool make_keys(ClientKey client_key) {
        if (!make_key("host_key") || !make_key("client_key")) return false;
        if (client_key == ClientKey::Authorized) return write_file("authorized_keys", read_file("client_key.pub"));
        if (!make_key("other_key")) return false;
        return write_file("authorized_keys", read_file("other_key.pub"));
    }

    // A port of 127.0.0.1 nobody listens on now. Another process could take it before sshd
    // does; then sshd exits at once and the fixture says so. (In another namespace, made for
    // the test, every port is free: this one serves as well as any.)
    bool choose_port() {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) return failed("cannot open a socket");
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        const bool found = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                           getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
        close(fd);
        if (!found) return failed("cannot find a free port on 127.0.0.1");
        m_port = ntohs(address.sin_port);
        return true;
    }

    bool write_server_config(const std::string& fake_worker) {
        // EEXIST: another test's fixture made it just now.
        if (geteuid() == 0 && mkdir("/run/sshd", 0755) != 0 && errno != EEXIST)
            return failed("cannot make sshd's privilege-separation directory /run/sshd");
        if (!choose_port()) return false;
        // ForceCommand: whatever the client asks to run (`tilescope worker`), the fake worker
        // runs, through the login's shell. StrictModes no: the temporary folder's owner and
        // modes are not those of a home's .ssh.
        std::string config = "ListenAddress " + m_place.address + "\n"
                             "Port " + std::to_string(m_port) + "\n"
                             "HostKey " + at("host_key") + "\n"
                             "PidFile " + at("sshd.pid") + "\n"
                             "AuthorizedKeysFile " + at("authorized_keys") + "\n"
                             "PubkeyAuthentication yes\n"
                             "PasswordAuthentication no\n"
                             "KbdInteractiveAuthentication no\n"
                             "UsePAM no\n"
                             "StrictModes no\n"
                             "PermitRootLogin prohibit-password\n"
                             "PermitTTY no\n"
                             "X11Forwarding no\n"
                             "AllowTcpForwarding no\n"
                             "AllowAgentForwarding no\n"
                             "PrintMotd no\n"
                             "ForceCommand " + shell_quoted(fake_worker) + "\n";
        if (!m_session_environment.empty()) {
            config += "SetEnv";
            for (const std::string& variable : m_session_environment) config += " " + variable;
            config += "\n";
        }
        // OpenSSH 9.8 and later penalize a source whose sessions end badly (the tests kill
        // clients on purpose); an older sshd does not know the option, and its check says so.
        if (!write_file("sshd_config", config + "PerSourcePenalties no\n")) return false;
        if (run_command(std::string(kSshdProgram) + " -t -f " + shell_quoted(at("sshd_config"))).exit_code == 0) return true;
        if (!write_file("sshd_config", config)) return false;
        const CommandOutcome checked = run_command(std::string(kSshdProgram) + " -t -f " + shell_quoted(at("sshd_config")));
        if (checked.exit_code != 0) return failed("sshd refuses the test's config: " + checked.output);
        return true;
    }

    bool accepts_connections() const {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) return false;
        sockaddr_in address{};
        address.sin_family = AF_INET;
        inet_pton(AF_INET, m_place.address.c_str(), &address.sin_addr);
        address.sin_port = htons(static_cast<std::uint16_t>(m_port));
        const bool connected = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
        close(fd);
        return connected;
    }

    bool start_server() {
        const std::string config = at("sshd_config");
        const std::string log = at("sshd.log");
        // sshd wants to be started by its absolute path (it re-executes itself). The words are
        // made before fork: the test may have threads, and the child may not allocate.
        std::vector<std::string> words = m_place.prefix;
        words.insert(words.end(), {kSshdProgram, "-D", "-e", "-f", config});
        std::vector<char*> argv;
        for (std::string& word : words) argv.push_back(word.data());
        argv.push_back(nullptr);
        const pid_t pid = fork();
        if (pid == 0) {
            const int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            const int null_fd = open("/dev/null", O_RDWR);
            if (log_fd >= 0) dup2(log_fd, STDERR_FILENO);
            if (null_fd >= 0) {
                dup2(null_fd, STDIN_FILENO);
                dup2(null_fd, STDOUT_FILENO);
            }
            execv(argv[0], argv.data());
            _exit(127);
        }
        if (pid < 0) return failed("cannot start sshd");
        m_pid = pid;
        for (int waited_ms = 0; waited_ms < 10000; waited_ms += 20) {
            if (accepts_connections()) return true;
            int status = 0;
            if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = 0;
                return failed("sshd exited before it listened on " + m_place.address + ":" + std::to_string(m_port) + ":\n" +
                              this->log());
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return failed("sshd did not listen on " + m_place.address + ":" + std::to_string(m_port) + " within 10 s:\n" +
                      this->log());
    }

    // The client's config and known hosts, and the `ssh` on $PATH that uses them.
    void write_client_side() {
        std::string host_key = read_file("host_key.pub");
        host_key = host_key.substr(0, host_key.find(" tilescope-test"));  // "ssh-ed25519 AAAA…"
        if (!write_file("known_hosts", "[" + m_place.address + "]:" + std::to_string(m_port) + " " + host_key + "\n")) return;
        const std::string config = "Host *\n"
                                   "  IdentityFile " + at("client_key") + "\n"
                                   "  IdentitiesOnly yes\n"
                                   "  IdentityAgent none\n"
                                   "  UserKnownHostsFile " + at("known_hosts") + "\n"
                                   "  GlobalKnownHostsFile /dev/null\n"
                                   "  StrictHostKeyChecking yes\n"
                                   "  UpdateHostKeys no\n"
                                   "  CheckHostIP no\n"
                                   "  ControlMaster no\n"
                                   "  ControlPath none\n";
        if (!write_file("ssh_config", config)) return;
        // exec: the wrapper's process becomes ssh, so the supervisor's worker pid is ssh's.
        if (!write_file("ssh", "#!/bin/sh\nexec " + std::string(kSshProgram) + " -F " + shell_quoted(at("ssh_config")) + " \"$@\"\n",
                        0700))
            return;
        const char* path = std::getenv("PATH");
        m_old_path = path ? path : "/usr/bin:/bin";
        setenv("PATH", (m_folder.string() + ":" + m_old_path).c_str(), 1);
        m_path_replaced = true;
    }
};

}  // namespace ts::testing_support
