#include "supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <mutex>
#include <string_view>
#include <thread>

#include "model/format.hpp"
#include "paths/program_path.hpp"
#include "steady_clock.hpp"
#include "wire.hpp"

namespace ts::gpu {

using model::format_text;

namespace {

using Clock = std::chrono::steady_clock;

// What was running, as the failed result's sentence names it: the point (describe_point:
// "tiled T=1 float 2048³"), and what was asked of it when that was not a plain measurement.
std::string describe_request(const RunRequest& r) {
    if (r.kind == RequestKind::Roofline) return "the roofline measurement";
    if (r.kind == RequestKind::Memory) return "the question of how much GPU memory is free";
    if (r.kind == RequestKind::Accumulator) return "the accumulator experiment (" + r.accumulator_input + ")";
    const std::string what = describe_point(r);
    switch (r.kind) {
        case RequestKind::Occupancy: return "asking CUDA about " + what;
        case RequestKind::Record: return "tracing " + what;
        case RequestKind::Experiment: return format_text("the {} experiment on {}", model::experiment_name(r.experiment), what);
        case RequestKind::Counters: return "reading the counters of " + what;
        default: return what;
    }
}

// The usual signals by name as well as number: "killed by signal 9 (SIGKILL: Killed)".
const char* signal_name(int signal) {
    switch (signal) {
        case SIGKILL: return "SIGKILL";
        case SIGSEGV: return "SIGSEGV";
        case SIGABRT: return "SIGABRT";
        case SIGBUS: return "SIGBUS";
        case SIGFPE: return "SIGFPE";
        case SIGILL: return "SIGILL";
        case SIGTERM: return "SIGTERM";
        case SIGINT: return "SIGINT";
        case SIGHUP: return "SIGHUP";
        case SIGPIPE: return "SIGPIPE";
        default: return nullptr;
    }
}

std::string describe_exit(int status) {
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        const char* meaning = strsignal(signal);
        const char* name = signal_name(signal);
        return format_text("killed by signal {} ({}{}{})", signal, name ? name : "", name ? ": " : "",
                           meaning ? meaning : "unknown");
    }
    if (WIFEXITED(status)) return format_text("exited with status {}", WEXITSTATUS(status));
    return "ended";
}

// The file to exec for `program`: itself when it names a path; otherwise the first executable
// file of that name in $PATH ("ssh", "srun" of --gpu), then one in the working directory (a
// test's worker beside it), or empty when there is none. Looked up here, before fork, because
// execvp's search is not async-signal-safe, and the child of this threaded process may make
// only such calls until exec.
std::string find_program(const std::string& program) {
    if (program.find('/') != std::string::npos) return program;
    if (const auto found = paths::find_on_path(program)) return found->string();
    std::error_code no_file;
    return std::filesystem::is_regular_file(program, no_file) && access(program.c_str(), X_OK) == 0 ? program : std::string();
}

// The last line of `text` that holds more than whitespace, without its line end; empty if none.
std::string last_nonempty_line(const std::string& text) {
    std::size_t end = text.size();
    while (end > 0) {
        const std::size_t start = text.rfind('\n', end - 1);
        const std::size_t first = start == std::string::npos ? 0 : start + 1;
        std::string line = text.substr(first, end - first);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
        const std::size_t text_start = line.find_first_not_of(" \t");
        if (text_start != std::string::npos) return line.substr(text_start);
        if (start == std::string::npos) break;
        end = start;
    }
    return {};
}

}  // namespace

double kernel_deadline_s(const RunRequest& request, double estimate_s, double min_s) {
    double budget = request.adaptive ? request.budget_s : 0.0;
    if (request.kind == RequestKind::Roofline) budget = std::max(budget, 60.0);
    // An experiment checks every run on the host, most of its time the CPU reference; CUPTI
    // replays a launch for each of its passes.
    if (request.kind == RequestKind::Experiment) budget = std::max(budget, 60.0 + 0.5 * request.runs);
    if (request.kind == RequestKind::Counters) budget = std::max(budget, 60.0);
    // The learner's kernel is compiled in the worker, in a child process stopped at its own limit.
    // Its runs come after a compile (the worker keeps the module), so an endless loop there is
    // stopped at the usual deadline.
    if (request.kind == RequestKind::UserCompile && request.user)
        budget = std::max(budget, request.user->compile_limit_s / 2.0 + 5.0);
    // Settling runs the kernel for its own time first, outside the budget.
    return std::max(min_s, 10.0 * estimate_s + 2.0 * budget + request.settle_s + 5.0);
}

