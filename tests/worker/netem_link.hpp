// netem_link.hpp — a slow, lossy link to a network namespace of the test's own (issue #46): a
// server started there (`ip netns exec NAME …`, sshd_server.hpp's SshdPlace) is reached from the
// test through 50 ms of delay and 1 % loss each way, so one round trip takes 100 ms.
//
// [SECTION] Programs: ip and tc, looked up on $PATH and in the sbin folders
// [SECTION] The link: a namespace tilescope-netem-<pid>; 10.231.X.Y+1/30 here, .Y+2/30 there
//           (X, Y from the pid); `tc qdisc … netem delay 50ms loss 1%` on a veth pair's two ends
// [SECTION] Without netem: a kernel built without it (CONFIG_NET_SCH_NETEM) gets the same link
//           from a TUN device on each side and a thread of the fixture that moves each packet
//           across after 50 ms, dropping 1 % of them
//
// Everything is removed in the destructor, which runs when an assertion ends the test too:
// deleting the veth end here deletes the pair, and deleting the namespace the rest. Where `ip`
// or `tc` is missing, `ip netns add` fails, or a step is refused with "Operation not permitted"
// (`ip netns add` needs CAP_SYS_ADMIN, a veth pair CAP_NET_ADMIN), skip_reason() says why, in
// ip's words.
#pragma once

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/run_command.hpp"

namespace ts::testing_support {

// [SECTION] Programs

// `name`'s absolute path on $PATH or in the sbin folders (which a non-root $PATH may lack), or "".
inline std::string find_program(const std::string& name) {
    std::string folders = std::getenv("PATH") ? std::getenv("PATH") : "";
    folders += ":/usr/sbin:/sbin:/usr/bin:/bin";
    for (std::size_t start = 0; start <= folders.size();) {
        std::size_t end = folders.find(':', start);
        if (end == std::string::npos) end = folders.size();
        const std::string folder = folders.substr(start, end - start);
        start = end + 1;
        if (folder.empty()) continue;
        const std::string path = folder + "/" + name;
        if (access(path.c_str(), X_OK) == 0) return path;
    }
    return "";
}

// [SECTION] The link

class NetemLink {
public:
    static constexpr int kDelayMs = 50;        // each way: a round trip takes 2 × 50 = 100 ms
    static constexpr int kLossPercent = 1;     // each way

    NetemLink() {
        m_ip = find_program("ip");
        m_tc = find_program("tc");
        if (m_ip.empty()) {
            m_skip_reason = "no `ip` program (iproute2) to make a network namespace with";
            return;
        }
        if (m_tc.empty()) {
            m_skip_reason = "no `tc` program (iproute2) to slow the link with";
            return;
        }
        const unsigned slot = static_cast<unsigned>(getpid()) % 16384;  // 64 /30 networks in each 10.231.X.0/24
        const std::string network = "10.231." + std::to_string(slot / 64) + ".";
        m_local_address = network + std::to_string(slot % 64 * 4 + 1);
        m_remote_address = network + std::to_string(slot % 64 * 4 + 2);
        m_namespace = "tilescope-netem-" + std::to_string(getpid());
        m_local_device = "tsnet" + std::to_string(getpid()) + "l";  // at most 15 characters
        m_remote_device = "tsnet" + std::to_string(getpid()) + "r";

        const CommandOutcome added = run_command(m_ip + " netns add " + m_namespace);
        if (added.exit_code != 0) {
            m_skip_reason = "`ip netns add` failed: " + added.output;
            return;
        }
        m_namespace_made = true;
        if (!make_veth_pair()) return;
        const std::string netem =
            " root netem delay " + std::to_string(kDelayMs) + "ms loss " + std::to_string(kLossPercent) + "%";
        const CommandOutcome slowed = run_command(m_tc + " qdisc add dev " + m_local_device + netem);
        if (slowed.exit_code != 0) {
            // Debian 12's tc says "Error: Specified qdisc kind is unknown." where the kernel has no netem.
            remove_veth_pair();
            make_tun_pair(slowed.output);
            return;
        }
        if (!in_namespace(m_tc + " qdisc add dev " + m_remote_device + netem)) return;
        m_how = "tc netem on a veth pair";
    }

