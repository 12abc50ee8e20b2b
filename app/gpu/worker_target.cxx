// worker_target.cxx — see worker_target.hpp.
//
// [SECTION] Words the user typed, checked
// [SECTION] --gpu and --worker-command
// [SECTION] The program to start
#include "worker_target.hpp"

#include <algorithm>
#include <cstdio>

#include "supervisor.hpp"

namespace ts::gpu {

// The helpers' own namespace keeps their names apart from other files' in a unity batch.
namespace {
namespace target_spec {

//-----------------------------------------------------------------------------
// [SECTION] Words the user typed, checked
//-----------------------------------------------------------------------------

// `text` as the sentence quotes it: control characters (a newline in a host, say) written as
// \xNN, so that the sentence stays one line and shows what was typed.
std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// A character of a name that is not allowed, in words.
std::string character_name(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == ' ') return "a space";
    if (c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') return "whitespace";
    if (byte < 0x20 || byte == 0x7f) return "a control character";
    if (byte >= 0x80) return "a character outside ASCII";
    return quoted(std::string_view(&c, 1));
}

bool name_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
           c == '_';
}

// A host, user or partition: letters, digits, ".", "-" and "_", never first "-" (an option to
// ssh or srun) or "." (a host "." or ".."). Whatever else (spaces, quotes, ;|&$`, "=", "%",
// "/") could mean something to the shell on the far side or to the program's own parser.
// Empty: fine; nonempty: why `name` is refused, for "--gpu SPEC: " to precede.
std::string name_problem(std::string_view what, std::string_view name) {
    if (name.empty()) return "the " + std::string(what) + " is empty";
    if (name.front() == '-')
        return "the " + std::string(what) + " cannot start with \"-\", which would be read as an option";
    if (name.front() == '.') return "the " + std::string(what) + " cannot start with \".\"";
    for (const char c : name)
        if (!name_character(c))
            return "the " + std::string(what) + " may hold only letters, digits, \".\", \"-\" and \"_\", not " +
                   character_name(c);
    return {};
}

// An IPv6 address as written between brackets: hex digits, ":" and "." (an IPv4 tail), with at
// least one ":".
std::string ipv6_problem(std::string_view address) {
    if (address.find(':') == std::string_view::npos) return "the address between \"[\" and \"]\" is not IPv6";
    for (const char c : address) {
        const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!hex && c != ':' && c != '.')
            return "an IPv6 address between \"[\" and \"]\" may hold only hex digits, \":\" and \".\", not " +
                   character_name(c);
    }
    return {};
}

// "1".."65535", digits only: the number, or 0 when it is not one.
int parse_port(std::string_view text) {
    if (text.empty() || text.size() > 5) return 0;
    int port = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return 0;
        port = port * 10 + (c - '0');
    }
    return port <= 65535 ? port : 0;
}

constexpr std::string_view kSshScheme = "ssh://";
constexpr std::string_view kSlurmPrefix = "slurm:";

std::variant<WorkerTarget, std::string> refuse(std::string_view spec, const std::string& why) {
    return "--gpu " + quoted(spec) + ": " + why;
}

std::variant<WorkerTarget, std::string> parse_ssh(std::string_view spec) {
    // The user, host and port are checked first, so that "ssh://-oProxyCommand=touch /tmp/x" is
    // refused for its "-" rather than for its path.
    std::string_view rest = spec.substr(kSshScheme.size());
    const auto path = std::min(rest.find_first_of("/?#"), rest.size());
    const bool has_path = path < rest.size();
    rest = rest.substr(0, path);
    WorkerTarget target;
    target.kind = WorkerTargetKind::Ssh;
    if (const auto at = rest.find('@'); at != std::string_view::npos) {
        target.user = rest.substr(0, at);
        rest.remove_prefix(at + 1);
        if (target.user.empty()) return refuse(spec, "the user name before \"@\" is empty");
        if (const std::string why = name_problem("user name", target.user); !why.empty()) return refuse(spec, why);
    }
    std::string_view port_text;
    bool has_port = false;
    if (!rest.empty() && rest.front() == '[') {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) return refuse(spec, "the \"[\" before an IPv6 address has no \"]\"");
        target.host = rest.substr(1, close - 1);
        const std::string_view after = rest.substr(close + 1);
        if (!after.empty() && after.front() != ':')
            return refuse(spec, "only \":PORT\" may follow the \"]\" of an IPv6 address");
        if (!after.empty()) {
            has_port = true;
            port_text = after.substr(1);
        }
        if (target.host.empty()) return refuse(spec, "the address names no host; write ssh://[user@]host[:port]");
        if (const std::string why = ipv6_problem(target.host); !why.empty()) return refuse(spec, why);
    } else {
        const auto colon = rest.find(':');
        target.host = rest.substr(0, colon);
        if (colon != std::string_view::npos) {
            has_port = true;
            port_text = rest.substr(colon + 1);
        }
        if (target.host.empty()) return refuse(spec, "the address names no host; write ssh://[user@]host[:port]");
        if (const std::string why = name_problem("host", target.host); !why.empty()) return refuse(spec, why);
    }
    if (has_port) {
        target.port = parse_port(port_text);
        if (target.port == 0) return refuse(spec, "the port must be a number from 1 to 65535, not " + quoted(port_text));
    }
    if (has_path)
        return refuse(spec, "an ssh address is ssh://[user@]host[:port], with nothing after the host or port");
    return target;
}

}  // namespace target_spec
}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] --gpu and --worker-command
//-----------------------------------------------------------------------------

