// ffmpeg_writer.cxx — MP4 (H.264) and WebM (VP9) through an ffmpeg program on the PATH. TileScope
// links no video codec: it starts ffmpeg when the writer opens, pipes each frame to it as raw
// rgb24, and at finish() closes the pipe, waits for ffmpeg and renames the file it wrote (a
// hidden temporary in the destination's folder) into place.
//
// ffmpeg runs without a shell (posix_spawnp, an argument array), its stdin our pipe, its stdout
// and stderr an unlinked file in the destination's folder, so a failure's own words can be
// returned and nothing is left behind. A write to an ffmpeg that has died fails with EPIPE rather
// than killing the app: SIGPIPE is blocked in the writing thread for the write only (the library
// does not change the process's signal handling; the app may ignore SIGPIPE itself).
//
// Reproducible output: -fflags +bitexact and -flags:v +bitexact keep version strings out,
// -map_metadata -1 drops metadata, and -threads 1 makes the encoders' output depend on the frames
// alone. Checked with Debian 12's ffmpeg 5.1 (libx264, libvpx-vp9): the same frames gave
// byte-identical MP4 and WebM files twice (tests/export checks it). With ffmpeg's default thread
// count the files were identical twice on one machine too, but differed from the one-thread
// files: the output would depend on the machine's number of cores.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <vector>

#include "export/animation_writers.hpp"

extern char** environ;

namespace ts::exporting::detail {

namespace {

// How long a cancelled ffmpeg gets to stop after SIGTERM before SIGKILL.
constexpr int kFfmpegStopPatienceMs = 2000;
// A keyframe at least this often, so a player can seek in a long animation.
constexpr double kFfmpegSecondsBetweenKeyframes = 10.0;
// What of ffmpeg's stderr a message quotes: its last lines say why.
constexpr std::size_t kFfmpegMessageChars = 1500;

std::string errno_message(int errno_value) { return std::error_code(errno_value, std::generic_category()).message(); }

std::vector<std::string> ffmpeg_arguments(AnimationFormat format, const AnimationSettings& settings,
                                          const std::filesystem::path& output) {
    const int frame_ms = frame_duration(settings, 1000, 1);
    const int keyframe_interval =
        std::max(1, static_cast<int>(kFfmpegSecondsBetweenKeyframes * 1000 / frame_ms));
    std::vector<std::string> arguments = {
        "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
        "-f", "rawvideo", "-pix_fmt", "rgb24",
        "-s", std::to_string(settings.width) + "x" + std::to_string(settings.height),
        "-framerate", "1000/" + std::to_string(frame_ms),
        "-i", "-"};
    // 4:2:0 chroma needs even sizes: an odd side gets one black row or column. The colours are
    // converted and tagged as BT.709, which players assume for HD and which the frames' sRGB
    // primaries are.
    std::string filters;
    const int even_width = settings.width + settings.width % 2, even_height = settings.height + settings.height % 2;
    if (even_width != settings.width || even_height != settings.height)
        filters = "pad=" + std::to_string(even_width) + ":" + std::to_string(even_height) + ":0:0,";
    filters += "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p";
    arguments.insert(arguments.end(), {"-vf", filters, "-colorspace", "bt709", "-color_primaries", "bt709",
                                       "-color_trc", "bt709", "-color_range", "tv"});
    if (format == AnimationFormat::Mp4) {
        // crf 18: sharp text and cell edges at a size still far below the raw frames.
        arguments.insert(arguments.end(), {"-c:v", "libx264", "-preset", "medium", "-crf", "18", "-g",
                                           std::to_string(keyframe_interval), "-movflags", "+faststart"});
    } else {
        // Constant quality (-b:v 0 with -crf). -deadline good -cpu-used 4 encoded about 8 frames
        // a second of a moving 1280×720 test pattern on one thread (x264's medium about 15);
        // -deadline realtime is 2-3 times faster for files 10-20% larger.
        arguments.insert(arguments.end(), {"-c:v", "libvpx-vp9", "-crf", "32", "-b:v", "0", "-deadline", "good",
                                           "-cpu-used", "4", "-g", std::to_string(keyframe_interval)});
    }
    arguments.insert(arguments.end(), {"-threads", "1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
                                       "-map_metadata", "-1", "-f", format == AnimationFormat::Mp4 ? "mp4" : "webm",
                                       output.string()});
    return arguments;
}

// Writes all of `bytes` to `fd`. 0, or the errno of the write that failed. SIGPIPE is blocked in
// this thread while it writes; one that a write to a closed pipe raises is taken back before the
// old mask returns (unless one was already pending, which is then not ours to take).
int write_all_without_sigpipe(int fd, std::span<const unsigned char> bytes) {
    sigset_t pipe_signal, old_mask;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &old_mask);
    sigset_t pending;
    sigpending(&pending);
    const bool already_pending = sigismember(&pending, SIGPIPE) == 1;

