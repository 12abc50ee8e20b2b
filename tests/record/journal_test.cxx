// The session journal: every point written as it arrives, a normal end closes it, and a
// journal a crashed TileScope left open is found, loaded (a torn last line left out) and
// offered once.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "record/journal.hpp"

namespace {

using namespace ts::record;
namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope_journal_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(dir);
    return dir;
}

Point point(std::int64_t size, double median_ms) {
    Point p;
    p.kernel = "tiled";
    p.config = "tiled T=32";
    p.tile = 32;
    p.m = p.n = p.k = size;
    p.dtype = "float";
    p.ok = true;
    p.median_ms = p.p20_ms = p.p80_ms = p.mean_ms = p.min_ms = p.max_ms = median_ms;
    p.samples_ms = {median_ms};
    return p;
}

TEST(Journal, ANormalEndIsNotOffered) {
    const fs::path dir = fresh_dir("normal");
    auto opened = Journal::open(dir);
    ASSERT_TRUE(std::holds_alternative<Journal>(opened)) << std::get<std::string>(opened);
    Journal journal = std::move(std::get<Journal>(opened));
    EXPECT_EQ(journal.append(point(1024, 0.2)), std::nullopt);
    journal.close();
    EXPECT_TRUE(fs::exists(journal.file()));
    EXPECT_TRUE(unfinished_sessions(dir).empty());
    fs::remove_all(dir);
}

TEST(Journal, AnEmptySessionLeavesNoFile) {
    const fs::path dir = fresh_dir("empty");
    auto opened = Journal::open(dir);
    Journal journal = std::move(std::get<Journal>(opened));
    const fs::path file = journal.file();
    journal.close();
    EXPECT_FALSE(fs::exists(file));
    fs::remove_all(dir);
}

TEST(Journal, ARunningSessionIsNotOffered) {
    const fs::path dir = fresh_dir("running");
    auto opened = Journal::open(dir);
    Journal journal = std::move(std::get<Journal>(opened));
    journal.append(point(256, 0.01));
    // Not closed, but this process (its writer) still runs: another TileScope's session.
    EXPECT_TRUE(unfinished_sessions(dir).empty());
    fs::remove_all(dir);
}

TEST(Journal, ACrashedSessionIsOfferedLoadedAndRetired) {
    const fs::path dir = fresh_dir("crashed");
    fs::create_directories(dir);
    const fs::path file = dir / "session-20261124T091200Z-1.jsonl";
    {
        std::ofstream out(file);
        // A pid no process has: its TileScope is gone.
        out << R"({"journal":"tilescope-session","started":"2026-11-24T09:12:00Z","pid":2147483646})" << "\n";
        out << point_to_line(point(1024, 0.25)) << "\n";
        out << point_to_line(point(2048, 1.5)) << "\n";
        out << R"({"index":2,"kernel":"til)";  // the line the crash cut short
    }
    const auto found = unfinished_sessions(dir);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].file, file);
    EXPECT_EQ(found[0].started, "2026-11-24T09:12:00Z");
    EXPECT_EQ(found[0].points, 2);
    auto loaded = load_journal(file);
    ASSERT_TRUE(std::holds_alternative<Measurement>(loaded)) << std::get<std::string>(loaded);
    const Measurement& measurement = std::get<Measurement>(loaded);
    ASSERT_EQ(measurement.points.size(), 2u);
    EXPECT_EQ(measurement.points[1].m, 2048);
    EXPECT_EQ(measurement.points[1].median_ms, 1.5);
    retire_journal(file);
    EXPECT_TRUE(unfinished_sessions(dir).empty());
    fs::remove_all(dir);
}

TEST(Journal, AnUnwritableFolderIsAMessage) {
    auto opened = Journal::open("/proc/tilescope-cannot-be-here");
    ASSERT_TRUE(std::holds_alternative<std::string>(opened));
    EXPECT_NE(std::get<std::string>(opened).find("session journal"), std::string::npos);
}

TEST(Journal, FollowsXdgStateHome) {
    setenv("XDG_STATE_HOME", "/somewhere/state", 1);
    EXPECT_EQ(default_journal_dir(), fs::path("/somewhere/state/tilescope"));
    unsetenv("XDG_STATE_HOME");
    setenv("HOME", "/home/student", 1);
    EXPECT_EQ(default_journal_dir(), fs::path("/home/student/.local/state/tilescope"));
}

}  // namespace