    ~NetemLink() {
        stop_relay();
        remove_veth_pair();
        if (m_namespace_made) run_command(m_ip + " netns del " + m_namespace);
    }
    NetemLink(const NetemLink&) = delete;
    NetemLink& operator=(const NetemLink&) = delete;

    // Why the link cannot be made on this machine (skip the test), or nothing.
    const std::optional<std::string>& skip_reason() const { return m_skip_reason; }
    // Made: check after skip_reason(); why() says what went wrong otherwise.
    bool ok() const { return !m_skip_reason && m_why.empty(); }
    const std::string& why() const { return m_why; }

    const std::string& namespace_name() const { return m_namespace; }
    const std::string& local_address() const { return m_local_address; }   // the test's end
    const std::string& remote_address() const { return m_remote_address; }  // the namespace's end
    // Starts a program inside the namespace: prefix its absolute path and arguments with these.
    std::vector<std::string> exec_prefix() const { return {m_ip, "netns", "exec", m_namespace}; }
    // How the delay and loss are applied: tc netem, or the fixture's relay where the kernel has no netem.
    const std::string& how() const { return m_how; }
    // The packets the relay has carried and dropped so far, both ways (0 and 0 with tc netem).
    long packets_relayed() const { return m_relayed; }
    long packets_dropped() const { return m_dropped; }

private:
    std::string m_ip, m_tc;
    std::optional<std::string> m_skip_reason;
    std::string m_why;
    std::string m_how;
    std::string m_namespace, m_local_device, m_remote_device, m_local_address, m_remote_address;
    bool m_namespace_made = false;
    bool m_veth_made = false;

    // Runs `line`; a failure sets why(), or skip_reason() where the test may not change the network.
    bool command(const std::string& line) {
        const CommandOutcome outcome = run_command(line);
        if (outcome.exit_code == 0) return true;
        const std::string said = "`" + line + "` failed: " + outcome.output;
        if (outcome.output.find("Operation not permitted") != std::string::npos)
            m_skip_reason = "no permission to make the link (CAP_NET_ADMIN): " + said;
        else if (m_why.empty())
            m_why = said;
        return false;
    }
    bool in_namespace(const std::string& line) { return command(m_ip + " netns exec " + m_namespace + " " + line); }

    // The two ends' addresses, and both ends and the namespace's loopback up.
    bool address_and_raise(const std::string& local_address, const std::string& remote_address) {
        return command(m_ip + " addr add " + local_address + " dev " + m_local_device) &&
               command(m_ip + " link set " + m_local_device + " up") &&
               command(m_ip + " -n " + m_namespace + " addr add " + remote_address + " dev " + m_remote_device) &&
               command(m_ip + " -n " + m_namespace + " link set " + m_remote_device + " up") &&
               command(m_ip + " -n " + m_namespace + " link set lo up");
    }

    bool make_veth_pair() {
        if (!command(m_ip + " link add " + m_local_device + " type veth peer name " + m_remote_device + " netns " +
                     m_namespace))
            return false;
        m_veth_made = true;
        return address_and_raise(m_local_address + "/30", m_remote_address + "/30");
    }
    // Deleting either end deletes the pair. Deleting the namespace would too, but only once no
    // process is left in it (a login's last process may still be ending).
    void remove_veth_pair() {
        if (m_veth_made) run_command(m_ip + " link del " + m_local_device);
        m_veth_made = false;
    }

    // [SECTION] Without netem

    using Clock = std::chrono::steady_clock;
    struct HeldPacket {
        Clock::time_point due;
        std::vector<char> bytes;
    };

    int m_local_tun = -1, m_remote_tun = -1;
    int m_stop_pipe[2] = {-1, -1};
    std::thread m_relay;
    std::atomic<long> m_relayed{0}, m_dropped{0};

    // A TUN device `name` in the calling thread's network namespace; its file descriptor, or -1.
    static int open_tun(const std::string& name) {
        const int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) return -1;
        ifreq request{};
        request.ifr_flags = IFF_TUN | IFF_NO_PI;  // bare IP packets, one per read and write
        std::strncpy(request.ifr_name, name.c_str(), IFNAMSIZ - 1);
        if (ioctl(fd, TUNSETIFF, &request) != 0) {
            close(fd);
            return -1;
        }
        return fd;
    }