    int failure = 0;
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (wrote < 0) {
            if (errno == EINTR) continue;
            failure = errno;
            break;
        }
        done += static_cast<std::size_t>(wrote);
    }
    if (failure == EPIPE && !already_pending) {
        const timespec no_wait{};
        while (sigtimedwait(&pipe_signal, nullptr, &no_wait) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    return failure;
}

std::string status_text(int status) {
    if (WIFEXITED(status)) return "ffmpeg ended with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "ffmpeg was stopped by signal " + std::to_string(WTERMSIG(status));
    return "ffmpeg ended abnormally";
}

class FfmpegWriter final : public AnimationWriter {
public:
    FfmpegWriter(Destination destination, AnimationFormat format, std::filesystem::path temporary,
                 AnimationSettings settings, pid_t child, int to_ffmpeg, int log)
        : m_destination(std::move(destination)), m_format(format), m_temporary(std::move(temporary)),
          m_settings(settings), m_child(child), m_to_ffmpeg(to_ffmpeg), m_log(log) {}

    ~FfmpegWriter() override {
        if (!m_finished) cancel();
        if (m_log >= 0) ::close(m_log);
    }

    std::optional<std::string> add_frame(std::span<const unsigned char> rgb) override {
        if (m_finished) return "the " + what() + " is already finished";
        if (m_failure) return m_failure;
        if (auto wrong = check_frame_size(rgb, m_settings, m_frames_added + 1)) return wrong;
        if (const int failure = write_all_without_sigpipe(m_to_ffmpeg, rgb)) {
            // ffmpeg has closed its end: it stopped. Its stderr says why.
            ::close(m_to_ffmpeg);
            m_to_ffmpeg = -1;
            const int status = wait_for_ffmpeg(false);
            std::string why = ffmpeg_said();
            if (why.empty()) why = failure == EPIPE ? status_text(status) : errno_message(failure);
            m_failure = "ffmpeg could not write " + what() + " (at frame " + std::to_string(m_frames_added + 1) +
                        "): " + why;
            remove_quietly(m_temporary);
            return m_failure;
        }
        ++m_frames_added;
        return std::nullopt;
    }

    std::variant<FinishedAnimation, std::string> finish() override {
        if (m_finished) return "the " + what() + " is already finished";
        if (m_failure || m_frames_added == 0) {
            cancel();
            m_finished = true;
            return m_failure ? *m_failure : std::string("no frames to export");
        }
        m_finished = true;
        // End of input: ffmpeg encodes what it holds, writes the file's index and ends. That can
        // take a while for a long video, so no time limit here.
        ::close(m_to_ffmpeg);
        m_to_ffmpeg = -1;
        int status = 0;
        while (waitpid(m_child, &status, 0) < 0 && errno == EINTR) {
        }
        m_child = -1;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            remove_quietly(m_temporary);
            const std::string said = ffmpeg_said();
            return "ffmpeg could not write " + what() + ": " + (said.empty() ? status_text(status) : said);
        }
        // Frames were checked on the way in and ffmpeg has written the file: only the move is left.
        return finish_one_file(m_temporary, m_destination.final_path, m_frames_added, [] { return std::nullopt; });
    }

private:
    std::string what() const {
        return std::string(format_name(m_format)) + " " + m_destination.final_path.string();
    }

    // Stops ffmpeg (end of input, then SIGTERM, then SIGKILL) and removes what it wrote.
    void cancel() {
        if (m_to_ffmpeg >= 0) {
            ::close(m_to_ffmpeg);
            m_to_ffmpeg = -1;
        }
        if (m_child > 0) wait_for_ffmpeg(true);
        remove_quietly(m_temporary);
    }

    // Waits for ffmpeg to end, asking it to stop first when `stop_now`, and killing it when it
    // takes longer than kFfmpegStopPatienceMs. Its wait status.
    int wait_for_ffmpeg(bool stop_now) {
        if (stop_now) kill(m_child, SIGTERM);
        int status = 0;
        for (int waited_ms = 0;; waited_ms += 10) {
            const pid_t ended = waitpid(m_child, &status, WNOHANG);
            if (ended == m_child || (ended < 0 && errno != EINTR)) break;
            if (waited_ms >= kFfmpegStopPatienceMs) {
                kill(m_child, SIGKILL);
                while (waitpid(m_child, &status, 0) < 0 && errno == EINTR) {
                }
                break;
            }
            const timespec ten_ms{0, 10'000'000};
            nanosleep(&ten_ms, nullptr);
        }
        m_child = -1;
        return status;
    }

    // The end of what ffmpeg wrote to stderr, trimmed; empty when it said nothing.
    std::string ffmpeg_said() const {
        if (m_log < 0) return {};
        const off_t size = lseek(m_log, 0, SEEK_END);
        if (size <= 0) return {};
        const off_t start = std::max<off_t>(0, size - static_cast<off_t>(kFfmpegMessageChars));
        std::string text(static_cast<std::size_t>(size - start), '\0');
        const ssize_t read = pread(m_log, text.data(), text.size(), start);
        text.resize(read > 0 ? static_cast<std::size_t>(read) : 0);
        const auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
        while (!text.empty() && is_space(text.back())) text.pop_back();
        std::size_t first = 0;
        while (first < text.size() && is_space(text[first])) ++first;
        return text.substr(first);
    }

    Destination m_destination;
    AnimationFormat m_format;
    std::filesystem::path m_temporary;
    AnimationSettings m_settings;
    pid_t m_child;
    int m_to_ffmpeg;  // our end of ffmpeg's stdin
    int m_log;        // ffmpeg's stdout and stderr, unlinked
    std::optional<std::string> m_failure;
    bool m_finished = false;
};

}  // namespace

