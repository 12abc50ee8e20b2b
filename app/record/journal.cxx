#include "journal.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include "json_document.hpp"
#include "utc_time.hpp"

namespace ts::record {

namespace {

bool process_running(long pid) { return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

std::vector<std::string> lines_of(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

}  // namespace

std::filesystem::path default_journal_dir() {
    if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state)
        return std::filesystem::path(state) / "tilescope";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/tmp") / ".local" / "state" / "tilescope";
}

std::variant<Journal, std::string> Journal::open(const std::filesystem::path& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) return "cannot make " + dir.string() + " for the session journal: " + error.message();
    const std::filesystem::path file =
        dir / ("session-" + utc_now("%Y%m%dT%H%M%SZ") + "-" + std::to_string(getpid()) + ".jsonl");
    std::FILE* stream = std::fopen(file.c_str(), "a");
    if (!stream) return "cannot write the session journal " + file.string() + ": " + std::strerror(errno);
    // The keys in the order a journal file holds them: journal, pid, started.
    const Json head = {{"journal", "tilescope-session"}, {"pid", getpid()}, {"started", utc_now(kUtcIso8601)}};
    std::fprintf(stream, "%s\n", head.dump().c_str());
    std::fflush(stream);
    return Journal(file, stream);
}

Journal::Journal(Journal&& other) noexcept
    : m_file(std::move(other.m_file)), m_stream(other.m_stream), m_points(other.m_points) {
    other.m_stream = nullptr;
}

Journal& Journal::operator=(Journal&& other) noexcept {
    if (this != &other) {
        if (m_stream) std::fclose(m_stream);
        m_file = std::move(other.m_file);
        m_stream = other.m_stream;
        m_points = other.m_points;
        other.m_stream = nullptr;
    }
    return *this;
}

Journal::~Journal() {
    if (m_stream) std::fclose(m_stream);
}

std::optional<std::string> Journal::append(const Point& point) {
    if (!m_stream) return "the session journal is closed";
    // One write and a flush per point: a crash right after loses nothing already shown.
    const std::string line = point_to_line(point) + "\n";
    if (std::fwrite(line.data(), 1, line.size(), m_stream) != line.size() || std::fflush(m_stream) != 0)
        return "writing the session journal " + m_file.string() + " failed: " + std::strerror(errno);
    ++m_points;
    return std::nullopt;
}

void Journal::close() {
    if (!m_stream) return;
    std::fprintf(m_stream, "{\"closed\":true}\n");
    std::fclose(m_stream);
    m_stream = nullptr;
    std::error_code error;
    if (m_points == 0) std::filesystem::remove(m_file, error);
}

std::vector<UnfinishedSession> unfinished_sessions(const std::filesystem::path& dir) {
    std::vector<UnfinishedSession> found;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        const std::filesystem::path& file = entry.path();
        if (file.extension() != ".jsonl" || file.filename().string().rfind("session-", 0) != 0) continue;
        const std::vector<std::string> lines = lines_of(file);
        if (lines.empty()) continue;
        const Json head = Json::parse(lines.front(), nullptr, false);
        const Json tail = Json::parse(lines.back(), nullptr, false);
        if (!head.is_object() || head.value("journal", "") != "tilescope-session") continue;
        if (tail.is_object() && tail.value("closed", false)) continue;
        if (process_running(head.value("pid", 0L))) continue;  // another TileScope, still measuring
        UnfinishedSession session{file, head.value("started", ""), 0};
        for (std::size_t i = 1; i < lines.size(); ++i)
            if (std::holds_alternative<Point>(parse_point_line(lines[i], file.string()))) ++session.points;
        if (session.points == 0) {
            std::filesystem::remove(file, error);  // nothing to offer
            continue;
        }
        found.push_back(std::move(session));
    }
    std::sort(found.begin(), found.end(),
              [](const UnfinishedSession& a, const UnfinishedSession& b) { return a.started > b.started; });
    return found;
}

std::variant<Measurement, std::string> load_journal(const std::filesystem::path& file) {
    const std::vector<std::string> lines = lines_of(file);
    if (lines.empty()) return file.string() + ": empty, or cannot be read";
    Measurement measurement;
    const Json head = Json::parse(lines.front(), nullptr, false);
    measurement.meta.date_utc = head.is_object() ? head.value("started", "") : "";
    measurement.meta.command_line = "tilescope (latency lab, reopened after a crash)";
    for (std::size_t i = 1; i < lines.size(); ++i) {
        auto point = parse_point_line(lines[i], file.string() + ":" + std::to_string(i + 1));
        if (auto* p = std::get_if<Point>(&point)) measurement.points.push_back(std::move(*p));
    }
    return measurement;
}

void retire_journal(const std::filesystem::path& file) {
    std::error_code error;
    std::filesystem::path done = file;
    done.replace_extension(".reopened");
    std::filesystem::rename(file, done, error);
}

}  // namespace ts::record