    // `tc_said`: why netem could not be used.
    void make_tun_pair(const std::string& tc_said) {
        m_local_tun = open_tun(m_local_device);
        if (m_local_tun < 0) {
            m_why = "tc netem failed (" + tc_said + "), and /dev/net/tun gave no TUN device: " + std::strerror(errno);
            return;
        }
        // The other device is made by a thread that enters the namespace first: setns changes
        // the calling thread's namespace alone, and the device stays where it was made.
        std::string failure;
        std::thread([&] {
            const int ns = open(("/run/netns/" + m_namespace).c_str(), O_RDONLY | O_CLOEXEC);
            if (ns < 0 || setns(ns, CLONE_NEWNET) != 0)
                failure = "cannot enter the namespace " + m_namespace + ": " + std::strerror(errno);
            else if ((m_remote_tun = open_tun(m_remote_device)) < 0)
                failure = "cannot make a TUN device in the namespace: " + std::string(std::strerror(errno));
            if (ns >= 0) close(ns);
        }).join();
        if (!failure.empty()) {
            m_why = failure;
            return;
        }
        // Point to point: each end routes its peer's address to its device.
        if (!address_and_raise(m_local_address + " peer " + m_remote_address, m_remote_address + " peer " + m_local_address))
            return;
        if (pipe2(m_stop_pipe, O_CLOEXEC) != 0) {
            m_why = "cannot make a pipe";
            return;
        }
        m_relay = std::thread([this] { relay(); });
        std::string said = tc_said;
        while (!said.empty() && said.back() == '\n') said.pop_back();
        m_how = "the fixture's relay between two TUN devices (tc netem: " + said + ")";
    }

    // Moves packets between the two TUN devices, each after kDelayMs, and drops kLossPercent of
    // them, at random: what netem does on each end of the veth pair.
    void relay() {
        std::mt19937 random(std::random_device{}());
        std::bernoulli_distribution lost(kLossPercent / 100.0);
        const int from[2] = {m_local_tun, m_remote_tun};
        const int to[2] = {m_remote_tun, m_local_tun};
        std::deque<HeldPacket> held[2];  // each in the order read; one delay for all, so also due
        std::vector<char> buffer(65536);
        for (;;) {
            int timeout_ms = -1;
            for (const auto& queue : held)
                if (!queue.empty()) {
                    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(queue.front().due - Clock::now());
                    const int ms = std::max(0, static_cast<int>(wait.count()));
                    timeout_ms = timeout_ms < 0 ? ms : std::min(timeout_ms, ms);
                }
            pollfd watched[3] = {{from[0], POLLIN, 0}, {from[1], POLLIN, 0}, {m_stop_pipe[0], POLLIN, 0}};
            poll(watched, 3, timeout_ms);
            if (watched[2].revents) return;
            for (int side = 0; side < 2; ++side) {
                if (!watched[side].revents) continue;
                for (ssize_t n; (n = read(from[side], buffer.data(), buffer.size())) > 0;) {
                    if (lost(random)) {
                        ++m_dropped;
                        continue;
                    }
                    held[side].push_back({Clock::now() + std::chrono::milliseconds(kDelayMs),
                                          std::vector<char>(buffer.begin(), buffer.begin() + n)});
                }
            }
            const auto now = Clock::now();
            for (int side = 0; side < 2; ++side)
                while (!held[side].empty() && held[side].front().due <= now) {
                    const auto& bytes = held[side].front().bytes;
                    [[maybe_unused]] const ssize_t written = write(to[side], bytes.data(), bytes.size());
                    held[side].pop_front();
                    ++m_relayed;
                }
        }
    }

    void stop_relay() {
        if (m_relay.joinable()) {
            [[maybe_unused]] const ssize_t written = write(m_stop_pipe[1], "x", 1);
            m_relay.join();
        }
        for (int fd : {m_local_tun, m_remote_tun, m_stop_pipe[0], m_stop_pipe[1]})
            if (fd >= 0) close(fd);  // a TUN device goes when its last descriptor closes
    }
};

}  // namespace ts::testing_support