// The worker process and the three pipes to it (its stdin, stdout and stderr); one request at
// a time (the Runner's thread). status() may be called from any thread.
class Supervisor {
public:
    Supervisor(SupervisorOptions options, std::shared_ptr<SupervisorStats> stats)
        : m_options(std::move(options)), m_stats(stats ? std::move(stats) : std::make_shared<SupervisorStats>()) {
        // A write to a worker that has just died must fail with EPIPE, not end the app.
        signal(SIGPIPE, SIG_IGN);
        m_status.server = m_options.server;
    }
    ~Supervisor() { stop(false); }

    DeviceInfo probe() {
        if (auto why = connect("starting CUDA")) {
            DeviceInfo failed;
            failed.why_not = *why;
            failed.remote = remote();
            failed.host = m_options.server;
            return failed;
        }
        return m_device;
    }

    RunResult run(const RunRequest& request) {
        RunResult result;
        result.request = request;
        const std::string during = describe_request(request);
        if (auto why = connect(during)) {
            result.error = *why;
            return result;
        }
        const double estimate = m_options.estimate_s ? m_options.estimate_s(request) : 0.0;
        const double deadline = kernel_deadline_s(request, estimate, m_options.min_deadline_s);
        auto answer = exchange({.type = "run", .request = request, .deadline_s = deadline}, deadline, during);
        set_phase(WorkerStatus::Phase::Ready);
        if (answer.result) {
            if (answer.context_lost) {
                // The worker exits by itself after such a result; a new one takes the next request.
                stop(true);
                if (!remote()) start();
                answer.result->error += "; the GPU worker could not go on after that and was restarted";
                m_stats->last_stop = answer.result->error;
            }
            if (remote()) {
                // Wherever the result is kept (a trace file, the counters' report), it says where it ran.
                answer.result->gpu_host = m_device.host;
                const std::string on_host = " on " + m_device.host;
                if (answer.result->trace) answer.result->trace->device += on_host;
                if (answer.result->counters) answer.result->counters->device += on_host;
            }
            return *answer.result;
        }
        result.error = answer.failure;
        return result;
    }

    // From another thread: a request waiting for a connection or its turn gives up (the Runner stops).
    void cancel_waiting() { m_cancelled = true; }

    WorkerStatus status() const {
        std::lock_guard lock(m_status_mutex);
        WorkerStatus status = m_status;
        if (status.phase == WorkerStatus::Phase::Reconnecting)
            status.retry_in_s = std::max(0.0, -seconds_since(m_status_retry_at));
        return status;
    }

private:
    struct Answer {
        std::optional<wire::Hello> hello{};
        std::optional<RunResult> result{};
        bool context_lost = false;
        std::string failure{};  // set when neither came back
    };

    bool running() const { return m_pid > 0; }
    bool remote() const { return !m_options.server.empty(); }

    void set_phase(WorkerStatus::Phase phase, int ahead = 0, const std::string& problem = {}) {
        std::lock_guard lock(m_status_mutex);
        m_status.phase = phase;
        m_status.ahead = ahead;
        if (!problem.empty()) m_status.problem = problem;
    }

