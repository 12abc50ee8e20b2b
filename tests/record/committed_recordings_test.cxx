// The measurements committed under assets/measurements/ are what a machine without a GPU
// shows: each must load, name its GPU and date, and hold real, checked timings.
#include <gtest/gtest.h>

#include <filesystem>

#include "record/recording.hpp"

namespace {

std::vector<std::filesystem::path> committed_recordings() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_MEASUREMENTS_DIR))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    return files;
}

TEST(CommittedRecordings, EveryOneLoadsWithItsGpuAndDate) {
    const auto files = committed_recordings();
    ASSERT_FALSE(files.empty()) << "no recording in " << TILESCOPE_MEASUREMENTS_DIR;
    for (const auto& file : files) {
        SCOPED_TRACE(file.string());
        const auto loaded = ts::record::load(file);
        ASSERT_TRUE(std::holds_alternative<ts::record::Recording>(loaded)) << std::get<std::string>(loaded);
        const auto& recording = std::get<ts::record::Recording>(loaded);
        EXPECT_FALSE(recording.meta.device.name.empty());
        EXPECT_EQ(recording.meta.date_utc.size(), std::string("2026-11-21T06:11:52Z").size());
        // The file is named by GPU and date, so a reader can tell recordings apart.
        EXPECT_NE(file.filename().string().find(recording.meta.date_utc.substr(0, 10)), std::string::npos);
        ASSERT_GE(recording.points.size(), 10u);
        for (const auto& point : recording.points) {
            SCOPED_TRACE(point.config);
            if (!point.ok) continue;
            EXPECT_GT(point.median_ms, 0.0);
            EXPECT_GE(point.samples_ms.size(), 10u);
            EXPECT_LE(point.p20_ms, point.median_ms);
            EXPECT_GE(point.p80_ms, point.median_ms);
            if (point.checked) {
                EXPECT_TRUE(point.check_passed) << point.check_summary;
            }
        }
    }
}

}  // namespace
