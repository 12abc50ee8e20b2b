// journal.hpp — nothing measured is lost: each measurement the window takes is appended to
// a session journal on disk as it arrives (one JSON line per point), and the journal is
// closed when the app ends normally. A journal left open by a TileScope that is no longer
// running is a session that ended in a crash; the next start offers to reopen it.
//
//   $XDG_STATE_HOME/tilescope/session-YYYYMMDDThhmmssZ-4242.jsonl   (~/.local/state/...)
//   {"journal":"tilescope-session","started":"YYYY-MM-DDThh:mm:ssZ","pid":4242}
//   {"index":0,"kernel":"tiled",...}            one line per measured point
//   {"closed":true}                              written at a normal exit
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "measurement_file.hpp"

namespace ts::record {

// $XDG_STATE_HOME/tilescope, or ~/.local/state/tilescope.
std::filesystem::path default_journal_dir();

class Journal {
public:
    // A new journal in `dir` (made if missing), or why there can be none.
    static std::variant<Journal, std::string> open(const std::filesystem::path& dir);
    Journal(Journal&& other) noexcept;
    Journal& operator=(Journal&& other) noexcept;
    ~Journal();  // leaves the journal open on purpose: only close() marks a normal end

    // Appends `point` and flushes it to the file; nullopt, or why it could not be written.
    std::optional<std::string> append(const Point& point);
    // Marks the session as ended normally (a journal that holds no point is removed).
    void close();
    const std::filesystem::path& file() const { return m_file; }

private:
    Journal(std::filesystem::path file, std::FILE* stream) : m_file(std::move(file)), m_stream(stream) {}
    std::filesystem::path m_file;
    std::FILE* m_stream = nullptr;
    int m_points = 0;
};

struct UnfinishedSession {
    std::filesystem::path file;
    std::string started;  // UTC, as the journal says
    int points = 0;
};

// Journals in `dir` that were never closed and whose TileScope is no longer running,
// newest first; those without a point are removed as they are found.
std::vector<UnfinishedSession> unfinished_sessions(const std::filesystem::path& dir);

// The points of a journal as a measurement (a torn last line, the crash's, is left out).
std::variant<Measurement, std::string> load_journal(const std::filesystem::path& file);

// Marks a journal as dealt with (reopened or discarded), so it is not offered again.
void retire_journal(const std::filesystem::path& file);

}  // namespace ts::record