    // A worker ready for requests: the one running, or a new one once its handshake is in. Waits
    // first when a reconnection is due later. The sentence when none can be had.
    std::optional<std::string> connect(const std::string& during) {
        if (!m_incompatible.empty()) return m_incompatible;
        if (running()) return std::nullopt;
        if (-seconds_since(m_reconnect_at) > 0.0) {
            set_phase(WorkerStatus::Phase::Reconnecting);
            while (-seconds_since(m_reconnect_at) > 0.0 && !m_cancelled)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (m_cancelled) return std::string(kCancelled);
        set_phase(WorkerStatus::Phase::Connecting);
        if (auto why = start()) {
            return lost(remote() ? format_text("cannot start the GPU worker on {}", m_options.server)
                                 : std::string("cannot start the GPU worker"),
                        *why);
        }
        // An older worker answers this probe without a handshake, which tells it apart; a current
        // one says hello first, unasked.
        if (!wire::write_frame(m_to, wire::encode_message({.type = "probe"}))) return connection_failed(during, reap());
        Answer answer = await(m_options.probe_timeout_s, during, /*connecting=*/true);
        if (!answer.hello) return answer.failure;
        if (auto why = wire::incompatibility(*answer.hello, remote() ? m_options.server : "this machine")) {
            stop(true);
            m_incompatible = *why;
            set_phase(WorkerStatus::Phase::Failed, 0, *why);
            return *why;
        }
        m_device = answer.hello->device;
        m_device.remote = remote();
        m_next_delay = 0;
        set_phase(WorkerStatus::Phase::Ready);
        return std::nullopt;
    }

    std::optional<std::string> start() {
        if (m_options.worker_command.empty() || m_options.worker_command.front().empty())
            return std::string("no command was given");
        const std::string program = find_program(m_options.worker_command.front());
        if (program.empty()) return format_text("{} is not on PATH", m_options.worker_command.front());
        int to_child[2], from_child[2], errors_of_child[2];
        if (pipe2(to_child, O_CLOEXEC) != 0) return format_text("cannot make a pipe: {}", std::strerror(errno));
        if (pipe2(from_child, O_CLOEXEC) != 0) {
            close(to_child[0]);
            close(to_child[1]);
            return format_text("cannot make a pipe: {}", std::strerror(errno));
        }
        if (pipe2(errors_of_child, O_CLOEXEC) != 0) {
            for (const int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) close(fd);
            return format_text("cannot make a pipe: {}", std::strerror(errno));
        }
        std::vector<char*> argv;
        for (std::string& word : m_options.worker_command) argv.push_back(word.data());
        argv.push_back(nullptr);
        const pid_t pid = fork();
        if (pid == 0) {
            // The child: only async-signal-safe calls until exec.
            dup2(to_child[0], STDIN_FILENO);
            dup2(from_child[1], STDOUT_FILENO);
            dup2(errors_of_child[1], STDERR_FILENO);
            execv(program.c_str(), argv.data());
            _exit(127);
        }
        close(to_child[0]);
        close(from_child[1]);
        close(errors_of_child[1]);
        if (pid < 0) {
            close(to_child[1]);
            close(from_child[0]);
            close(errors_of_child[0]);
            return format_text("fork failed: {}", std::strerror(errno));
        }
        m_pid = pid;
        m_stats->worker_pid = pid;
        m_to = to_child[1];
        m_from = from_child[0];
        fcntl(m_from, F_SETFL, fcntl(m_from, F_GETFL) | O_NONBLOCK);
        m_errors = errors_of_child[0];
        fcntl(m_errors, F_SETFL, fcntl(m_errors, F_GETFL) | O_NONBLOCK);
        m_error_tail.clear();
        m_reader = wire::FrameReader{};
        if (m_stats->started++ > 0) ++m_stats->restarts;
        return std::nullopt;
    }

    // Reads what the worker has written on stderr so far, never waiting: passes it on to this
    // process's stderr and keeps the last 2 KB. Closes the pipe at its end.
    void read_errors() {
        char buffer[4096];
        while (m_errors >= 0) {
            const ssize_t got = read(m_errors, buffer, sizeof buffer);
            if (got > 0) {
                [[maybe_unused]] const auto written = write(STDERR_FILENO, buffer, static_cast<std::size_t>(got));
                m_error_tail.append(buffer, static_cast<std::size_t>(got));
                if (m_error_tail.size() > kErrorTailBytes) m_error_tail.erase(0, m_error_tail.size() - kErrorTailBytes);
            } else if (got < 0 && errno == EINTR) {
                continue;
            } else {
                if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {  // its end: closed
                    close(m_errors);
                    m_errors = -1;
                }
                return;
            }
        }
    }

    // Ends the worker: closes its pipes (stdin first), gives it `grace_ms` to exit by itself,
    // then kills it. Returns how it ended, or `if_killed` when it had to be killed.
    std::string end_worker(int grace_ms, const std::string& if_killed) {
        if (!running()) return "not running";
        close(m_to);  // a worker reading its input sees the end and exits
        int status = 0;
        pid_t done = 0;
        for (int waited = 0; waited < grace_ms && done == 0; waited += 10) {
            done = waitpid(m_pid, &status, WNOHANG);
            if (done == 0) usleep(10000);
        }
        std::string how = done > 0 ? describe_exit(status) : if_killed;
        if (done == 0) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, &status, 0);
        }
        close(m_from);
        read_errors();  // what it wrote before it ended is in the pipe now
        if (m_errors >= 0) close(m_errors);
        m_last_error_line = last_nonempty_line(m_error_tail);
        m_to = m_from = m_errors = -1;
        m_pid = 0;
        m_stats->worker_pid = 0;
        return how;
    }
    std::string stop(bool kill_now) { return end_worker(kill_now ? 0 : 1000, "killed"); }
    // What became of a worker that closed its end: it has exited, or is made to. Its last line on
    // stderr, when it wrote one, says why in its own words (ssh's reason). Over ssh or srun, that
    // program is what exited: "ssh exited with status 255 (Connection reset by peer)".
    std::string reap() {
        std::string how = end_worker(500, "it closed its pipe");
        if (!m_options.launcher.empty()) how = m_options.launcher + " " + how;
        if (m_last_error_line.empty()) return how;
        how += " (" + m_last_error_line + ")";
        if (m_options.explain_stop)
            if (const std::string advice = m_options.explain_stop(m_last_error_line); !advice.empty()) how += "; " + advice;
        return how;
    }

    // The sentence for a worker that was lost, `what` saying when; schedules the next start:
    // at once here, after the next delay for a connection.
    std::string lost(const std::string& what, const std::string& why) {
        std::string failure = format_text("{}: {}", what, why);
        if (m_options.reconnect_delays_s.empty()) {
            failure += "; it will be started again for the next request";
        } else {
            const std::size_t index = std::min(m_next_delay, m_options.reconnect_delays_s.size() - 1);
            const double delay = m_options.reconnect_delays_s[index];
            ++m_next_delay;
            m_reconnect_at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(delay));
            std::lock_guard lock(m_status_mutex);
            m_status_retry_at = m_reconnect_at;  // status() reads it from another thread
            failure += format_text("; reconnecting in {} s", model::fixed(delay, delay < 1.0 ? 1 : 0));
        }
        m_stats->last_stop = failure;
        set_phase(m_options.reconnect_delays_s.empty() ? WorkerStatus::Phase::Ready : WorkerStatus::Phase::Reconnecting, 0,
                  failure);
        return failure;
    }
    std::string connection_failed(const std::string& during, const std::string& why) {
        if (!remote()) return lost(format_text("the GPU worker stopped during {}", during), why);
        return lost(format_text("could not connect to {} for {}", m_options.server, during), why);
    }

    // Fails the exchange: the worker is stopped (if still there), and started anew for the next
    // request (here at once; elsewhere after a delay).
    Answer fail(const std::string& during, const std::string& why) {
        Answer answer;
        if (running()) stop(true);
        if (remote()) {
            answer.failure = lost(format_text("the connection to {} was lost during {}", m_options.server, during), why);
            return answer;
        }
        const auto restarted = start();
        answer.failure = format_text("the GPU worker stopped during {}: {}; {}", during, why,
                                     restarted ? "it could not be restarted: " + *restarted : "it was restarted");
        m_stats->last_stop = answer.failure;
        return answer;
    }

    Answer exchange(const wire::Message& message, double deadline_s, const std::string& during) {
        if (!wire::write_frame(m_to, wire::encode_message(message))) return fail(during, reap());
        return await(deadline_s, during, /*connecting=*/false);
    }

    // Reads the worker's messages until the answer comes: its handshake while `connecting`, else
    // a request's result. While the request waits in the GPU's queue, its deadline does not run.
    Answer await(double deadline_s, const std::string& during, bool connecting) {
        const auto broken = [&](const std::string& why) {
            stop(true);
            std::string said = "it sent something that is not a message (" + why + ") and was stopped";
            if (connecting && remote())
                said += format_text(" (does a login script on {} print to standard output?)", m_options.server);
            return connecting ? Answer{.failure = connection_failed(during, said)} : fail(during, said);
        };
        Clock::time_point begun = Clock::now();
        Clock::time_point heard = begun;
        bool queued = false;
        char buffer[65536];
        for (;;) {
            // Whole messages already read come first.
            for (;;) {
                auto frame = m_reader.next();
                if (auto* why = std::get_if<std::string>(&frame)) return broken(*why);
                const auto& payload = std::get<std::optional<std::string>>(frame);
                if (!payload) break;
                auto decoded = wire::decode_message(*payload);
                if (auto* why = std::get_if<std::string>(&decoded)) return broken(*why);
                wire::Message& got = std::get<wire::Message>(decoded);
                heard = Clock::now();
                if (connecting && got.type == "hello" && got.hello) return {.hello = std::move(got.hello)};
                if (connecting && got.type == "device") {
                    // A worker from before the handshake answers the probe straight away.
                    wire::Hello old{.protocol = 1};
                    return {.hello = old};
                }
                if (!connecting && got.type == "result" && got.result)
                    return {.result = std::move(got.result), .context_lost = got.context_lost};
                if (!connecting && got.type == "waiting") {
                    queued = true;
                    set_phase(WorkerStatus::Phase::Waiting, got.ahead);
                } else if (!connecting && got.type == "turn") {
                    queued = false;
                    begun = heard;
                    set_phase(WorkerStatus::Phase::Ready);
                }
                // "alive", or an answer to nothing asked: only a sign of life.
            }
            // The Runner is stopping: what has not started on the GPU yet never will.
            if (m_cancelled && (queued || connecting)) {
                stop(true);
                return {.failure = std::string(kCancelled)};
            }
            const double left = queued ? deadline_s : deadline_s - seconds_since(begun);
            const double quiet_left = m_options.heartbeat_timeout_s - seconds_since(heard);
            if (left <= 0.0) {
                stop(true);
                if (connecting)
                    return {.failure = connection_failed(
                                during, format_text("no handshake came in {} s", model::fixed(deadline_s, 0)))};
                return fail(during, format_text("it took longer than {} s, the most a request of this size may take, "
                                                "and was stopped (a kernel that never ends?)",
                                                model::fixed(deadline_s, 0)));
            }
            // Until its handshake a worker may be silent (ssh logging in, srun waiting for a node).
            if (quiet_left <= 0.0 && !connecting) {
                stop(true);
                return fail(during, format_text("it stopped answering for {} s and was stopped",
                                                model::fixed(m_options.heartbeat_timeout_s, 1)));
            }
            pollfd watch[2] = {{m_from, POLLIN, 0}, {m_errors, POLLIN, 0}};  // a closed stderr (-1) is skipped
            const double wait_s = connecting ? left : std::min(left, quiet_left);
            const int wait_ms = static_cast<int>(std::ceil(std::min(wait_s, 0.1) * 1000.0));
            const int ready = poll(watch, 2, std::max(wait_ms, 1));
            if (ready < 0 && errno != EINTR) {
                stop(true);
                return fail(during, format_text("its pipe failed ({})", std::strerror(errno)));
            }
            if (ready <= 0) continue;
            if (watch[1].revents != 0) read_errors();
            if (watch[0].revents == 0) continue;
            const ssize_t got = read(m_from, buffer, sizeof buffer);
            if (got > 0) {
                m_reader.feed(buffer, static_cast<std::size_t>(got));
            } else if (got == 0) {
                if (connecting) return {.failure = connection_failed(during, reap())};
                return fail(during, reap());
            } else if (errno != EAGAIN && errno != EINTR) {
                stop(true);
                return fail(during, format_text("its pipe failed ({})", std::strerror(errno)));
            }
        }
    }

    SupervisorOptions m_options;
    std::shared_ptr<SupervisorStats> m_stats;
    pid_t m_pid = 0;
    int m_to = -1;
    int m_from = -1;
    int m_errors = -1;  // the worker's stderr
    static constexpr std::size_t kErrorTailBytes = 2048;
    std::string m_error_tail;       // the last of what it wrote there
    std::string m_last_error_line;  // the last worker's last line there, once it ended
    wire::FrameReader m_reader;
    DeviceInfo m_device;            // from the last handshake
    std::string m_incompatible;     // set once a worker of another protocol answered: no more tries
    std::size_t m_next_delay = 0;   // index into reconnect_delays_s
    Clock::time_point m_reconnect_at{};
    mutable std::mutex m_status_mutex;
    WorkerStatus m_status;                    // under m_status_mutex
    Clock::time_point m_status_retry_at{};    // m_reconnect_at's copy, under m_status_mutex
    std::atomic<bool> m_cancelled{false};
    static constexpr const char* kCancelled = "not run: TileScope was closing while it waited for the GPU";
};

std::vector<std::string> this_program_as_worker() {
    if (const char* other = std::getenv("TILESCOPE_WORKER"); other && *other) return {other};
    std::error_code no_self;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", no_self);
    return {no_self ? std::string("/proc/self/exe") : self.string(), "worker"};
}

RunnerBackend supervised_backend(SupervisorOptions options, std::shared_ptr<SupervisorStats> stats) {
    auto supervisor = std::make_shared<Supervisor>(std::move(options), std::move(stats));
    return RunnerBackend{.probe = [supervisor] { return supervisor->probe(); },
                         .run = [supervisor](const RunRequest& request) { return supervisor->run(request); },
                         .status = [supervisor] { return supervisor->status(); },
                         .cancel_waiting = [supervisor] { supervisor->cancel_waiting(); }};
}

}  // namespace ts::gpu