OpenedWriter open_ffmpeg_writer(const Destination& destination, AnimationFormat format,
                                const AnimationSettings& settings) {
    std::filesystem::path temporary = temporary_beside(destination, "partial");
    if (auto failed = create_empty_file(temporary, destination.folder)) return *failed;

    // ffmpeg's stderr goes to a file that has no name once opened: it is read back for the
    // message of a failure and disappears with the descriptor.
    const std::filesystem::path log_name = temporary_beside(destination, "log");
    const int log = ::open(log_name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (log < 0) {
        const int why = errno;
        remove_quietly(temporary);
        return cannot_write_in(destination.folder, why);
    }
    ::unlink(log_name.c_str());

    // Both ends close on exec, so no other child of the app holds ffmpeg's stdin open; the
    // spawn's dup2 gives ffmpeg its copy.
    int pipe_ends[2];
    if (pipe2(pipe_ends, O_CLOEXEC) != 0) {
        const int why = errno;
        ::close(log);
        remove_quietly(temporary);
        return "cannot start ffmpeg: " + errno_message(why);
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, log, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, log, STDERR_FILENO);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    // Descriptors the app opened without O_CLOEXEC stay out of ffmpeg too.
    posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
#endif
    // ffmpeg starts with the default signal handling, whatever this thread blocks or the app
    // ignores.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, pipe_signal;
    sigemptyset(&none);
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &pipe_signal);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    const std::vector<std::string> arguments = ffmpeg_arguments(format, settings, temporary);
    std::vector<char*> argv;
    for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    pid_t child = -1;
    const int spawn_error = posix_spawnp(&child, "ffmpeg", &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(pipe_ends[0]);
    if (spawn_error != 0) {
        ::close(pipe_ends[1]);
        ::close(log);
        remove_quietly(temporary);
        return "cannot start ffmpeg: " + errno_message(spawn_error);
    }
    return std::make_unique<FfmpegWriter>(destination, format, std::move(temporary), settings, child, pipe_ends[1],
                                          log);
}

}  // namespace ts::exporting::detail