std::variant<WorkerTarget, std::string> parse_worker_target(std::string_view spec) {
    using namespace target_spec;
    if (spec == "local") return WorkerTarget{};
    if (spec.starts_with(kSshScheme)) return parse_ssh(spec);
    if (spec.starts_with("slurm")) {
        WorkerTarget target;
        target.kind = WorkerTargetKind::Slurm;
        if (spec == "slurm") return target;
        if (!spec.starts_with(kSlurmPrefix)) return refuse(spec, "--gpu takes local, ssh://[user@]host[:port], slurm or slurm:PARTITION");
        target.partition = spec.substr(kSlurmPrefix.size());
        if (target.partition.empty())
            return refuse(spec, "the partition after \"slurm:\" is empty; write slurm for the cluster's default");
        if (const std::string why = name_problem("partition", target.partition); !why.empty()) return refuse(spec, why);
        return target;
    }
    return refuse(spec, "--gpu takes local, ssh://[user@]host[:port], slurm or slurm:PARTITION");
}

std::variant<WorkerTarget, std::string> worker_target_from_command(std::vector<std::string> command) {
    if (command.empty() || command.front().empty())
        return std::string("--worker-command needs the program that starts a worker, then its arguments");
    WorkerTarget target;
    target.kind = WorkerTargetKind::Command;
    target.command = std::move(command);
    return target;
}

//-----------------------------------------------------------------------------
// [SECTION] The program to start
//-----------------------------------------------------------------------------

std::vector<std::string> worker_argv(const WorkerTarget& target) {
    const std::string program(kRemoteWorkerProgram), argument(kRemoteWorkerArgument);
    switch (target.kind) {
    case WorkerTargetKind::Local: return this_program_as_worker();
    case WorkerTargetKind::Ssh: {
        // -T: no terminal, so the worker's bytes pass unchanged. BatchMode: a server that wants a
        // password fails instead of asking (TileScope never takes one). ServerAliveInterval:
        // a link that died silently ends ssh within about 30 s, as a stopped worker. ConnectTimeout:
        // an unreachable host is said so in 10 s, not after TCP's two minutes.
        std::vector<std::string> argv{"ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o",
                                      "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3"};
        if (target.port != 0) argv.insert(argv.end(), {"-p", std::to_string(target.port)});
        if (!target.user.empty()) argv.insert(argv.end(), {"-l", target.user});
        // "--": whatever follows is the destination and the command, never an option.
        argv.insert(argv.end(), {"--", target.host, program, argument});
        return argv;
    }
    case WorkerTargetKind::Slurm: {
        // --unbuffered: slurmstepd passes the worker's output on as it comes (through a raw
        // pseudo-terminal, every byte as written); by default it holds it back until a newline,
        // which a framed message need not contain.
        std::vector<std::string> argv{"srun", "--gres=gpu:1", "--unbuffered"};
        if (!target.partition.empty()) argv.push_back("--partition=" + target.partition);
        argv.insert(argv.end(), {program, argument});
        return argv;
    }
    case WorkerTargetKind::Command: return target.command;
    }
    return this_program_as_worker();
}

std::string advice_for_ssh_failure(const WorkerTarget& target, const std::string& last_stderr_line) {
    if (target.kind != WorkerTargetKind::Ssh || last_stderr_line.find("Permission denied") == std::string::npos) return {};
    const std::string destination = target.user.empty() ? target.host : target.user + "@" + target.host;
    const std::string port = target.port != 0 ? "-p " + std::to_string(target.port) + " " : "";
    return "the server " + target.host + " did not accept this computer's key: set up a key for it: ssh-keygen, then ssh-copy-id " +
           port + destination + ", then ssh " + port + destination + " once in a terminal";
}

SupervisorOptions supervisor_options(const WorkerTarget& target) {
    SupervisorOptions options;
    options.worker_command = worker_argv(target);
    options.explain_stop = [target](const std::string& line) { return advice_for_ssh_failure(target, line); };
    switch (target.kind) {
        case WorkerTargetKind::Local: return options;
        case WorkerTargetKind::Ssh:
            options.server = target.host;
            options.launcher = "ssh";
            break;
        case WorkerTargetKind::Slurm:
            options.server = target.partition.empty() ? "a Slurm node" : "a Slurm node of " + target.partition;
            options.launcher = "srun";
            break;
        case WorkerTargetKind::Command:
            options.server = target.command.front();
            options.launcher = target.command.front();
            break;
    }
    // ssh has logged in, srun may wait for a node: a handshake can take a while.
    options.probe_timeout_s = 120.0;
    options.reconnect_delays_s = {2.0, 4.0, 8.0, 16.0, 30.0};
    return options;
}

std::string describe(const WorkerTarget& target) {
    using target_spec::kSlurmPrefix, target_spec::kSshScheme;
    switch (target.kind) {
    case WorkerTargetKind::Local: return "local";
    case WorkerTargetKind::Ssh: {
        std::string text(kSshScheme);
        if (!target.user.empty()) text += target.user + "@";
        text += target.host.find(':') != std::string::npos ? "[" + target.host + "]" : target.host;
        if (target.port != 0) text += ":" + std::to_string(target.port);
        return text;
    }
    case WorkerTargetKind::Slurm: return target.partition.empty() ? "slurm" : std::string(kSlurmPrefix) + target.partition;
    case WorkerTargetKind::Command: {
        std::string text;
        for (const std::string& word : target.command) text += (text.empty() ? "" : " ") + word;
        return text;
    }
    }
    return "local";
}

}  // namespace ts::gpu
